"""Input checks shared by every game: they raise before any kernel runs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

# The largest batch an env takes: its buffers grow with it (a few KB per env), and a batch
# this size already needs tens of GB.
MAX_NUM_ENVS = 2**24


def check_int(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """An int (not bool) in [low, high]; raises TypeError/ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be in [{lo}, {hi}], got {shown(value)}")
    return value


def shown(value: Any) -> str:
    """``value`` for an error message, a huge int cut short (a message stays one line)."""
    text = str(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def check_number(value: Any, name: str, low: float | None = None) -> float:
    """A finite real number (not bool) >= low, as a float; raises TypeError/ValueError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        out = float(value)
    except OverflowError:  # an int too large for a float
        out = float("inf")
    if not np.isfinite(out) or (low is not None and out < low):
        bound = "" if low is None else f" >= {low}"
        raise ValueError(f"{name} must be a finite number{bound}, got {shown(value)}")
    return out


def as_array(value: Any, name: str) -> np.ndarray:
    """``np.asarray(value)``; a ragged nesting (which numpy refuses) is a ValueError naming
    ``name``."""
    try:
        return np.asarray(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array (equal-length rows), got a ragged "
                         f"{type(value).__name__}") from None


def check_list(value: Any, name: str, what: str) -> list[Any]:
    """The items of a list-like ``value`` (not a string, nor a 0-d array) as a list; raises a
    TypeError saying ``name`` must be a list of ``what``."""
    if (isinstance(value, (str, bytes)) or not isinstance(value, Iterable)
            or (isinstance(value, np.ndarray) and value.ndim == 0)):
        raise TypeError(f"{name} must be a list of {what}, got {type(value).__name__}")
    return list(value)


def is_str(value: Any, text: str) -> bool:
    """Whether ``value`` is the string ``text`` (False for anything else: ``==`` on a numpy
    array would compare elementwise, and its truth value is an error)."""
    return isinstance(value, str) and value == text


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
        # never cast: a float (even 1.0), bool or NaN is a bug in the caller's policy
        raise TypeError(f"actions must be integers (an int array of shape ({num_envs},)), got "
                        f"{type(actions).__name__} of dtype {arr.dtype}")
    if arr.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), got {arr.shape}")
    if num_envs and (arr.min() < lowest or arr.max() >= num_actions):
        bad = int(np.flatnonzero((arr < lowest) | (arr >= num_actions))[0])
        allowed = f"[0, {num_actions})" + (" or -1 (wait)" if lowest < 0 else "")
        raise ValueError(f"actions must be in {allowed}; env {bad} got {int(arr[bad])}")
    return np.ascontiguousarray(arr, dtype=np.int64)
