"""One place that decides how every kernel is compiled.

``VECGAMES_NO_CACHE=1`` turns Numba's on-disk cache off (useful when debugging codegen);
otherwise every kernel is cached so a second import skips compilation.

Thread safety: Numba's ``workqueue`` threading layer (the one it falls back to when neither
TBB nor OpenMP's ``libgomp.so.1`` can be loaded, as on a slim Linux image with only the pip
wheels) aborts the process when two Python threads launch parallel kernels at once. Every
``parallel=True`` kernel called from Python therefore takes one process-wide lock, until the
first launch shows a thread-safe layer (``tbb``/``omp``), after which calls run concurrently.
Results never depend on it: a kernel's output does not depend on the threads that ran it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numba
from numba import njit
from numba.core.registry import CPUDispatcher

from . import compile_notice  # noqa: F401  # says on stderr when kernels compile

CACHE: bool = os.environ.get("VECGAMES_NO_CACHE", "").strip().lower() in ("", "0", "false", "no")


def jit(fn=None, *, parallel: bool = False, inline: bool = False, fastmath=False,
        alloc: bool = False):
    """``njit`` with the project's settings.

    - ``_nrt=False``: kernels never allocate, and without the runtime Numba emits no atomic
      reference counting around every array argument (measured: 260 ns per call of a helper
      taking a 18-array state, 0.1 ns without). ``alloc=True`` turns the runtime on for the
      few functions that need arrays of their own per call (a search player's scratch worlds);
      they may call, and be called by, the other kernels.
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
        cache=CACHE, parallel=parallel, nogil=True, error_model="numpy", _nrt=alloc,
        inline="always" if inline else "never", fastmath=fastmath)
    if parallel:
        decorator = _locked(decorator)
    return decorator if fn is None else decorator(fn)


THREADSAFE_LAYERS = frozenset({"tbb", "omp"})
_launch_lock = threading.RLock()
_threadsafe = False  # set once a launch has shown a thread-safe threading layer


class LockedDispatcher(CPUDispatcher):
    """A parallel kernel whose calls from Python hold ``_launch_lock`` while the threading
    layer may be ``workqueue`` (see the module docstring). Calls from other kernels, and
    typing, are those of any Numba dispatcher."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        global _threadsafe
        if _threadsafe:
            return super().__call__(*args, **kwargs)
        with _launch_lock:
            try:
                return super().__call__(*args, **kwargs)
            finally:
                try:
                    _threadsafe = numba.threading_layer() in THREADSAFE_LAYERS
                except ValueError:  # no parallel region has run yet
                    pass


def _locked(decorator: Any) -> Any:
    def wrap(fn: Any) -> Any:
        dispatcher = decorator(fn)
        if type(dispatcher) is CPUDispatcher:  # not with NUMBA_DISABLE_JIT=1 (a plain function)
            dispatcher.__class__ = LockedDispatcher
        return dispatcher
    return wrap
