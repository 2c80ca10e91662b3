"""One place that decides how every kernel is compiled.

``VECGAMES_NO_CACHE=1`` turns Numba's on-disk cache off (useful when debugging codegen);
otherwise every kernel is cached so a second import skips compilation.
"""

from __future__ import annotations

import os

from numba import njit

CACHE: bool = os.environ.get("VECGAMES_NO_CACHE", "0") in ("", "0")


def jit(fn=None, *, parallel: bool = False):
    """``njit`` with the project's settings (cache, no fastmath, nogil)."""
    decorator = njit(cache=CACHE, parallel=parallel, nogil=True, error_model="numpy", _nrt=False)
    return decorator if fn is None else decorator(fn)
