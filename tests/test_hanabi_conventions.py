"""The Hanabi ``conventions`` player: legal through env.step (every rule option, 2-5 players),
what its clues mean by convention holds the real cards, deterministic at any thread count,
honest (never reads its own cards or the deck), and above ``rules`` at 2 players."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.games.hanabi.rules import (
    DEALT,
    HAND,
    HINT_BITS,
    HINTS,
    KNOW,
    PLAYER,
    TERMINAL,
    State,
)
from vecgames.policies import hanabi
from vecgames.policies.builtin import BuiltinPlayer
from vecgames.policies.hanabi_conventions import F_MASKED, KNOW_TYPES


def _cards(state, i, seat, hand_size):
    word = state.table[i, HAND + seat]
    return [int((word >> (8 * k)) & 255) - 1 for k in range(hand_size)]


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
                    for card, possible in zip(_cards(env.state, i, seat, h),
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


def _copy(state):
    return State(*(np.array(a, copy=True) for a in state))


def _act(state, rules, i):
    out = np.zeros(1, np.int64)
    hanabi.rows_actions_kernel(state, rules, hanabi.CONVENTIONS, np.array([i], np.int64), out)
    return int(out[0])


def _reshuffle_own_cards(state, i, rules, rng):
    """Give the player to act other cards, each allowed by what it knows of that slot (hints
    and clue meanings), taken with its old ones from the pool it cannot see (own hand +
    deck), the rest back into the deck in a random order: the counts it can see stay. Returns
    False if no such deal was found."""
    seat = int(state.table[i, PLAYER])
    h = rules.hand_size
    own = _cards(state, i, seat, h)
    held = [k for k in range(h) if own[k] >= 0]
    dealt = int(state.table[i, DEALT])
    pool = [c for c in own if c >= 0] + [int(c) for c in state.deck[i, dealt:]]
    sets = _public_sets(state, i, seat, h)
    for _ in range(50):
        order = rng.permutation(len(pool))
        left = [pool[j] for j in order]
        new = {}
        for k in held:
            pick = next((j for j, c in enumerate(left) if (sets[k] >> c) & 1), None)
            if pick is None:
                break
            new[k] = left.pop(pick)
        if len(new) != len(held):
            continue
        hand = hints = 0
        for k in range(h):
            if k in new:
                hand |= (new[k] + 1) << (8 * k)
                hints |= int(HINT_BITS[new[k] + 1]) << (10 * k)
        state.table[i, HAND + seat] = hand
        state.table[i, HINTS + seat] = hints
        state.deck[i, dealt:] = left
        return True
    return False


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
        for i in range(env.num_envs):
            if env.state.table[i, TERMINAL]:
                continue
            ref = _copy(env.state)
            action = _act(ref, env.rules, i)
            other = _copy(env.state)
            if not _reshuffle_own_cards(other, i, env.rules, rng):
                continue
            seat = int(env.state.table[i, PLAYER])
            changed += _cards(other, i, seat, env.rules.hand_size) != _cards(
                env.state, i, seat, env.rules.hand_size)
            assert _act(other, env.rules, i) == action
            np.testing.assert_array_equal(other.memo[i], ref.memo[i])
            checked += 1
    assert checked >= 300 and changed >= 200


def test_conventions_beat_rules_at_two_players():
    games = 5000
    conv = vecgames.simulate("hanabi", games, policy="conventions", seed=2)["score"]
    rules = vecgames.simulate("hanabi", games, policy="rules", seed=2)["score"]
    diff = conv.to_numpy(float) - rules.to_numpy(float)  # the same deals: paired
    half_width = 1.96 * diff.std(ddof=1) / np.sqrt(games)
    assert diff.mean() - half_width > 3.0
