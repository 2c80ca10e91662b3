"""Random hands eight at a time: the random player's action as one vector step.

A hand's actions form a long chain of dependent loads, compares and bit operations, with a
branch at every street's end that the CPU cannot predict on random play. Here eight hands
share one stream of vector instructions (``vecgames.core.lanes``): ``step`` plays one action
of the random player in each of eight hands at once, as ``policies.random_action``,
``rules.apply_action`` and ``rules._advance`` would, without a branch on any hand's state.
The rest of a hand (the deal and blinds, the showdown and pot award) runs in the scalar rules,
once per hand, on the same memory.

- Memory: ``lanes[field, lane]`` (int64, ``rules.NUM_FIELDS`` x 8), so one field of the
  eight hands is one vector load. ``lane_table(lanes)`` is a ``State.table`` whose row k is
  hand k's fields, which is what the scalar rules take.
- A step ends a lane's hand by setting its ``PLAYER`` to -1; the caller then runs
  ``rules._finish`` on it, as ``_advance`` would have.
- Fields the simulator never reads are not kept: ``RAISES`` (the betting history of the
  env's observations), ``ACTIONS`` (the env's count), and ``PAID``, which during a hand
  equals ``START - STACK``: the caller sets it so before ``_finish``.

Same hands as the scalar engine, action for action (tested).
"""

from __future__ import annotations

import numpy as np

from ...core.jit import jit
from ...core.lanes import (
    WIDTH,
    lane_bits,
    lane_index,
    lane_table,
    popcount,
    select,
    splat,
    srl,
    trailing_zeros,
    vgather,
    vload,
    vmax,
    vmin,
    vscatter,
    vstore,
    vstore_masked,
)
from ...core.rng import _M1, _M2, GOLDEN
from .rules import (
    ACTED,
    ALL_IN,
    BET,
    BUTTON,
    CUR_BET,
    FOLDED,
    MATCHED,
    MAX_PLAYERS,
    NUM_FIELDS,
    PFR,
    PLAYER,
    PREFLOP,
    RAISE_SIZE,
    RIVER,
    SHORT_SUM,
    STACK,
    START,
    STREET,
    VPIP,
    State,
)


def new_lanes(num_runs: int, stacks: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per run: the lanes' fields ``[num_runs, NUM_FIELDS, 8]`` (starting stacks set), decks
    ``[num_runs, 8, 52]`` and streams ``[num_runs, 8]``."""
    lanes = np.zeros((num_runs, NUM_FIELDS, WIDTH), np.int64)
    lanes[:, START:START + len(stacks), :] = np.asarray(stacks, np.int64)[:, None]
    return (lanes, np.zeros((num_runs, WIDTH, 52), np.int8),
            np.zeros((num_runs, WIDTH), np.uint64))


@jit(inline=True)
def lane_state(lanes, decks, rng):
    """The scalar rules' view of one run's lanes: ``table[k]`` is lane k's fields."""
    return State(lane_table(lanes), decks, rng)


@jit(inline=True)
def _get(lanes, f):
    return vload(lanes, f * WIDTH)


@jit(inline=True)
def _put(lanes, f, v):
    vstore(lanes, f * WIDTH, v)


_M1_BITS = int(_M1.view(np.int64))  # splitmix64's multipliers as int64 lane values
_M2_BITS = int(_M2.view(np.int64))


@jit(inline=True)
def _mix64(z):
    """``core.rng.mix64`` on each lane."""
    z = (z ^ srl(z, 30)) * _M1_BITS
    z = (z ^ srl(z, 27)) * _M2_BITS
    return z ^ srl(z, 31)


@jit(inline=True)
def _first_after(seats, seat):
    """``rules._first_after`` per lane (seats non-empty where the result is used)."""
    after = srl(seats, seat + 1)
    return select(after != 0, seat + 1 + trailing_zeros(after), trailing_zeros(seats))


@jit
def step(lanes, rng, r, active):
    """One random action in every lane of ``active`` (a vector mask); returns the lanes whose
    hand ended (as bits), for the caller to finish with ``rules._finish``. The other lanes'
    scalar fields and streams get junk (their seats' fields are not written).

    Each block mirrors the scalar code it is named after; see there for the why of each rule.
    """
    lane = lane_index()
    # an idle lane's PLAYER may be -1: seat 0 keeps its shifts and indices in range
    p = select(active, _get(lanes, PLAYER), 0)
    at_stack = (STACK + p) * WIDTH + lane
    at_bet = (BET + p) * WIDTH + lane
    stack = vgather(lanes, at_stack)
    bet = vgather(lanes, at_bet)
    cur = _get(lanes, CUR_BET)
    folded = _get(lanes, FOLDED)
    all_in = _get(lanes, ALL_IN)
    acted = _get(lanes, ACTED)
    matched = _get(lanes, MATCHED)
    raise_size = _get(lanes, RAISE_SIZE)
    short_sum = _get(lanes, SHORT_SUM)
    street = _get(lanes, STREET)
    bit_p = splat(1) << p

    # raise_bounds
    owed = cur - bet
    to_call = vmin(owed, stack)
    max_to = bet + stack
    not_p = ~folded & ~bit_p
    others = matched & ~all_in & not_p
    if lane_bits((others == 0) & active):
        chips_over = splat(0)
        for q in range(MAX_PLAYERS):
            chips_over |= ((_get(lanes, STACK + q) + _get(lanes, BET + q) > cur) & 1) << q
        others = select(others == 0, chips_over & not_p, others)
    short_all_in = (short_sum > 0) & (short_sum < raise_size) & -(srl(acted, p) & 1)
    can = (to_call >= raise_size) & (stack > owed) & ~short_all_in & (others != 0)
    lo = select(can, vmin(vmax(raise_size, r.big_blind) + cur, max_to), 1)
    hi = select(can, max_to, 0)

    # policies.random_action
    can_fold = to_call > 0
    can_raise = lo <= hi
    x = _get(rng, 0) + GOLDEN
    _put(rng, 0, x)
    bits = _mix64(x)
    low = bits & 0xFFFFFFFF
    k2 = srl(low, 31)
    k3 = srl(low * 3, 32)
    extra = (can_fold & 1) + (can_raise & 1)
    k = (k2 & (extra == 1)) | (k3 & (extra == 2))
    is_fold = (k == 1) & can_fold
    is_raise = (k != 0) & ~is_fold
    # (hi - lo + 1 < 2**31: a 32 x 32-bit product, one instruction instead of three)
    raise_to = lo + srl(srl(bits, 32) * ((hi - lo + 1) & 0xFFFFFFFF), 32)

    # rules.apply_action
    is_call = ~is_fold & ~is_raise
    forced_fold = is_call & (owed > 0) & (stack < owed) & -(r.short_stack_fold != 0)
    is_fold |= forced_fold
    is_call &= ~forced_fold
    paid = vmin(((raise_to - bet) & is_raise) + (owed & is_call), stack)
    stack -= paid
    vscatter(lanes, at_stack, stack, active)
    vscatter(lanes, at_bet, bet + paid, active)
    all_in |= (stack == 0) & bit_p
    folded |= is_fold & bit_p
    preflop = street == PREFLOP
    _put(lanes, VPIP, _get(lanes, VPIP) | (((is_call & (owed > 0)) | is_raise) & preflop & bit_p))
    _put(lanes, PFR, _get(lanes, PFR) | (is_raise & preflop & bit_p))
    size = (raise_to - cur) & is_raise
    full = is_raise & (size >= raise_size)
    acted = (acted & ~full) | (~forced_fold & bit_p)
    matched = (matched & ~is_raise) | bit_p
    raise_size = vmax(raise_size, size)
    new_sum = (short_sum + size) & (stack == 0)
    new_sum &= new_sum < raise_size
    short_sum = select(is_raise, new_sum, short_sum)
    cur = select(is_raise, raise_to, cur)

    # rules._advance (at most one street change: a new street always has two players to act)
    in_hand = ((1 << r.num_players) - 1) & ~folded
    one_left = popcount(in_hand) <= 1
    to_act = in_hand & ~all_in & ~(acted & matched)
    street_over = (to_act == 0) & ~one_left
    last = street_over & ((street == RIVER) | (popcount(in_hand & ~all_in) <= 1))
    new_street = street_over & ~last
    for q in range(MAX_PLAYERS):  # masked stores: no load waits for the row's last writes
        vstore_masked(lanes, (BET + q) * WIDTH, splat(0), street_over & active)
    street -= new_street  # a mask is -1
    cur &= ~new_street
    matched |= new_street
    raise_size &= ~new_street
    short_sum &= ~new_street
    acted = select(new_street, in_hand & all_in, acted)
    to_act = select(new_street, in_hand & ~all_in, to_act)
    start = select(new_street, _get(lanes, BUTTON), p)
    ended = one_left | last
    _put(lanes, PLAYER, select(ended, -1, _first_after(to_act, start)))
    _put(lanes, STREET, street)
    _put(lanes, CUR_BET, cur)
    _put(lanes, RAISE_SIZE, raise_size)
    _put(lanes, SHORT_SUM, short_sum)
    _put(lanes, ACTED, acted)
    _put(lanes, FOLDED, folded)
    _put(lanes, ALL_IN, all_in)
    _put(lanes, MATCHED, matched)
    return lane_bits(ended & active)
