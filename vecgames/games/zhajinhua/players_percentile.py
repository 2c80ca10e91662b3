"""Exact hand-strength percentiles of Zha Jin Hua hands, for the ``percentile`` player.

``PERCENTILE[a23_second, strength]`` is the share of the 22,100 three-card hands that the hand of
``strength`` beats, ties counted half, from the exact distribution (computed once at import in
numpy, about 10 ms). 2-3-5 against 豹子 (``special_235``) is ignored: it moves 1 in 4,000 pairs.
"""

from __future__ import annotations

import numpy as np

from ...poker.three_card import MAX_STRENGTH, STRENGTH


def _all_strengths(a23_second: int) -> np.ndarray:
    """Strength of each of the C(52, 3) = 22,100 hands (card id = rank * 4 + suit)."""
    a, b, c = np.array(
        [(x, y, z) for x in range(52) for y in range(x + 1, 52) for z in range(y + 1, 52)],
        dtype=np.int64,
    ).T
    flush = ((a & 3) == (b & 3)) & ((a & 3) == (c & 3))
    idx = flush * 2197 + (a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)
    return STRENGTH[a23_second, idx].astype(np.int64)


def _percentile_table() -> np.ndarray:
    table = np.zeros((2, MAX_STRENGTH + 1), np.float64)
    for second in (0, 1):
        s = _all_strengths(second)
        counts = np.bincount(s, minlength=MAX_STRENGTH + 1).astype(np.float64)
        below = np.cumsum(counts) - counts  # hands strictly weaker
        table[second] = (below + 0.5 * counts) / s.size
    return table


PERCENTILE = _percentile_table()
