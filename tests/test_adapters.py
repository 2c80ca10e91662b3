"""The Gymnasium, PettingZoo and TorchRL adapters: each passes its library's own checker for
every game, and a random rollout through it plays the native games, move for move."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import vecgames

GAMES = ["zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai", "kuhn_poker",
         "leduc_poker"]


class Recorder:
    """Wraps a native env's ``step`` to keep every action sent and every reward returned."""

    def __init__(self, env):
        self.actions: list[np.ndarray] = []
        self.rewards: list[np.ndarray] = []
        self._step = env.step
        env.step = self.step

    def step(self, actions):
        self.actions.append(np.array(actions, dtype=np.int64))
        out = self._step(actions)
        self.rewards.append(out[1].copy())
        return out


def replay(game: str, num_envs: int, seed: int, recorder: Recorder, **options) -> None:
    """The recorded actions on a fresh native env give the recorded rewards."""
    native = vecgames.make(game, num_envs=num_envs, seed=seed, **options)
    native.reset()
    for actions, rewards in zip(recorder.actions, recorder.rewards, strict=True):
        np.testing.assert_array_equal(native.step(actions)[1], rewards)


# -- Gymnasium ---------------------------------------------------------------------------------
gym_env = pytest.importorskip("vecgames.adapters.gym_env", exc_type=ImportError)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker(game):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space (min|max)imum")
        # the checker samples unmasked actions: the penalty mode lets it step through them
        check_env(gym_env.GymEnv(game, seed=1, illegal="penalty"), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_vector_rollout_is_the_native_games(game):
    num_envs, seed = 8, 5
    env = gym_env.VecGymEnv(game, num_envs=num_envs, seed=seed)
    assert env.metadata["autoreset_mode"].name == "SAME_STEP"
    assert env.single_action_space.n == env.env.num_actions
    recorder = Recorder(env.env)
    obs, info = env.reset()
    episode_reward = np.zeros(num_envs)
    episodes = 0
    for _ in range(150):
        assert env.observation_space.contains(obs)
        assert (env.env.current_player == 0).all()  # the agent's seat acts at every table
        np.testing.assert_array_equal(info["action_mask"], env.env.action_mask)
        actions = np.array([env.np_random.choice(np.flatnonzero(m))
                            for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = env.step(actions)
        episode_reward += reward + info["unplayed_reward"]
        episodes += int((terminated | truncated).sum())
    replay(game, num_envs, seed, recorder)
    # Every reward the agent's seat got is in an episode, reported as unplayed, or waiting
    # for the decision of the game under way.
    seat_total = np.sum([r[:, 0] for r in recorder.rewards], axis=0)
    np.testing.assert_allclose(episode_reward + env.tables.pending, seat_total, atol=1e-3)
    assert episodes > 0 or game == "dayaoguai"


def test_gymnasium_opponents_policy_and_bad_options():
    calls = []

    def always_first_legal(obs, mask):
        calls.append(obs.shape)
        return np.argmax(mask, axis=1)

    env = gym_env.VecGymEnv("liars_dice", num_envs=4, opponents=always_first_legal)
    env.reset(seed=0)
    assert calls and calls[0][1] == env.env.obs_dim
    with pytest.raises(ValueError, match="opponents"):
        gym_env.VecGymEnv("liars_dice", opponents="heuristic")
    with pytest.raises(ValueError, match="seat"):
        gym_env.VecGymEnv("liars_dice", seat=2)
    with pytest.raises(ValueError, match="observers"):
        gym_env.GymEnv("hanabi", observers="all")


# -- PettingZoo --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_tests(game):
    pz_env = pytest.importorskip("vecgames.adapters.pz_env", exc_type=ImportError)
    from pettingzoo.test import api_test, parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(pz_env.AECGameEnv(game), num_cycles=200)
        parallel_api_test(pz_env.ParallelGameEnv(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_aec_rollout_is_the_native_game(game):
    pz_env = pytest.importorskip("vecgames.adapters.pz_env", exc_type=ImportError)
    env = pz_env.AECGameEnv(game, seed=7)
    recorder = Recorder(env.env)
    env.reset()
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(5_000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].any() and env.agent_selection == agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    replay(game, 1, 7, recorder, **({"observers": "all"} if game == "hanabi" else {}))
    if not env.agents:  # the game ended: each agent's rewards sum to what the table paid it
        seat_totals = np.sum(recorder.rewards, axis=0)[0]
        np.testing.assert_allclose(list(totals.values()), seat_totals, atol=1e-4)


# -- TorchRL -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_torchrl_specs_and_rollout_is_the_native_games(game):
    trl = pytest.importorskip("vecgames.adapters.torchrl_env", exc_type=ImportError)
    from torchrl.envs.utils import check_env_specs

    env = trl.TorchRLEnv(game, num_envs=6, seed=3)
    check_env_specs(env)
    env.set_seed(3)
    td = env.rollout(60, break_when_any_done=False)
    actions = td["action"].numpy()  # [B, T]
    native = vecgames.make(game, num_envs=6, seed=3)
    native.reset()
    for t in range(actions.shape[1]):
        mask = td["action_mask"][:, t].numpy()
        assert mask[np.arange(6), actions[:, t]].all()  # rollout sampled legal moves
        _, reward, terminated, _, _ = native.step(actions[:, t])
        np.testing.assert_array_equal(td["next", "reward"][:, t].numpy(), reward)
        np.testing.assert_array_equal(td["next", "terminated"][:, t, 0].numpy(), terminated)


def test_adapters_reject_wait_and_illegal_opponent_moves():
    env = gym_env.VecGymEnv("dayaoguai", num_envs=3, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="actions must be in"):
        env.step(np.array([-1, 0, 0]))  # WAIT is native only: no agent move would be made
    for bad in (lambda obs, mask: np.full(len(mask), -1),  # a table that never moves
                lambda obs, mask: np.argmin(mask, axis=1)):  # an illegal move changes nothing
        env = gym_env.VecGymEnv("dayaoguai", num_envs=3, seed=0, opponents=bad)
        with pytest.raises(ValueError, match="actions must be in|illegal action"):
            env.reset()


def test_pettingzoo_rejects_wait_and_a_conflicting_hanabi_view():
    pz_env = pytest.importorskip("vecgames.adapters.pz_env", exc_type=ImportError)
    env = pz_env.AECGameEnv("liars_dice")
    env.reset()
    with pytest.raises(ValueError, match="actions must be in"):
        env.step(-1)
    with pytest.raises(ValueError, match="observers"):
        pz_env.ParallelGameEnv("hanabi", observers="current")


def test_torchrl_refuses_to_reset_a_table_mid_game():
    torch = pytest.importorskip("torch")
    trl = pytest.importorskip("vecgames.adapters.torchrl_env", exc_type=ImportError)
    env = trl.TorchRLEnv("zhajinhua", num_envs=2, seed=0)
    td = env.reset()
    td = env.rand_step(td)["next"]
    running = ~td["done"].reshape(-1)
    assert running.all()  # six seats: no game ends at its first decision
    td["_reset"] = running.unsqueeze(-1)
    with pytest.raises(RuntimeError, match="middle of its game"):
        env.reset(td)
    td = env.reset()
    td["action"] = torch.full((2,), -1)
    with pytest.raises(ValueError, match="actions must be in"):
        env.step(td)
