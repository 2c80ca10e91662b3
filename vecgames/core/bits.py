"""Bit tricks for legal-action and player sets kept as integer bitmasks.

``popcount`` is LLVM's ``ctpop`` (one instruction where the CPU has it). ``kth_set_bit`` uses
the BMI2 ``pdep`` instruction when the host has it (x86 since 2013): depositing the bit 1 << k
into the set bits of x lands on the k-th of them, so a uniform pick among the legal actions is
three instructions. Elsewhere it walks bytes with small tables (``kth_set_bit_bytes``).
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .jit import jit
from .rng import below

# Only when Numba compiles for this host (NUMBA_CPU_NAME unset): a generic target lacks BMI2.
HAS_BMI2: bool = (getattr(numba.config, "CPU_NAME") is None  # noqa: B009
                  and bool(llvm.get_host_cpu_features().get("bmi2", False)))


@intrinsic
def _ctpop64(typingctx, x):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return types.int64(types.int64), codegen


@intrinsic
def _pdep64(typingctx, src, mask):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=fnty)
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _opaque64(typingctx, x):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        return builder.asm(fnty, "", "=r,0", args, side_effect=False)

    return types.int64(types.int64), codegen


@jit(inline=True)
def opaque(x):
    """x, through an empty inline-asm barrier: LLVM can no longer see that x is a 0/-1 mask,
    so ``load & mask`` stays an AND instead of becoming a branch around the load."""
    return _opaque64(np.int64(x))


@jit
def popcount(x):
    """Number of set bits of a non-negative int64."""
    return _ctpop64(np.int64(x))


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
def kth_set_bit_bytes(x, k):
    """Index of the k-th (0-based, from the lowest) set bit of x (k < popcount(x)), walking
    bytes with small tables (clearing k bits one by one has a random loop count, and its
    mispredicted exit cost more than the rest of a decision)."""
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
def _kth_set_bit_pdep(x, k):
    return np.int64(trailing_zeros(_pdep64(np.int64(1) << k, np.int64(x))))


# Index of the k-th (0-based, from the lowest) set bit of x.
kth_set_bit = _kth_set_bit_pdep if HAS_BMI2 else kth_set_bit_bytes


@jit
def pick_set_bit(x, bits32):
    """A uniformly chosen set bit of non-zero x, from 32 random bits."""
    return kth_set_bit(x, below(bits32, popcount(x)))
