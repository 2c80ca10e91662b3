"""One illegal-action contract for every game and every adapter (vecgames/core/vec_env.py).

The same cases run against all five games: an illegal action raises a ValueError naming the
game, the env, the action, the player to act and the legal actions, with every state array,
random stream and returned buffer unchanged; ``illegal="penalty"`` leaves that env as it was
(exactly as ``WAIT`` would) and charges the player to act; actions that are not integers are
refused, never cast. Then the same through Gymnasium, PettingZoo and TorchRL, whose returned
observations must stay valid after the next step (the raw env's are reused buffers).
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

import vecgames

GAMES = ["zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai"]
B = 4
PENALTY = 0.75
BAD_ACTIONS = [  # (actions for B envs, why they are refused)
    np.ones(B, np.float64),  # floats, even whole ones
    [1.0] * B,
    np.full(B, np.nan),
    np.ones(B, np.bool_),
    [True] * B,
    None,
    ["1"] * B,
    np.array([1] * B, dtype=object),
    np.zeros(B + 1, np.int64),  # wrong shapes
    np.zeros((B, 1), np.int64),
    0,
]


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64)


def to_a_state_with_an_illegal_move(env: Any, rng: np.random.Generator) -> int:
    """Random legal steps until some env has an action outside its mask; that env."""
    for _ in range(200):
        has = (~env.action_mask).any(axis=1)
        if has.any():
            return int(np.flatnonzero(has)[-1])
        env.step(random_legal(env.action_mask, rng))
    raise AssertionError("no state with an illegal action reached")


def snapshot(env: Any) -> dict[str, np.ndarray]:
    """Copies of every state array, the random streams and every returned buffer."""
    out = {f"state.{k}": np.array(v) for k, v in env.state._asdict().items()
           if isinstance(v, np.ndarray)}
    out.update(rng=env._rng.copy(), obs=env._obs.copy(), reward=env._reward.copy(),
               terminated=env._terminated.copy(), truncated=env._truncated.copy())
    out.update({f"info.{k}": v.copy() for k, v in env._info.items()
                if isinstance(v, np.ndarray)})
    return out


def assert_unchanged(env: Any, before: dict[str, np.ndarray]) -> None:
    after = snapshot(env)
    assert after.keys() == before.keys()
    for key, value in before.items():
        np.testing.assert_array_equal(after[key], value, err_msg=key)


def legal_ids(message: str) -> list[int]:
    """The legal action ids a message lists (``[0, 3..5]`` -> 0, 3, 4, 5)."""
    found = re.search(r"legal actions: \[([^\]]*)\]", message)
    assert found, message
    ids: list[int] = []
    for part in filter(None, (p.strip() for p in found.group(1).split(","))):
        low, _, high = part.partition("..")
        ids += list(range(int(low), int(high or low) + 1))
    return ids


def ready(game: str, seed: int = 3, **options: Any) -> tuple[Any, int, np.ndarray]:
    """An env in a state where env ``i`` has an illegal action; legal actions elsewhere."""
    env = vecgames.make(game, num_envs=B, seed=seed, **options)
    env.reset()
    rng = np.random.default_rng(seed)
    i = to_a_state_with_an_illegal_move(env, rng)
    actions = random_legal(env.action_mask, rng)
    actions[i] = np.flatnonzero(~env.action_mask[i])[0]
    return env, i, actions


# -- the native env ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_raises_naming_it_and_changes_nothing(game):
    env, i, actions = ready(game)
    before = snapshot(env)
    sent = actions.copy()
    with pytest.raises(ValueError) as caught:
        env.step(actions)
    message = str(caught.value)
    player = int(env.current_player[i])
    assert message.startswith(f"{game} env {i}: action {actions[i]}"), message
    assert f"player {player}" in message
    assert legal_ids(message) == np.flatnonzero(env.action_mask[i]).tolist()
    assert_unchanged(env, before)
    np.testing.assert_array_equal(actions, sent)  # the caller's array is not written
    actions[i] = np.flatnonzero(env.action_mask[i])[0]
    env.step(actions)  # the batch goes on from where it was


@pytest.mark.parametrize("game", GAMES)
def test_penalty_mode_is_a_wait_with_a_penalty(game):
    """Penalty mode with an illegal action in env i == raise mode with WAIT in env i, except
    env i's reward row (-penalty for the player to act) and ``info["illegal"]``."""
    env, i, actions = ready(game, illegal="penalty", illegal_penalty=PENALTY)
    twin, _, _ = ready(game)
    np.testing.assert_array_equal(twin.state.table, env.state.table)
    player = int(env.current_player[i])
    sent = actions.copy()
    out = env.step(actions)
    waited = actions.copy()
    waited[i] = env.WAIT
    want = twin.step(waited)
    np.testing.assert_array_equal(actions, sent)
    expected_reward = want[1].copy()
    expected_reward[i, player] = -PENALTY
    np.testing.assert_array_equal(out[1], expected_reward)
    for got, ref in zip(out[2:4], want[2:4], strict=True):  # terminated, truncated
        np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(out[0], want[0])
    for key, value in want[4].items():
        if key != "illegal" and isinstance(value, np.ndarray):
            np.testing.assert_array_equal(out[4][key], value, err_msg=key)
    assert out[4]["illegal"].tolist() == [k == i for k in range(B)]
    assert not want[4]["illegal"].any()
    for key, value in twin.state._asdict().items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(getattr(env.state, key), value, err_msg=key)
    assert int(env.current_player[i]) == player  # the same player acts again
    out = env.step(random_legal(env.action_mask, np.random.default_rng(0)))
    assert not out[4]["illegal"].any()  # the flag describes the step only


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", BAD_ACTIONS, ids=lambda b: type(b).__name__)
def test_non_integer_actions_are_refused_not_cast(game, bad):
    for mode in ("raise", "penalty"):
        env = vecgames.make(game, num_envs=B, seed=1, illegal=mode)
        env.reset()
        before = snapshot(env)
        with pytest.raises((TypeError, ValueError), match="actions"):
            env.step(bad)
        assert_unchanged(env, before)


@pytest.mark.parametrize("game", GAMES)
def test_integer_actions_of_any_int_type_are_accepted(game):
    env = vecgames.make(game, num_envs=B, seed=1)
    env.reset()
    legal = random_legal(env.action_mask, np.random.default_rng(0))
    twin = vecgames.make(game, num_envs=B, seed=1)
    twin.reset()
    for convert in (lambda a: a.astype(np.int32), lambda a: [int(x) for x in a],
                    lambda a: [np.int16(x) for x in a], lambda a: a.astype(np.uint8)):
        out = env.step(convert(legal))
        want = twin.step(legal)
        np.testing.assert_array_equal(out[1], want[1])
        legal = random_legal(env.action_mask, np.random.default_rng(1))


@pytest.mark.parametrize("game", GAMES)
def test_bad_illegal_options(game):
    with pytest.raises(ValueError, match="illegal"):
        vecgames.make(game, illegal="ignore")
    with pytest.raises(ValueError, match="illegal='penalty'"):
        vecgames.make(game, illegal_penalty=1.0)  # a penalty that would never be charged
    for penalty, error in ((-1.0, ValueError), (float("nan"), ValueError),
                           (float("inf"), ValueError), ("1", TypeError), (True, TypeError)):
        with pytest.raises(error, match="illegal_penalty"):
            vecgames.make(game, illegal="penalty", illegal_penalty=penalty)


@pytest.mark.parametrize("game", GAMES)
def test_raw_env_returns_its_own_reused_buffers(game):
    env = vecgames.make(game, num_envs=B, seed=2)
    obs, info = env.reset()
    out = env.step(random_legal(info["action_mask"], np.random.default_rng(0)))
    assert out[0] is obs and out[4] is info  # zero-copy: the same arrays every step


def test_holdem_step_amounts_keeps_the_contract():
    from vecgames.games.holdem.rules import CALL, RAISE

    env = vecgames.make("holdem", num_envs=2, seed=5)
    env.reset()
    to_call, lo, hi = env.raise_bounds(1)
    before = snapshot(env)
    with pytest.raises(ValueError) as caught:
        env.step_amounts([CALL, RAISE], [0, lo - 1])
    message = str(caught.value)
    assert message.startswith(f"holdem env 1: kind {RAISE} amount {lo - 1}"), message
    assert f"player {int(env.current_player[1])}" in message
    assert legal_ids(message) == np.flatnonzero(env.action_mask[1]).tolist()
    assert f"raise to {lo}..{hi}" in message
    assert_unchanged(env, before)
    with pytest.raises(TypeError):
        env.step_amounts([1.0, 1.0], [0, 0])
    assert_unchanged(env, before)

    env = vecgames.make("holdem", num_envs=2, seed=5, illegal="penalty",
                        illegal_penalty=PENALTY)
    env.reset()
    player = int(env.current_player[1])
    table = env.state.table.copy()
    _, reward, terminated, _, info = env.step_amounts([CALL, RAISE], [0, lo - 1])
    assert info["illegal"].tolist() == [False, True] and not terminated[1]
    assert reward[1].tolist() == [-PENALTY if p == player else 0.0
                                  for p in range(env.num_players)]
    np.testing.assert_array_equal(env.state.table[1], table[1])
    assert not (env.state.table[0] == table[0]).all()  # env 0 called


# -- the adapters ------------------------------------------------------------------------------
def agent_illegal(mask: np.ndarray) -> int | None:
    bad = np.flatnonzero(~mask.astype(bool))
    return int(bad[0]) if bad.size else None


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_adapters(game):
    gym_env = pytest.importorskip("vecgames.adapters.gym_env", exc_type=ImportError)
    rng = np.random.default_rng(0)
    for mode in ("raise", "penalty"):
        options = {"illegal": mode} | ({"illegal_penalty": PENALTY} if mode == "penalty" else {})
        env = gym_env.GymEnv(game, seed=4, **options)
        obs, info = env.reset()
        for bad in (0.7, 1.0, np.float32(1), True, np.bool_(False), None, "1", [0], np.nan):
            before = snapshot(env.env)
            with pytest.raises((TypeError, ValueError)):
                env.step(bad)
            assert_unchanged(env.env, before)
        for step in range(200):  # to a decision with an illegal action (legal moves, kept obs)
            if step >= 5 and agent_illegal(info["action_mask"]) is not None:
                break
            kept = obs.copy()
            legal = int(rng.choice(np.flatnonzero(info["action_mask"])))
            action = np.int64(legal) if rng.random() < 0.5 else legal  # numpy or Python int
            new_obs, _, terminated, truncated, info = env.step(action)
            np.testing.assert_array_equal(obs, kept)  # still valid after the next step
            obs = new_obs
            if terminated or truncated:
                obs, info = env.reset()
        bad = agent_illegal(info["action_mask"])
        assert bad is not None
        before = snapshot(env.env)
        if mode == "raise":
            with pytest.raises(ValueError, match=f"{game} env 0: action {bad}"):
                env.step(bad)
            assert_unchanged(env.env, before)
        else:
            pending = float(env.tables.pending[0])  # paid before the agent's first decision
            new_obs, reward, terminated, truncated, info = env.step(bad)
            assert reward == pending - PENALTY and info["illegal"]
            assert not (terminated or truncated)
            np.testing.assert_array_equal(new_obs, obs)
            assert_unchanged(env.env, {**before, "reward": snapshot(env.env)["reward"],
                                       "info.illegal": np.array([True])})

    env = gym_env.VecGymEnv(game, num_envs=B, seed=4)
    obs, info = env.reset()
    for bad in (np.ones(B), np.ones(B, np.bool_), [None] * B, np.zeros(B + 1, np.int64)):
        with pytest.raises((TypeError, ValueError)):
            env.step(bad)
    kept = obs.copy()
    new_obs, *_ = env.step(random_legal(info["action_mask"], rng))
    np.testing.assert_array_equal(obs, kept)
    assert new_obs is not obs


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_adapters(game):
    pz_env = pytest.importorskip("vecgames.adapters.pz_env", exc_type=ImportError)
    rng = np.random.default_rng(1)
    aec = pz_env.AECGameEnv(game, seed=2)
    aec.reset()
    for bad in (0.7, 1.0, True, "1", np.nan):
        before = snapshot(aec.env)
        with pytest.raises((TypeError, ValueError)):
            aec.step(bad)
        assert_unchanged(aec.env, before)
    kept = {a: {k: v.copy() for k, v in aec.observe(a).items()} for a in aec.agents}
    held = {a: aec.observe(a) for a in aec.agents}
    for step in range(200):
        if any(aec.terminations.values()) or any(aec.truncations.values()):
            aec.reset()
        mask = aec.observe(aec.agent_selection)["action_mask"]
        if step >= 3 and agent_illegal(mask) is not None:
            break
        aec.step(np.int64(rng.choice(np.flatnonzero(mask))))
    for a in held:  # observations taken earlier are unchanged by the steps since
        for k in held[a]:
            np.testing.assert_array_equal(held[a][k], kept[a][k])
    bad = agent_illegal(aec.observe(aec.agent_selection)["action_mask"])
    assert bad is not None
    before = snapshot(aec.env)
    with pytest.raises(ValueError, match=f"{game} env 0: action {bad}"):
        aec.step(bad)
    assert_unchanged(aec.env, before)

    par = pz_env.ParallelGameEnv(game, seed=2, illegal="penalty", illegal_penalty=PENALTY)
    obs, _ = par.reset()
    for step in range(200):
        agent = par.agents[int(par.env.current_player[0])]
        bad = agent_illegal(obs[agent]["action_mask"])
        if step >= 3 and bad is not None:
            break
        kept_obs = {a: obs[a]["observation"].copy() for a in obs}
        new_obs, *_ = par.step({agent: int(rng.choice(np.flatnonzero(
            obs[agent]["action_mask"])))})
        for a in obs:  # still valid after the next step
            np.testing.assert_array_equal(obs[a]["observation"], kept_obs[a])
        obs = new_obs if par.agents else par.reset()[0]
    assert bad is not None
    with pytest.raises(TypeError):
        par.step({agent: float(bad)})
    kept_obs = {a: obs[a]["observation"].copy() for a in obs}
    new_obs, rewards, terms, truncs, infos = par.step({agent: bad})
    assert rewards[agent] == -PENALTY and infos[agent]["illegal"]
    assert not any(terms.values()) and par.agents[int(par.env.current_player[0])] == agent
    for a in obs:
        np.testing.assert_array_equal(obs[a]["observation"], kept_obs[a])
        np.testing.assert_array_equal(new_obs[a]["observation"], kept_obs[a])


@pytest.mark.parametrize("game", GAMES)
def test_torchrl_adapter(game):
    torch = pytest.importorskip("torch")
    trl = pytest.importorskip("vecgames.adapters.torchrl_env", exc_type=ImportError)
    env = trl.TorchRLEnv(game, num_envs=B, seed=3)
    td = env.reset()
    for bad in (torch.ones(B), torch.ones(B, dtype=torch.bool), torch.ones(B, dtype=torch.half)):
        before = snapshot(env.native)
        with pytest.raises(TypeError):
            env.step(td.set("action", bad))
        assert_unchanged(env.native, before)
    mask = td["action_mask"]
    legal = torch.multinomial(mask.float(), 1).squeeze(-1)
    out = env.step(td.set("action", legal.to(torch.int32)))["next"]  # any int dtype
    kept = out["observation"].clone()
    i = int(torch.nonzero((~out["action_mask"]).any(-1))[0]) if (
        ~out["action_mask"]).any() else None
    if i is not None:
        actions = torch.multinomial(out["action_mask"].float(), 1).squeeze(-1)
        actions[i] = int(torch.nonzero(~out["action_mask"][i])[0])
        before = snapshot(env.native)
        with pytest.raises(ValueError, match=f"{game} env {i}: action"):
            env.step(out.clone().set("action", actions))
        assert_unchanged(env.native, before)
    env.rand_step(out.clone())
    np.testing.assert_array_equal(out["observation"].numpy(), kept.numpy())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("transform", ["step_counter+reward_sum", "action_mask+step_counter",
                                       "step_counter+double_to_float"])
def test_torchrl_random_rollouts_through_transforms_play_legal_moves(game, transform):
    """A TransformedEnv keeps its own clone of the action spec; random sampling through it
    (``rollout`` without a policy, ``RandomPolicy``) must still follow the current mask."""
    pytest.importorskip("torch")
    trl = pytest.importorskip("vecgames.adapters.torchrl_env", exc_type=ImportError)
    from torchrl.envs import (
        ActionMask,
        Compose,
        DoubleToFloat,
        RewardSum,
        StepCounter,
        TransformedEnv,
    )
    from torchrl.envs.utils import RandomPolicy

    parts = {"step_counter": StepCounter, "reward_sum": RewardSum, "action_mask": ActionMask,
             "double_to_float": DoubleToFloat}
    env = TransformedEnv(trl.TorchRLEnv(game, num_envs=B, seed=5),
                         Compose(*(parts[name]() for name in transform.split("+"))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for policy in (None, RandomPolicy(env.action_spec)):
            td = env.rollout(50, policy=policy, break_when_any_done=False)
            assert td.shape == (B, 50)
            chosen = td["action_mask"].gather(-1, td["action"].unsqueeze(-1))
            assert chosen.all()
            assert not td["next", "illegal"].any()
