"""Hold'em rules against pokerkit: same cards, same actions, same legal choices and stacks."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Automation, Mode, NoLimitTexasHoldem

from vecgames.core.cards import format_card
from vecgames.games.holdem import rules as R

AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
               Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
               Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
               Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
               Automation.RUNOUT_COUNT_SELECTION)


def _cards(ids) -> str:
    return "".join(format_card(int(c)) for c in ids)


def play_against_pokerkit(n, stacks, button, deck, rnd, sb=1, bb=2):
    """Play one hand with random legal actions in both engines; assert they agree."""
    rules = R.make_rules(num_players=n, stack=list(stacks), small_blind=sb, big_blind=bb)
    state = R.new_state(1, stacks)
    state.deck[0] = deck
    R.start_hand(state, 0, rules, button)
    seat = [(button + 1 + j) % n for j in range(n)]  # pokerkit index j -> our seat
    pk = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (sb, bb), bb,
                                         [stacks[s] for s in seat], n, mode=Mode.CASH_GAME)
    for s in seat:
        pk.deal_hole(_cards(deck[2 * s:2 * s + 2]))
    board = deck[2 * n:2 * n + 5]
    dealt = 0
    t = state.table[0]
    while True:
        while pk.can_deal_board():
            take = 3 if dealt == 0 else 1
            pk.deal_board(_cards(board[dealt:dealt + take]))
            dealt += take
        if pk.actor_index is None:
            break
        assert t[R.PLAYER] == seat[pk.actor_index]
        for s in range(n):  # MATCHED: of the seats that can act, those whose bet is the bet
            if not (t[R.FOLDED] | t[R.ALL_IN]) >> s & 1:
                assert (t[R.MATCHED] >> s) & 1 == (t[R.BET + s] == t[R.CUR_BET])
        to_call, lo, hi = R.raise_bounds(state, 0, rules)
        assert to_call == pk.checking_or_calling_amount
        can_raise = pk.can_complete_bet_or_raise_to()
        assert can_raise == (lo <= hi)
        if can_raise:
            assert (lo, hi) == (pk.min_completion_betting_or_raising_to_amount,
                                pk.max_completion_betting_or_raising_to_amount)
        choices = ["call"] + (["fold"] if to_call > 0 else []) + (["raise"] * 2 if can_raise
                                                                  else [])
        choice = rnd.choice(choices)
        if choice == "fold":
            pk.fold()
            assert R.step_one(state, 0, R.FOLD, 0, rules) == R.OK
        elif choice == "call":
            pk.check_or_call()
            assert R.step_one(state, 0, R.CALL, 0, rules) == R.OK
        else:
            amount = rnd.choice([lo, hi, rnd.randint(lo, hi)])
            pk.complete_bet_or_raise_to(amount)
            assert R.step_one(state, 0, R.RAISE, amount, rules) == R.OK
    assert t[R.STREET] == R.HAND_OVER and t[R.PLAYER] == -1
    ours = [int(t[R.STACK + s]) for s in seat]
    assert ours == list(pk.stacks), (ours, pk.stacks)
    assert sum(ours) == sum(stacks)
    return state


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10), st.randoms(use_true_random=False), st.data())
def test_random_hands_match_pokerkit(n, rnd, data):
    stacks = data.draw(st.lists(st.integers(2, 400), min_size=n, max_size=n))
    button = data.draw(st.integers(0, n - 1))
    # blinds of other sizes too (equal blinds excluded: heads-up, pokerkit then picks the
    # other first actor, where RULES.md has the button act first)
    sb = data.draw(st.integers(0, 4))
    bb = data.draw(st.integers(sb + 1, 9))
    deck = np.array(rnd.sample(range(52), 52), np.int8)
    play_against_pokerkit(n, stacks, button, deck, rnd, sb=sb, bb=bb)


def test_many_short_stack_hands_match_pokerkit():
    rnd = random.Random(5)
    for _ in range(400):
        n = rnd.randint(2, 6)
        stacks = [rnd.choice([1, 2, 3, 5, 8, 13, 40, 100]) for _ in range(n)]
        deck = np.array(rnd.sample(range(52), 52), np.int8)
        play_against_pokerkit(n, stacks, rnd.randrange(n), deck, rnd)


def test_illegal_actions_change_nothing():
    rules = R.make_rules(num_players=3)
    state = R.new_state(1, [100] * 3)
    state.deck[0] = np.arange(52, dtype=np.int8)
    R.start_hand(state, 0, rules, 0)
    before = state.table.copy()
    to_call, lo, hi = R.raise_bounds(state, 0, rules)
    assert R.step_one(state, 0, R.RAISE, lo - 1, rules) == -3
    assert R.step_one(state, 0, R.RAISE, hi + 1, rules) == -3
    assert R.step_one(state, 0, 7, 0, rules) == -2
    np.testing.assert_array_equal(state.table, before)
    # the big blind may not fold when everybody limped: checking is free
    for _ in range(2):
        assert R.step_one(state, 0, R.CALL, 0, rules) == R.OK
    assert R.step_one(state, 0, R.FOLD, 0, rules) == -5


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="num_players"):
        R.make_rules(num_players=11)
    with pytest.raises(ValueError, match="stack"):
        R.make_rules(num_players=3, stack=[100, 100])
    with pytest.raises(ValueError, match="small_blind"):
        R.make_rules(small_blind=3, big_blind=2)
    with pytest.raises(ValueError, match="short_stack"):
        R.make_rules(short_stack="sometimes")
