"""Input checks shared by every game: they raise before any kernel runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def check_int(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """An int (not bool) in [low, high]; raises TypeError/ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be in [{lo}, {hi}], got {value}")
    return value


def check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def check_choice(value: Any, name: str, choices: Sequence[Any]) -> Any:
    if not isinstance(value, (str, int)) or value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def check_options(options: Mapping[str, Any], known: Mapping[str, Any], game: str) -> None:
    """Reject option names the game does not know, listing the ones it does."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            f"unknown option(s) {unknown} for {game}; valid options: {sorted(known)}"
        )


def check_actions(actions: Any, num_envs: int, num_actions: int,
                  lowest: int = 0) -> np.ndarray:
    """Actions as a contiguous int64 array of shape (num_envs,) with values in
    [lowest, num_actions) (``lowest=-1`` admits ``VecEnv.WAIT``)."""
    arr = np.asarray(actions)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"actions must be an integer array, got dtype {arr.dtype}")
    if arr.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), got {arr.shape}")
    if num_envs and (arr.min() < lowest or arr.max() >= num_actions):
        bad = int(np.flatnonzero((arr < lowest) | (arr >= num_actions))[0])
        allowed = f"[0, {num_actions})" + (" or -1 (wait)" if lowest < 0 else "")
        raise ValueError(f"actions must be in {allowed}; env {bad} got {int(arr[bad])}")
    return np.ascontiguousarray(arr, dtype=np.int64)
