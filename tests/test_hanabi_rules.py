"""Hanabi rules (RULES.md §4): properties over random play of the kernel."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.core.rng import seed_streams
from vecgames.games.hanabi.players import policy_action
from vecgames.games.hanabi.rules import (
    CARD_TYPE,
    DEALT,
    DECK_SIZE,
    DISCARDS,
    FIRE,
    INFO,
    LIFE,
    MEMO_ON,
    NUM_TYPES,
    PLAYER,
    SCORE,
    TERMINAL,
    TYPE_COPIES,
    _draw,
    hands,
    knowledge,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)

FULL_COUNTS = np.bincount(CARD_TYPE, minlength=25)


def legal_by_rules(t, hand_rows, r, player):
    """Legal action ids from a plain reading of RULES.md §4 and of the seed's options: a
    discard at 8 tokens with ``discard_at_max="capped"``, hints to the next player only with
    ``hint_target="next"``."""
    n, h = r.num_players, r.hand_size
    own = [c for c in hand_rows[player] if c >= 0]
    legal = []
    if t[INFO] < 8 or r.discard_capped:
        legal += list(range(len(own)))
    legal += [h + k for k in range(len(own))]
    if t[INFO] > 0:
        for k in range(1, 2 if r.hint_next_only else n):
            cards = [c for c in hand_rows[(player + k) % n] if c >= 0]
            legal += [r.color_hints + 5 * (k - 1) + c for c in range(5)
                      if any(x // 5 == c for x in cards)]
            legal += [r.rank_hints + 5 * (k - 1) + v for v in range(5)
                      if any(x % 5 == v for x in cards)]
    return sorted(legal)


def check_invariants(s, r, i):
    t = s.table[i]
    held = hands(s)[i][: r.num_players, : r.hand_size]
    held_cards = held[held >= 0]
    played = [5 * c + k for c in range(5) for k in range(t[FIRE + c])]
    counts = (np.bincount(held_cards, minlength=25) + t[DISCARDS:DISCARDS + 25]
              + np.bincount(played, minlength=25).astype(np.int64)
              + np.bincount(s.deck[i, t[DEALT]:], minlength=25))
    np.testing.assert_array_equal(counts, FULL_COUNTS)  # every card exactly once
    assert 0 <= t[INFO] <= 8 and 0 <= t[LIFE] <= 3
    assert 0 <= t[SCORE] == sum(t[FIRE + c] for c in range(5)) <= 25
    know = knowledge(s)[i][: r.num_players, : r.hand_size]
    for c, k in zip(held.ravel(), know.ravel(), strict=True):
        if c >= 0:  # a card's knowledge always allows the card itself
            assert (k >> (c // 5)) & 1 and (k >> (5 + c % 5)) & 1


@settings(max_examples=30)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), rules_agent=st.booleans())
def test_random_games_keep_the_invariants(players, seed, rules_agent):
    play_and_check(make_rules(num_players=players), seed, rules_agent)


@settings(max_examples=30)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), rules_agent=st.booleans(),
       end=st.sampled_from(["final_round", "deck_empty"]),
       discard=st.sampled_from(["forbidden", "capped"]),
       hint=st.sampled_from(["any", "next"]))
def test_seed_rule_options_keep_the_invariants(players, seed, rules_agent, end, discard, hint):
    play_and_check(make_rules(num_players=players, end=end, discard_at_max=discard,
                              hint_target=hint), seed, rules_agent)


def play_and_check(r, seed, rules_agent):
    """One game of the random or the rule-based player under rules r: the legal moves are
    those of ``legal_by_rules``, the players pick legal moves only, the invariants hold after
    every move, a discard gives a token up to 8, and a game ended by the deck ends when every
    player has had one more turn (``end="final_round"``) or with the move that drew the last
    card (``end="deck_empty"``)."""
    players = r.num_players
    s = new_state(1)
    seed_streams(s.rng, np.uint64(seed), 0)
    reset_one(s, 0, r)
    steps = 0
    deck_out_turns = None
    while not s.table[0, TERMINAL]:
        t = s.table[0]
        expected = legal_by_rules(t, hands(s)[0], r, t[PLAYER])
        bits = legal_bits(t, r)
        assert [a for a in range(r.num_actions) if (bits >> a) & 1] == expected
        a = policy_action(1 if rules_agent else 0, s, 0, r)
        dealt_before, info_before = t[DEALT], t[INFO]
        reward, legal = step_one(s, 0, a, r)
        assert legal
        if a < r.hand_size:
            assert t[INFO] == min(info_before + 1, 8)
        steps += 1
        if deck_out_turns is not None:
            deck_out_turns += 1
        elif dealt_before < 50 <= s.table[0, DEALT]:
            deck_out_turns = 0
        check_invariants(s, r, 0)
        assert steps < 200
    t = s.table[0]
    if t[LIFE] > 0 and t[SCORE] < 25:  # ended by the deck: one more turn for every player
        assert t[DEALT] == 50 and deck_out_turns == (0 if r.deck_empty_ends else players)


def test_illegal_actions_change_nothing():
    r = make_rules(num_players=3)
    s = new_state(1)
    seed_streams(s.rng, np.uint64(5), 0)
    reset_one(s, 0, r)
    before = s.table.copy()
    for a in (0, r.noop, -1, r.num_actions):  # discard at 8 tokens, the no-op, out of range
        reward, legal = step_one(s, 0, a, r)
        assert not legal and reward == 0.0
    np.testing.assert_array_equal(s.table, before)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal(players):
    r = make_rules(num_players=players)
    s = new_state(2)
    seed_streams(s.rng, np.uint64(1), 0)
    reset_one(s, 0, r)
    h = r.hand_size
    assert h == (5 if players <= 3 else 4)
    np.testing.assert_array_equal(np.sort(s.deck[0]), np.sort(CARD_TYPE))
    for p in range(players):
        np.testing.assert_array_equal(hands(s)[0, p, :h], s.deck[0, p * h:(p + 1) * h])
    t = s.table[0]
    assert t[INFO] == 8 and t[LIFE] == 3 and t[DEALT] == players * h and t[PLAYER] == 0
    assert r.num_actions == 2 * h + 10 * (players - 1) + 1


@numba.njit(cache=True)
def _deal_and_draw_all(s, r, seq):
    """Deal every env, then draw the rest of its deck card by card: seq[i] = the cards in
    drawing order (the lazy shuffle's output)."""
    for i in range(seq.shape[0]):
        reset_one(s, i, r)
        t = s.table[i]
        for k in range(t[DEALT]):
            seq[i, k] = s.deck[i, k]
        while t[DEALT] < DECK_SIZE:
            k = t[DEALT]
            seq[i, k] = _draw(s, i)


def test_lazy_shuffle_draws_uniformly():
    r = make_rules(num_players=3)  # 15 cards in hands: an odd prefix
    games = 20_000
    s = new_state(games)
    seed_streams(s.rng, np.uint64(11), 0)
    seq = np.zeros((games, DECK_SIZE), np.int8)
    _deal_and_draw_all(s, r, seq)
    np.testing.assert_array_equal(np.sort(seq, axis=1), np.sort(CARD_TYPE)[None].repeat(games, 0))
    expected = games * TYPE_COPIES / DECK_SIZE
    for k in (0, 14, 15, 16, 30, 49):  # hands, the first lazy draws, the middle, the last
        chi2 = (((np.bincount(seq[:, k], minlength=NUM_TYPES) - expected) ** 2) / expected).sum()
        assert chi2 < 51.2, f"position {k}: chi2 {chi2:.1f} (24 dof, p < 0.001)"
    # pairs: the second lazy card is not the first one's type more often than chance
    same = (seq[:, 15] == seq[:, 16]).mean()
    want = (TYPE_COPIES * (TYPE_COPIES - 1)).sum() / (DECK_SIZE * (DECK_SIZE - 1))
    assert abs(same - want) < 4 * np.sqrt(want * (1 - want) / games)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), picks=st.randoms(),
       end=st.sampled_from(["final_round", "deck_empty"]),
       discard=st.sampled_from(["forbidden", "capped"]),
       hint=st.sampled_from(["any", "next"]))
def test_env_mask_is_the_kernels_legality_under_every_option(players, seed, picks, end, discard,
                                                             hint):
    """The env's masks are ``legal_by_rules`` and exactly the moves its step accepts: any
    action id, legal or not, is tried (``illegal="penalty"``: a refused move changes
    nothing)."""
    env = vecgames.make("hanabi", num_players=players, seed=seed, illegal="penalty",
                        end=end, discard_at_max=discard, hint_target=hint)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # one env: a parallel kernel would only wait at its barrier
    try:
        check_env_masks(env, picks)
    finally:
        numba.set_num_threads(threads)


def check_env_masks(env, picks):
    r = env.rules
    players = r.num_players
    obs, info = env.reset()
    for _ in range(60):
        t = env.state.table[0].copy()
        p = int(t[PLAYER])
        mask = info["action_mask"][0].copy()
        assert list(np.flatnonzero(mask)) == legal_by_rules(t, hands(env.state)[0], r, p)
        for q in range(players):
            want = mask if q == p else np.arange(r.num_actions) == r.noop
            np.testing.assert_array_equal(info["legal_moves"][0, q], want)
        legal = np.flatnonzero(mask)
        a = picks.choice(legal) if picks.random() < 0.7 else picks.randrange(r.num_actions)
        obs, reward, term, trunc, info = env.step([a])
        assert info["illegal"][0] == (not mask[a])
        if not mask[a]:
            np.testing.assert_array_equal(env.state.table[0], t)


@pytest.mark.parametrize("players", [2, 4])
def test_player_memo_moves_with_the_cards(players):
    """A slot's memo word stays with its card through plays and discards (a drawn card's
    word is 0), the free words stay put, the rules never change them otherwise, and a new
    deal zeroes them."""
    r = make_rules(num_players=players)
    h = r.hand_size
    s = new_state(1)
    seed_streams(s.rng, np.uint64(3), 0)
    reset_one(s, 0, r)
    assert not s.memo.any()
    s.table[0, MEMO_ON] = 1  # a player uses the memo in this game (``use_memo``)
    serial = 1
    for seat in range(players):
        for slot in range(h):
            s.memo[0, seat, slot] = serial
            serial += 1
    s.memo[0, :, h:] = 7  # free words
    moves = 0
    while not s.table[0, TERMINAL] and moves < 40:
        t = s.table[0]
        p = t[PLAYER]
        before = s.memo[0, p, :h].copy()
        a = policy_action(0, s, 0, r)  # random legal
        step_one(s, 0, a, r)
        if a < 2 * h:  # a play or a discard of slot a % h
            slot = a % h
            expected = np.concatenate([before[:slot], before[slot + 1:], [0]])
            np.testing.assert_array_equal(s.memo[0, p, :h], expected)
        else:
            np.testing.assert_array_equal(s.memo[0, p, :h], before)
        moves += 1
    assert (s.memo[0, :, h:] == 7).all()
    reset_one(s, 0, r)
    assert not s.memo.any() and s.table[0, MEMO_ON] == 0
