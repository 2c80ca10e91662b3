"""The 5/6/7-card Hold'em evaluator: additive card keys, one flush mask, a perfect hash.

A strength is the hand's equivalence class, 1..7462: larger is stronger, equal is a tie
(see ``seven_card_build`` for how the tables are made). Other kernels use the scalar forms:

- ``evaluate_5/6/7(c0, ...)`` from card ids;
- in enumeration loops, keep ``key = KEY_BASE + sum(CARD_KEY[c])`` and
  ``bits = OR(CARD_BIT[c])`` incrementally and call ``strength_of(key, bits)``.
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numba.cpython.unsafe.numbers import trailing_zeros

from ..core.bits import popcount
from ..core.cards import parse_cards
from ..core.jit import jit
from ..core.validation import check_bool
from .seven_card_build import (
    CATEGORY_NAMES,
    CATEGORY_START,
    DATA_FILE,
    FLUSH_BITS,
    KEY_BASE,
    NUM_STRENGTHS,
    RANK_MASK,
    ROW_BITS,
    ROW_MASK,
    ROYAL_FLUSH,
    SUIT_SHIFT,
)

with np.load(DATA_FILE) as _data:
    CARD_KEY: np.ndarray = _data["CARD_KEY"]
    CARD_BIT: np.ndarray = _data["CARD_BIT"]
    FLUSH_TABLE: np.ndarray = _data["FLUSH_TABLE"]
    ROW_OFFSET: np.ndarray = _data["ROW_OFFSET"]
    _RANK_ROWS: np.ndarray = _data["RANK_TABLE"]

# ``evaluate(check=False)`` promises garbage ids a garbage strength, never a read past a
# table: ``_k`` reads any uint8 id (ids past 51 weigh nothing), and the rank table is
# padded to a power of two so its index is masked, one AND that costs no measurable speed.
_KEY_BY_BYTE = np.zeros(256, np.int64)
_KEY_BY_BYTE[:52] = CARD_KEY
_RANK_INDEX_MASK = (1 << int(len(_RANK_ROWS) - 1).bit_length()) - 1
RANK_TABLE = np.zeros(_RANK_INDEX_MASK + 1, _RANK_ROWS.dtype)
RANK_TABLE[:len(_RANK_ROWS)] = _RANK_ROWS
_FLUSH_INDEX_MASK = len(FLUSH_TABLE) - 1
assert len(FLUSH_TABLE) & _FLUSH_INDEX_MASK == 0  # a power of two: the mask keeps reads in
for _table in (CARD_KEY, CARD_BIT, FLUSH_TABLE, ROW_OFFSET, RANK_TABLE, _KEY_BY_BYTE):
    _table.flags.writeable = False

_u8 = np.uint8
_FLUSH_SUIT_BIAS = SUIT_SHIFT + 3  # bit 3 of suit counter s is bit 35 + 4 s


@jit(inline=True)
def rank_strength(key):
    """Strength of a hand without a flush, from its key."""
    # Unsigned indices spare Numba's negative-index wrap-around.
    rank_sum = np.uint64(key & RANK_MASK)
    row = np.uint64(ROW_OFFSET[rank_sum & np.uint64(ROW_MASK)])
    return RANK_TABLE[(row + (rank_sum >> np.uint64(ROW_BITS))) & np.uint64(_RANK_INDEX_MASK)]


@jit(inline=True)
def flush_suit(key):
    """The suit holding 5+ cards of a key with ``key & FLUSH_BITS`` set."""
    return (trailing_zeros(key & FLUSH_BITS) - _FLUSH_SUIT_BIAS) >> 2


@jit(inline=True)
def strength_of(key, bits):
    """Strength from an incremental key and the OR of the cards' ``CARD_BIT``."""
    if key & FLUSH_BITS:
        return FLUSH_TABLE[(bits >> (16 * flush_suit(key))) & 0x1FFF]
    return rank_strength(key)


@jit(inline=True)
def _suit_mask(card, suit):
    # The card's rank bit when it has ``suit``, else 0 (the id as a byte: a defined shift
    # for any garbage id of ``evaluate(check=False)``).
    return np.int64((card & 3) == suit) << (np.uint8(card) >> np.uint8(2))


@jit(inline=True)
def _k(card):
    # Unsigned index: no negative-index wrap-around in the hot loop.
    return _KEY_BY_BYTE[np.uint8(card)]


@jit(inline=True)
def evaluate_5(c0, c1, c2, c3, c4):
    key = KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[(_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                            | _suit_mask(c3, s) | _suit_mask(c4, s)) & _FLUSH_INDEX_MASK]
    return rank_strength(key)


@jit(inline=True)
def evaluate_6(c0, c1, c2, c3, c4, c5):
    key = KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4) + _k(c5)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[(_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                            | _suit_mask(c3, s) | _suit_mask(c4, s) | _suit_mask(c5, s))
                           & _FLUSH_INDEX_MASK]
    return rank_strength(key)


@jit(inline=True)
def _key_7(c0, c1, c2, c3, c4, c5, c6):
    return KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4) + _k(c5) + _k(c6)


@jit(inline=True)
def evaluate_7(c0, c1, c2, c3, c4, c5, c6):
    key = _key_7(c0, c1, c2, c3, c4, c5, c6)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[(_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                            | _suit_mask(c3, s) | _suit_mask(c4, s) | _suit_mask(c5, s)
                            | _suit_mask(c6, s)) & _FLUSH_INDEX_MASK]
    return rank_strength(key)


# Rows per block of the row kernels: ``_rows_7``'s flush flags fit one uint64, and a block
# is checked just before it is evaluated, while its cards are in L1.
_BLOCK = 64


@jit(inline=True)
def _block_rows(cards, block):
    # Rows [start, end) of a block; unsigned rows: no negative-index wrap-around.
    start = np.uint64(block * _BLOCK)
    return start, min(start + np.uint64(_BLOCK), np.uint64(cards.shape[0]))


@jit(inline=True)
def _rows_valid(cards, start, end):
    """Whether rows [start, end) hold only distinct ids in [0, 52): one 52-bit card set per
    row, branch-free over the rows (no mispredict per row)."""
    n = cards.shape[1]
    bad = np.uint64(0)
    for i in range(start, end):
        seen = np.uint64(0)
        high = np.uint64(0)
        for j in range(n):
            c = np.uint64(cards[i, j])  # a negative id becomes a huge one
            high |= c
            seen |= np.uint64(1) << (c & np.uint64(63))
        # an id of 64+ shows in ``high``, one in 52..63 in ``seen``, a repeat in the count
        bad |= (high >> np.uint64(6)) | (seen >> np.uint64(52)) | np.uint64(popcount(seen) != n)
    return bad == 0


@jit(inline=True)
def _rows_valid_7_bytes(cards, start, end):
    """``_rows_valid`` of 7-card rows of 1-byte ids, as byte compares (the 21 pairs of a row)
    that LLVM vectorises over 32 rows at a time (about 1.4 ns a hand on one thread, against
    4.5 ns to evaluate it). Every value is kept uint8 so that the vector lanes stay bytes."""
    flat = cards.reshape(-1)
    bad = _u8(0)
    for i in range(start, end):
        b = 7 * i
        c0, c1, c2, c3 = _u8(flat[b]), _u8(flat[b + 1]), _u8(flat[b + 2]), _u8(flat[b + 3])
        c4, c5, c6 = _u8(flat[b + 4]), _u8(flat[b + 5]), _u8(flat[b + 6])
        top = _u8(max(_u8(max(_u8(max(c0, c1)), _u8(max(c2, c3)))),
                      _u8(max(_u8(max(c4, c5)), c6))))  # a negative int8 id is 128+
        same = (_u8(c0 == c1) | _u8(c0 == c2) | _u8(c0 == c3) | _u8(c0 == c4) | _u8(c0 == c5)
                | _u8(c0 == c6) | _u8(c1 == c2) | _u8(c1 == c3) | _u8(c1 == c4)
                | _u8(c1 == c5) | _u8(c1 == c6) | _u8(c2 == c3) | _u8(c2 == c4)
                | _u8(c2 == c5) | _u8(c2 == c6) | _u8(c3 == c4) | _u8(c3 == c5)
                | _u8(c3 == c6) | _u8(c4 == c5) | _u8(c4 == c6) | _u8(c5 == c6))
        bad = _u8(bad | _u8(top >= 52) | _u8(same))
    return bad == 0


@jit(inline=True)
def _rows_7(cards, out, start, end):
    """``evaluate_7`` of rows [start, end) (at most 64) of ``cards``.

    A flush (3% of random hands) is a branch the CPU mispredicts, and each mispredict throws
    away the work in flight on the next hands. So every hand is first looked up as if it had
    no flush (its rank multiset is in the table all the same), the flushes are marked as bits
    of one word, and only those are evaluated again after the block.
    """
    flushes = np.uint64(0)
    bit = np.uint64(1)
    for i in range(start, end):
        key = _key_7(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4],
                     cards[i, 5], cards[i, 6])
        out[i] = rank_strength(key)
        flushes |= bit & (np.uint64(0) - np.uint64((key & FLUSH_BITS) != 0))
        bit <<= np.uint64(1)
    while flushes:
        i = start + np.uint64(trailing_zeros(flushes))
        flushes &= flushes - np.uint64(1)
        out[i] = evaluate_7(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4],
                            cards[i, 5], cards[i, 6])


@jit(inline=True)
def _evaluate_block(cards, out, block, check):
    # Evaluates one block; with ``check``, a block holding a bad row is left unevaluated
    # (a bad id would index past the tables) and False is returned.
    start, end = _block_rows(cards, block)
    n = cards.shape[1]
    if check:
        if n == 7 and cards.itemsize == 1:
            valid = _rows_valid_7_bytes(cards, start, end)
        else:
            valid = _rows_valid(cards, start, end)
        if not valid:
            return False
    if n == 7:
        _rows_7(cards, out, start, end)
    elif n == 6:
        for i in range(start, end):
            out[i] = evaluate_6(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3],
                                cards[i, 4], cards[i, 5])
    else:
        for i in range(start, end):
            out[i] = evaluate_5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])
    return True


@jit(parallel=True)
def evaluate_rows(cards, out):
    """``out[i]`` = strength of the hand ``cards[i]`` (rows of 5, 6 or 7 valid card ids)."""
    for block in prange((cards.shape[0] + _BLOCK - 1) // _BLOCK):
        _evaluate_block(cards, out, block, False)


@jit(parallel=True)
def evaluate_rows_checked(cards, out, bad_blocks):
    """:func:`evaluate_rows` checking each block of 64 rows in the same pass:
    ``bad_blocks[b]`` is set (and block b left unevaluated) when a row of it has an id
    outside [0, 52) or a repeated card."""
    for block in prange((cards.shape[0] + _BLOCK - 1) // _BLOCK):
        bad_blocks[block] = not _evaluate_block(cards, out, block, True)


def _first_bad_row(rows: np.ndarray, bad_blocks: np.ndarray) -> int:
    # The first row of the first flagged block with a bad id or a repeated card.
    start = int(np.argmax(bad_blocks)) * _BLOCK
    block = rows[start:start + _BLOCK].astype(np.int64)
    ordered = np.sort(block, axis=1)
    bad = ((block < 0) | (block >= 52)).any(axis=1) | (ordered[:, 1:] == ordered[:, :-1]).any(1)
    return start + int(np.argmax(bad))


def evaluate(cards, check: bool = True) -> np.ndarray:
    """Strengths (int16, 1..7462, larger is stronger) of hands ``[..., 5|6|7]`` of card ids.

    ``check=False`` skips validating ids and distinctness (for arrays you built yourself).
    """
    check = check_bool(check, "check")
    arr = np.asarray(cards)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"cards must be an integer array of card ids, got dtype {arr.dtype}")
    if arr.ndim == 0 or arr.shape[-1] not in (5, 6, 7):
        raise ValueError(f"cards must have 5, 6 or 7 cards on the last axis, got shape "
                         f"{arr.shape}")
    rows = np.ascontiguousarray(arr.reshape(-1, arr.shape[-1]))
    if rows.dtype not in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        # int64 keeps ids of every other width apart from valid ones (uint64 >= 2**63 wrap
        # to negative ids); messages quote the caller's values all the same
        rows = rows.astype(np.int64)
    out = np.empty(rows.shape[0], np.int16)
    if not check:
        evaluate_rows(rows, out)
        return out.reshape(arr.shape[:-1])
    bad_blocks = np.empty(-(-rows.shape[0] // _BLOCK), np.bool_)
    evaluate_rows_checked(rows, out, bad_blocks)
    if bad_blocks.any():
        i = _first_bad_row(rows, bad_blocks)
        where = tuple(int(j) for j in np.unravel_index(i, arr.shape[:-1]))
        raise ValueError(f"hand {where} {arr.reshape(-1, arr.shape[-1])[i].tolist()} has a "
                         f"card id outside [0, 52) or a repeated card")
    return out.reshape(arr.shape[:-1])


def evaluate_text(text: str) -> int:
    """Strength of a hand written as text, ``"AhKh Qh Jh Th 2c 3d"``."""
    return int(evaluate(parse_cards(text)))


@jit
def category_of(strength):
    """0 high card .. 8 straight flush."""
    category = 0
    while strength >= CATEGORY_START[category + 1]:
        category += 1
    return category


def hand_category(strength) -> np.ndarray | int:
    """Category 0..8 of strengths (0 high card, 1 one pair, ..., 8 straight flush; the royal
    flush is the straight flush of strength ``ROYAL_FLUSH``)."""
    arr = _check_strength(strength)
    cats = np.searchsorted(CATEGORY_START, arr, side="right") - 1
    return int(cats) if np.ndim(strength) == 0 else cats


def _check_strength(strength) -> np.ndarray:
    arr = np.asarray(strength)
    if not np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_:
        raise TypeError(f"strength must be integer, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 1 or arr.max() > NUM_STRENGTHS):
        raise ValueError(f"strength must be in 1..{NUM_STRENGTHS}")
    return arr


__all__ = ["CARD_BIT", "CARD_KEY", "CATEGORY_NAMES", "CATEGORY_START", "FLUSH_BITS", "KEY_BASE",
           "NUM_STRENGTHS", "ROYAL_FLUSH", "category_of", "evaluate",
           "evaluate_5", "evaluate_6", "evaluate_7", "evaluate_rows", "evaluate_rows_checked",
           "evaluate_text",
           "hand_category", "rank_strength", "strength_of"]
