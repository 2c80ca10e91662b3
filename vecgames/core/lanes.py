"""Eight int64 lanes as one value: the vector type of lockstep kernels.

A lockstep kernel advances eight independent games with one stream of vector instructions,
one game per lane, without a branch on any game's state (a branch a random game would make
the CPU mispredict). Numba has no vector type, and its loop vectoriser does poorly on such
code (measured: 5-7 ns per lane for a tenth of a Hold'em action); ``Int64x8`` is LLVM's
``<8 x i64>``, so every operation below is one vector instruction (or a few) on a CPU with
AVX-512, and is lowered to narrower vectors or scalars elsewhere.

- Operators: ``+ - * & | ^ ~ << >>`` (``>>`` arithmetic, ``srl`` logical; a shift count must
  lie in [0, 63] in every lane, unused lanes included, as in LLVM), unary ``-``, and
  the comparisons ``== != < <= > >=``, which give masks: -1 in the lanes where they hold, else
  0. A Python int on either side is broadcast.
- ``splat(x)``, ``lane_index()`` (0..7), ``vmin``, ``vmax``, ``select(mask, a, b)``,
  ``popcount``, ``trailing_zeros`` (64 for 0), ``srl``, ``lane_bits(mask)`` (bit k set where
  lane k is non-zero), ``lane(v, k)``.
- Memory: ``vload(a, start)`` / ``vstore(a, start, v)`` for eight consecutive elements of a
  C-contiguous int64 or uint64 array (flat index ``start``); ``vgather(a, index)`` and
  ``vscatter(a, index, v, mask)`` for one element per lane at flat indices;
  ``vstore_masked(a, start, v, mask)``. Indices are
  checked only under ``NUMBA_BOUNDSCHECK=1`` (the rule tests in CI), like Numba's own.
"""

from __future__ import annotations

import operator
from typing import Any

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic, models, overload, register_model

WIDTH = 8
_I1 = ir.IntType(1)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_VEC = ir.VectorType(_I64, WIDTH)
_MASK = ir.VectorType(_I1, WIDTH)
_PTRS = ir.VectorType(_I64.as_pointer(), WIDTH)


class Int64x8Type(types.Type):
    """Numba's type of an ``<8 x i64>`` value."""

    def __init__(self) -> None:
        super().__init__(name="Int64x8")


int64x8 = Int64x8Type()


@register_model(Int64x8Type)
class _Int64x8Model(models.PrimitiveModel):
    def __init__(self, dmm: Any, fe_type: Any) -> None:
        super().__init__(dmm, fe_type, _VEC)


def _is_vec(t: Any) -> bool:
    return isinstance(t, Int64x8Type)


def _splat_ir(builder: ir.IRBuilder, value: ir.Value) -> ir.Value:
    one = builder.insert_element(ir.Constant(_VEC, ir.Undefined), value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(one, ir.Constant(_VEC, ir.Undefined),
                                  ir.Constant(ir.VectorType(_I32, WIDTH), [0] * WIDTH))


def _as_vec_ir(context: Any, builder: ir.IRBuilder, value: ir.Value, ty: Any) -> ir.Value:
    if _is_vec(ty):
        return value
    return _splat_ir(builder, context.cast(builder, value, ty, types.int64))


def _operand(t: Any) -> bool:
    return _is_vec(t) or isinstance(t, (types.Integer, types.Boolean))


@intrinsic
def splat(typingctx, x):
    """The int x in every lane."""
    if not isinstance(x, (types.Integer, types.Boolean)):
        raise TypingError(f"splat takes an integer, got {x}")

    def codegen(context, builder, signature, args):
        return _as_vec_ir(context, builder, args[0], signature.args[0])

    return int64x8(x), codegen


def _binary_intrinsic(name: str, build: Any) -> Any:
    """An intrinsic ``(a, b) -> Int64x8`` where either side may be an int (broadcast)."""

    def typer(typingctx, a, b):
        if not (_operand(a) and _operand(b) and (_is_vec(a) or _is_vec(b))):
            return None

        def codegen(context, builder, signature, args):
            x = _as_vec_ir(context, builder, args[0], signature.args[0])
            y = _as_vec_ir(context, builder, args[1], signature.args[1])
            return build(builder, x, y)

        return int64x8(a, b), codegen

    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


def _mask_ir(builder: ir.IRBuilder, bits: ir.Value) -> ir.Value:
    return builder.sext(bits, _VEC)  # <8 x i1> -> 0 / -1 lanes


def _compare(op: str) -> Any:
    return lambda b, x, y: _mask_ir(b, b.icmp_signed(op, x, y))


def _min_max(op: str) -> Any:
    return lambda b, x, y: b.select(b.icmp_signed(op, x, y), x, y)


_add = _binary_intrinsic("_add", lambda b, x, y: b.add(x, y))
_sub = _binary_intrinsic("_sub", lambda b, x, y: b.sub(x, y))
_mul = _binary_intrinsic("_mul", lambda b, x, y: b.mul(x, y))
_and = _binary_intrinsic("_and", lambda b, x, y: b.and_(x, y))
_or = _binary_intrinsic("_or", lambda b, x, y: b.or_(x, y))
_xor = _binary_intrinsic("_xor", lambda b, x, y: b.xor(x, y))
_shl = _binary_intrinsic("_shl", lambda b, x, y: b.shl(x, y))
_sra = _binary_intrinsic("_sra", lambda b, x, y: b.ashr(x, y))
srl = _binary_intrinsic("srl", lambda b, x, y: b.lshr(x, y))
_eq = _binary_intrinsic("_eq", _compare("=="))
_ne = _binary_intrinsic("_ne", _compare("!="))
_lt = _binary_intrinsic("_lt", _compare("<"))
_le = _binary_intrinsic("_le", _compare("<="))
_gt = _binary_intrinsic("_gt", _compare(">"))
_ge = _binary_intrinsic("_ge", _compare(">="))
vmin = _binary_intrinsic("vmin", _min_max("<"))
vmax = _binary_intrinsic("vmax", _min_max(">"))

def _register_operator(op: Any, impl: Any) -> None:
    def overloaded(a, b):  # unannotated: Numba compares its signature with the lambda's
        if _operand(a) and _operand(b) and (_is_vec(a) or _is_vec(b)):
            return lambda a, b: impl(a, b)
        return None

    overload(op)(overloaded)


for _ops, _impl in (((operator.add, operator.iadd), _add), ((operator.sub, operator.isub), _sub),
                    ((operator.mul, operator.imul), _mul), ((operator.and_, operator.iand), _and),
                    ((operator.or_, operator.ior), _or), ((operator.xor, operator.ixor), _xor),
                    ((operator.lshift, operator.ilshift), _shl),
                    ((operator.rshift, operator.irshift), _sra), ((operator.eq,), _eq),
                    ((operator.ne,), _ne), ((operator.lt,), _lt), ((operator.le,), _le),
                    ((operator.gt,), _gt), ((operator.ge,), _ge)):
    for _op in _ops:  # x op= y on a vector makes a new value, as on an int
        _register_operator(_op, _impl)


def _unary_intrinsic(name: str, build: Any) -> Any:
    def typer(typingctx, a):
        if not _is_vec(a):
            return None
        return int64x8(a), lambda context, builder, signature, args: build(builder, args[0])

    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


def _lane_intrinsic(builder: ir.IRBuilder, name: str, *args: ir.Value) -> ir.Value:
    fnty = ir.FunctionType(_VEC, [_VEC] + [a.type for a in args[1:]])
    fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{name}.v{WIDTH}i64")
    return builder.call(fn, list(args))


_neg = _unary_intrinsic("_neg", lambda b, x: b.neg(x))
_invert = _unary_intrinsic("_invert", lambda b, x: b.not_(x))
popcount = _unary_intrinsic("popcount", lambda b, x: _lane_intrinsic(b, "ctpop", x))
trailing_zeros = _unary_intrinsic(
    "trailing_zeros", lambda b, x: _lane_intrinsic(b, "cttz", x, ir.Constant(_I1, 0)))


@overload(operator.neg)
def _overload_neg(a):
    return (lambda a: _neg(a)) if _is_vec(a) else None


@overload(operator.invert)
def _overload_invert(a):
    return (lambda a: _invert(a)) if _is_vec(a) else None


@intrinsic
def select(typingctx, mask, a, b):
    """``a`` in the lanes where ``mask`` is non-zero, else ``b``."""
    if not (_is_vec(mask) and _operand(a) and _operand(b)):
        return None

    def codegen(context, builder, signature, args):
        x = _as_vec_ir(context, builder, args[1], signature.args[1])
        y = _as_vec_ir(context, builder, args[2], signature.args[2])
        on = builder.icmp_unsigned("!=", args[0], ir.Constant(_VEC, None))
        return builder.select(on, x, y)

    return int64x8(mask, a, b), codegen


@intrinsic
def lane_index(typingctx):
    """0, 1, ..., 7: each lane's own number."""

    def codegen(context, builder, signature, args):
        return ir.Constant(_VEC, list(range(WIDTH)))

    return int64x8(), codegen


@intrinsic
def lane_bits(typingctx, v):
    """An int with bit k set where lane k of ``v`` is non-zero."""
    if not _is_vec(v):
        return None

    def codegen(context, builder, signature, args):
        on = builder.icmp_unsigned("!=", args[0], ir.Constant(_VEC, None))
        return builder.zext(builder.bitcast(on, ir.IntType(WIDTH)), _I64)

    return types.int64(v), codegen


@intrinsic
def lane(typingctx, v, k):
    """Lane k of ``v`` as an int64."""
    if not (_is_vec(v) and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        return builder.extract_element(args[0], context.cast(builder, args[1],
                                                             signature.args[1], types.int64))

    return types.int64(v, k), codegen


def _check_memory(a: Any) -> None:
    if not (isinstance(a, types.Array) and a.layout == "C"
            and a.dtype in (types.int64, types.uint64)):
        raise TypingError(f"expected a C-contiguous int64 or uint64 array, got {a}")


def _data_and_size(context: Any, builder: ir.IRBuilder, array_type: Any,
                   array: ir.Value) -> tuple[ir.Value, ir.Value]:
    ary = context.make_array(array_type)(context, builder, array)
    return builder.bitcast(ary.data, _I64.as_pointer()), ary.nitems


def _lane_indices(builder: ir.IRBuilder, start: ir.Value) -> ir.Value:
    return builder.add(_splat_ir(builder, start), ir.Constant(_VEC, list(range(WIDTH))))


@intrinsic
def vload(typingctx, a, start):
    """``a.flat[start:start + 8]`` as a vector."""
    _check_memory(a)
    if not isinstance(start, types.Integer):
        raise TypingError(f"start must be an integer, got {start}")

    def codegen(context, builder, signature, args):
        data, size = _data_and_size(context, builder, signature.args[0], args[0])
        first = context.cast(builder, args[1], signature.args[1], types.int64)
        _bounds(context, builder, _lane_indices(builder, first), size)
        ptr = builder.bitcast(builder.gep(data, [first]), _VEC.as_pointer())
        value = builder.load(ptr)
        value.align = 8
        return value

    return int64x8(a, start), codegen


@intrinsic
def vstore(typingctx, a, start, v):
    """``a.flat[start:start + 8] = v``."""
    _check_memory(a)
    if not (isinstance(start, types.Integer) and _is_vec(v)):
        raise TypingError(f"vstore takes (array, int, Int64x8), got ({a}, {start}, {v})")

    def codegen(context, builder, signature, args):
        data, size = _data_and_size(context, builder, signature.args[0], args[0])
        first = context.cast(builder, args[1], signature.args[1], types.int64)
        _bounds(context, builder, _lane_indices(builder, first), size)
        ptr = builder.bitcast(builder.gep(data, [first]), _VEC.as_pointer())
        store = builder.store(args[2], ptr)
        store.align = 8
        return context.get_dummy_value()

    return types.void(a, start, v), codegen


def _pointers(builder: ir.IRBuilder, data: ir.Value, index: ir.Value) -> ir.Value:
    base = _splat_ir(builder, builder.ptrtoint(data, _I64))
    return builder.inttoptr(builder.add(base, builder.shl(index, _splat_ir(builder, _I64(3)))),
                            _PTRS)


@intrinsic
def vgather(typingctx, a, index):
    """``a.flat[index[k]]`` in lane k."""
    _check_memory(a)
    if not _is_vec(index):
        raise TypingError(f"index must be an Int64x8, got {index}")

    def codegen(context, builder, signature, args):
        data, size = _data_and_size(context, builder, signature.args[0], args[0])
        _bounds(context, builder, args[1], size)
        fnty = ir.FunctionType(_VEC, [_PTRS, _I32, _MASK, _VEC])
        fn = cgutils.get_or_insert_function(builder.module, fnty,
                                            f"llvm.masked.gather.v{WIDTH}i64.v{WIDTH}p0")
        every = ir.Constant(_MASK, [1] * WIDTH)
        return builder.call(fn, [_pointers(builder, data, args[1]), _I32(8), every,
                                 ir.Constant(_VEC, ir.Undefined)])

    return int64x8(a, index), codegen


@intrinsic
def vscatter(typingctx, a, index, v, mask):
    """``a.flat[index[k]] = v[k]`` in the lanes k where ``mask`` is non-zero."""
    _check_memory(a)
    if not (_is_vec(index) and _is_vec(v) and _is_vec(mask)):
        raise TypingError("vscatter takes (array, Int64x8, Int64x8, Int64x8)")

    def codegen(context, builder, signature, args):
        data, size = _data_and_size(context, builder, signature.args[0], args[0])
        _bounds(context, builder, args[1], size)
        on = builder.icmp_unsigned("!=", args[3], ir.Constant(_VEC, None))
        fnty = ir.FunctionType(ir.VoidType(), [_VEC, _PTRS, _I32, _MASK])
        fn = cgutils.get_or_insert_function(builder.module, fnty,
                                            f"llvm.masked.scatter.v{WIDTH}i64.v{WIDTH}p0")
        builder.call(fn, [args[2], _pointers(builder, data, args[1]), _I32(8), on])
        return context.get_dummy_value()

    return types.void(a, index, v, mask), codegen


@intrinsic
def vstore_masked(typingctx, a, start, v, mask):
    """``a.flat[start + k] = v[k]`` in the lanes k where ``mask`` is non-zero; the others are
    not written (a store only: no load to wait for the last writes to the row)."""
    _check_memory(a)
    if not (isinstance(start, types.Integer) and _is_vec(v) and _is_vec(mask)):
        raise TypingError("vstore_masked takes (array, int, Int64x8, Int64x8)")

    def codegen(context, builder, signature, args):
        data, size = _data_and_size(context, builder, signature.args[0], args[0])
        first = context.cast(builder, args[1], signature.args[1], types.int64)
        _bounds(context, builder, _lane_indices(builder, first), size)
        ptr = builder.bitcast(builder.gep(data, [first]), _VEC.as_pointer())
        on = builder.icmp_unsigned("!=", args[3], ir.Constant(_VEC, None))
        fnty = ir.FunctionType(ir.VoidType(), [_VEC, _VEC.as_pointer(), _I32, _MASK])
        fn = cgutils.get_or_insert_function(builder.module, fnty,
                                            f"llvm.masked.store.v{WIDTH}i64.p0")
        builder.call(fn, [args[2], ptr, _I32(8), on])
        return context.get_dummy_value()

    return types.void(a, start, v, mask), codegen


def _bounds(context: Any, builder: ir.IRBuilder, index: ir.Value, size: ir.Value) -> None:
    """Under NUMBA_BOUNDSCHECK=1: IndexError when a lane's index is outside [0, size)."""
    if not getattr(numba.config, "BOUNDSCHECK"):  # noqa: B009  (not in numba's stubs)
        return
    bad = builder.icmp_unsigned(">=", index, _splat_ir(builder, size))
    any_bad = builder.icmp_unsigned("!=", builder.bitcast(bad, ir.IntType(WIDTH)),
                                    ir.Constant(ir.IntType(WIDTH), 0))
    with builder.if_then(any_bad, likely=False):
        context.call_conv.return_user_exc(builder, IndexError,
                                          ("lane index out of bounds",))


class LaneTableType(types.Type):
    """A C-contiguous int64 ``[fields, 8]`` array seen as eight rows of fields, one per lane
    (``lane_table``)."""

    def __init__(self, array_type: types.Array) -> None:
        self.array_type = array_type
        super().__init__(name=f"LaneTable({array_type})")


class LaneRowType(types.Type):
    """One lane's fields: element f of row k is ``array[f, k]``."""

    def __init__(self) -> None:
        super().__init__(name="LaneRow")


lane_row = LaneRowType()


@register_model(LaneTableType)
class _LaneTableModel(models.StructModel):
    def __init__(self, dmm: Any, fe_type: Any) -> None:
        super().__init__(dmm, fe_type, [("array", fe_type.array_type)])


@register_model(LaneRowType)
class _LaneRowModel(models.StructModel):
    def __init__(self, dmm: Any, fe_type: Any) -> None:
        super().__init__(dmm, fe_type, [("data", types.CPointer(types.int64)),
                                        ("size", types.int64)])


@intrinsic
def lane_table(typingctx, a):
    """``a`` (C-contiguous int64 ``[fields, 8]``; other shapes raise ValueError) as rows:
    ``lane_table(a)[k][f]`` is
    ``a[f, k]``, addressed with the row stride known when compiling, so a scalar kernel that
    takes rows (``State.table[i]``) runs on a lane's fields as fast as on a contiguous row
    (with ``a.T``, Numba's strided view, every access multiplies by the runtime stride)."""
    if not (isinstance(a, types.Array) and a.ndim == 2 and a.layout == "C"
            and a.dtype == types.int64):
        raise TypingError(f"lane_table takes a C-contiguous 2-D int64 array, got {a}")
    table_type = LaneTableType(a)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        columns = builder.extract_value(ary.shape, 1)
        with builder.if_then(builder.icmp_signed("!=", columns, _I64(WIDTH)), likely=False):
            context.call_conv.return_user_exc(builder, ValueError,
                                              (f"lane_table needs {WIDTH} columns",))
        table = cgutils.create_struct_proxy(table_type)(context, builder)
        table.array = args[0]
        if context.enable_nrt:  # the table holds a reference of its own
            context.nrt.incref(builder, signature.args[0], args[0])
        return table._getvalue()

    return table_type(a), codegen


@intrinsic
def _table_row(typingctx, table, k):
    def codegen(context, builder, signature, args):
        table_type = signature.args[0]
        proxy = cgutils.create_struct_proxy(table_type)(context, builder, value=args[0])
        ary = context.make_array(table_type.array_type)(context, builder, proxy.array)
        index = context.cast(builder, args[1], signature.args[1], types.int64)
        if getattr(numba.config, "BOUNDSCHECK"):  # noqa: B009  (not in numba's stubs)
            cgutils.do_boundscheck(context, builder, index, _I64(WIDTH), 0)
        row = cgutils.create_struct_proxy(lane_row)(context, builder)
        row.data = builder.gep(builder.bitcast(ary.data, _I64.as_pointer()), [index])
        row.size = builder.extract_value(ary.shape, 0)
        return row._getvalue()

    return lane_row(table, k), codegen


def _row_pointer(context: Any, builder: ir.IRBuilder, row: ir.Value, field: ir.Value,
                 field_type: Any) -> ir.Value:
    proxy = cgutils.create_struct_proxy(lane_row)(context, builder, value=row)
    index = context.cast(builder, field, field_type, types.int64)
    if getattr(numba.config, "BOUNDSCHECK"):  # noqa: B009  (not in numba's stubs)
        cgutils.do_boundscheck(context, builder, index, proxy.size, 0)
    return builder.gep(proxy.data, [builder.mul(index, _I64(WIDTH))])


@intrinsic
def _row_get(typingctx, row, f):
    def codegen(context, builder, signature, args):
        return builder.load(_row_pointer(context, builder, args[0], args[1], signature.args[1]))

    return types.int64(row, f), codegen


@intrinsic
def _row_set(typingctx, row, f, value):
    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[2], signature.args[2], types.int64)
        builder.store(v, _row_pointer(context, builder, args[0], args[1], signature.args[1]))
        return context.get_dummy_value()

    return types.void(row, f, value), codegen


@overload(operator.getitem)
def _overload_getitem(obj, index):
    if isinstance(obj, LaneTableType) and isinstance(index, types.Integer):
        return lambda obj, index: _table_row(obj, index)
    if isinstance(obj, LaneRowType) and isinstance(index, types.Integer):
        return lambda obj, index: _row_get(obj, index)
    return None


@overload(operator.setitem)
def _overload_setitem(obj, index, value):
    if (isinstance(obj, LaneRowType) and isinstance(index, types.Integer)
            and isinstance(value, (types.Integer, types.Boolean))):
        return lambda obj, index, value: _row_set(obj, index, value)
    return None
