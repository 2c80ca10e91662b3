"""The seed's betting rules as options (issue 22): ``min_raise="call"`` (any raise above a
call) and the seed's raise strategy (``"raise-uniform"``)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.games.holdem import rules as R
from vecgames.games.holdem.simulate_log import hand_log


def _table(stacks, min_raise, button=0):
    """A hand with a fixed deck at a table of ``len(stacks)`` seats."""
    rules = R.make_rules(num_players=len(stacks), stack=list(stacks), min_raise=min_raise)
    state = R.new_state(1, stacks)
    state.deck[0] = np.arange(52, dtype=np.int8)
    R.start_hand(state, 0, rules, button)
    return state, rules


def _act(state, rules, kind, raise_to=0):
    return R.step_one(state, 0, kind, raise_to, rules)


def test_a_raise_of_one_chip_over_the_call_is_legal_only_under_call():
    # three seats, button 0: seat 1 posts 1, seat 2 posts 2, seat 0 acts facing 2
    for min_raise, lo in (("standard", 4), ("call", 3)):
        state, rules = _table([100, 100, 100], min_raise)
        assert tuple(R.raise_bounds(state, 0, rules)) == (2, lo, 100)
        before = state.table.copy()
        code = _act(state, rules, R.RAISE, 3)
        if min_raise == "standard":
            assert code == -3
            np.testing.assert_array_equal(state.table, before)  # nothing changed
        else:
            assert code == R.OK and state.table[0, R.CUR_BET] == 3


def test_every_raise_reopens_the_betting_under_call():
    state, rules = _table([100, 100, 100], "call")
    t = state.table[0]
    assert _act(state, rules, R.RAISE, 3) == R.OK  # seat 0: one chip over
    assert t[R.PLAYER] == 1 and tuple(R.raise_bounds(state, 0, rules)) == (2, 4, 100)
    assert _act(state, rules, R.RAISE, 4) == R.OK  # seat 1 re-raises by one chip
    assert t[R.PLAYER] == 2 and tuple(R.raise_bounds(state, 0, rules)) == (2, 5, 100)
    assert _act(state, rules, R.CALL) == R.OK
    assert t[R.PLAYER] == 0 and t[R.RAISE_SIZE] == 0  # no minimum increment is kept
    assert tuple(R.raise_bounds(state, 0, rules)) == (1, 5, 100)  # seat 0 may raise again
    assert _act(state, rules, R.CALL) == R.OK
    assert t[R.STREET] == R.FLOP and t[R.PLAYER] == 1
    # a bet on a new street is at least the big blind; a raise over it, one chip more
    assert tuple(R.raise_bounds(state, 0, rules)) == (0, 2, 96)
    assert _act(state, rules, R.RAISE, 1) == -3
    assert _act(state, rules, R.RAISE, 2) == R.OK
    assert tuple(R.raise_bounds(state, 0, rules)) == (2, 3, 96)


@pytest.mark.parametrize("min_raise", ["standard", "call"])
def test_an_all_in_of_one_chip_more_reopens_only_under_call(min_raise):
    # seat 2 (the big blind) has 5 chips: its all-in to 5 is one chip over the bet of 4
    state, rules = _table([100, 100, 5], min_raise)
    t = state.table[0]
    assert _act(state, rules, R.RAISE, 4) == R.OK  # seat 0 (a full raise in both rules)
    assert _act(state, rules, R.CALL) == R.OK  # seat 1
    assert tuple(R.raise_bounds(state, 0, rules)) == (2, 5, 5)  # seat 2: all-in for less
    assert _act(state, rules, R.RAISE, 5) == R.OK
    assert (t[R.ALL_IN] >> 2) & 1 and t[R.PLAYER] == 0
    to_call, lo, hi = R.raise_bounds(state, 0, rules)
    assert to_call == 1
    if min_raise == "call":
        assert (lo, hi) == (6, 100)  # seat 0 may re-raise
        assert _act(state, rules, R.RAISE, 6) == R.OK
    else:
        assert lo > hi  # a short all-in: seat 0 may only call or fold
        assert _act(state, rules, R.RAISE, 6) == -4


def test_min_raise_option_is_checked_and_off_by_default():
    assert R.make_rules().min_raise_call == 0
    assert R.DEFAULT_OPTIONS["min_raise"] == "standard"
    with pytest.raises(ValueError, match="min_raise"):
        R.make_rules(min_raise="seed")
    with pytest.raises(ValueError, match="min_raise"):
        vecgames.make("holdem", min_raise=1)


def test_env_and_simulate_take_min_raise():
    env = vecgames.make("holdem", num_envs=2, num_players=3, min_raise="call", seed=1)
    env.reset_from_deck(np.tile(np.arange(52), (2, 1)), button=0)
    assert env.raise_bounds(0) == (2, 3, 100)
    min_raise_action = env.action_names.index("min-raise")
    env.step(np.full(2, min_raise_action))
    assert env.state.table[0, R.CUR_BET] == 3  # the discrete min-raise is one chip over
    df = vecgames.simulate("holdem", 300, seed=2, min_raise="call", num_players=4)
    assert df.attrs["rules"]["min_raise"] == "call"
    assert (df.filter(like="chips_").sum(axis=1) == 0).all()
    log = hand_log(100, seed=2, min_raise="call", num_players=4)
    np.testing.assert_array_equal(log.hands.filter(like="chips_").to_numpy(),
                                  df.filter(like="chips_").to_numpy()[:100])


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**32 - 1),
       st.lists(st.integers(3, 120), min_size=7, max_size=7),
       st.sampled_from(["all-in", "fold"]))
def test_call_rule_random_play_keeps_chips_and_masks_agree(n, seed, stacks, short_stack):
    """Random exact actions (any amount in the raise range): the env's mask equals the
    kernels' verdict on every discrete action, chips are conserved, and a minimum raise is
    one chip over the bet (a bet, the big blind)."""
    env = vecgames.make("holdem", num_envs=6, num_players=n, stack=stacks[:n], seed=seed,
                        min_raise="call", short_stack=short_stack)
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    table = env.state.table
    starts = np.array(env.stacks)
    bad = np.zeros(env.num_envs, bool)
    for _ in range(30):
        mask = info["action_mask"].copy()
        for a in range(env.num_actions):
            env._find_illegal(np.full(env.num_envs, a), bad)
            np.testing.assert_array_equal(~bad, mask[:, a])
        kinds = np.zeros(env.num_envs, np.int64)
        amounts = np.zeros(env.num_envs, np.int64)
        for i in range(env.num_envs):
            to_call, lo, hi = env.raise_bounds(i)
            cur = table[i, R.CUR_BET]
            if lo <= hi:
                assert lo == min(max(cur + 1, 2), hi)
            kinds[i] = rng.choice([k for k in (R.FOLD, R.CALL, R.RAISE)
                                   if (k != R.FOLD or mask[i, 0]) and (k != R.RAISE or lo <= hi)])
            amounts[i] = rng.integers(lo, hi + 1) if kinds[i] == R.RAISE else 0
        obs, reward, terminated, truncated, info = env.step_amounts(kinds, amounts)
        np.testing.assert_array_equal(reward.sum(axis=1), 0)
        chips = table[:, R.STACK:R.STACK + n] + table[:, R.PAID:R.PAID + n]
        np.testing.assert_array_equal(chips, np.broadcast_to(starts, chips.shape))
        assert (table[:, R.STACK:R.STACK + n] >= 0).all()


def test_seed_raise_strategy_draws_its_amount_uniformly():
    log = hand_log(400, policy="raise-uniform", seed=3, num_players=3)
    first = log.actions[(log.actions.seq == 0) & (log.actions.action == "raise")]
    assert len(first) == 400  # the first to act may raise to 4..100 in every hand
    assert first.to.between(4, 100).all()
    assert first.to.nunique() > 60 and abs(first.to.mean() - 52) < 6
    fixed = hand_log(50, policy="raise", seed=3, num_players=3).actions
    assert (fixed[fixed.seq == 0].to == 4 + 96 // 4).all()  # the built-in: a fixed quarter
    df = vecgames.simulate("holdem", 2000, policy="raise-uniform", seed=1)
    assert (df.filter(like="chips_").sum(axis=1) == 0).all()
