"""Short float rows written as one vector operation: bit fields and thermometers.

Observation encoders spend their time writing rows of a few dozen 0/1 or small-integer
floats. Numba leaves LLVM's SLP vectoriser off (it miscompiled, numba#8852), and LLVM unrolls
a loop of fixed short length before its loop vectoriser sees it, so such loops end up as one
scalar convert, multiply and store per value (measured: the Hanabi belief block, 10 rows of
35 values, 500 ns per env that way). These intrinsics emit the vector operations directly;
LLVM lowers them to the target's vectors (or to scalars where it has none):

- ``write_fields(out, start, x, scale, N, W)``: ``out[start + m] = ((x >> (W m)) & (2**W - 1))
  * scale`` for m < N;
- ``write_thermometer(out, start, k, N)``: ``out[start + m] = 1.0 if m < k else 0.0`` for
  m < N.

N and W must be integer constants (N W <= 64). ``out`` is a 1-D C-contiguous float32 array,
``x`` and ``k`` int64, ``scale`` float32. The rows must lie inside ``out``: like Numba's own
indexing this is checked only under ``NUMBA_BOUNDSCHECK=1`` (the rule tests in CI), which
raises ``IndexError``.
"""

from __future__ import annotations

from typing import Any

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_F32 = ir.FloatType()


def _literal(value: types.Type, name: str, low: int, high: int) -> int:
    if not isinstance(value, types.IntegerLiteral):
        raise TypingError(f"{name} must be an integer constant, got {value}")
    n = value.literal_value
    if not low <= n <= high:
        raise TypingError(f"{name} must be in [{low}, {high}], got {n}")
    return n


def _check_array(out: types.Type) -> None:
    if not (isinstance(out, types.Array) and out.ndim == 1 and out.dtype == types.float32
            and out.layout == "C"):
        raise TypingError(f"expected a 1-D C-contiguous float32 array, got {out}")


def _splat(builder: ir.IRBuilder, value: ir.Value, n: int) -> ir.Value:
    vec = ir.VectorType(value.type, n)
    one = builder.insert_element(ir.Constant(vec, ir.Undefined), value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                  ir.Constant(ir.VectorType(_I32, n), [0] * n))


def _store_row(context: Any, builder: ir.IRBuilder, array_type: types.Array, array: ir.Value,
               start: ir.Value, row: ir.Value, n: int) -> None:
    """Store the <n x float> ``row`` at ``array[start]`` (unaligned)."""
    ary = context.make_array(array_type)(context, builder, array)
    if getattr(numba.config, "BOUNDSCHECK"):  # noqa: B009  (not in numba's stubs)
        size = builder.extract_value(ary.shape, 0)
        cgutils.do_boundscheck(context, builder, start, size, 0)
        cgutils.do_boundscheck(context, builder, builder.add(start, start.type(n - 1)), size, 0)
    at = builder.gep(ary.data, [start])
    store = builder.store(row, builder.bitcast(at, row.type.as_pointer()))
    store.align = 4


@intrinsic(prefer_literal=True)
def write_fields(typingctx, out, start, x, scale, n, width):
    _check_array(out)
    lanes = _literal(n, "n", 1, 64)
    bits = _literal(width, "width", 1, 64 // lanes)
    sig = types.void(out, types.int64, types.int64, types.float32, n, width)

    def codegen(context, builder, signature, args):
        array, start_v, x_v, scale_v = args[:4]
        vec = ir.VectorType(_I64, lanes)
        shifts = ir.Constant(vec, [bits * m for m in range(lanes)])
        fields = builder.and_(builder.lshr(_splat(builder, x_v, lanes), shifts),
                              ir.Constant(vec, [(1 << bits) - 1] * lanes))
        row = builder.fmul(builder.uitofp(fields, ir.VectorType(_F32, lanes)),
                           _splat(builder, scale_v, lanes))
        _store_row(context, builder, signature.args[0], array, start_v, row, lanes)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic(prefer_literal=True)
def write_thermometer(typingctx, out, start, k, n):
    _check_array(out)
    lanes = _literal(n, "n", 1, 64)
    sig = types.void(out, types.int64, types.int64, n)

    def codegen(context, builder, signature, args):
        array, start_v, k_v = args[:3]
        index = ir.Constant(ir.VectorType(_I64, lanes), list(range(lanes)))
        below = builder.icmp_signed("<", index, _splat(builder, k_v, lanes))
        row = builder.uitofp(below, ir.VectorType(_F32, lanes))
        _store_row(context, builder, signature.args[0], array, start_v, row, lanes)
        return context.get_dummy_value()

    return sig, codegen
