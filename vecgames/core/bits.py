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


@jit
def kth_set_bit(x, k):
    """Index of the k-th (0-based, from the lowest) set bit of x."""
    x = np.int64(x)
    for _ in range(k):
        x &= x - 1
    return np.int64(trailing_zeros(x))


@jit
def pick_set_bit(x, bits32):
    """A uniformly chosen set bit of non-zero x, from 32 random bits."""
    return kth_set_bit(x, below(bits32, popcount(x)))
