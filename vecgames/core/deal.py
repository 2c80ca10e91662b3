"""Dealing kernels: a partial Fisher-Yates shuffle that picks each card among the unused ones,
per env inside the games' kernels, or as a parallel batch of deals (``deal_batch``)."""

from __future__ import annotations

import numpy as np
from numba import prange

from .cards import NUM_CARDS
from .jit import jit
from .rng import below, check_seed, high32, next_u64, seed_stream
from .validation import check_int


@jit
def deal_prefix(deck, rng, i, n):
    """Shuffle a uniform random ``n``-card prefix into ``deck`` (a length-52 row) from stream i.

    The row is reset to 0..51 first, so a deal depends on the stream alone. The dealt cards are
    ``deck[:n]`` in dealing order. One 64-bit draw serves two cards.
    """
    for c in range(deck.shape[0]):
        deck[c] = c
    shuffle_prefix(deck, rng, i, n)


@jit(inline=True)  # in every game's deal
def shuffle_prefix(deck, rng, i, n):
    """The partial Fisher-Yates of ``deal_prefix`` on the row as it stands: ``deck[:n]``
    becomes a uniform random ordered draw of n of its entries (one 64-bit draw per two)."""
    size = deck.shape[0]
    for k in range(0, n, 2):
        bits = next_u64(rng, i)
        a = np.uint64(k)  # unsigned indices: no negative-index wrap-around code
        j = np.uint64(k + below(bits, size - k))
        tmp = deck[a]
        deck[a] = deck[j]
        deck[j] = tmp
        if k + 1 < n:
            a = np.uint64(k + 1)
            j = np.uint64(k + 1 + below(high32(bits), size - k - 1))
            tmp = deck[a]
            deck[a] = deck[j]
            deck[j] = tmp


DEAL_RUNS = 64  # deals are split into this many runs, each shuffling its own scratch deck


@jit
def _deal_run(decks, rng, c, seed, first, lo, hi, out):
    """Deals lo .. hi-1 one after another in scratch row c; deal d is stream first + d."""
    n = out.shape[1]
    for d in range(lo, hi):
        seed_stream(rng, c, seed, first + d)
        deal_prefix(decks[c], rng, c, n)
        for k in range(n):
            out[d, k] = decks[c, k]


@jit(parallel=True)
def _deal_kernel(decks, rng, seed, first, out):
    runs = decks.shape[0]
    total = out.shape[0]
    for c in prange(runs):
        _deal_run(decks, rng, c, seed, first, (total * c) // runs, (total * (c + 1)) // runs, out)


def deal_batch(num_deals: int, num_cards: int, seed: int = 0, first_deal: int = 0) -> np.ndarray:
    """``num_deals`` independent deals of ``num_cards`` distinct cards from a 52-card deck.

    Returns int8 ``[num_deals, num_cards]``; deal d draws from the stream of global index
    ``first_deal + d`` under ``seed`` (the same deal whatever the thread count or batch split).
    """
    num_deals = check_int(num_deals, "num_deals", 0, 2**40)
    num_cards = check_int(num_cards, "num_cards", 0, NUM_CARDS)
    first_deal = check_int(first_deal, "first_deal", 0, 2**62)
    seed64 = check_seed(seed)
    out = np.empty((num_deals, num_cards), np.int8)
    runs = max(1, min(num_deals, DEAL_RUNS))
    _deal_kernel(np.empty((runs, NUM_CARDS), np.int8), np.empty(runs, np.uint64), seed64,
                 first_deal, out)
    return out
