"""The Hanabi ``hat`` player: legal through env.step (every rule option), deterministic at any
thread count, honest (never reads its own cards or the deck), sound public knowledge in the
memo, and far above ``rules`` at 4 players."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hanabi_redeal import honesty_counts, own_cards

import vecgames
from vecgames.games.hanabi import players as hanabi
from vecgames.games.hanabi.players_hat import COLOR_EXP, RANK_EXP
from vecgames.games.hanabi.rules import KNOW
from vecgames.policies.builtin import BuiltinPlayer


def _play(env, player, steps):
    """``steps`` env steps with the hat player at every seat; the scores of finished games."""
    rows = np.arange(env.num_envs)
    scores = []
    for _ in range(steps):
        _, _, _, _, info = env.step(player.act_env(env, rows))  # illegal="raise"
        scores.extend(info["score"][info["score"] >= 0].tolist())
    return scores


def _public_sets(state, i, seat, hand_size):
    """Types each card may be, from the hints and the memo (the copies left are not needed:
    the true type always has one)."""
    out = []
    for k in range(hand_size):
        know = int((state.table[i, KNOW + seat] >> (10 * k)) & 1023)
        allowed = int(COLOR_EXP[know & 31] & RANK_EXP[know >> 5])
        out.append(allowed & ~int(state.memo[i, seat, k]))
    return out


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {}), (4, {}), (5, {}),
    (4, {"hint_target": "next", "discard_at_max": "capped", "end": "deck_empty"}),
])
def test_hat_plays_legally_through_env_and_its_public_sets_hold_the_cards(players, options):
    env = vecgames.make("hanabi", num_envs=32, num_players=players, seed=3, **options)
    env.reset()
    player = BuiltinPlayer("hanabi", "hat")
    rows = np.arange(env.num_envs)
    h = env.rules.hand_size
    scores = []
    for step in range(400):
        _, _, _, _, info = env.step(player.act_env(env, rows))  # an illegal move raises
        scores.extend(info["score"][info["score"] >= 0].tolist())
        if step % 7 == 0:  # what the memo says is public must hold every real card
            for i in range(env.num_envs):
                for seat in range(players):
                    for card, possible in zip(own_cards(env.state, i, seat, h),
                                              _public_sets(env.state, i, seat, h), strict=True):
                        assert card < 0 or (possible >> card) & 1
    assert len(scores) >= 100
    if players >= 3 and not options:
        assert np.mean(scores) > 24.0


def test_hat_is_deterministic_at_any_thread_count():
    one = vecgames.simulate("hanabi", 2000, policy="hat", seed=5, num_players=4,
                            num_threads=1)
    two = vecgames.simulate("hanabi", 2000, policy="hat", seed=5, num_players=4,
                            num_threads=2)
    pd.testing.assert_frame_equal(one, two)
    mixed = vecgames.simulate("hanabi", 500, policy=["hat", "rules", "hat"], seed=5,
                              num_players=3)
    assert (mixed["turns"] > 0).all()


@pytest.mark.parametrize("players", [3, 5])
def test_hat_decisions_ignore_its_own_cards_and_the_deck(players):
    """Honesty: permuting the player's own hidden cards and the deck, consistently with what
    it knows, changes neither its move nor what it writes to the memo."""
    env = vecgames.make("hanabi", num_envs=48, num_players=players, seed=11)
    env.reset()
    player = BuiltinPlayer("hanabi", "hat")
    rng = np.random.default_rng(0)
    checked = changed = 0
    for _ in range(6):
        _play(env, player, int(rng.integers(3, 15)))
        c, k = honesty_counts(env, hanabi.HAT, _public_sets, rng)
        checked += c
        changed += k
    assert checked >= 200 and changed >= 100


def test_hat_beats_rules_at_four_players():
    games = 3000
    hat = vecgames.simulate("hanabi", games, policy="hat", seed=2, num_players=4)["score"]
    rules = vecgames.simulate("hanabi", games, policy="rules", seed=2, num_players=4)["score"]
    diff = hat.to_numpy(float) - rules.to_numpy(float)  # the same deals: paired
    half_width = 1.96 * diff.std(ddof=1) / np.sqrt(games)
    assert diff.mean() - half_width > 5.0
    assert hat.mean() > 24.7
