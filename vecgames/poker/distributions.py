"""Exact hand-category distributions over every 5- or 7-card hand of the deck."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import prange

from ..core.jit import jit
from .seven_card import (
    CARD_BIT,
    CARD_KEY,
    CATEGORY_NAMES,
    CATEGORY_START,
    KEY_BASE,
    ROYAL_FLUSH,
    strength_of,
)

# Work is split into this many lanes (a multiple of common core counts); integer counts make
# the result the same on any thread count.
LANES = 16


def pair_tasks(num_cards: int, depth: int) -> np.ndarray:
    """The first two cards (a < b) of every ``depth``-card subset of ``num_cards`` cards, the
    heaviest first: lane j of ``L`` lanes takes tasks j, j + L, ..., which balances the lanes
    whatever the scheduler does with them."""
    pairs = [(a, b) for a in range(num_cards) for b in range(a + 1, num_cards - depth + 2)]
    work = [_choose(num_cards - b - 1, depth - 2) for _, b in pairs]
    order = np.argsort(-np.array(work), kind="stable")
    return np.array(pairs, np.int64)[order]


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k) if 0 <= k <= n else 0


@jit(parallel=True)
def _histogram_7(tasks, hist):
    for lane in prange(hist.shape[0]):
        for t in range(lane, tasks.shape[0], hist.shape[0]):
            _histogram_7_task(tasks[t, 0], tasks[t, 1], hist, lane)


@jit
def _histogram_7_task(a, b, hist, row):
    counts = hist[row]
    k2 = KEY_BASE + CARD_KEY[a] + CARD_KEY[b]
    m2 = CARD_BIT[a] | CARD_BIT[b]
    for c in range(b + 1, 48):
        k3, m3 = k2 + CARD_KEY[c], m2 | CARD_BIT[c]
        for d in range(c + 1, 49):
            k4, m4 = k3 + CARD_KEY[d], m3 | CARD_BIT[d]
            for e in range(d + 1, 50):
                k5, m5 = k4 + CARD_KEY[e], m4 | CARD_BIT[e]
                for f in range(e + 1, 51):
                    k6, m6 = k5 + CARD_KEY[f], m5 | CARD_BIT[f]
                    for g in range(f + 1, 52):  # unsigned: no negative-index checks
                        u = np.uint64(g)
                        counts[strength_of(k6 + CARD_KEY[u], m6 | CARD_BIT[u])] += 1


@jit(parallel=True)
def _histogram_5(tasks, hist):
    for lane in prange(hist.shape[0]):
        for t in range(lane, tasks.shape[0], hist.shape[0]):
            _histogram_5_task(tasks[t, 0], tasks[t, 1], hist, lane)


@jit
def _histogram_5_task(a, b, hist, row):
    k2 = KEY_BASE + CARD_KEY[a] + CARD_KEY[b]
    m2 = CARD_BIT[a] | CARD_BIT[b]
    for c in range(b + 1, 50):
        k3, m3 = k2 + CARD_KEY[c], m2 | CARD_BIT[c]
        for d in range(c + 1, 51):
            k4, m4 = k3 + CARD_KEY[d], m3 | CARD_BIT[d]
            for e in range(d + 1, 52):
                hist[row, strength_of(k4 + CARD_KEY[e], m4 | CARD_BIT[e])] += 1


def strength_histogram(cards: int) -> np.ndarray:
    """Counts of every strength (index 0..7462) over all C(52, ``cards``) hands, 5 or 7."""
    if cards not in (5, 7):
        raise ValueError(f"cards must be 5 or 7, got {cards!r}")
    hist = np.zeros((LANES, ROYAL_FLUSH + 1), np.int64)
    (_histogram_7 if cards == 7 else _histogram_5)(pair_tasks(52, cards), hist)
    return hist.sum(axis=0)


def category_distribution(cards: int = 7) -> pd.DataFrame:
    """Exact counts of each hand category over all 5- or 7-card hands (a royal flush row apart
    from the other straight flushes), with probability and distinct strengths."""
    hist = strength_histogram(cards)
    rows = []
    for category, name in enumerate(CATEGORY_NAMES):
        lo, hi = CATEGORY_START[category], CATEGORY_START[category + 1]
        if category == 8:
            hi = ROYAL_FLUSH
        part = hist[lo:hi]
        rows.append((name, int(part.sum()), int(np.count_nonzero(part))))
    rows.append(("royal flush", int(hist[ROYAL_FLUSH]), int(hist[ROYAL_FLUSH] > 0)))
    frame = pd.DataFrame(rows, columns=["category", "hands", "distinct"]).set_index("category")
    frame["probability"] = frame["hands"] / frame["hands"].sum()
    return frame
