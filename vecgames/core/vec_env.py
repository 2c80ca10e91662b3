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
and the torch bridge can wrap them without a copy): copy what you want to keep.

Env ``i`` draws from the random stream of global index ``env_offset + i`` under ``seed``, so a
batch gives the same games for the same seed whatever the thread count or the batch split.

An env given the action ``WAIT`` (-1) does not move at that step: its game, random stream,
observation, mask and current player stay as they were, its reward row is 0, its flags False
and its per-step ``info`` events neutral. Adapters use it to step some tables while others
wait for their agent (a table's games never depend on when it waited). Each game's step
kernel skips the envs whose action is negative; this class clears their per-step outputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .rng import check_seed, seed_streams
from .validation import check_actions, check_int


class VecEnv:
    """Base class: buffers, validation and the reset/step contract; games supply kernels."""

    WAIT: int = -1
    name: str = ""
    num_actions: int = 0
    obs_dim: int = 0
    # ``info`` entries that report what happened at the step (not the state), and their value
    # for "nothing happened": a waiting env reads these; the other entries keep their rows.
    event_info: dict[str, Any] = {}

    def __init__(self, num_envs: int, num_players: int, seed: int = 0, env_offset: int = 0):
        self.num_envs = check_int(num_envs, "num_envs", 1)
        self.num_players = num_players
        self.env_offset = check_int(env_offset, "env_offset", 0, 2**62)
        self._seed = check_seed(seed)
        b = self.num_envs
        self._rng = np.zeros(b, dtype=np.uint64)
        self._obs = np.zeros((b, self.obs_dim), dtype=np.float32)
        self._reward = np.zeros((b, num_players), dtype=np.float32)
        self._terminated = np.zeros(b, dtype=np.bool_)
        self._truncated = np.zeros(b, dtype=np.bool_)
        self._mask = np.zeros((b, self.num_actions), dtype=np.bool_)
        self._current = np.zeros(b, dtype=np.int32)
        self._info: dict[str, Any] = {"action_mask": self._mask, "current_player": self._current}
        self._started = False

    # -- the contract ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal new games in every env. With ``seed`` (or on the first call) reseed the streams."""
        if seed is not None:
            self._seed = check_seed(seed)
        if seed is not None or not self._started:
            seed_streams(self._rng, self._seed, self.env_offset)
        self._reset_all()
        self._reward[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._started = True
        return self._obs, self._info

    def step(self, actions: Any):
        """Apply one action per env (validated first; on error nothing changes)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        checked = check_actions(actions, self.num_envs, self.num_actions, lowest=self.WAIT)
        self._step_all(checked)  # every game's step kernel skips a negative action
        waiting = checked == self.WAIT
        if waiting.any():  # their rows of the per-step outputs: nothing happened
            self._reward[waiting] = 0.0
            self._terminated[waiting] = False
            self._truncated[waiting] = False
            for key, neutral in self.event_info.items():
                self._info[key][waiting] = neutral
        return self._obs, self._reward, self._terminated, self._truncated, self._info

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
    def _reset_all(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step_all(self, actions: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self, i: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError
