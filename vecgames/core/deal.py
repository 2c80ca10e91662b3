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


@jit
def _deal_one(decks, rng, j, seed, index, n):
    seed_stream(rng, j, seed, index)
    deal_prefix(decks[j], rng, j, n)


@jit(parallel=True)
def _deal_kernel(decks, rng, seed, first, n):
    for j in prange(decks.shape[0]):
        _deal_one(decks, rng, j, seed, first + j, n)


def deal_batch(num_deals: int, num_cards: int, seed: int = 0, first_deal: int = 0) -> np.ndarray:
    """``num_deals`` independent deals of ``num_cards`` distinct cards from a 52-card deck.

    Returns int8 ``[num_deals, num_cards]``; deal d draws from the stream of global index
    ``first_deal + d`` under ``seed`` (the same deal whatever the thread count or batch split).
    """
    num_deals = check_int(num_deals, "num_deals", 0, 2**40)
    num_cards = check_int(num_cards, "num_cards", 0, NUM_CARDS)
    first_deal = check_int(first_deal, "first_deal", 0, 2**62)
    decks = np.empty((num_deals, NUM_CARDS), np.int8)
    rng = np.empty(num_deals, np.uint64)
    _deal_kernel(decks, rng, check_seed(seed), first_deal, num_cards)
    return np.ascontiguousarray(decks[:, :num_cards])
