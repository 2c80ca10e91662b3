"""Copies of an env's rows (game state, random streams, returned buffers) to restore later.

``VecEnv.snapshot``/``VecEnv.restore`` use these helpers; search code rolls a position out many
times by restoring one snapshot into many rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .validation import as_array


@dataclass(frozen=True, eq=False)
class EnvSnapshot:
    """Read-only copies of rows ``rows`` of every per-env array of one env (``arrays``:
    attribute path -> ``[len(rows), ...]``), and the env's kind and options (``key``) so that
    it is restored only into an env that plays the same game the same way."""

    game: str
    key: tuple[Any, ...]
    rows: np.ndarray
    arrays: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.rows)


def _fingerprint(value: Any) -> Any:
    """A comparable stand-in for a config value (arrays inside rule tuples included)."""
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, (tuple, list)):
        return tuple(_fingerprint(v) for v in value)
    if isinstance(value, (str, int, float, bool, np.generic, type(None))):
        return value
    return repr(value)


def env_key(env: Any, skip: tuple[str, ...]) -> tuple[Any, ...]:
    """The env's class and its settings (plain attributes and rules); ``skip``: attributes
    that may differ between envs a snapshot moves between (batch size, seed, offset)."""
    items = [(k, _fingerprint(v)) for k, v in sorted(vars(env).items())
             if k not in skip and (k == "rules" or isinstance(v, (str, int, float, bool)))]
    return (type(env).__qualname__, *items)


def row_arrays(env: Any) -> dict[str, np.ndarray]:
    """Every array of ``env`` with one row per env: the state's fields, the private buffers,
    ``final_table`` and ``info``'s arrays, each memory once (an array that owns its memory is
    kept over a view of it, e.g. Hanabi's ``_obs3`` over its ``_obs`` reshape)."""
    b = env.num_envs
    found: list[tuple[str, np.ndarray]] = []
    found += [(f"state.{k}", v) for k, v in zip(env.state._fields, env.state, strict=True)]
    found += [(k, v) for k, v in sorted(vars(env).items())
              if k.startswith("_") or k == "final_table"]
    found += [(f"info.{k}", v) for k, v in env._info.items()]
    found = [(k, v) for k, v in found
             if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == b]
    found.sort(key=lambda kv: kv[1].base is not None)  # stable: owners first
    kept: dict[str, np.ndarray] = {}
    for name, arr in found:
        if not any(np.may_share_memory(arr, other) for other in kept.values()):
            kept[name] = arr
    return kept


def check_rows(rows: Any, num_envs: int, name: str = "rows") -> np.ndarray:
    """``None`` (every env), an int or a 1-D sequence of ints in ``[0, num_envs)``."""
    if rows is None:
        return np.arange(num_envs)
    arr = as_array(rows, name)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must be env indices (ints), got dtype {arr.dtype}")
    arr = arr.reshape(-1) if arr.ndim == 0 else arr
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D list of env indices, got shape "
                         f"{arr.shape}")
    bad = (arr < 0) | (arr >= num_envs)
    if bad.any():
        raise ValueError(f"{name}: env index {int(arr[bad][0])} out of range [0, {num_envs})")
    return arr.astype(np.int64)


def take(arrays: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """Read-only copies of ``rows`` of each array."""
    out = {}
    for name, arr in arrays.items():
        copy = arr[rows]  # fancy indexing copies
        copy.flags.writeable = False
        out[name] = copy
    return out


def check_fits(snap: Any, env_game: str, key: tuple[Any, ...],
               arrays: dict[str, np.ndarray], rows: np.ndarray) -> None:
    """Refuse (ValueError) a snapshot of another game, settings or array layout, or a number
    of target rows other than the snapshot's (or any number, from a one-row snapshot)."""
    if not isinstance(snap, EnvSnapshot):
        raise TypeError(f"restore needs an EnvSnapshot from env.snapshot(), got "
                        f"{type(snap).__name__}")
    if snap.game != env_game or snap.key != key:
        diff = [k for k in dict(key[1:]) if dict(snap.key[1:]).get(k) != dict(key[1:])[k]]
        raise ValueError(f"this snapshot is of another env ({snap.game} {snap.key[0]}) or "
                         f"other settings than this {env_game} env"
                         + (f" (differs in: {', '.join(diff)})" if diff else ""))
    # Same settings, so the arrays only one side has are not per-env: a constant or a
    # one-row placeholder whose length happens to equal the other env's batch size.
    shared = snap.arrays.keys() & arrays.keys()
    if (any(k.startswith("state.") and k not in shared for k in arrays) or
            any(snap.arrays[k].shape[1:] != arrays[k].shape[1:] or
                snap.arrays[k].dtype != arrays[k].dtype for k in shared)):
        raise ValueError(f"this snapshot's arrays do not fit this {env_game} env's buffers")
    if len(rows) != len(snap) and len(snap) != 1:
        raise ValueError(f"a snapshot of {len(snap)} envs restores into {len(snap)} rows "
                         f"(or a one-env snapshot into any rows), got {len(rows)} rows")
    if len(np.unique(rows)) != len(rows):
        raise ValueError("rows to restore into must be distinct")
