"""Lookup tables of the 5/6/7-card Hold'em evaluator.

``build_tables()`` computes them (about 3 s); ``tools/build_poker_tables.py`` writes them to
``data/seven_card_tables.npz``, which the evaluator loads (a test rebuilds and compares).

A hand's *key* is a sum of per-card keys (``CARD_KEY``) plus ``KEY_BASE``:

- bits 0..31 hold the sum of rank keys. ``RANK_KEYS`` were searched greedily
  (``tools/find_rank_keys.py``) so that every multiset of at most 7 ranks with at most 4 of a
  rank has its own sum (largest sum 18,393,157 < 2**25).
- bits 32..47 hold four 4-bit suit counters that start at 3 (``KEY_BASE``): a suit with 5 or
  more cards sets bit 3 of its counter, so ``key & FLUSH_BITS`` reveals a flush with one mask.

Without a flush the rank sum is looked up through a displacement perfect hash: rows are the
low ``ROW_BITS`` bits, columns the rest, ``RANK_TABLE[ROW_OFFSET[sum & ROW_MASK] + (sum >>
ROW_BITS)]`` (73,775 rank multisets in 82,009 slots). With a flush (which, with at
most 7 cards, beats every hand without one) the 13-bit rank mask of the flush suit indexes
``FLUSH_TABLE`` (8192 entries, 16 KB).

Strengths are the standard equivalence classes 1..7462 (larger is stronger): 1..1277 high
card, ..., 7453..7462 straight flush, 7462 the royal flush.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from pathlib import Path

import numpy as np

from ..core.jit import jit

RANK_KEYS = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520)
SUIT_SHIFT = 32
KEY_BASE = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT
RANK_MASK = (1 << SUIT_SHIFT) - 1
ROW_BITS = 13
ROW_MASK = (1 << ROW_BITS) - 1
DATA_FILE = Path(__file__).with_name("data") / "seven_card_tables.npz"

# Category numbers and the first strength of each (CATEGORY_START[9] = 7463 closes the list).
CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
CATEGORY_START = np.array([1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453, 7463], np.int32)
ROYAL_FLUSH = 7462
NUM_STRENGTHS = 7462

_STRAIGHTS = [(top, frozenset(range(top - 4, top + 1))) for top in range(12, 3, -1)]
_WHEEL = (3, frozenset((12, 0, 1, 2, 3)))


def _straight_top(ranks: set[int]) -> int:
    """Top rank of a 5-distinct-rank straight, or -1."""
    for top, needed in [*_STRAIGHTS, _WHEEL]:
        if needed <= ranks:
            return top
    return -1


def _order_key(ranks: tuple[int, ...], flush: bool) -> tuple:
    """A sortable key of a 5-card hand: (category, tie-break ranks...)."""
    counts = {r: ranks.count(r) for r in set(ranks)}
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if len(counts) == 5:
        top = _straight_top(set(ranks))
        if top >= 0:
            return (8 if flush else 4, top)
        return (5 if flush else 0, *order)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}[shape]
    return (category, *order)


def _five_card_strengths() -> dict[tuple, int]:
    """Every distinct 5-card key mapped to its strength 1..7462."""
    keys = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            keys.add(_order_key(ranks, False))
    for ranks in combinations(range(13), 5):
        keys.add(_order_key(ranks, True))
    return {k: i + 1 for i, k in enumerate(sorted(keys))}


def build_tables() -> dict[str, np.ndarray]:
    strength_of = _five_card_strengths()
    assert len(strength_of) == NUM_STRENGTHS

    # Flush table: 5-rank masks directly, 6 and 7 as the best with one rank dropped.
    flush_table = np.zeros(1 << 13, np.uint16)
    for size in (5, 6, 7):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            if size == 5:
                flush_table[mask] = strength_of[_order_key(ranks, True)]
            else:
                flush_table[mask] = max(flush_table[mask & ~(1 << r)] for r in ranks)

    # Rank multisets of 5..7 cards (at most 4 of a rank), best of their 5-card sub-multisets:
    # v(m) = max over one card removed of v(m - card), keyed by the unique rank-key sums.
    best: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            best[sum(RANK_KEYS[r] for r in ranks)] = strength_of[_order_key(ranks, False)]
    for size in (6, 7):
        for ranks in combinations_with_replacement(range(13), size):
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            total = sum(RANK_KEYS[r] for r in ranks)
            best[total] = max(best[total - RANK_KEYS[r]] for r in set(ranks))

    keys = np.fromiter(best.keys(), np.int64, len(best))
    values = np.fromiter(best.values(), np.int64, len(best))
    offsets, table = _perfect_hash(keys, values)
    card_key, card_bit = _card_keys()
    return {"CARD_KEY": card_key, "CARD_BIT": card_bit, "FLUSH_TABLE": flush_table,
            "ROW_OFFSET": offsets, "RANK_TABLE": table}


def _perfect_hash(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Place each row (keys sharing their low ``ROW_BITS`` bits) at the lowest offset where its
    columns hit only free slots, fullest rows first."""
    rows, cols = keys & ROW_MASK, keys >> ROW_BITS
    order = np.lexsort((cols, rows))
    rows, cols, values = rows[order], cols[order], values[order]
    starts = np.searchsorted(rows, np.arange(ROW_MASK + 2))
    row_order = np.argsort(-np.diff(starts), kind="stable")
    table = np.zeros(2 * len(keys) + int(cols.max()) + 1, np.uint16)
    offsets = np.zeros(ROW_MASK + 1, np.int64)
    occupied = np.zeros(table.shape[0], np.bool_)
    _place_rows(row_order, starts, cols, values, table, offsets, occupied)
    used = int(np.flatnonzero(occupied).max()) + 1
    return offsets.astype(np.int32), table[:used].copy()


@jit
def _place_rows(row_order, starts, cols, values, table, offsets, occupied):
    for row in row_order:
        lo, hi = starts[row], starts[row + 1]
        if lo == hi:
            continue
        offset = 0
        while True:
            free = True
            for i in range(lo, hi):
                if occupied[offset + cols[i]]:
                    free = False
                    break
            if free:
                break
            offset += 1
        for i in range(lo, hi):
            occupied[offset + cols[i]] = True
            table[offset + cols[i]] = values[i]
        offsets[row] = offset


def _card_keys() -> tuple[np.ndarray, np.ndarray]:
    """CARD_KEY[card] (rank key + one in the suit counter) and CARD_BIT[card] (the card's rank
    bit in a 16-bit lane per suit)."""
    cards = np.arange(52)
    rank, suit = cards >> 2, cards & 3
    key = np.array(RANK_KEYS, np.int64)[rank] + (np.int64(1) << (SUIT_SHIFT + 4 * suit))
    bit = np.int64(1) << (16 * suit + rank)
    return key.astype(np.int64), bit.astype(np.int64)


def load_tables() -> dict[str, np.ndarray]:
    with np.load(DATA_FILE) as data:
        tables = {name: data[name] for name in data.files}
    for table in tables.values():
        table.flags.writeable = False
    return tables


def strength_order_keys() -> list[tuple]:
    """``keys[s - 1]`` = (category, ranks...) of strength ``s``: category 0..8, then the ranks
    (0..12 = 2..A) that break ties, the most significant first."""
    strength_of = _five_card_strengths()
    return sorted(strength_of, key=strength_of.__getitem__)
