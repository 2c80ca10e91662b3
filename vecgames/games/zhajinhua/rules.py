"""Zha Jin Hua 扎金花 rules (RULES.md §2): options, the batch state and the per-env kernels.

``step_one(state, i, action, rules)`` is the single implementation of the rules: the VecEnv
kernel and ``simulate`` both call it.

Actions (the seed's numbering): 0 no-op, 1 look 看牌, 2 fold, 3..8 compare with seat 0..5,
9..14 bet 1, 2, 4, 8, 16, 32 blind units. A turn is two decisions of the same player: the look
phase (0 or, while blind, 1) then the action phase (bet, compare or fold). Any other action is
illegal and puts the player out as if folded: the rule of the ``uniform`` simulate policy (the
seed's random player); the env refuses illegal actions before they reach ``step_one``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.deal import deal_prefix
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...core.state_table import table_field
from ...core.validation import check_bool, check_choice, check_int, check_options
from ...poker.three_card import A23_OPTIONS, SPECIAL_235, TRIPS, compare_3, strength_3

MIN_PLAYERS = 2
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
    players = check_int(o["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
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


def rules_to_options(rules: Rules) -> dict[str, Any]:
    """The user-facing options that :func:`make_rules` turns into ``rules``."""
    return {
        "num_players": rules.num_players,
        "ante": rules.ante,
        "no_compare_rounds": rules.no_compare_rounds,
        "max_rounds": rules.max_rounds,
        "a23": A23_OPTIONS[rules.a23_second],
        "special_235": bool(rules.special_235),
        "first_player": None if rules.first_player < 0 else rules.first_player,
    }


# Columns of ``State.table`` (int32): one row of scalars per env, so a per-env function takes
# three arrays. Per-seat fields take MAX_PLAYERS columns starting at their offset.
ALIVE = 0  # bitmask of seats still in
SEEN = 1  # bitmask of seats that have looked
POT = 2
MIN_BET = 3  # minimum bet in blind units (c11)
PLAYER = 4  # seat to act
PHASE = 5  # LOOK_PHASE or ACTION_PHASE
ROUND = 6  # 0-based round
FIRST = 7  # seat that opened the game
DECISIONS = 8  # decisions taken in this game
WINNERS = 9  # bitmask of the seats that won the pot
END = 10  # RUNNING or why the game ended
STRENGTH = 11  # per seat: evaluate_3 of its hand
KNOWN = STRENGTH + MAX_PLAYERS  # per seat p: bitmask of seats whose hand p saw by comparing
PAID = KNOWN + MAX_PLAYERS  # per seat: chips put in this game (ante included)
PAYOUT = PAID + MAX_PLAYERS  # per seat: chips taken from the pot at the end
LAST_ACTION = PAYOUT + MAX_PLAYERS  # per seat: last action other than a legal look, -1 none
NUM_FIELDS = LAST_ACTION + MAX_PLAYERS
SCALAR_FIELDS = ("alive", "seen", "pot", "min_bet", "player", "phase", "round", "first",
                 "decisions", "winners", "end")
SEAT_FIELDS = {"strength": STRENGTH, "known": KNOWN, "paid": PAID, "payout": PAYOUT,
               "last_action": LAST_ACTION}


class State(NamedTuple):
    """A batch of tables, leading axis = env.

    ``table[i]`` holds env i's scalars at the column constants above (see :func:`field` for
    named views); seat p's cards are ``deck[i, 3p:3p+3]``; ``rng[i]`` is env i's stream.
    """

    table: np.ndarray  # int32 [B, NUM_FIELDS]
    deck: np.ndarray  # int8 [B, 52]: a shuffled deck whose prefix is the deal
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    """A zeroed batch; ``rng`` (uint64 [num_envs]) is used as the streams if given."""
    return State(
        table=np.zeros((num_envs, NUM_FIELDS), np.int32),
        deck=np.zeros((num_envs, 52), np.int8),
        rng=np.zeros(num_envs, np.uint64) if rng is None else rng,
    )


def field(state: State, name: str) -> np.ndarray:
    """A named view into ``state.table``: ``[B]`` for scalars, ``[B, 6]`` for per-seat fields."""
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


@jit
def reset_one(s, i, r):
    """Deal a new game in env i from its stream: shuffle, evaluate, ante, pick the opener."""
    n = r.num_players
    t = s.table[i]
    d = s.deck[i]
    deal_prefix(d, s.rng, i, 3 * n)
    for p in range(MAX_PLAYERS):
        if p < n:
            t[STRENGTH + p] = strength_3(d[3 * p], d[3 * p + 1], d[3 * p + 2], r.a23_second)
            t[PAID + p] = r.ante
        else:
            t[STRENGTH + p] = 0
            t[PAID + p] = 0
        t[KNOWN + p] = 0
        t[PAYOUT + p] = 0
        t[LAST_ACTION + p] = -1
    first = r.first_player
    if first < 0:
        first = below(next_u64(s.rng, i), n)
    t[ALIVE] = (1 << n) - 1
    t[SEEN] = 0
    t[POT] = r.ante * n
    t[MIN_BET] = 1
    t[FIRST] = first
    t[PLAYER] = first
    t[PHASE] = LOOK_PHASE
    t[ROUND] = 0
    t[DECISIONS] = 0
    t[WINNERS] = 0
    t[END] = RUNNING


@jit
def legal_bits(s, i, r):
    """Bitmask over the 15 actions of what the player to act may do now."""
    t = s.table[i]
    p = t[PLAYER]
    if t[PHASE] == LOOK_PHASE:
        return 1 if (t[SEEN] >> p) & 1 else 3
    # bets of at least the minimum: min_bet = 2**m enables bits BET0 + m .. BET0 + 5
    m = lowest_bit(t[MIN_BET])
    bits = (1 << FOLD) | (((1 << (6 - m)) - 1) << (BET0 + m))
    return bits | (compare_targets(t, p, r) << COMPARE0)


@jit(inline=True)
def compare_targets(t, p, r):
    """Seats player p may compare with now: the others still in, from round
    ``no_compare_rounds`` on."""
    return (t[ALIVE] & ~(1 << p)) if t[ROUND] >= r.no_compare_rounds else 0


@jit
def _position(seat, first, n):
    """Seat's place in turn order counted from the opener."""
    d = seat - first
    return d + n if d < 0 else d


@jit
def _next_alive(alive, p):
    """The first seat of ``alive`` (non-empty) after p, wrapping around."""
    later = alive >> (p + 1)
    if later != 0:
        return p + 1 + lowest_bit(later)
    return lowest_bit(alive)


@jit
def _share_pot(t, winners):
    """Split the pot equally among ``winners``; the odd chips go to the first winner after the
    opener in turn order (the opener itself is reached last)."""
    count = popcount(winners)
    pot = t[POT]
    share = pot if count == 1 else pot // count  # a lone winner (the usual case): no division
    for p in range(MAX_PLAYERS):  # no branch per seat (a winner's seat is random)
        t[PAYOUT + p] = share * ((winners >> p) & 1)
    q = _next_alive(winners, t[FIRST])
    t[PAYOUT + q] += pot - share * count
    t[WINNERS] = winners


@jit
def _showdown(t, r):
    """Every seat still in shows; the best hands split the pot (2-3-5 beats 豹子 when enabled)."""
    n = r.num_players
    alive = t[ALIVE]
    best = -1
    for p in range(n):
        if (alive >> p) & 1 and t[STRENGTH + p] > best:
            best = t[STRENGTH + p]
    winners = 0
    special = 0
    for p in range(n):
        if (alive >> p) & 1:
            if t[STRENGTH + p] == best:
                winners |= 1 << p
            if t[STRENGTH + p] == SPECIAL_235:
                special |= 1 << p
    if r.special_235 and (best >> 12) == TRIPS and special != 0:
        winners = special
    _share_pot(t, winners)
    t[END] = END_SHOWDOWN


@jit(inline=True)
def step_one(s, i, a, r):
    """Apply action ``a`` of the player to act in env i. Returns True when the game ended.

    Per-seat fields are indexed with unsigned ints: no negative-index wrap-around code."""
    t = s.table[i]
    p = t[PLAYER]
    bit = 1 << p
    t[DECISIONS] += 1
    if t[PHASE] == LOOK_PHASE:
        # Legal: 0 (no-op), or 1 (look) while blind. Tested with bit operations: a branch on
        # which one it is mispredicts half the time under a random policy (20% of a game).
        if ((a >> 1) | (a & (t[SEEN] >> p))) == 0:
            t[SEEN] |= a << p  # a look marks the player as seen
            t[PHASE] = ACTION_PHASE
            return False
        reason = END_ILLEGAL
        out = bit
    elif a >= BET0:
        units = 1 << (a - BET0)
        legal = units >= t[MIN_BET]
        if legal:
            chips = units << ((t[SEEN] >> p) & 1)  # a seen player pays double
            t[np.uint64(PAID + p)] += chips
            t[POT] += chips
            t[MIN_BET] = units
        reason = END_ILLEGAL
        out = 0 if legal else bit
    elif a >= COMPARE0:
        j = a - COMPARE0
        reason = END_ILLEGAL
        out = bit
        if t[ROUND] >= r.no_compare_rounds and j != p and (t[ALIVE] >> j) & 1:
            chips = 2 * t[MIN_BET]
            t[np.uint64(PAID + p)] += chips
            t[POT] += chips
            won = compare_3(t[np.uint64(STRENGTH + p)], t[np.uint64(STRENGTH + j)],
                            r.special_235) > 0
            t[np.uint64(KNOWN + p)] |= 1 << j
            t[np.uint64(KNOWN + j)] |= bit
            out = (1 << j) if won else bit  # a tie puts the comparer out
            reason = END_COMPARE
    else:
        reason = END_FOLD if a == FOLD else END_ILLEGAL  # a fold or an illegal action: out
        out = bit
    t[np.uint64(LAST_ACTION + p)] = a
    t[ALIVE] &= ~out
    return _end_turn(t, r, p, reason)


@jit(inline=True)
def _end_turn(t, r, p, reason):
    """Pass the turn on from seat p: end the game if one seat is left or the rounds ran out."""
    n = r.num_players
    alive = t[ALIVE]
    if (alive & (alive - 1)) == 0:  # one seat left: it takes the pot
        _share_pot(t, alive)
        t[END] = reason
        return True
    q = _next_alive(alive, p)
    first = t[FIRST]
    if _position(q, first, n) <= _position(p, first, n):
        t[ROUND] += 1
        if t[ROUND] >= r.max_rounds:
            _showdown(t, r)
            return True
    t[PLAYER] = q
    t[PHASE] = LOOK_PHASE
    return False
