"""One place that decides how every kernel is compiled.

``VECGAMES_NO_CACHE=1`` turns Numba's on-disk cache off (useful when debugging codegen);
otherwise every kernel is cached so a second import skips compilation.
"""

from __future__ import annotations

import os

from numba import njit

CACHE: bool = os.environ.get("VECGAMES_NO_CACHE", "").strip().lower() in ("", "0", "false", "no")


def jit(fn=None, *, parallel: bool = False, inline: bool = False, fastmath=False):
    """``njit`` with the project's settings.

    - ``_nrt=False``: kernels never allocate, and without the runtime Numba emits no atomic
      reference counting around every array argument (measured: 260 ns per call of a helper
      taking a 18-array state, 0.1 ns without).
    - Keep the arrays a per-env helper takes few: a call that LLVM does not inline passes
      every array struct on the stack (measured: a 18-array state made a decision 2.4x slower
      than the same rules on a 3-array state).
    - ``inline=True`` inlines at Numba IR level, for a hot per-env function that LLVM declines
      to inline (``step_one``: 557 -> 428 ns per random game). Use it sparingly: inlining
      every per-env helper of the 18-array state made compiling take many minutes.
    - No fastmath, except where a kernel asks for a flag it can justify (``fastmath={"reassoc"}``
      on a float sum of small integers, exact in any order, lets LLVM vectorise it);
      ``error_model="numpy"`` (no Python division checks); ``nogil``.
    """
    decorator = njit(  # type: ignore[call-overload]  # ``_nrt`` is not in numba's stubs
        cache=CACHE, parallel=parallel, nogil=True, error_model="numpy", _nrt=False,
        inline="always" if inline else "never", fastmath=fastmath)
    return decorator if fn is None else decorator(fn)
