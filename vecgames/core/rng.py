"""Counter-based random streams, one per environment (or simulated game).

Each stream is a splitmix64 Weyl sequence: the state is a uint64 that advances by a fixed odd
constant, and each output is a bijective mix of the state. A stream's starting state is derived
from the user's seed and the env's *global* index only, so results never depend on thread count,
batch split or machine.
"""

from __future__ import annotations

import numpy as np

from .jit import jit
from .validation import shown

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

MAX_SEED = 2**64 - 1


@jit
def mix64(z):
    """The splitmix64 output function (a bijection on uint64)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def seed_key(seed):
    """The part of every stream start that depends on the seed alone (hoist it out of loops)."""
    return mix64(seed ^ GOLDEN)


@jit
def keyed_start(key, index):
    """``stream_start(seed, index)`` given ``key = seed_key(seed)``."""
    return mix64(key + np.uint64(index) * _M2)


@jit
def stream_start(seed, index):
    """Starting state of stream ``index`` (int64 >= 0) under ``seed`` (uint64)."""
    return keyed_start(seed_key(seed), index)


@jit
def next_u64(rng, i):
    """Advance stream ``rng[i]`` and return 64 random bits."""
    x = rng[i] + GOLDEN
    rng[i] = x
    return mix64(x)


@jit
def below(bits32, n):
    """Map 32 random bits to an int in [0, n) by multiply-shift (Lemire; bias < n / 2**32)."""
    return np.int64(((bits32 & _LOW32) * np.uint64(n)) >> _S32)


@jit
def high32(bits):
    """The upper 32 bits of a 64-bit draw, for a second independent small draw."""
    return bits >> _S32


def check_seed(seed, name: str = "seed") -> np.uint64:
    """Validate a user seed (an int in [0, 2**64)) and return it as uint64."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an int in [0, 2**64), got {type(seed).__name__}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"{name} must be in [0, 2**64), got {shown(seed)}")
    return np.uint64(int(seed))


@jit(parallel=False)
def seed_streams(rng, seed, first_index):
    """Set ``rng[j]`` to the start of stream ``first_index + j``."""
    for j in range(rng.shape[0]):
        rng[j] = stream_start(seed, first_index + j)


@jit(parallel=False)
def seed_streams_at(rng, seed, indices):
    """Set ``rng[j]`` to the start of stream ``indices[j]``."""
    for j in range(rng.shape[0]):
        rng[j] = stream_start(seed, indices[j])


@jit
def seed_stream(rng, i, seed, index):
    """``rng[i] = stream_start(seed, index)``, as a call: a direct store to a NamedTuple's
    array inside a ``prange`` body is lost by Numba's parfor pass (seen with numba 0.68)."""
    rng[i] = stream_start(seed, index)
