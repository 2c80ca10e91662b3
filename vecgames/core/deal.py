"""Dealing kernels: a partial Fisher-Yates shuffle that picks each card among the unused ones."""

from __future__ import annotations

from .jit import jit
from .rng import below, high32, next_u64


@jit
def deal_prefix(deck, rng, i, n):
    """Shuffle a uniform random ``n``-card prefix into ``deck`` (a length-52 row) from stream i.

    The row is reset to 0..51 first, so a deal depends on the stream alone. The dealt cards are
    ``deck[:n]`` in dealing order. One 64-bit draw serves two cards.
    """
    size = deck.shape[0]
    for c in range(size):
        deck[c] = c
    for k in range(0, n, 2):
        bits = next_u64(rng, i)
        j = k + below(bits, size - k)
        tmp = deck[k]
        deck[k] = deck[j]
        deck[j] = tmp
        if k + 1 < n:
            j = k + 1 + below(high32(bits), size - k - 1)
            tmp = deck[k + 1]
            deck[k + 1] = deck[j]
            deck[j] = tmp
