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
    RANK_TABLE: np.ndarray = _data["RANK_TABLE"]
for _table in (CARD_KEY, CARD_BIT, FLUSH_TABLE, ROW_OFFSET, RANK_TABLE):
    _table.flags.writeable = False

_FLUSH_SUIT_BIAS = SUIT_SHIFT + 3  # bit 3 of suit counter s is bit 35 + 4 s


@jit(inline=True)
def rank_strength(key):
    """Strength of a hand without a flush, from its key."""
    # Unsigned indices spare Numba's negative-index wrap-around.
    rank_sum = np.uint64(key & RANK_MASK)
    row = np.uint64(ROW_OFFSET[rank_sum & np.uint64(ROW_MASK)])
    return RANK_TABLE[row + (rank_sum >> np.uint64(ROW_BITS))]


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
    # The card's rank bit when it has ``suit``, else 0.
    return np.int64((card & 3) == suit) << (card >> 2)


@jit(inline=True)
def _k(card):
    # Unsigned index: no negative-index wrap-around in the hot loop.
    return CARD_KEY[np.uint8(card)]


@jit(inline=True)
def evaluate_5(c0, c1, c2, c3, c4):
    key = KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                           | _suit_mask(c3, s) | _suit_mask(c4, s)]
    return rank_strength(key)


@jit(inline=True)
def evaluate_6(c0, c1, c2, c3, c4, c5):
    key = KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4) + _k(c5)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                           | _suit_mask(c3, s) | _suit_mask(c4, s) | _suit_mask(c5, s)]
    return rank_strength(key)


@jit(inline=True)
def _key_7(c0, c1, c2, c3, c4, c5, c6):
    return KEY_BASE + _k(c0) + _k(c1) + _k(c2) + _k(c3) + _k(c4) + _k(c5) + _k(c6)


@jit(inline=True)
def evaluate_7(c0, c1, c2, c3, c4, c5, c6):
    key = _key_7(c0, c1, c2, c3, c4, c5, c6)
    if key & FLUSH_BITS:
        s = flush_suit(key)
        return FLUSH_TABLE[_suit_mask(c0, s) | _suit_mask(c1, s) | _suit_mask(c2, s)
                           | _suit_mask(c3, s) | _suit_mask(c4, s) | _suit_mask(c5, s)
                           | _suit_mask(c6, s)]
    return rank_strength(key)


# Hands per block of ``_rows_7``: their flush flags fit one uint64.
_BLOCK = 64


@jit(inline=True)
def _rows_7(cards, out, block):
    """``evaluate_7`` of the rows of block ``block`` (64 rows) of ``cards``.

    A flush (3% of random hands) is a branch the CPU mispredicts, and each mispredict throws
    away the work in flight on the next hands. So every hand is first looked up as if it had
    no flush (its rank multiset is in the table all the same), the flushes are marked as bits
    of one word, and only those are evaluated again after the block.
    """
    start = np.uint64(block * _BLOCK)  # unsigned rows: no negative-index wrap-around
    end = min(start + np.uint64(_BLOCK), np.uint64(cards.shape[0]))
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


@jit(parallel=True)
def evaluate_rows(cards, out):
    """``out[i]`` = strength of the hand ``cards[i]`` (rows of 5, 6 or 7 valid card ids)."""
    n = cards.shape[1]
    if n == 7:
        for block in prange((cards.shape[0] + _BLOCK - 1) // _BLOCK):
            _rows_7(cards, out, block)
    elif n == 6:
        for i in prange(cards.shape[0]):
            out[i] = evaluate_6(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3],
                                cards[i, 4], cards[i, 5])
    else:
        for i in prange(cards.shape[0]):
            out[i] = evaluate_5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@jit(parallel=True)
def _bad_rows(cards, bad):
    # bad[i]: the row has an id outside [0, 52) or a repeated card.
    for i in prange(cards.shape[0]):
        seen = np.int64(0)
        ok = True
        for j in range(cards.shape[1]):
            c = np.int64(cards[i, j])
            ok &= (c >= 0) & (c < 52)
            seen |= np.int64(1) << (c & 63)
        bad[i] = not ok or popcount(seen) != cards.shape[1]


def evaluate(cards, check: bool = True) -> np.ndarray:
    """Strengths (int16, 1..7462, larger is stronger) of hands ``[..., 5|6|7]`` of card ids.

    ``check=False`` skips validating ids and distinctness (for arrays you built yourself).
    """
    arr = np.asarray(cards)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"cards must be an integer array of card ids, got dtype {arr.dtype}")
    if arr.ndim == 0 or arr.shape[-1] not in (5, 6, 7):
        raise ValueError(f"cards must have 5, 6 or 7 cards on the last axis, got shape "
                         f"{arr.shape}")
    rows = np.ascontiguousarray(arr.reshape(-1, arr.shape[-1]))
    if rows.dtype not in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        rows = rows.astype(np.int64)
    if check and rows.shape[0]:
        bad = np.empty(rows.shape[0], np.bool_)
        _bad_rows(rows, bad)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            where = tuple(int(j) for j in np.unravel_index(i, arr.shape[:-1]))
            raise ValueError(f"hand {where} {rows[i].tolist()} has a card id outside [0, 52) "
                             f"or a repeated card")
    out = np.empty(rows.shape[0], np.int16)
    evaluate_rows(rows, out)
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
           "evaluate_5", "evaluate_6", "evaluate_7", "evaluate_rows", "evaluate_text",
           "hand_category", "rank_strength", "strength_of"]
