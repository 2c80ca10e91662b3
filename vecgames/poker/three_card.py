"""The 3-card (Zha Jin Hua 扎金花) hand evaluator.

A strength is ``category * 4096 + a * 256 + b * 16 + c``: larger is stronger, equal ties, suits
never rank. Categories: 0 high card 单张, 1 pair 对子, 2 straight 顺子, 3 flush 金花,
4 straight flush 顺金, 5 three of a kind 豹子. Within a category ``(a, b, c)`` are the ranks
(0..12 = 2..A) compared from the highest: a pair is (pair rank, kicker, 0); a straight is
(top rank, 1, 0).

Rule options (RULES.md §2):
- ``a23="lowest"`` (default): A-2-3 is the lowest straight, key (1, 0, 0), below 2-3-4.
  ``a23="second"``: A-2-3 ranks just below A-K-Q, key (12, 0, 0), above K-Q-J.
- ``special_235``: an off-suit 2-3-5 (that is, the high-card hand 5-3-2) beats 豹子 and only
  豹子. That is not a total order, so it lives in :func:`compare_3`, not in the strengths.

The kernels index a table by the three ranks in dealing order plus a flush bit, so no sorting
happens at run time.
"""

from __future__ import annotations

import numpy as np

from ..core.cards import check_cards
from ..core.jit import jit
from ..core.validation import check_bool

HIGH_CARD, PAIR, STRAIGHT, FLUSH, STRAIGHT_FLUSH, TRIPS = range(6)
CATEGORY_NAMES = ("high card", "pair", "straight", "flush", "straight flush", "three of a kind")
CATEGORY_NAMES_ZH = ("单张", "对子", "顺子", "金花", "顺金", "豹子")
A23_OPTIONS = ("lowest", "second")
SPECIAL_235 = 3 * 256 + 1 * 16 + 0  # high card 5-3-2
MAX_STRENGTH = TRIPS * 4096 + 12 * 256  # three aces


def _key(ranks: tuple[int, int, int], flush: bool, a23_second: bool) -> int:
    hi, mid, lo = sorted(ranks, reverse=True)
    if hi == lo:
        return TRIPS * 4096 + hi * 256
    if hi == mid or mid == lo:
        pair, kicker = (hi, lo) if hi == mid else (lo, hi)
        return PAIR * 4096 + pair * 256 + kicker * 16
    if hi - mid == 1 and mid - lo == 1:
        return (STRAIGHT_FLUSH if flush else STRAIGHT) * 4096 + hi * 256 + 16
    if (hi, mid, lo) == (12, 1, 0):
        top = 12 if a23_second else 1
        return (STRAIGHT_FLUSH if flush else STRAIGHT) * 4096 + top * 256
    return (FLUSH if flush else HIGH_CARD) * 4096 + hi * 256 + mid * 16 + lo


def _build_table() -> np.ndarray:
    """STRENGTH[a23_second, flush * 2197 + r0 * 169 + r1 * 13 + r2] for every rank order."""
    table = np.zeros((2, 2 * 2197), dtype=np.int32)
    for second in (0, 1):
        for flush in (0, 1):
            for r0 in range(13):
                for r1 in range(13):
                    for r2 in range(13):
                        idx = flush * 2197 + r0 * 169 + r1 * 13 + r2
                        table[second, idx] = _key((r0, r1, r2), bool(flush), bool(second))
    return table


STRENGTH = _build_table()


@jit(inline=True)  # inlined where a game deals: about 6% of a random Zha Jin Hua game
def strength_3(c0, c1, c2, a23_second):
    """Strength of the hand (c0, c1, c2) of card ids; ``a23_second`` is 0 or 1."""
    s0 = c0 & 3
    flush = 1 if (s0 == (c1 & 3)) and (s0 == (c2 & 3)) else 0
    idx = flush * 2197 + (c0 >> 2) * 169 + (c1 >> 2) * 13 + (c2 >> 2)
    return STRENGTH[a23_second, idx]


@jit
def compare_3(a, b, special_235):
    """+1 if strength a beats b, -1 if b beats a, 0 on a tie; ``special_235`` as in the module."""
    if special_235:
        if a == SPECIAL_235 and (b >> 12) == TRIPS:
            return 1
        if b == SPECIAL_235 and (a >> 12) == TRIPS:
            return -1
    if a > b:
        return 1
    if a < b:
        return -1
    return 0


@jit
def _evaluate_flat(cards, a23_second, out):
    """``out[k]`` = strength of row k; returns -1, or the first row with an id outside
    [0, 52) or a repeated card (rows from it on are left unevaluated). Checking here, in the
    same pass, costs a few compares per row; a separate pass cost more than evaluating."""
    for k in range(cards.shape[0]):
        c0, c1, c2 = cards[k, 0], cards[k, 1], cards[k, 2]
        if (c0 < 0 or c0 >= 52 or c1 < 0 or c1 >= 52 or c2 < 0 or c2 >= 52 or c0 == c1
                or c0 == c2 or c1 == c2):
            return k
        out[k] = strength_3(c0, c1, c2, a23_second)
    return -1


def _a23_flag(a23: str) -> int:
    if not isinstance(a23, str) or a23 not in A23_OPTIONS:
        raise ValueError(f"a23 must be one of {A23_OPTIONS}, got {a23!r}")
    return int(a23 == "second")


def evaluate_3(cards, a23: str = "lowest") -> np.ndarray:
    """Strengths (int32) of 3-card hands given as card ids with shape ``[..., 3]``."""
    a23_second = _a23_flag(a23)
    arr = np.asarray(cards)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"cards must be an integer array of card ids, got dtype {arr.dtype}")
    if arr.ndim == 0 or arr.shape[-1] != 3:
        raise ValueError(f"cards must have a last axis of 3 cards, got {arr.shape}")
    flat = np.ascontiguousarray(arr.reshape(-1, 3))
    if flat.dtype not in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        flat = flat.astype(np.int64)  # uint64 ids of 2**63+ turn negative: still rejected
    out = np.empty(flat.shape[0], dtype=np.int32)
    if _evaluate_flat(flat, a23_second, out) >= 0:
        check_cards(arr, "cards", hand_size=3)  # raises the message for the bad hand
    return out.reshape(arr.shape[:-1])


def _check_strength_3(strength, name: str) -> np.ndarray:
    arr = np.asarray(strength)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must be integer strengths from evaluate_3, got dtype "
                        f"{arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > MAX_STRENGTH):
        raise ValueError(f"{name} must be strengths from evaluate_3, in 0..{MAX_STRENGTH}")
    return arr


def category_3(strength) -> np.ndarray:
    """Category 0 (high card) .. 5 (豹子) of strengths from :func:`evaluate_3`."""
    return _check_strength_3(strength, "strength") >> 12


def beats_3(a, b, special_235: bool = False) -> np.ndarray:
    """Elementwise: does strength a beat strength b (with the 2-3-5 rule when asked)."""
    a = _check_strength_3(a, "a")
    b = _check_strength_3(b, "b")
    special_235 = check_bool(special_235, "special_235")
    out = a > b
    if special_235:
        out = np.where((a == SPECIAL_235) & (b >> 12 == TRIPS), True, out)
        out = np.where((b == SPECIAL_235) & (a >> 12 == TRIPS), False, out)
    return out
