"""The Hanabi ``search`` player: legal through env.step, deterministic at any thread count,
honest (its move does not depend on its own hidden cards or the deck), worlds sampled from
what it may know, and better than its blueprint."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hanabi_redeal import act, copy_state, own_cards, redeal_own_cards

import vecgames
from vecgames.core.jit import jit
from vecgames.core.rng import keyed_start, seed_key
from vecgames.games.hanabi import players as hanabi
from vecgames.games.hanabi.players_conventions import F_MASKED
from vecgames.games.hanabi.players_search import (
    BLUEPRINT_NAMES,
    DEALS,
    FINALISTS,
    MARGIN,
    MORE_DEALS,
    RULES_BP,
    _scratch,
    blueprint_action,
    blueprint_name,
    sample_hand,
    search_move,
    slot_beliefs,
    unseen_counts,
)
from vecgames.games.hanabi.rules import (
    DEALT,
    END_LIVES,
    KNOW,
    PLAYER,
    SCORE,
    TERMINAL,
    TYPE_COPIES,
    card_at,
    end_reason,
    play_legal,
    reset_one,
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
    blueprint = BuiltinPlayer("hanabi", blueprint_name(players))
    rows = np.arange(envs)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(6, 20))):
        env.step(blueprint.act_env(env, rows))
    return env


def test_search_is_a_listed_builtin():
    assert "search" in vecgames.players("hanabi")
    assert hanabi.POLICIES[hanabi.SEARCH] == "search"
    assert all(blueprint_name(n) in hanabi.POLICIES for n in range(2, 6))


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
    one = vecgames.simulate("hanabi", 24, players=["search", "rules"], seed=3, num_threads=1)
    two = vecgames.simulate("hanabi", 24, players=["search", "rules"], seed=3, num_threads=2)
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
def _sample(s, i, p, r, blueprint, counts, rng, hand, left, allowed):
    slot_beliefs(s, i, p, r, blueprint, counts, allowed)
    return sample_hand(allowed, r, counts, rng, hand, left)


@jit
def _counts(t, p, r, counts):
    unseen_counts(t, p, r, counts)


@pytest.mark.parametrize("players", [2, 3])
def test_sampled_worlds_fit_what_the_player_knows(players):
    """Each sampled hand is allowed by the hints and by what the blueprint's convention made
    public (``conventions``: a clued card's convention set, which holds the real card;
    ``hat``: the types its answers excluded), uses unseen copies only, and the unseen counts
    are the player's own cards plus the deck."""
    env = _positions(players=players, seed=5)
    rules = env.rules
    h = rules.hand_size
    blueprint = BLUEPRINT_NAMES.index(blueprint_name(players))
    narrowed = 0
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
        allowed = np.zeros(h, np.int64)
        real = own_cards(env.state, i, seat, h)
        for _ in range(20):
            assert _sample(env.state, i, seat, rules, blueprint, counts, rng, hand, left,
                           allowed)
            used = np.bincount([c for c in hand if c >= 0], minlength=25)
            np.testing.assert_array_equal(used + left, counts)
            for k in range(h):
                if hand[k] >= 0:
                    assert _allows(_know(env.state, i, seat, k), int(hand[k]))
                    assert (int(allowed[k]) >> int(hand[k])) & 1
        for k in range(h):
            word = int(env.state.memo[i, seat, k])
            hinted = sum(1 << c for c in range(25) if _allows(_know(env.state, i, seat, k), c))
            narrowed += int(allowed[k]) != hinted
            if players == 2 and word & F_MASKED:  # conventions: a truthful set
                assert (int(allowed[k]) >> int(real[k])) & 1
                assert all((word >> (2 * c)) & 1 for c in range(25) if (allowed[k] >> c) & 1)
    assert narrowed > 0  # the convention narrowed some slot beyond its hints


GAMES = 150


@jit(alloc=True)
def _dealt(r, g):
    """A one-env state dealt game g of seed 11."""
    s = _scratch()
    s.rng[0] = keyed_start(seed_key(np.uint64(11)), g)
    reset_one(s, 0, r)
    return s


@jit(alloc=True)
def _scores(r, games, blueprint, searcher, out):
    """Scores of games 0 .. games - 1 (seed 11) with ``blueprint`` at every seat, or the
    searcher over it at seat 0 (``searcher``)."""
    totals = np.zeros(r.num_actions, np.int64)
    for g in range(games):
        s = _dealt(r, g)
        t = s.table[0]
        while t[TERMINAL] == 0:
            if searcher and t[PLAYER] == 0:
                a = search_move(s, 0, r, blueprint, DEALS, FINALISTS, MORE_DEALS, MARGIN,
                                totals)
            else:
                a = blueprint_action(blueprint, s, 0, r)
            play_legal(s, 0, a, r)
        out[g] = 0 if end_reason(t) == END_LIVES else t[SCORE]


def test_search_beats_its_blueprint():
    """Search over ``rules`` (2 players; over the built-in's stronger blueprints the gain is
    smaller than a test's games can show, benchmarks/bench_hanabi_search.py) scores more
    than the blueprint beside itself: GAMES games each, the same deals, the 95% CI of the
    paired difference above zero."""
    rules = vecgames.make("hanabi", num_players=2).rules
    base, searched = np.zeros(GAMES, np.int64), np.zeros(GAMES, np.int64)
    _scores(rules, GAMES, RULES_BP, False, base)
    _scores(rules, GAMES, RULES_BP, True, searched)
    diff = searched.astype(float) - base.astype(float)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() - half > 0, (diff.mean(), half)


@jit(alloc=True)
def _excluded(r, games, seat_policy, blueprint, out):
    """Over ``games`` games of the seats' policies (ids of ``players.POLICIES``): the cards
    held by a player about to search, and those its belief (``slot_beliefs``) ruled out."""
    counts = np.zeros(25, np.int64)
    allowed = np.zeros(r.hand_size, np.int64)
    for g in range(games):
        s = _dealt(r, g)
        t = s.table[0]
        while t[TERMINAL] == 0:
            p = t[PLAYER]
            if seat_policy[p] == hanabi.SEARCH:
                unseen_counts(t, p, r, counts)
                slot_beliefs(s, 0, p, r, blueprint, counts, allowed)
                for k in range(r.hand_size):
                    c = card_at(t, p, k)
                    if c >= 0:
                        out[0] += 1
                        out[1] += not (allowed[k] >> c) & 1
            play_legal(s, 0, hanabi.policy_action(seat_policy[p], s, 0, r), r)


@pytest.mark.parametrize("players, partner", [(2, "search"), (3, "conventions")])
def test_the_belief_never_rules_out_the_real_card(players, partner):
    """Whatever the partners: a searching partner's clue is read by the conventions but need
    not fit the card (``F_READ``), and another kind of player's memo words are not the
    blueprint's; the belief then falls back on the hints."""
    rules = vecgames.make("hanabi", num_players=players).rules
    seats = np.array([hanabi.SEARCH] + [hanabi.POLICIES.index(partner)] * (players - 1))
    out = np.zeros(2, np.int64)
    _excluded(rules, 4, seats, BLUEPRINT_NAMES.index(blueprint_name(players)), out)
    assert out[0] > 300 and out[1] == 0, out
