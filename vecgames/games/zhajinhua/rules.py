"""Zha Jin Hua 扎金花 rules (RULES.md §2): options, the batch state and the per-env kernels.

``step_one(state, i, action, rules)`` is the single implementation of the rules: the VecEnv
kernel and ``simulate`` both call it.

Actions (the seed's numbering): 0 no-op, 1 look 看牌, 2 fold, 3..8 compare with seat 0..5,
9..14 bet 1, 2, 4, 8, 16, 32 blind units. A turn is two decisions of the same player: the look
phase (0 or, while blind, 1) then the action phase (bet, compare or fold). Any other action is
illegal and puts the player out as if folded.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.deal import deal_prefix
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...core.validation import check_bool, check_choice, check_int, check_options
from ...poker.three_card import A23_OPTIONS, SPECIAL_235, TRIPS, compare_3, strength_3

MAX_PLAYERS = 6
NUM_ACTIONS = 15
NOOP, LOOK, FOLD, COMPARE0, BET0 = 0, 1, 2, 3, 9
BET_UNITS = (1, 2, 4, 8, 16, 32)
ACTION_NAMES = (
    ("no-op", "look", "fold")
    + tuple(f"compare {j}" for j in range(6))
    + tuple(f"bet {u}" for u in BET_UNITS)
)
LOOK_PHASE, ACTION_PHASE = 0, 1
# Why a game ended.
RUNNING, END_FOLD, END_COMPARE, END_SHOWDOWN, END_ILLEGAL = 0, 1, 2, 3, 4
END_NAMES = ("running", "fold", "compare", "showdown", "illegal")

DEFAULT_OPTIONS: dict[str, Any] = {
    "num_players": 6,
    "ante": 1,
    "no_compare_rounds": 1,
    "max_rounds": 20,
    "a23": "lowest",
    "special_235": False,
    "first_player": None,
}


class Rules(NamedTuple):
    """Rule options as plain ints, the form the kernels take."""

    num_players: int
    ante: int
    no_compare_rounds: int
    max_rounds: int
    a23_second: int
    special_235: int
    first_player: int  # -1: drawn at random for every game


def make_rules(**options: Any) -> Rules:
    """Validate rule options (RULES.md §2) and fill in the defaults."""
    check_options(options, DEFAULT_OPTIONS, "zhajinhua")
    o = {**DEFAULT_OPTIONS, **options}
    players = check_int(o["num_players"], "num_players", 2, MAX_PLAYERS)
    first = o["first_player"]
    return Rules(
        num_players=players,
        ante=check_int(o["ante"], "ante", 0, 1_000_000),
        no_compare_rounds=check_int(o["no_compare_rounds"], "no_compare_rounds", 0, 10_000),
        max_rounds=check_int(o["max_rounds"], "max_rounds", 1, 10_000),
        a23_second=int(check_choice(o["a23"], "a23", A23_OPTIONS) == "second"),
        special_235=int(check_bool(o["special_235"], "special_235")),
        first_player=-1 if first is None else check_int(first, "first_player", 0, players - 1),
    )


class State(NamedTuple):
    """A batch of tables, leading axis = env. Seat p's cards are ``deck[i, 3p:3p+3]``."""

    deck: np.ndarray  # int8 [B, 52]: a shuffled deck whose prefix is the deal
    strength: np.ndarray  # int32 [B, 6]: evaluate_3 of each seat's hand
    alive: np.ndarray  # int32 [B]: bitmask of seats still in
    seen: np.ndarray  # int32 [B]: bitmask of seats that have looked
    known: np.ndarray  # int32 [B, 6]: bitmask of seats whose hand seat p saw by comparing
    paid: np.ndarray  # int32 [B, 6]: chips each seat put in this game (ante included)
    payout: np.ndarray  # int32 [B, 6]: chips each seat took from the pot at the end
    pot: np.ndarray  # int32 [B]
    min_bet: np.ndarray  # int32 [B]: minimum bet in blind units (c11)
    player: np.ndarray  # int32 [B]: seat to act
    phase: np.ndarray  # int32 [B]: LOOK_PHASE or ACTION_PHASE
    round: np.ndarray  # int32 [B]: 0-based round
    first: np.ndarray  # int32 [B]: seat that opened the game
    decisions: np.ndarray  # int32 [B]: decisions taken in this game
    last_action: np.ndarray  # int8 [B, 6]: last non-look action per seat, -1 for none
    winners: np.ndarray  # int32 [B]: bitmask of the seats that won the pot
    end: np.ndarray  # int8 [B]: RUNNING or why the game ended
    rng: np.ndarray  # uint64 [B]: the env's random stream


def new_state(num_envs: int) -> State:
    b = num_envs
    return State(
        deck=np.zeros((b, 52), np.int8),
        strength=np.zeros((b, MAX_PLAYERS), np.int32),
        alive=np.zeros(b, np.int32),
        seen=np.zeros(b, np.int32),
        known=np.zeros((b, MAX_PLAYERS), np.int32),
        paid=np.zeros((b, MAX_PLAYERS), np.int32),
        payout=np.zeros((b, MAX_PLAYERS), np.int32),
        pot=np.zeros(b, np.int32),
        min_bet=np.zeros(b, np.int32),
        player=np.zeros(b, np.int32),
        phase=np.zeros(b, np.int32),
        round=np.zeros(b, np.int32),
        first=np.zeros(b, np.int32),
        decisions=np.zeros(b, np.int32),
        last_action=np.full((b, MAX_PLAYERS), -1, np.int8),
        winners=np.zeros(b, np.int32),
        end=np.zeros(b, np.int8),
        rng=np.zeros(b, np.uint64),
    )


@jit
def reset_one(s, i, r):
    """Deal a new game in env i from its stream: shuffle, evaluate, ante, pick the opener."""
    n = r.num_players
    deal_prefix(s.deck[i], s.rng, i, 3 * n)
    for p in range(MAX_PLAYERS):
        if p < n:
            c = 3 * p
            s.strength[i, p] = strength_3(s.deck[i, c], s.deck[i, c + 1], s.deck[i, c + 2],
                                          r.a23_second)
            s.paid[i, p] = r.ante
        else:
            s.strength[i, p] = 0
            s.paid[i, p] = 0
        s.known[i, p] = 0
        s.payout[i, p] = 0
        s.last_action[i, p] = -1
    first = r.first_player
    if first < 0:
        first = below(next_u64(s.rng, i), n)
    s.alive[i] = (1 << n) - 1
    s.seen[i] = 0
    s.pot[i] = r.ante * n
    s.min_bet[i] = 1
    s.first[i] = first
    s.player[i] = first
    s.phase[i] = LOOK_PHASE
    s.round[i] = 0
    s.decisions[i] = 0
    s.winners[i] = 0
    s.end[i] = RUNNING


@jit
def legal_bits(s, i, r):
    """Bitmask over the 15 actions of what the player to act may do now."""
    p = s.player[i]
    if s.phase[i] == LOOK_PHASE:
        return 1 if (s.seen[i] >> p) & 1 else 3
    # bets of at least the minimum: min_bet = 2**m enables bits BET0 + m .. BET0 + 5
    m = lowest_bit(s.min_bet[i])
    bits = (1 << FOLD) | (((1 << (6 - m)) - 1) << (BET0 + m))
    if s.round[i] >= r.no_compare_rounds:
        bits |= (s.alive[i] & ~(1 << p)) << COMPARE0
    return bits


@jit
def _pay(s, i, p, chips):
    s.paid[i, p] += chips
    s.pot[i] += chips


@jit
def _position(seat, first, n):
    """Seat's place in turn order counted from the opener."""
    d = seat - first
    return d + n if d < 0 else d


@jit
def _next_alive(alive, p, n):
    q = p
    for _ in range(n):
        q += 1
        if q == n:
            q = 0
        if (alive >> q) & 1:
            return q
    return p


@jit
def _share_pot(s, i, winners, n):
    """Split the pot equally among ``winners``; the odd chips go to the first winner after the
    opener in turn order (the opener itself is reached last)."""
    count = popcount(winners)
    pot = s.pot[i]
    share = pot // count
    for p in range(n):
        if (winners >> p) & 1:
            s.payout[i, p] = share
    q = _next_alive(winners, s.first[i], n)
    s.payout[i, q] += pot - share * count
    s.winners[i] = winners


@jit
def _showdown(s, i, r):
    """Every seat still in shows; the best hands split the pot (2-3-5 beats 豹子 when enabled)."""
    n = r.num_players
    alive = s.alive[i]
    best = -1
    for p in range(n):
        if (alive >> p) & 1 and s.strength[i, p] > best:
            best = s.strength[i, p]
    winners = 0
    special = 0
    for p in range(n):
        if (alive >> p) & 1:
            if s.strength[i, p] == best:
                winners |= 1 << p
            if s.strength[i, p] == SPECIAL_235:
                special |= 1 << p
    if r.special_235 and (best >> 12) == TRIPS and special != 0:
        winners = special
    _share_pot(s, i, winners, n)
    s.end[i] = END_SHOWDOWN


@jit
def step_one(s, i, a, r):
    """Apply action ``a`` of the player to act in env i. Returns True when the game ended."""
    n = r.num_players
    p = s.player[i]
    bit = 1 << p
    s.decisions[i] += 1
    reason = END_ILLEGAL
    legal = True
    if s.phase[i] == LOOK_PHASE:
        if a == NOOP or (a == LOOK and (s.seen[i] & bit) == 0):
            if a == LOOK:
                s.seen[i] |= bit
            s.phase[i] = ACTION_PHASE
            return False
        legal = False
    elif a >= BET0:
        units = 1 << (a - BET0)
        if units >= s.min_bet[i]:
            _pay(s, i, p, units << ((s.seen[i] >> p) & 1))  # a seen player pays double
            s.min_bet[i] = units
        else:
            legal = False
    elif a >= COMPARE0:
        j = a - COMPARE0
        if s.round[i] >= r.no_compare_rounds and j != p and (s.alive[i] >> j) & 1:
            _pay(s, i, p, 2 * s.min_bet[i])
            won = compare_3(s.strength[i, p], s.strength[i, j], r.special_235) > 0
            s.alive[i] &= ~((1 << j) if won else bit)  # a tie puts the comparer out
            s.known[i, p] |= 1 << j
            s.known[i, j] |= bit
            reason = END_COMPARE
        else:
            legal = False
    elif a == FOLD:
        s.alive[i] &= ~bit
        reason = END_FOLD
    else:
        legal = False
    s.last_action[i, p] = a
    if not legal:
        s.alive[i] &= ~bit
    alive = s.alive[i]
    if (alive & (alive - 1)) == 0:  # one seat left: it takes the pot
        _share_pot(s, i, alive, n)
        s.end[i] = reason
        return True
    q = _next_alive(alive, p, n)
    first = s.first[i]
    if _position(q, first, n) <= _position(p, first, n):
        s.round[i] += 1
        if s.round[i] >= r.max_rounds:
            _showdown(s, i, r)
            return True
    s.player[i] = q
    s.phase[i] = LOOK_PHASE
    return False
