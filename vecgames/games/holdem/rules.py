"""No-limit Texas Hold'em rules (RULES.md §1): options, the batch state and per-env kernels.

``step_one(state, i, kind, raise_to, rules)`` is the single implementation of the rules. An
action is a kind (FOLD, CALL = check or call, RAISE = bet or raise) and, for RAISE, the total
this player's bet reaches on this street ("raise to"). An illegal action changes nothing and
returns a negative code (``ILLEGAL_NAMES``).

Betting (standard no-limit, with pokerkit's reading of the corner cases, which the tests
check action by action; ``raise_bounds`` describes the seed's ``min_raise="call"``): a
raise reaches at least the current bet plus the largest raise on this street (at least the
big blind), at most the player's whole stack; a player who cannot reach that may go all-in
for less. A raise smaller than the largest one so far (a short all-in)
does not reopen the betting: players who already acted may then only call or fold, unless
consecutive short all-ins add up to a full raise. A player whose call would be less than the
largest raise may not raise; nobody may raise when no other player could put in more chips;
and a player whose chips nobody else can match is not asked to act. Pots are split into side
pots by contribution; each goes to the best hands among the players still in who paid into it,
odd chips to the earliest winner after the button.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...core.bits import lowest_bit, opaque, popcount
from ...core.deal import deal_prefix
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...core.state_table import table_field
from ...core.validation import check_choice, check_int, check_options
from ...poker.seven_card import evaluate_7

MIN_PLAYERS = 2
MAX_PLAYERS = 10
FOLD, CALL, RAISE = 0, 1, 2
PREFLOP, FLOP, TURN, RIVER, HAND_OVER = 0, 1, 2, 3, 4
STREET_NAMES = ("preflop", "flop", "turn", "river", "over")
OK = 0
ILLEGAL_NAMES = {-1: "the hand is over", -2: "unknown action kind",
                 -3: "raise amount outside the legal range", -4: "no raise is allowed now",
                 -5: "fold is not allowed when checking is free"}
BUTTON_OPTIONS = ("random", "rotate")
SHORT_STACK_OPTIONS = ("all-in", "fold")
MIN_RAISE_OPTIONS = ("standard", "call")

DEFAULT_OPTIONS: dict[str, Any] = {
    "num_players": 6,
    "stack": 100,
    "small_blind": 1,
    "big_blind": 2,
    "button": "random",
    "short_stack": "all-in",
    "min_raise": "standard",
}


class Rules(NamedTuple):
    """Rule options as plain ints, the form the kernels take (starting stacks live in the
    state table: a tuple field here breaks Numba's parallel kernels)."""

    num_players: int
    small_blind: int
    big_blind: int
    rotate_button: int
    short_stack_fold: int
    min_raise_call: int  # min_raise="call": any raise above a call (the seed's lower bound)


def make_rules(**options: Any) -> Rules:
    """Validate rule options (RULES.md §1) and fill in the defaults."""
    return _parse(options)[0]


def starting_stacks(**options: Any) -> list[int]:
    """The validated per-seat starting stacks of these options."""
    return _parse(options)[1]


def _parse(options: dict[str, Any]) -> tuple[Rules, list[int]]:
    check_options(options, DEFAULT_OPTIONS, "holdem")
    o = {**DEFAULT_OPTIONS, **options}
    n = check_int(o["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
    stack = o["stack"]
    if isinstance(stack, np.ndarray) and stack.ndim == 1:
        stack = stack.tolist()
    if isinstance(stack, Sequence) and not isinstance(stack, str):
        if len(stack) != n:
            raise ValueError(f"stack must be one int or {n} ints (one per seat), got {len(stack)}")
        stacks = [check_int(s, f"stack[{p}]", 1, 10**9) for p, s in enumerate(stack)]
    else:
        stacks = [check_int(stack, "stack", 1, 10**9)] * n
    sb = check_int(o["small_blind"], "small_blind", 0, 10**9)
    bb = check_int(o["big_blind"], "big_blind", 1, 10**9)
    if sb > bb:
        raise ValueError(f"small_blind ({sb}) must not exceed big_blind ({bb})")
    if sum(stacks) > 2**31 - 1:
        raise ValueError("the stacks add up to more than 2**31 - 1 chips")
    rules = Rules(
        num_players=n,
        small_blind=sb,
        big_blind=bb,
        rotate_button=int(check_choice(o["button"], "button", BUTTON_OPTIONS) == "rotate"),
        short_stack_fold=int(check_choice(o["short_stack"], "short_stack",
                                          SHORT_STACK_OPTIONS) == "fold"),
        min_raise_call=int(check_choice(o["min_raise"], "min_raise",
                                        MIN_RAISE_OPTIONS) == "call"),
    )
    return rules, stacks


# Columns of ``State.table`` (int64): scalars, then per-seat blocks of MAX_PLAYERS columns.
BUTTON = 0
PLAYER = 1  # seat to act; -1 once the hand is over
STREET = 2
CUR_BET = 3  # the highest bet on this street
RAISE_SIZE = 4  # the largest bet/raise increment on this street (0 at its start)
ACTED = 5  # seats that acted since the last full raise (they may not raise an incomplete one)
FOLDED = 6
ALL_IN = 7
ACTIONS = 8  # actions taken this hand
NEXT_BUTTON = 9  # with button="rotate": the seat that takes the button next hand
SHORT_SUM = 10  # increments of the consecutive short all-in raises since the last full one
END_STREET = 11  # the street on which the hand ended
SHOWDOWN = 12  # 1 when the hand ended with two or more hands shown
VPIP = 13  # seats that put chips in voluntarily preflop (a call or a raise, not a blind)
PFR = 14  # seats that raised preflop
MATCHED = 15  # seats whose bet is the current bet (meaningful for the seats that can act)
STACK = 16  # per seat: chips behind
BET = STACK + MAX_PLAYERS  # per seat: bet on this street
PAID = BET + MAX_PLAYERS  # per seat: chips put in this hand
PAYOUT = PAID + MAX_PLAYERS  # per seat: chips won at the end
STRENGTH = PAYOUT + MAX_PLAYERS  # per seat: 7-card strength (0 until the showdown)
RAISES = STRENGTH + MAX_PLAYERS  # [street * MAX_PLAYERS + seat]: bets/raises made (env only)
START = RAISES + 4 * MAX_PLAYERS  # per seat: stack at the start of every hand
NUM_FIELDS = START + MAX_PLAYERS
SCALAR_FIELDS = ("button", "player", "street", "cur_bet", "raise_size", "acted", "folded",
                 "all_in", "actions", "next_button", "short_sum", "end_street", "showdown", "vpip",
                 "pfr", "matched")
SEAT_FIELDS = {"stack": STACK, "bet": BET, "paid": PAID, "payout": PAYOUT,
               "strength": STRENGTH, "start": START}


class State(NamedTuple):
    """A batch of tables: ``table[i]`` env i's fields; seat p's hole cards are
    ``deck[i, 2p:2p+2]`` and the board ``deck[i, 2n:2n+5]``; ``rng[i]`` its stream."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    deck: np.ndarray  # int8 [B, 52]
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, stacks: Sequence[int], rng: np.ndarray | None = None) -> State:
    """A batch whose every env starts each hand with ``stacks`` (one per seat)."""
    table = np.zeros((num_envs, NUM_FIELDS), np.int64)
    table[:, START:START + len(stacks)] = stacks
    return State(table=table, deck=np.zeros((num_envs, 52), np.int8),
                 rng=np.zeros(num_envs, np.uint64) if rng is None else rng)


def field(state: State, name: str) -> np.ndarray:
    """A named view into ``state.table``: ``[B]`` for scalars, ``[B, MAX_PLAYERS]`` for
    per-seat fields."""
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


@jit
def _next_seat(seat, n):
    return seat + 1 if seat + 1 < n else 0


@jit(inline=True)
def _post(t, p, amount):
    """Put up to ``amount`` from seat p's stack into its bet (all-in when it has less). A seat
    asked to act has chips, so posting 0 (a fold or a check) never marks it all-in."""
    at_stack = np.uint64(STACK + p)  # unsigned: no negative-index wrap-around
    at_bet = np.uint64(BET + p)
    paid = min(amount, t[at_stack])
    t[at_stack] -= paid
    t[at_bet] += paid
    t[np.uint64(PAID + p)] += paid
    t[ALL_IN] |= np.int64(t[at_stack] == 0) << p


@jit(inline=True)
def start_hand(s, i, r, button):
    """Start a hand in env i with the cards already in ``deck[i]``: stacks, blinds, first actor.
    ``button`` < 0 draws it from the env's stream. The betting history (``RAISES``, read only
    by the env's observations) is left alone: the env clears it (``clear_history``), the
    simulators never read it (clearing its 40 fields was 2% of a random hand)."""
    n = r.num_players
    t = s.table[i]
    for p in range(n):
        t[STACK + p] = t[START + p]
    # Clears over every seat (empty ones stay 0 anyway): a fixed count compiles to a few
    # vector stores, a count of n to a memset call.
    for p in range(MAX_PLAYERS):
        t[BET + p] = 0
        t[PAID + p] = 0
        t[PAYOUT + p] = 0
        t[STRENGTH + p] = 0
    if button < 0:
        button = t[NEXT_BUTTON] % n if r.rotate_button else below(next_u64(s.rng, i), n)
    t[NEXT_BUTTON] = button + 1 if button + 1 < n else 0
    t[BUTTON] = button
    t[STREET] = PREFLOP
    t[FOLDED] = ((1 << MAX_PLAYERS) - 1) ^ ((1 << n) - 1)  # empty seats count as folded
    t[ALL_IN] = 0
    t[ACTED] = 0
    t[ACTIONS] = 0
    t[VPIP] = 0
    t[PFR] = 0
    sb = button if n == 2 else _next_seat(button, n)
    bb = _next_seat(sb, n)
    if r.short_stack_fold:
        # the seed's rule: a player who cannot cover the blind is out of the hand
        for p, blind in ((sb, r.small_blind), (bb, r.big_blind)):
            if t[STACK + p] < blind:
                t[FOLDED] |= 1 << p
    if not (t[FOLDED] >> sb) & 1:
        _post(t, sb, r.small_blind)
    if not (t[FOLDED] >> bb) & 1:
        _post(t, bb, r.big_blind)
    t[CUR_BET] = max(t[BET + sb], t[BET + bb])  # a short big blind sets a lower bet (as pokerkit)
    matched = 0
    for p in range(MAX_PLAYERS):
        matched |= np.int64(t[BET + p] >= t[CUR_BET]) << p
    t[MATCHED] = matched
    _begin_street(t, n)
    t[PLAYER] = bb
    _advance(s, i, r)


@jit
def clear_history(s, i):
    """Clear env i's betting history (``RAISES``) for a new hand."""
    for k in range(4 * MAX_PLAYERS):
        s.table[i, RAISES + k] = 0


@jit
def reset_one(s, i, r):
    """Shuffle and deal a new hand in env i from its stream (a rotating button moves on)."""
    deal_prefix(s.deck[i], s.rng, i, 2 * r.num_players + 5)
    clear_history(s, i)
    start_hand(s, i, r, -1)


@jit
def deal_hand(s, i, r, game):
    """Hand number ``game`` of a simulation in row i: shuffle from the row's stream, and with a
    rotating button give it to seat ``game % n``, so a hand never depends on the hands played
    before it in the same row."""
    deal_prefix(s.deck[i], s.rng, i, 2 * r.num_players + 5)
    start_hand(s, i, r, game % r.num_players if r.rotate_button else -1)


@jit(inline=True)
def _begin_street(t, n):
    """Betting state of the preflop street, after the blinds. A player whose chips nobody else
    can match (its effective stack is 0) counts as having acted: it is not asked unless
    someone raises. Later streets are set up in ``_advance`` without these loops (there, two
    or more players can act, so only the all-in players count as having acted)."""
    t[RAISE_SIZE] = 0
    t[SHORT_SUM] = 0
    t[ACTED] = 0
    top = second = 0  # the two largest bet + stack among the players still in
    for p in range(n):
        if not (t[FOLDED] >> p) & 1:
            total = t[BET + p] + t[STACK + p]
            if total > top:
                top, second = total, top
            elif total > second:
                second = total
    for p in range(n):
        if not (t[FOLDED] >> p) & 1 and min(t[STACK + p], second - t[BET + p]) <= 0:
            t[ACTED] |= 1 << p


@jit(inline=True)
def _first_after(seats, seat):
    """The first seat of the (non-empty) mask ``seats`` after ``seat``, going round the table."""
    after = seats >> (seat + 1)
    return seat + 1 + lowest_bit(after) if after else lowest_bit(seats)


@jit(inline=True)
def _to_act(t, in_hand):
    """Seats that must act: still in, not all-in, and yet to act since the last full raise or
    short of the current bet (as bits, from the maintained MATCHED mask: no pass over the
    bets)."""
    return in_hand & ~t[ALL_IN] & ~(t[ACTED] & t[MATCHED])


@jit(inline=True)
def _advance(s, i, r):
    """After an action (or the blinds): the next seat to act, or end the street / hand."""
    t = s.table[i]
    n = r.num_players
    while True:
        in_hand = ((1 << n) - 1) & ~t[FOLDED]
        if popcount(in_hand) <= 1:
            _finish(s, i, r)
            return
        to_act = _to_act(t, in_hand)
        if to_act:
            t[PLAYER] = _first_after(to_act, t[PLAYER])
            return
        # street over: nobody needs to act
        for p in range(MAX_PLAYERS):  # fixed count: no memset call
            t[BET + p] = 0
        can_act = popcount(in_hand & ~t[ALL_IN])
        if t[STREET] == RIVER or can_act <= 1:
            _finish(s, i, r)
            return
        t[STREET] += 1
        t[CUR_BET] = 0
        t[MATCHED] = -1
        t[RAISE_SIZE] = 0
        t[SHORT_SUM] = 0
        # two or more players can act, so each of them has chips another can match: only the
        # all-in players count as having acted (what _begin_street finds, without its loops)
        t[ACTED] = in_hand & t[ALL_IN]
        t[PLAYER] = t[BUTTON]  # the search starts after the button


@jit(inline=True)
def _finish(s, i, r):
    """Showdown (or a fold win): side pots, payouts; the hand is over."""
    t = s.table[i]
    d = s.deck[i]
    n = r.num_players
    for p in range(MAX_PLAYERS):  # fixed count: no memset call
        t[BET + p] = 0
    in_hand = ((1 << n) - 1) & ~t[FOLDED]
    showdown = popcount(in_hand) > 1
    t[END_STREET] = t[STREET]
    t[SHOWDOWN] = showdown
    b = 2 * n
    if showdown:
        # over the set bits of in_hand: a branch per seat on whether it is in would mispredict
        # on random hands; this loop mispredicts once, at its end
        left = in_hand
        while left:
            p = lowest_bit(left)
            left &= left - 1
            t[STRENGTH + p] = evaluate_7(d[2 * p], d[2 * p + 1], d[b], d[b + 1], d[b + 2],
                                         d[b + 3], d[b + 4])
    # One pot when every player still in paid the most anyone paid (the usual case).
    total = 0
    top = 0
    least_in = np.int64(2**62)
    for p in range(n):
        total += t[PAID + p]
        top = max(top, t[PAID + p])
        if (in_hand >> p) & 1:
            least_in = min(least_in, t[PAID + p])
    if least_in == top:
        _award(t, in_hand, total)
    else:
        _side_pots(t, n, in_hand)
    for p in range(n):
        t[STACK + p] += t[PAYOUT + p]
    t[PLAYER] = -1
    t[STREET] = HAND_OVER


@jit
def _side_pots(t, n, in_hand):
    """Pots are the layers between successive contribution levels, each open to the players
    still in who paid that much. As in pokerkit, hands that win no layer are mucked first, and
    consecutive layers open to the same remaining hands form one pot, so odd chips are counted
    once per pot."""
    contenders = 0
    level = _next_level(t, n, 0)
    while level > 0:
        contenders |= _best_of(t, _eligible(t, n, in_hand, level))
        level = _next_level(t, n, level)
    prev = 0
    pot = 0
    pot_players = 0
    level = _next_level(t, n, 0)
    while level > 0:
        players = _eligible(t, n, in_hand, level) & contenders
        if players != pot_players and pot_players != 0:
            _award(t, pot_players, pot)
            pot = 0
        pot += _layer(t, n, prev, level)
        pot_players = players
        prev = level
        level = _next_level(t, n, level)
    if pot_players:
        _award(t, pot_players, pot)


@jit
def _layer(t, n, lo, hi):
    # Chips all players paid between contribution levels lo and hi.
    amount = 0
    for p in range(n):
        amount += min(t[PAID + p], hi) - min(t[PAID + p], lo)
    return amount


@jit
def _next_level(t, n, above):
    # The smallest contribution above ``above``, or 0 when there is none.
    level = 0
    for p in range(n):
        if t[PAID + p] > above and (level == 0 or t[PAID + p] < level):
            level = t[PAID + p]
    return level


@jit
def _eligible(t, n, in_hand, level):
    players = 0
    for p in range(n):
        if (in_hand >> p) & 1 and t[PAID + p] >= level:
            players |= 1 << p
    return players


@jit(inline=True)
def _best_of(t, players):
    """The seats among ``players`` with the strongest hand (seats not shown have strength 0,
    so a lone player wins a fold), from two passes over the fixed 10 seats without a branch."""
    best = 0
    for p in range(MAX_PLAYERS):
        best = max(best, t[STRENGTH + p] * ((players >> p) & 1))
    winners = 0
    for p in range(MAX_PLAYERS):
        winners |= (((players >> p) & 1) & np.int64(t[STRENGTH + p] == best)) << p
    return winners


@jit
def _award(t, players, amount):
    """One pot to the best hands among ``players``; odd chips to the first after the button."""
    winners = _best_of(t, players)
    count = popcount(winners)
    share = amount if count == 1 else amount // count  # one winner: no division
    for p in range(MAX_PLAYERS):
        t[PAYOUT + p] += share * ((winners >> p) & 1)
    t[np.uint64(PAYOUT + _first_after(winners, t[BUTTON]))] += amount - share * count


@jit(inline=True)
def raise_bounds(s, i, r):
    """(to_call, min_raise_to, max_raise_to) for the player to act; min > max: no raise.

    With ``min_raise="call"`` (the seed's rule) a raise needs one chip over the current bet
    and a bet at least the big blind; ``RAISE_SIZE`` stays 0, so every raise is a full one
    (it reopens the betting, and no call is too short to raise).

    The conditions are computed without a branch each (see ``apply_action``); the one branch
    skips the pass over the seats' chips when a seat that matched the bet can add more (almost
    always, so it is predicted)."""
    t = s.table[i]
    p = t[PLAYER]
    stack = t[np.uint64(STACK + p)]
    bet = t[np.uint64(BET + p)]
    owed = t[CUR_BET] - bet
    to_call = min(owed, stack)
    max_to = bet + stack
    # seats still in, other than p, that could put in more than the current bet: a seat that
    # matched the bet and is not all-in can; only when there is none, look at the others
    not_p = ~t[FOLDED] & ~(np.int64(1) << p)
    others = t[MATCHED] & ~t[ALL_IN] & not_p
    if others == 0:
        for q in range(MAX_PLAYERS):  # a fixed count unrolls (empty seats hold no chips)
            others |= np.int64(t[STACK + q] + t[BET + q] > t[CUR_BET]) << q
        others &= not_p
    # no raise when the call is short of the last raise or takes the whole stack, when facing
    # a short all-in after acting, or when nobody else could put in more chips
    short_all_in = (0 < t[SHORT_SUM]) & (t[SHORT_SUM] < t[RAISE_SIZE]) & ((t[ACTED] >> p) & 1)
    can = (to_call >= t[RAISE_SIZE]) & (stack > owed) & (short_all_in == 0) & (others != 0)
    lo = max(t[RAISE_SIZE], r.big_blind) + t[CUR_BET]
    # min_raise="call": one chip over the bet, a bet at least the big blind (RAISE_SIZE stays 0)
    lo += (max(t[CUR_BET] + 1, r.big_blind) - lo) & -np.int64(r.min_raise_call != 0)
    lo = min(lo, max_to)
    return to_call, np.int64(lo if can else 1), np.int64(max_to if can else 0)


@jit
def check_action(s, i, kind, raise_to, r):
    """OK when step_one would accept the action, else its negative code (changes nothing)."""
    t = s.table[i]
    if t[STREET] == HAND_OVER:
        return -1
    if kind == FOLD:
        return -5 if t[CUR_BET] <= t[BET + t[PLAYER]] else OK
    if kind == CALL:
        return OK
    if kind == RAISE:
        to_call, lo, hi = raise_bounds(s, i, r)
        if lo > hi:
            return -4
        return -3 if raise_to < lo or raise_to > hi else OK
    return -2


@jit
def step_one(s, i, kind, raise_to, r):
    """Apply one action of the player to act; OK or a negative code (nothing changed)."""
    code = check_action(s, i, kind, raise_to, r)
    if code == OK:
        apply_action(s, i, kind, raise_to, r)
    return code


@jit(inline=True)
def apply_action(s, i, kind, raise_to, r):
    """``step_one`` without the legality check, for callers whose actions are legal by
    construction (the simulators' policies).

    Every field is updated by arithmetic on the action's kind rather than by a branch per
    kind, which a random policy's coin flips make the CPU mispredict. With the same in
    ``raise_bounds`` and ``_to_act``: about 3% off a random six-player hand (A/B in
    alternating processes, 9 pairs: 477 -> 461 ns on one thread). Write it with 0/1
    multipliers and masks, not ``x if c else y``: LLVM turned several such selects on the
    kind back into branches (replacing them: 480 -> 446 ns, median of 8 runs in one process).
    LLVM also turns ``load & mask`` into a branch around the load when the load has no other
    use; ``opaque`` hides the mask from it (MATCHED's update below)."""
    t = s.table[i]
    p = t[PLAYER]
    bet = t[np.uint64(BET + p)]  # unsigned: no negative-index wrap-around
    owed = t[CUR_BET] - bet
    is_raise = np.int64(kind == RAISE)
    raise_mask = -is_raise
    # the seed's rule (short_stack="fold"): a call that cannot be covered folds
    forced_fold = np.int64((kind == CALL) & (owed > 0) & (r.short_stack_fold != 0)
                           & (t[np.uint64(STACK + p)] < owed))
    is_fold = np.int64(kind == FOLD) | forced_fold
    is_call = np.int64(kind == CALL) & (forced_fold ^ 1)
    _post(t, p, ((raise_to - bet) & raise_mask) + (owed & -is_call))
    # the one store at a computed column before the scalar fields' stores, so that LLVM can
    # hand those on to _advance in registers
    t[np.uint64(RAISES + t[STREET] * MAX_PLAYERS + p)] += is_raise
    t[FOLDED] |= is_fold << p
    preflop = np.int64(t[STREET] == PREFLOP)
    t[VPIP] |= (((is_call & np.int64(owed > 0)) | is_raise) & preflop) << p
    t[PFR] |= (is_raise & preflop) << p
    size = (raise_to - t[CUR_BET]) & raise_mask
    full = is_raise & np.int64(size >= t[RAISE_SIZE])
    # a full raise reopens the betting for everyone else; a forced fold does not count as acting
    t[ACTED] = (t[ACTED] & (full - 1)) | ((forced_fold ^ 1) << p)
    # a raise leaves only the raiser matched; a call matches (or goes all-in: no longer acts)
    t[MATCHED] = (t[MATCHED] & opaque(~raise_mask)) | (np.int64(1) << p)
    # min_raise="call" keeps RAISE_SIZE at 0: every raise is full and reopens the betting
    raise_size = max(t[RAISE_SIZE], size) & (np.int64(r.min_raise_call != 0) - 1)
    t[RAISE_SIZE] = raise_size
    short_sum = (t[SHORT_SUM] + size) & -np.int64(t[np.uint64(STACK + p)] == 0)
    short_sum &= -np.int64(short_sum < raise_size)
    t[SHORT_SUM] += (short_sum - t[SHORT_SUM]) & raise_mask
    t[CUR_BET] += (raise_to - t[CUR_BET]) & raise_mask
    t[ACTIONS] += 1
    _advance(s, i, r)
