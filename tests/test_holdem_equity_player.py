"""The Hold'em ``equity`` player: its tables, legal play through ``env.step_amounts``, the same
games at 1 and 2 Numba threads, honesty (hidden cards permuted, decisions unchanged), and that
it beats ``strength`` heads-up (small duplicate-deal arena, fixed seed)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.games.holdem import players as holdem
from vecgames.games.holdem import rules as R
from vecgames.games.holdem.players_equity import CLASS_TOP, GRID, PREFLOP_EQUITY
from vecgames.games.holdem.players_equity_table import MULTIWAY
from vecgames.poker.preflop import preflop_matrix
from vecgames.poker.ranges import CLASS_NAMES
from vecgames.policies.builtin import BuiltinPlayer


def test_existing_players_keep_their_codes():
    assert holdem.POLICIES[:6] == ("random", "call", "raise", "check", "strength",
                                   "raise-uniform")
    assert holdem.POLICIES[holdem.EQUITY_PLAYER] == "equity"
    assert "equity" in vecgames.players("holdem")


def test_tables():
    aa, kk, seven_deuce = (CLASS_NAMES.index(c) for c in ("AA", "KK", "72o"))
    assert CLASS_TOP[aa] == 0 and CLASS_TOP.max() < 1 and CLASS_TOP[seven_deuce] > 0.95
    vs_random = preflop_matrix().mean(axis=1)  # not combo-weighted: only a rough check
    assert abs(PREFLOP_EQUITY[aa, GRID - 1] - 0.852) < 0.001  # AA vs a random hand, exact
    assert np.corrcoef(PREFLOP_EQUITY[:, GRID - 1], vs_random)[0, 1] > 0.99
    # a narrower range is stronger: every class does worse against the top 10% than against
    # the top half, and nearly all worse there than against any hand (AA is the exception)
    top10, half = GRID // 10 - 1, GRID // 2 - 1
    assert np.all(PREFLOP_EQUITY[:, top10] < PREFLOP_EQUITY[:, half])
    assert np.mean(PREFLOP_EQUITY[:, half] < PREFLOP_EQUITY[:, GRID - 1]) > 0.95
    assert PREFLOP_EQUITY[seven_deuce, top10] < 0.3 and PREFLOP_EQUITY[kk, top10] > 0.6
    # against more random hands every class wins less; AA's 5-way share is about 0.49
    assert MULTIWAY.shape == (169, 8) and np.all(np.diff(MULTIWAY, axis=1) < 0)
    assert abs(MULTIWAY[aa, 3] - 0.49) < 0.01
    assert np.all(MULTIWAY[:, 0] < PREFLOP_EQUITY[:, GRID - 1])


def _play_through_env(num_players: int, seed: int, **options) -> int:
    """Hands played through env.step_amounts (illegal actions raise) with ``equity`` at every
    other seat and ``random`` at the rest; returns how many equity decisions were made."""
    env: Any = vecgames.make("holdem", num_envs=64, num_players=num_players, seed=seed,
                             **options)
    equity, rand = BuiltinPlayer("holdem", "equity"), BuiltinPlayer("holdem", "random")
    env.reset()
    decisions = 0
    kinds = np.zeros(env.num_envs, np.int64)
    amounts = np.zeros(env.num_envs, np.int64)
    for _ in range(150):
        player = env.state.table[:, R.PLAYER]
        mine = np.flatnonzero(player % 2 == 0)
        theirs = np.flatnonzero(player % 2 == 1)
        for rows, who in ((mine, equity), (theirs, rand)):
            if rows.size:
                pairs = who.act_env(env, rows)
                kinds[rows], amounts[rows] = pairs[:, 0], pairs[:, 1]
        decisions += mine.size
        env.step_amounts(kinds, amounts)  # raises ValueError on an illegal action
    return decisions


@pytest.mark.parametrize(("num_players", "options"), [
    (2, {}), (6, {}), (10, {}),
    (3, {"stack": [30, 100, 400], "min_raise": "call"}),
    (6, {"stack": [5, 20, 50, 100, 200, 300], "short_stack": "fold", "small_blind": 2,
         "big_blind": 4}),
])
def test_plays_legally_through_the_env(num_players, options):
    assert _play_through_env(num_players, 5, **options) > 2000


def test_simulate_is_legal_and_the_same_on_one_and_two_threads():
    before = numba.get_num_threads()
    frames = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            frames.append(vecgames.simulate(
                "holdem", 3000, policy=["equity", "strength", "random", "equity", "call", "raise"],
                seed=3, num_players=6))
    finally:
        numba.set_num_threads(before)
    pd.testing.assert_frame_equal(*frames)
    chips = frames[0][[f"chips_{p}" for p in range(6)]].to_numpy()
    assert (chips.sum(axis=1) == 0).all()
    assert (frames[0]["end_street"] != "preflop").sum() > 150  # postflop play is covered


def _hidden_positions(table_row: np.ndarray, n: int) -> np.ndarray:
    """Deck positions the player to act cannot see: other seats' hole cards, the board not
    yet dealt and the undealt deck."""
    p = table_row[R.PLAYER]
    seen = (0, 3, 4, 5)[table_row[R.STREET]]
    other_holes = [k for q in range(n) if q != p for k in (2 * q, 2 * q + 1)]
    return np.array(other_holes + list(range(2 * n + seen, 52)))


def test_decisions_ignore_hidden_cards():
    """Permuting the cards the player cannot see (consistently: each card still appears once)
    leaves every decision, and the random stream after it, unchanged. The hands go on with
    its decision or, half the time, a check/call, so that many decisions come postflop."""
    n = 4
    env: Any = vecgames.make("holdem", num_envs=256, num_players=n, seed=9)
    env.reset()
    rng = np.random.default_rng(0)
    player = BuiltinPlayer("holdem", "equity")
    rows = np.arange(env.num_envs)
    checked = postflop = 0
    for _ in range(40):
        state = env.state
        saved_rng = state.rng.copy()
        saved_deck = state.deck.copy()
        first = player.act_env(env, rows)
        after = state.rng.copy()
        for i in rows:
            hidden = _hidden_positions(state.table[i], n)
            state.deck[i, hidden] = state.deck[i, rng.permutation(hidden)]
        assert not np.array_equal(state.deck, saved_deck)
        state.rng[:] = saved_rng
        second = player.act_env(env, rows)
        np.testing.assert_array_equal(first, second)
        np.testing.assert_array_equal(state.rng, after)
        checked += rows.size
        postflop += int((state.table[:, R.STREET] > 0).sum())
        state.deck[:] = saved_deck
        calls = rng.random(rows.size) < 0.5
        env.step_amounts(np.where(calls, R.CALL, first[:, 0]), first[:, 1])
    assert checked >= 10_000 and postflop > 1000


def test_beats_strength_heads_up():
    result = vecgames.arena("holdem", ["equity", "strength"], 1500, seed=11, num_players=2)
    row = result.pairwise.set_index(["player", "opponent"]).loc[("equity", "strength")]
    assert row["unit"] == "bb/100" and row["ci_low"] > 0
