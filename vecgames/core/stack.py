"""``stack_array(n, dtype)``: a scratch array on the calling kernel's stack.

The kernels are compiled without Numba's runtime (``core.jit``: no heap arrays). Players that
need a few hundred numbers of scratch per decision take them from the frame: a stack buffer
costs nothing and is gone on return.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


@intrinsic
def stack_array(typingctx: Any, size: Any, dtype: Any) -> Any:
    """``stack_array(n, np.float64)``: an uninitialised C-contiguous 1-d array of ``n`` (a
    literal int) items, allocated in the entry block of the calling function's frame."""
    if not isinstance(size, types.IntegerLiteral) or not isinstance(dtype, types.NumberClass):
        return None
    n = size.literal_value
    item = dtype.instance_type
    array_type = types.Array(item, 1, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = cgutils.alloca_once(builder, context.get_value_type(item), size=n)
        array = context.make_array(array_type)(context, builder)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(
            context.get_value_type(item)))
        populate_array(array, data=data,
                       shape=cgutils.pack_array(builder, [context.get_constant(types.intp, n)]),
                       strides=cgutils.pack_array(builder, [itemsize]),
                       itemsize=itemsize, meminfo=None)
        return array._getvalue()

    return array_type(size, dtype), codegen
