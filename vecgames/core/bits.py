"""Bit tricks for legal-action and player sets kept as integer bitmasks."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .jit import jit
from .rng import below

_C1 = np.int64(0x5555555555555555)
_C2 = np.int64(0x3333333333333333)
_C4 = np.int64(0x0F0F0F0F0F0F0F0F)
_H01 = np.int64(0x0101010101010101)


@jit
def popcount(x):
    """Number of set bits of a non-negative int64 (< 2**62)."""
    x = np.int64(x)
    x = x - ((x >> 1) & _C1)
    x = (x & _C2) + ((x >> 2) & _C2)
    x = (x + (x >> 4)) & _C4
    return (x * _H01) >> 56


@jit
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero int64."""
    return np.int64(trailing_zeros(np.int64(x)))


def _byte_tables() -> tuple[np.ndarray, np.ndarray]:
    pop = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
    kth = np.zeros((256, 8), dtype=np.int64)
    for b in range(256):
        bits = [t for t in range(8) if (b >> t) & 1]
        kth[b, : len(bits)] = bits
    return pop, kth


POP8, KTH8 = _byte_tables()


@jit
def kth_set_bit(x, k):
    """Index of the k-th (0-based, from the lowest) set bit of x (k < popcount(x)).

    Walks bytes with small tables instead of clearing k bits one by one: the loop count of the
    latter is random, and its mispredicted exit cost more than the rest of a decision.
    """
    x = np.int64(x)
    base = 0
    while True:
        byte = x & 255
        c = POP8[byte]
        if k < c:
            return base + KTH8[byte, k]
        k -= c
        x >>= 8
        base += 8


@jit
def kth_set_bit16(x, k):
    """:func:`kth_set_bit` for x < 2**16, without branches (which byte holds the bit is as
    random as the pick, so a branch on it mispredicts half the time)."""
    low = x & 255
    c = POP8[low]
    high = np.int64(k >= c)
    byte = (x >> (8 * high)) & 255
    return 8 * high + KTH8[byte, k - c * high]


@jit
def pick_set_bit16(x, bits32):
    """A uniformly chosen set bit of non-zero x < 2**16, from 32 random bits."""
    return kth_set_bit16(x, below(bits32, POP8[x & 255] + POP8[(x >> 8) & 255]))
