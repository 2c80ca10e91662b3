"""The batched environment contract every game keeps.

``obs, info = env.reset(seed=None)`` and
``obs, reward, terminated, truncated, info = env.step(actions)`` where

- ``obs`` is float32 ``[B, obs_dim]``, from the view of the player to act in each env;
- ``reward`` is float32 ``[B, num_players]``, for every player at every step;
- ``info["action_mask"]`` is bool ``[B, num_actions]`` and ``info["current_player"]`` int32 ``[B]``.

Same-step auto-reset: when a game ends at a step, that step returns the finished game's final
rewards with ``terminated`` (or ``truncated``) set, while ``obs``, ``action_mask`` and
``current_player`` already describe the first decision of the next game in that env. Anything a
game charges when it is dealt (an ante, say) is part of the reward of that game's first step.

``reset()`` deals new games in every env: games still running are abandoned, so the rewards
already reported for them do not sum to zero.

The returned arrays are the env's own buffers, reused by the next call (no allocation per step,
and the torch bridge can wrap them without a copy): copy what you want to keep, and do not
write to them (the legality check reads the mask the rules wrote).

Illegal actions, the same in every game: an action outside the rules of the state it is given
to (``info["action_mask"]`` False) is refused by ``step``. With ``illegal="raise"`` (the
default) ``step`` raises a ``ValueError`` naming the game, the env index, the action, the
player to act and the legal actions, before anything changes: state, random streams and the
returned buffers are left as they were. With ``illegal="penalty"`` (for RL code that prefers a
signal to an exception) an env given an illegal action does not move, as with ``WAIT``: the
same player acts again, its reward is ``-illegal_penalty`` (default 0), every other reward of
that row 0, and ``info["illegal"]`` is True for that env (always False under ``"raise"``).
Actions that are not integers (floats, even ``1.0``, NaN, bools, None, strings, object
arrays), arrays of the wrong shape and ids outside ``[-1, num_actions)`` raise
``TypeError``/``ValueError`` in both modes: nothing is ever cast.

Env ``i`` draws from the random stream of global index ``env_offset + i`` under ``seed``, so a
batch gives the same games for the same seed whatever the thread count or the batch split.

An env given the action ``WAIT`` (-1) does not move at that step: its game, random stream,
observation, mask and current player stay as they were, its reward row is 0, its flags False
and its per-step ``info`` events neutral. Adapters use it to step some tables while others
wait for their agent (a table's games never depend on when it waited). Each game's step
kernel skips the envs whose action is negative; this class clears their per-step outputs.

State copy/restore, for search: ``snap = env.snapshot(rows=None)`` copies everything that
decides those envs' future (game state, random streams, the returned buffers and the game's
per-env bookkeeping) into a read-only ``EnvSnapshot``; ``env.restore(snap, rows=None)`` puts
it back, into the rows it came from or into other rows (a one-env snapshot into any number of
rows, to roll out candidate moves from one position), as often as wanted. Restored rows then
play exactly as the originals would have, bit for bit. A snapshot of another game, other
settings or rows out of range is refused with a ``ValueError`` before anything changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import jit
from .rng import check_seed, seed_streams, seed_streams_at
from .snapshot import EnvSnapshot, check_fits, check_rows, env_key, row_arrays, take
from .validation import MAX_NUM_ENVS, check_actions, check_choice, check_int, check_number

ILLEGAL_MODES = ("raise", "penalty")
# Settings a snapshot may move across: restoring into a bigger env, or one seeded otherwise.
_UNKEYED = ("num_envs", "env_offset", "_seed", "_started")


@jit
def find_illegal(actions, mask, out):
    """out[i] = whether env i's action is illegal under ``mask`` (``WAIT`` is legal); returns
    the first such env, or -1. One read per env, cheaper than asking the rules again (Zha
    Jin Hua's ``legal_bits``) for the answer they already wrote."""
    first = -1
    for i in range(actions.shape[0]):
        a = actions[i]
        bad = a >= 0 and not mask[i, a]
        out[i] = bad
        if bad and first < 0:
            first = i
    return first


def _runs(ids: np.ndarray) -> str:
    """``0, 3..40, 52``: sorted ids with runs of three or more written as ranges."""
    parts, k = [], 0
    while k < len(ids):
        end = k
        while end + 1 < len(ids) and ids[end + 1] == ids[end] + 1:
            end += 1
        parts.append(f"{ids[k]}..{ids[end]}" if end - k >= 2 else
                     ", ".join(str(int(a)) for a in ids[k:end + 1]))
        k = end + 1
    return ", ".join(parts)


class VecEnv:
    """Base class: buffers, validation and the reset/step contract; games supply kernels."""

    WAIT: int = -1
    name: str = ""
    num_actions: int = 0
    obs_dim: int = 0
    # ``info`` entries that report what happened at the step (not the state), and their value
    # for "nothing happened": a waiting env reads these; the other entries keep their rows.
    event_info: dict[str, Any] = {}

    def __init__(self, num_envs: int, num_players: int, seed: int = 0, env_offset: int = 0,
                 illegal: str = "raise", illegal_penalty: float = 0.0):
        self.num_envs = check_int(num_envs, "num_envs", 1, MAX_NUM_ENVS)
        self.num_players = num_players
        self.env_offset = check_int(env_offset, "env_offset", 0, 2**62)
        self._seed = check_seed(seed)
        self.illegal: str = check_choice(illegal, "illegal", ILLEGAL_MODES)
        self.illegal_penalty = check_number(illegal_penalty, "illegal_penalty", 0.0)
        if self.illegal == "raise" and self.illegal_penalty != 0.0:
            raise ValueError("illegal_penalty is charged only with illegal='penalty' "
                             "(illegal='raise' refuses illegal actions)")
        b = self.num_envs
        self._rng = np.zeros(b, dtype=np.uint64)
        self._obs = np.zeros((b, self.obs_dim), dtype=np.float32)
        self._reward = np.zeros((b, num_players), dtype=np.float32)
        self._terminated = np.zeros(b, dtype=np.bool_)
        self._truncated = np.zeros(b, dtype=np.bool_)
        self._mask = np.zeros((b, self.num_actions), dtype=np.bool_)
        self._current = np.zeros(b, dtype=np.int32)
        self._illegal = np.zeros(b, dtype=np.bool_)
        self._bad = np.zeros(b, dtype=np.bool_)  # scratch: written before the step may raise
        self._info: dict[str, Any] = {"action_mask": self._mask, "current_player": self._current,
                                      "illegal": self._illegal}
        self._started = False
        self._layout: tuple[tuple[Any, ...], dict[str, np.ndarray]] | None = None

    # -- the contract ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal new games in every env. With ``seed`` (or on the first call) reseed the streams.

        Returns the env's own buffers, overwritten by the next ``reset``/``step``."""
        if seed is not None:
            self._seed = check_seed(seed)
        if seed is not None or not self._started:
            seed_streams(self._rng, self._seed, self.env_offset)
        return self._deal_all()

    def deal(self, games: Any, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal game ``games[i]`` in env ``i``: a reset whose env i draws from the stream of
        global index ``games[i]`` (any indices, in any order; ``reset`` gives env i the
        stream ``env_offset + i``). With ``seed``, reseed first. One env can so play the
        games of several tables, each its own deals (the arena's tables). Bad ``games``
        raise before anything changes."""
        arr = np.asarray(games)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"games must be integer game indices, got dtype {arr.dtype}")
        if arr.shape != (self.num_envs,):
            raise ValueError(f"games must have one index per env, shape ({self.num_envs},), "
                             f"got {arr.shape}")
        if arr.size and (arr.min() < 0 or arr.max() > 2**63 - 1):
            raise ValueError("games must be indices in [0, 2**63)")
        if seed is not None:
            self._seed = check_seed(seed)
        self._restart_deals()
        seed_streams_at(self._rng, self._seed, arr.astype(np.int64))
        return self._deal_all()

    def _restart_deals(self) -> None:
        """What a game restarts when its streams are reseeded (Hold'em: the rotating
        button); default: nothing."""

    def _deal_all(self) -> tuple[np.ndarray, dict[str, Any]]:
        self._reset_all()
        self._reward[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._illegal[:] = False
        self._started = True
        return self._obs, self._info

    def step(self, actions: Any):
        """Apply one action per env (``WAIT`` = -1: that env does not move).

        Bad input raises before anything changes: ``TypeError``/``ValueError`` for actions that
        are not integers in ``[-1, num_actions)`` of shape ``(num_envs,)``, and, with
        ``illegal="raise"``, ``ValueError`` for an illegal action (``illegal="penalty"``: that
        env does not move and its player is charged ``illegal_penalty``). Returns the env's own
        buffers, overwritten by the next ``reset``/``step``: copy what you keep."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        checked = check_actions(actions, self.num_envs, self.num_actions, lowest=self.WAIT)
        checked = self._refuse_illegal(checked, self._find_illegal(checked, self._bad))
        self._step_all(checked)  # every game's step kernel skips a negative action
        self._finish_step(checked == self.WAIT)
        return self._obs, self._reward, self._terminated, self._truncated, self._info

    def _refuse_illegal(self, actions: np.ndarray, first: int) -> np.ndarray:
        """Raise for the first illegal action (``illegal="raise"``), or turn every illegal
        one into ``WAIT`` (``"penalty"``, on a copy: the caller's array is never written)."""
        if first < 0:
            return actions
        if self.illegal == "raise":
            raise ValueError(self._illegal_message(first, self._action_text(int(actions[first]))))
        return np.where(self._bad, self.WAIT, actions)

    def _illegal_message(self, i: int, action: str) -> str:
        legal = _runs(np.flatnonzero(self._mask[i]))
        return (f"{self.name} env {i}: {action} is illegal for player {int(self._current[i])} "
                f"(the player to act); legal actions: [{legal}]{self._illegal_detail(i)}. Mask "
                f"the policy with info['action_mask'], or make the env with illegal='penalty'")

    def _illegal_detail(self, i: int) -> str:
        """More about env i's legal moves, for the message (a game may say more)."""
        return ""

    def _action_text(self, action: int) -> str:
        """``action 3`` with the game's name for it where it has one."""
        names = getattr(self, "action_names", None)
        namer = getattr(self, "action_name", None)
        if names is not None:
            return f"action {action} ({names[action]})"
        if callable(namer):
            return f"action {action} ({namer(action)})"
        return f"action {action}"

    def _finish_step(self, waiting: np.ndarray) -> None:
        """The per-step outputs of the envs that did not move, and the illegal-move flags."""
        if waiting.any():  # their rows of the per-step outputs: nothing happened
            self._reward[waiting] = 0.0
            self._terminated[waiting] = False
            self._truncated[waiting] = False
            for key, neutral in self.event_info.items():
                self._info[key][waiting] = neutral
        self._illegal[:] = False
        if self.illegal == "penalty":
            np.logical_and(self._bad, waiting, out=self._illegal)
            rows = np.flatnonzero(self._illegal)
            self._reward[rows, self._current[rows]] = -self.illegal_penalty

    def snapshot(self, rows: Any = None) -> EnvSnapshot:
        """Read-only copies of envs ``rows`` (an int or ints; None: all): game state, random
        streams, returned buffers and per-env bookkeeping. See ``restore``."""
        if not self._started:
            raise RuntimeError("call reset() before snapshot()")
        picked = check_rows(rows, self.num_envs)
        picked.flags.writeable = False
        key, arrays = self._snapshot_layout()
        return EnvSnapshot(self.name, key, picked, take(arrays, picked))

    def restore(self, snap: EnvSnapshot, rows: Any = None) -> None:
        """Put ``snap`` back into envs ``rows`` (None: the rows it was taken from): as many
        rows as it holds, or any rows from a one-env snapshot. The buffers ``reset``/``step``
        returned now show the restored rows. Into an env not yet reset, only all rows at once.
        Raises ``TypeError``/``ValueError`` before anything changes."""
        key, arrays = self._snapshot_layout()
        target = (check_rows(snap.rows, self.num_envs) if rows is None and
                  isinstance(snap, EnvSnapshot) else check_rows(rows, self.num_envs))
        check_fits(snap, self.name, key, arrays, target)
        if not self._started and len(target) != self.num_envs:
            raise RuntimeError("restore into an env not yet reset fills every row: call "
                               "reset() first, or restore a snapshot of all envs")
        for name, arr in arrays.items():
            if name in snap.arrays:
                arr[target] = snap.arrays[name]
        self._started = True

    def _snapshot_layout(self) -> tuple[tuple[Any, ...], dict[str, np.ndarray]]:
        """The env's settings key and per-env arrays, found once (the buffers and settings
        are fixed at construction; finding them costs more than copying a row)."""
        if self._layout is None:
            self._layout = (env_key(self, _UNKEYED), row_arrays(self))
        return self._layout

    @property
    def action_mask(self) -> np.ndarray:
        return self._mask

    @property
    def current_player(self) -> np.ndarray:
        return self._current

    def _check_index(self, i: int) -> int:
        """Validate an env index for the per-env views (render, legal_actions)."""
        if not self._started:
            raise RuntimeError("call reset() before inspecting an env")
        return check_int(i, "i", 0, self.num_envs - 1)

    # -- what a game supplies ----------------------------------------------------------------
    def _find_illegal(self, actions: np.ndarray, out: np.ndarray) -> int:
        """out[i] = whether env i's action (a checked int, ``WAIT`` allowed) breaks the rules;
        the first such env or -1. Writes only ``out`` (and a game's private scratch), so
        raising after it leaves everything as it was. Default: the mask the rules wrote."""
        return int(find_illegal(actions, self._mask, out))

    def _reset_all(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step_all(self, actions: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self, i: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError
