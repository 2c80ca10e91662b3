"""Says on stderr when vecgames compiles its kernels, so a first run is not silent.

Numba fires ``numba:compile`` only for a real compilation (a kernel loaded from the on-disk
cache fires nothing), so the notice appears on a first run, or after an upgrade, and never
on later runs. A line when compiling starts, then one every few seconds with the kernels
compiled so far and the time taken. ``VECGAMES_QUIET=1`` silences it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from numba.core import event

PROGRESS_EVERY = 5.0  # seconds between progress lines
_lock = threading.Lock()
_state = {"depth": 0, "kernels": 0, "started": 0.0, "last": 0.0, "announced": False}


def _ours(ev: Any) -> bool:
    """Whether the compiled function is vecgames' (a user's own njit code says nothing)."""
    dispatcher = (ev.data or {}).get("dispatcher")
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    return module.startswith("vecgames")


class _Notice(event.Listener):
    def on_start(self, ev: Any) -> None:
        with _lock:
            _state["depth"] += 1
            if _state["announced"] or not _ours(ev) or _quiet():
                return
            _state["announced"] = True
            _state["started"] = _state["last"] = time.perf_counter()
            print("vecgames: compiling kernels (first run only; cached on disk afterwards)...",
                  file=sys.stderr, flush=True)

    def on_end(self, ev: Any) -> None:
        with _lock:
            _state["depth"] -= 1
            if not _state["announced"] or _state["depth"] != 0:
                return
            _state["kernels"] += 1
            now = time.perf_counter()
            if now - _state["last"] >= PROGRESS_EVERY:
                _state["last"] = now
                print(f"vecgames: still compiling: {_state['kernels']} kernels in "
                      f"{now - _state['started']:.0f} s", file=sys.stderr, flush=True)


def _quiet() -> bool:
    return os.environ.get("VECGAMES_QUIET", "").strip().lower() not in ("", "0", "false", "no")


event.register("numba:compile", _Notice())
