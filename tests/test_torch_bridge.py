"""The torch bridge: zero copy on CPU, dtypes/shapes, twin-env equality, actions, errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.torch_bridge import (  # noqa: E402
    TorchBridge,
    import_torch,
    resolve_device,
    to_numpy_actions,
)

B, P = 32, 4


def make_env(seed: int = 7):
    return vecgames.make("zhajinhua", num_envs=B, seed=seed, num_players=P)


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(1)


def test_cpu_tensors_are_views_of_env_buffers():
    env = make_env()
    bridge = TorchBridge(env, "cpu")
    obs_t, info_t = bridge.reset()
    assert obs_t.data_ptr() == env.reset()[0].ctypes.data  # same buffer the env returns
    assert info_t["action_mask"].data_ptr() == env.action_mask.ctypes.data
    assert info_t["current_player"].data_ptr() == env.current_player.ctypes.data
    rng = np.random.default_rng(0)
    out = bridge.step(random_legal(env.action_mask, rng))
    arrays = env.step(random_legal(env.action_mask, rng))  # advances the same env
    for tensor, array in zip(out[:4], arrays[:4], strict=True):
        assert np.shares_memory(tensor.numpy(), array)
        assert np.array_equal(tensor.numpy(), array)  # the view follows the env's latest step
    assert np.shares_memory(out[4]["action_mask"].numpy(), arrays[4]["action_mask"])


def test_shapes_and_dtypes():
    env = make_env()
    bridge = TorchBridge(env)
    obs_t, info_t = bridge.reset(seed=3)
    assert obs_t.shape == (B, env.obs_dim) and obs_t.dtype == torch.float32
    assert info_t["action_mask"].shape == (B, env.num_actions)
    assert info_t["action_mask"].dtype == torch.bool
    assert info_t["current_player"].shape == (B,)
    assert info_t["current_player"].dtype == torch.int32
    obs_t, reward_t, term_t, trunc_t, info_t = bridge.step(torch.zeros(B, dtype=torch.int64))
    assert reward_t.shape == (B, P) and reward_t.dtype == torch.float32
    assert term_t.dtype == torch.bool and trunc_t.dtype == torch.bool and term_t.shape == (B,)
    assert obs_t.device.type == "cpu"


def test_bridge_steps_like_a_twin_env():
    env, twin = make_env(11), make_env(11)
    bridge = TorchBridge(env)
    obs_t, info_t = bridge.reset()
    obs, info = twin.reset()
    rng = np.random.default_rng(1)
    games = 0
    for _ in range(120):
        assert np.array_equal(obs_t.numpy(), obs)
        assert np.array_equal(info_t["action_mask"].numpy(), info["action_mask"])
        assert np.array_equal(info_t["current_player"].numpy(), info["current_player"])
        actions = random_legal(info["action_mask"], rng)
        obs_t, reward_t, term_t, _, info_t = bridge.step(torch.from_numpy(actions))
        obs, reward, term, _, info = twin.step(actions)
        assert np.array_equal(reward_t.numpy(), reward)
        assert np.array_equal(term_t.numpy(), term)
        games += int(term.sum())
    assert games > B  # the comparison crossed auto-resets


def test_actions_back_to_numpy():
    t = torch.tensor([3, 0, 14], dtype=torch.int32)
    out = to_numpy_actions(t)
    assert out.dtype == np.int64 and out.tolist() == [3, 0, 14]
    strided = torch.arange(10)[::2]
    assert to_numpy_actions(strided).tolist() == [0, 2, 4, 6, 8]
    assert to_numpy_actions(np.array([1, 2], dtype=np.uint8)).dtype == np.int64
    assert to_numpy_actions([4, 5]).tolist() == [4, 5]
    grad = torch.zeros(2, dtype=torch.float32, requires_grad=True)
    with pytest.raises(TypeError, match="integer"):
        to_numpy_actions(grad)
    with pytest.raises(TypeError, match="integers"):
        to_numpy_actions(np.array([True, False]))
    with pytest.raises(TypeError, match="integers"):
        to_numpy_actions(np.array([1.0, 2.0]))


def test_bad_actions_reach_the_env_checks():
    bridge = TorchBridge(make_env())
    bridge.reset()
    with pytest.raises(ValueError, match="shape"):
        bridge.step(torch.zeros(B + 1, dtype=torch.int64))
    with pytest.raises(ValueError, match="must be in"):
        bridge.step(torch.full((B,), 15, dtype=torch.int64))


def test_device_errors():
    env = make_env()
    with pytest.raises(ValueError, match="invalid device 'gpu0'"):
        TorchBridge(env, "gpu0")
    with pytest.raises(ValueError, match="invalid device"):
        resolve_device("definitely-not-a-device")
    assert resolve_device(torch.device("cpu")).type == "cpu"


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA error")
def test_cuda_requested_without_cuda():
    with pytest.raises(RuntimeError, match="cuda.is_available"):
        TorchBridge(make_env(), "cuda")


def test_missing_torch_names_the_train_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    with pytest.raises(ImportError, match=r'\.\[train\]'):
        import_torch()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_staging_matches_env():
    env, twin = make_env(5), make_env(5)
    bridge = TorchBridge(env, "cuda")
    obs_t, info_t = bridge.reset()
    obs, info = twin.reset()
    assert obs_t.device.type == "cuda" and obs_t.is_contiguous()
    assert bridge._host["obs"].is_pinned()
    rng = np.random.default_rng(2)
    for _ in range(50):
        assert np.array_equal(obs_t.cpu().numpy(), obs)
        assert np.array_equal(info_t["action_mask"].cpu().numpy(), info["action_mask"])
        actions = random_legal(info["action_mask"], rng)
        obs_t, reward_t, _, _, info_t = bridge.step(torch.from_numpy(actions).cuda())
        obs, reward, _, _, info = twin.step(actions)
        assert np.array_equal(reward_t.cpu().numpy(), reward)


def test_extra_info_arrays_and_every_seat_observations():
    env = vecgames.make("hanabi", num_envs=8, num_players=3, observers="all", seed=2)
    bridge = TorchBridge(env, "cpu", info_keys=("score", "legal_moves", "end"))
    obs_t, info_t = bridge.reset()
    assert tuple(obs_t.shape) == (8, 3, env.obs_dim)
    assert set(info_t) == {"action_mask", "current_player", "score", "legal_moves", "end"}
    assert info_t["legal_moves"].shape == (8, 3, env.num_actions)
    rng = np.random.default_rng(1)
    for _ in range(60):
        obs_t, reward_t, term_t, trunc_t, info_t = bridge.step(
            random_legal(info_t["action_mask"].numpy(), rng))
        ended = term_t.numpy()
        assert ((info_t["score"].numpy() >= 0) == ended).all()
    with pytest.raises(ValueError, match="info_keys: 'nope'"):
        TorchBridge(env, "cpu", info_keys=("nope",))
