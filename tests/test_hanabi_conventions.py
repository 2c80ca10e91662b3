"""The Hanabi ``conventions`` player: legal through env.step (every rule option, 2-5 players),
what its clues mean by convention holds the real cards, deterministic at any thread count,
honest (never reads its own cards or the deck), and above ``rules`` at 2 players."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hanabi_redeal import honesty_counts, own_cards

import vecgames
from vecgames.games.hanabi import players as hanabi
from vecgames.games.hanabi.players_conventions import F_MASKED, KNOW_TYPES
from vecgames.games.hanabi.rules import KNOW
from vecgames.policies.builtin import BuiltinPlayer


def _public_sets(state, i, seat, hand_size):
    """Types (bit t) each card may be from its hints and what clues meant (the memo); the
    copies left are not needed: the true type always has one."""
    out = []
    for k in range(hand_size):
        know = int((state.table[i, KNOW + seat] >> (10 * k)) & 1023)
        spaced = int(KNOW_TYPES[know])
        word = int(state.memo[i, seat, k])
        if word & F_MASKED:
            spaced &= word
        out.append(sum(1 << x for x in range(25) if (spaced >> (2 * x)) & 1))
    return out


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {}), (5, {}),
    (2, {"hint_target": "next", "discard_at_max": "capped", "end": "deck_empty"}),
])
def test_conventions_play_legally_and_clue_meanings_hold(players, options):
    env = vecgames.make("hanabi", num_envs=32, num_players=players, seed=3, **options)
    env.reset()
    player = BuiltinPlayer("hanabi", "conventions")
    rows = np.arange(env.num_envs)
    h = env.rules.hand_size
    scores = []
    for step in range(400):
        _, _, _, _, info = env.step(player.act_env(env, rows))  # an illegal move raises
        scores.extend(info["score"][info["score"] >= 0].tolist())
        if step % 5 == 0:  # a clue's conventional meaning never excludes the real card
            for i in range(env.num_envs):
                for seat in range(players):
                    for card, possible in zip(own_cards(env.state, i, seat, h),
                                              _public_sets(env.state, i, seat, h), strict=True):
                        assert card < 0 or (possible >> card) & 1
    assert len(scores) >= 100
    if players == 2 and not options:
        assert np.mean(scores) > 21.0


def test_conventions_are_deterministic_at_any_thread_count():
    one = vecgames.simulate("hanabi", 2000, policy="conventions", seed=5, num_threads=1)
    two = vecgames.simulate("hanabi", 2000, policy="conventions", seed=5, num_threads=2)
    pd.testing.assert_frame_equal(one, two)
    mixed = vecgames.simulate("hanabi", 500, policy=["conventions", "rules"], seed=5)
    assert (mixed["turns"] > 0).all()


def test_conventions_decisions_ignore_own_cards_and_the_deck():
    """Honesty: dealing the player other cards consistent with what it knows (and the deck
    reshuffled) changes neither its move nor what it writes to the memo."""
    env = vecgames.make("hanabi", num_envs=48, num_players=2, seed=11)
    env.reset()
    player = BuiltinPlayer("hanabi", "conventions")
    rows = np.arange(env.num_envs)
    rng = np.random.default_rng(0)
    checked = changed = 0
    for _ in range(8):
        for _ in range(int(rng.integers(3, 12))):
            env.step(player.act_env(env, rows))
        c, k = honesty_counts(env, hanabi.CONVENTIONS, _public_sets, rng)
        checked += c
        changed += k
    assert checked >= 300 and changed >= 200


def test_conventions_beat_rules_at_two_players():
    games = 5000
    conv = vecgames.simulate("hanabi", games, policy="conventions", seed=2)["score"]
    rules = vecgames.simulate("hanabi", games, policy="rules", seed=2)["score"]
    diff = conv.to_numpy(float) - rules.to_numpy(float)  # the same deals: paired
    half_width = 1.96 * diff.std(ddof=1) / np.sqrt(games)
    assert diff.mean() - half_width > 3.0
