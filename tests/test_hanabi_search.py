"""The Hanabi ``search`` player: legal through env.step, deterministic at any thread count,
honest (its move does not depend on its own hidden cards or the deck), worlds sampled from
what it may know, and better than its blueprint."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hanabi_redeal import act, copy_state, own_cards, redeal_own_cards

import vecgames
from vecgames.core.jit import jit
from vecgames.games.hanabi import players as hanabi
from vecgames.games.hanabi.players_search import (
    BLUEPRINT,
    BLUEPRINT_NAMES,
    sample_hand,
    unseen_counts,
)
from vecgames.games.hanabi.rules import (
    DEALT,
    KNOW,
    PLAYER,
    TERMINAL,
    TYPE_COPIES,
)
from vecgames.policies.builtin import BuiltinPlayer


def _know(state, i, seat, slot):
    return (int(state.table[i, KNOW + seat]) >> (10 * slot)) & 1023


def _allows(know, card):
    return bool((know >> (card // 5)) & 1 and (know >> (5 + card % 5)) & 1)


def _positions(players=2, envs=24, seed=7):
    """Envs a few moves into their games, played by the blueprint (and a copy of them)."""
    env = vecgames.make("hanabi", num_envs=envs, num_players=players, seed=seed)
    env.reset()
    blueprint = BuiltinPlayer("hanabi", BLUEPRINT_NAMES[BLUEPRINT])
    rows = np.arange(envs)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(6, 20))):
        env.step(blueprint.act_env(env, rows))
    return env


def test_search_is_a_listed_builtin():
    assert "search" in vecgames.players("hanabi")
    assert hanabi.POLICIES[hanabi.SEARCH] == "search"
    assert BLUEPRINT_NAMES[BLUEPRINT] in hanabi.POLICIES


def test_search_plays_legally_through_env():
    env = vecgames.make("hanabi", num_envs=6, num_players=2, seed=1)
    env.reset()
    search, rules = BuiltinPlayer("hanabi", "search"), BuiltinPlayer("hanabi", "rules")
    rows = np.arange(env.num_envs)
    finished = 0
    for _ in range(150):
        seat0 = env.state.table[:, PLAYER] == 0  # the searcher at seat 0, rules at seat 1
        actions = np.where(seat0, search.act_env(env, rows), rules.act_env(env, rows))
        _, _, terminated, _, _ = env.step(actions)  # an illegal move raises
        finished += int(terminated.sum())
    assert finished >= 6


def test_search_is_deterministic_at_any_thread_count():
    one = vecgames.simulate("hanabi", 24, policy=["search", "rules"], seed=3, num_threads=1)
    two = vecgames.simulate("hanabi", 24, policy=["search", "rules"], seed=3, num_threads=2)
    pd.testing.assert_frame_equal(one, two)


def _hint_sets(state, i, seat, hand_size):
    """Types (bit t) each of the seat's cards may be from its hints alone."""
    return [sum(1 << c for c in range(25) if _allows(_know(state, i, seat, k), c))
            for k in range(hand_size)]


def test_search_move_ignores_its_own_cards_and_the_deck():
    """Honesty: the player's own cards and the deck swapped for any others consistent with
    its hints and what it sees: the same move (its worlds come from its stream alone)."""
    env = _positions()
    rules = env.rules
    rng = np.random.default_rng(0)
    checked = 0
    for i in range(env.num_envs):
        if env.state.table[i, TERMINAL]:
            continue
        seat = int(env.state.table[i, PLAYER])
        other = copy_state(env.state)
        if not redeal_own_cards(other, i, rules, _hint_sets, rng, tries=200):
            continue
        if own_cards(other, i, seat, rules.hand_size) == own_cards(env.state, i, seat,
                                                                   rules.hand_size):
            continue
        assert (act(copy_state(env.state), rules, hanabi.SEARCH, i)
                == act(other, rules, hanabi.SEARCH, i))
        checked += 1
    assert checked >= 10


@jit
def _sample(t, p, r, counts, rng, hand, left):
    return sample_hand(t, p, r, counts, rng, hand, left)


@jit
def _counts(t, p, r, counts):
    unseen_counts(t, p, r, counts)


def test_sampled_worlds_fit_what_the_player_knows():
    """Each sampled hand is allowed by the hints, uses unseen copies only, and the unseen
    counts are the player's own cards plus the deck."""
    env = _positions(players=3, seed=5)
    rules = env.rules
    h = rules.hand_size
    for i in range(env.num_envs):
        t = env.state.table[i]
        if t[TERMINAL]:
            continue
        seat = int(t[PLAYER])
        counts = np.zeros(25, np.int64)
        _counts(t, seat, rules, counts)
        truth = np.bincount([c for c in own_cards(env.state, i, seat, h) if c >= 0]
                            + list(env.state.deck[i, int(t[DEALT]):]), minlength=25)
        np.testing.assert_array_equal(counts, truth)
        assert (counts <= TYPE_COPIES).all()
        rng = np.array([np.uint64(i + 1)])
        hand = np.zeros(h, np.int64)
        left = np.zeros(25, np.int64)
        for _ in range(20):
            assert _sample(t, seat, rules, counts, rng, hand, left)
            used = np.bincount([c for c in hand if c >= 0], minlength=25)
            np.testing.assert_array_equal(used + left, counts)
            for k in range(h):
                if hand[k] >= 0:
                    assert _allows(_know(env.state, i, seat, k), int(hand[k]))


def test_search_beats_its_blueprint():
    """A searcher beside the blueprint scores more than the blueprint beside itself (150
    games each, the same seeds; the 95% CI of the difference excludes zero)."""
    blueprint = BLUEPRINT_NAMES[BLUEPRINT]
    base = vecgames.simulate("hanabi", 150, policy=blueprint, seed=11)["score"]
    searched = vecgames.simulate("hanabi", 150, policy=["search", blueprint], seed=11)["score"]
    diff = searched.to_numpy(float) - base.to_numpy(float)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() - half > 0, (diff.mean(), half)

