"""env.snapshot()/env.restore(): restored rows replay bit for bit, in every game."""

from __future__ import annotations

import numpy as np
import pytest

import vecgames
from vecgames.core.snapshot import row_arrays

GAMES = ["zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai", "kuhn_poker",
         "leduc_poker"]
B = 4
OPTIONS = {"liars_dice": {"num_rounds": 3}}  # penalty points that carry across rounds


def _legal(env, gen: np.random.Generator) -> np.ndarray:
    """A random legal action per env."""
    return np.argmax(gen.random(env.action_mask.shape) * env.action_mask, axis=1)


def _seen(env, returned: tuple) -> dict[str, object]:
    """What a user sees of the env: the returned buffers, every info entry, the state,
    ``final_table`` and each env's rendering (copies)."""
    obs, reward, term, trunc, info = returned
    out: dict[str, object] = {"obs": obs.copy(), "reward": reward.copy(), "term": term.copy(),
                              "trunc": trunc.copy(),
                              "render": [env.render(i) for i in range(env.num_envs)]}
    if hasattr(env, "final_table"):
        out["final_table"] = env.final_table.copy()
    out.update({f"info.{k}": v.copy() for k, v in info.items()})
    out.update({f"state.{k}": v.copy() for k, v in zip(env.state._fields, env.state,
                                                          strict=True)})
    return out


def _record(env, actions: list[np.ndarray]) -> list[dict[str, object]]:
    return [_seen(env, env.step(a)) for a in actions]


def _played(game: str, steps: int = 6):
    env = vecgames.make(game, num_envs=B, **OPTIONS.get(game, {}))
    env.reset(seed=11)
    gen = np.random.default_rng(5)
    for _ in range(steps):
        env.step(_legal(env, gen))
    return env, gen


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.parametrize("game", GAMES)
def test_restore_replays_bit_for_bit(game):
    env, gen = _played(game)
    snap = env.snapshot()
    before = {k: v.copy() for k, v in row_arrays(env).items()}
    actions, first = [], []
    for _ in range(30):  # long enough that some games end and new ones are dealt
        actions.append(_legal(env, gen))
        first += _record(env, actions[-1:])
    for _ in range(2):  # a snapshot restores any number of times
        env.restore(snap)
        _same({k: v.copy() for k, v in row_arrays(env).items()}, before)
        for want, got in zip(first, _record(env, actions), strict=True):
            _same(want, got)
    assert not snap.arrays["state.table"].flags.writeable


@pytest.mark.parametrize("game", GAMES)
def test_one_env_restored_into_many_rows(game):
    env, gen = _played(game)
    env.restore(env.snapshot(rows=2), rows=[0, 1, 3])
    for _ in range(12):  # every row gets the actions chosen for row 2: identical games
        a = _legal(env, gen)
        obs, reward, term, trunc, info = env.step(np.full(B, a[2]))
        for arr in (obs, reward, term, trunc, info["action_mask"], env.state.table,
                    env.state.rng):
            assert (arr == arr[2]).all()


def test_bad_input_refused_before_anything_changes():
    env, _ = _played("liars_dice")
    other, _ = _played("hanabi")
    six = vecgames.make("liars_dice", num_envs=B, num_players=3, **OPTIONS["liars_dice"])
    six.reset(seed=11)
    snap = env.snapshot(rows=[0, 1])
    before = {k: v.copy() for k, v in row_arrays(env).items()}
    cases = [(other.snapshot(), None, ValueError, "another env"),
             (six.snapshot(), None, ValueError, "num_players"),
             (snap, [0, 4], ValueError, "out of range"),
             (snap, [0, 1, 2], ValueError, "2 rows"),
             (snap, [1, 1], ValueError, "distinct"),
             (snap, [0.0, 1.0], TypeError, "ints"),
             ("snapshot", None, TypeError, "EnvSnapshot")]
    for bad, rows, error, text in cases:
        with pytest.raises(error, match=text):
            env.restore(bad, rows)
        _same({k: v.copy() for k, v in row_arrays(env).items()}, before)
    with pytest.raises(ValueError, match="out of range"):
        env.snapshot(rows=B)
    with pytest.raises(RuntimeError, match="reset"):
        vecgames.make("liars_dice", num_envs=B, **OPTIONS["liars_dice"]).snapshot()


def test_one_env_batch_restores_into_a_bigger_env():
    small = vecgames.make("zhajinhua", num_envs=1)  # its one-row scratch looks per-env
    small.reset(seed=3)
    env, _ = _played("zhajinhua")
    env.restore(small.snapshot(), rows=[1, 2])
    assert (env.state.table[1:3] == small.state.table[0]).all()
    assert (env.action_mask[1:3] == small.action_mask[0]).all()


def test_restore_into_a_fresh_env_clones_it():
    env, gen = _played("holdem")
    clone = vecgames.make("holdem", num_envs=B)
    with pytest.raises(RuntimeError, match="reset"):
        clone.restore(env.snapshot(rows=[0]), rows=[0])
    clone.restore(env.snapshot())
    a = _legal(env, gen)
    _same(_record(env, [a])[0], _record(clone, [a])[0])
