"""Hold'em's ``observation="history"`` layout: the default values bit for bit, then the chip
scale, the blinds, the raise fractions and the hand's actions in order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.games.holdem import history as h
from vecgames.games.holdem.history import read_history
from vecgames.games.holdem.rules import field


def test_open_three_bet_call_in_order():
    """Heads-up, the button opens to 6, the big blind 3-bets to 18, the button calls: the
    history shows raise, raise, call with their amounts (the default layout only counts one
    raise per seat and street)."""
    env = vecgames.make("holdem", num_envs=1, num_players=2, observation="history",
                        button="rotate")
    obs, info = env.reset(seed=0)
    assert env.obs_dim == obs.shape[1] == 222 + 5 + 48 * 6 + 3 and read_history(obs[0]) == []
    env.step_amounts([2], [6])
    env.step_amounts([2], [18])
    obs, *_ = env.step_amounts([1], [0])
    row = obs[0]
    # the flop: the big blind (seat 1) acts first; seats are counted from it
    assert read_history(row) == [
        {"seat": 1, "street": 0, "kind": "raise", "added": 5, "bet_to": 6},
        {"seat": 0, "street": 0, "kind": "raise", "added": 16, "bet_to": 18},
        {"seat": 1, "street": 0, "kind": "call", "added": 12, "bet_to": 18}]
    assert row[h.SCALE] == 200 and row[h.COUNT] == 3 and row[h.NUM_FRACTIONS] == 3
    assert row[h.SMALL_BLIND] * 200 == pytest.approx(1) and row[h.BIG_BLIND] * 200 == 2
    np.testing.assert_array_equal(row[h.FRACTIONS:], np.float32([0.5, 1.0, 2.0]))
    env.step_amounts([1], [0])  # check
    obs, *_ = env.step_amounts([2], [4])  # a bet on the flop
    assert [a["kind"] for a in read_history(obs[0])][3:] == ["check", "bet"]


def test_default_layout_unchanged_bit_for_bit():
    """The history layout starts with the default one, value for value, over random play."""
    default = vecgames.make("holdem", num_envs=64, seed=3, num_players=4)
    hist = vecgames.make("holdem", num_envs=64, seed=3, num_players=4, observation="history",
                         raise_fractions=[0.75, 1.5])
    assert default.obs_dim == 222 and hist.obs_dim == 515 + 2
    a, info = default.reset()
    b, _ = hist.reset()
    rng = np.random.default_rng(0)
    plain = vecgames.make("holdem", num_envs=64, seed=3, num_players=4)
    plain.reset()
    for _ in range(60):
        np.testing.assert_array_equal(a, b[:, :222])
        mask = info["action_mask"]
        kinds = rng.integers(0, 3, 64)
        amounts = np.zeros(64, np.int64)
        for i in range(64):
            _, low, high = default.raise_bounds(i)
            if kinds[i] == 2 and low > high or kinds[i] == 0 and not mask[i, 0]:
                kinds[i] = 1
            elif kinds[i] == 2:
                amounts[i] = rng.integers(low, high + 1)
        a, _, _, _, info = default.step_amounts(kinds, amounts)
        b, *_ = hist.step_amounts(kinds, amounts)


def test_the_layout_reaches_a_users_player():
    """``observation="history"`` from the call (or the player's env_options) reaches an
    obs-based player, whose obs_dim is checked against it."""
    seen = []

    def bot(obs, mask):
        seen.append(obs.shape[1])
        return np.ones(len(obs), np.int64)

    vecgames.simulate("holdem", 4, players=[bot, "call"], num_players=2, observation="history")
    assert set(seen) == {518}
    bot.env_options = {"observation": "history"}  # type: ignore[attr-defined]
    seen.clear()
    vecgames.arena("holdem", [bot, "call"], 30, num_players=2)
    assert set(seen) == {518}
    bot.obs_dim = 518  # type: ignore[attr-defined]
    del bot.env_options  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="reads observations of 518 values.*has 222"):
        vecgames.simulate("holdem", 4, players=[bot, "call"], num_players=2)
    with pytest.raises(ValueError, match="observation"):
        vecgames.make("holdem", observation="full")


def replay_matches_state(env, obs, i):
    """Blinds plus each seat's logged chips give the state's chips in the pot, street bets and
    stacks; each action's bet_to is the seat's running bet on its street."""
    n = env.rules.num_players
    viewer = int(env._current[i])
    actions = read_history(obs[i])
    count = int(obs[i, h.COUNT])
    if count > h.HISTORY_ACTIONS:
        return False
    assert len(actions) == count
    button = int(field(env.state, "button")[i])
    start = field(env.state, "start")[i, :n]
    sb = button if n == 2 else (button + 1) % n
    bb = (sb + 1) % n
    paid = np.zeros(n, np.int64)
    bet = np.zeros(n, np.int64)
    paid[sb] = bet[sb] = min(env.rules.small_blind, start[sb])
    paid[bb] = bet[bb] = min(env.rules.big_blind, start[bb])
    street = 0
    for action in actions:
        seat = (viewer + action["seat"]) % n
        if action["street"] != street:
            assert action["street"] > street
            street, bet[:] = action["street"], 0
        paid[seat] += action["added"]
        bet[seat] += action["added"]
        assert action["bet_to"] == bet[seat]
        left = start[seat] - paid[seat]
        assert (left == 0) == (action["kind"] == "all-in") or action["kind"] in ("fold",
                                                                                  "check")
        assert action["kind"] not in ("fold", "check") or action["added"] == 0
    np.testing.assert_array_equal(paid, field(env.state, "paid")[i, :n])
    np.testing.assert_array_equal(start - paid, field(env.state, "stack")[i, :n])
    if street == int(field(env.state, "street")[i]):
        np.testing.assert_array_equal(bet, field(env.state, "bet")[i, :n])
    pot = obs[i, 178] * obs[i, h.SCALE]
    assert round(float(pot)) == paid.sum()
    return True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1),
       stack=st.integers(12, 400), blinds=st.sampled_from([(1, 2), (5, 10), (0, 3)]),
       raise_weight=st.floats(0.05, 0.9))
def test_history_replays_to_the_state(num_players, seed, stack, blinds, raise_weight):
    env = vecgames.make("holdem", num_envs=8, seed=seed, num_players=num_players,
                        observation="history", stack=stack, small_blind=blinds[0],
                        big_blind=blinds[1])
    obs, info = env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(80):
        for i in range(env.num_envs):
            replay_matches_state(env, obs, i)
        kinds = np.where(rng.random(8) < raise_weight, 2, rng.integers(0, 2, 8))
        amounts = np.zeros(8, np.int64)
        for i in range(8):
            _, low, high = env.raise_bounds(i)
            if kinds[i] == 2 and low > high or kinds[i] == 0 and not info["action_mask"][i, 0]:
                kinds[i] = 1
            elif kinds[i] == 2:  # the minimum, the maximum or between
                amounts[i] = rng.choice([low, high, rng.integers(low, high + 1)])
        obs, _, ended, _, info = env.step_amounts(kinds, amounts)
        assert (obs[ended, h.COUNT] == 0).all()  # a new hand starts with an empty history


def test_discrete_steps_are_logged_and_refused_ones_are_not():
    """``env.step`` logs the amount a discrete action came to; an action refused under
    ``illegal="penalty"`` does not enter the history."""
    env = vecgames.make("holdem", num_envs=2, num_players=3, observation="history",
                        illegal="penalty", button="rotate")
    obs, info = env.reset(seed=1)
    min_raise = env.action_names.index("min-raise")
    obs, *_ = env.step(np.array([min_raise, 1]))  # env 0: raise to 4; env 1: call 2
    assert read_history(obs[0])[-1]["kind"] == "raise" and read_history(obs[0])[-1]["bet_to"] == 4
    assert read_history(obs[1])[-1]["kind"] == "call" and read_history(obs[1])[-1]["added"] == 2
    before = obs.copy()
    obs, *_ = env.step_amounts([2, 1], [10**6, 0])  # env 0: a raise beyond the stack
    assert env._illegal[0] and obs[0, h.COUNT] == before[0, h.COUNT] == 1
    np.testing.assert_array_equal(obs[0, 222:], before[0, 222:])
    assert obs[1, h.COUNT] == 2
