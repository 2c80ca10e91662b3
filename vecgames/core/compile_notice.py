"""Says on stderr when vecgames compiles its kernels, so a first run is not silent.

Numba fires ``numba:compile`` only for a real compilation (a kernel loaded from the on-disk
cache fires nothing), so the notice appears on a first run, or after an upgrade, and never
on later runs. A line when compiling starts, then one every few seconds while it lasts.
``VECGAMES_QUIET=1`` silences it.
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
_state: dict[str, Any] = {"depth": 0, "started": 0.0, "announced": False}


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
            _state["started"] = time.perf_counter()
            print("vecgames: compiling kernels (first run only; cached on disk afterwards)...",
                  file=sys.stderr, flush=True)
            threading.Thread(target=_progress, name="vecgames-compile-notice", daemon=True).start()

    def on_end(self, ev: Any) -> None:
        with _lock:
            _state["depth"] -= 1


def _progress() -> None:
    """A line every PROGRESS_EVERY seconds while a compile is under way; it ends at the first
    tick that finds none (a later compile in the process says nothing more)."""
    while True:
        time.sleep(PROGRESS_EVERY)
        with _lock:
            if _state["depth"] <= 0:
                return
            took = time.perf_counter() - _state["started"]
        print(f"vecgames: still compiling ({took:.0f} s)", file=sys.stderr, flush=True)


def _quiet() -> bool:
    return os.environ.get("VECGAMES_QUIET", "").strip().lower() not in ("", "0", "false", "no")


event.register("numba:compile", _Notice())
