"""Gymnasium adapters: ``VecGymEnv`` (a ``gymnasium.vector.VectorEnv`` of many tables) and
``GymEnv`` (one table, a ``gymnasium.Env``, for stacks that vectorise themselves).

The agent holds one seat (``seat``, default 0) at every table; the other seats are played by
``opponents`` (``"random"``: uniformly random legal moves from the adapter's ``np_random``, or
a callable ``(obs, mask) -> actions`` over the tables where an opponent is to act). An episode
is one game (Liar's Dice: one match) from the agent's first decision to its end; the reward is
the agent's, summed over everything that happened since its previous decision.

- Observation: the native observation of the agent's seat, ``Box(-inf, inf, (obs_dim,))``.
- Action: ``Discrete(num_actions)``; the legal ones are ``info["action_mask"]`` (bool), as
  Gymnasium's masked sampling takes them (``space.sample(mask=mask.astype(np.int8))``).
- ``VecGymEnv`` resets a table in the step its episode ends
  (``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``): that step returns the finished
  episode's last reward and flags with the next episode's first observation. The native games
  never compute an observation after a game's end, so there is no ``final_obs``: a terminated
  episode needs none, and a truncated one (Da Yaoguai's step limit, Liar's Dice's round limit)
  is not bootstrapped.
- Every array returned is a copy, valid after later steps (Gymnasium's convention; the
  native env's buffers are reused).
- The agent's illegal action follows the native ``illegal`` option, given with the game's
  options (``GymEnv("liars_dice", illegal="penalty", illegal_penalty=1.0)``): a
  ``ValueError`` by default; with ``"penalty"`` nothing moves, the reward is
  ``-illegal_penalty``, the agent acts again and ``info["illegal"]`` is True. A non-integer
  action (``0.7``, ``1.0``, ``True``, ``None``) is a ``TypeError``, never cast.
- ``info["unplayed_reward"]`` / ``info["unplayed_games"]``: games that began and ended without
  an agent decision (the others all folded, say) are no episode; their reward to the agent is
  reported here so that per-game statistics can include them.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..core.rng import check_seed
from ..core.validation import is_str
from .seats import OpponentPolicy, SeatedTables


def _spaces(env: Any) -> tuple[spaces.Box, spaces.Discrete]:
    obs = spaces.Box(-np.inf, np.inf, shape=env._obs.shape[1:], dtype=np.float32)
    return obs, spaces.Discrete(env.num_actions)


class VecGymEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables of ``game`` as a Gymnasium vector env (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 1, seat: int = 0,
                 opponents: str | OpponentPolicy = "random", seed: int = 0, **options: Any):
        self.tables = SeatedTables(game, num_envs, seat, opponents, seed, options)
        self.env = self.tables.env
        self.num_envs = self.env.num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.env)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(int(seed))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New games at every table (``seed``: reseed the tables and the opponents)."""
        if seed is not None:  # checked before gymnasium reseeds the opponents; a plain int
            seed = int(check_seed(seed))  # for gymnasium (a numpy int is no seed to it)
        super().reset(seed=seed)
        self.tables.reset(seed, self.np_random)
        return self.env._obs.copy(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        self.tables.step(actions, self.np_random)
        t = self.tables
        return (self.env._obs.copy(), t.reward.copy(), t.terminated.copy(), t.truncated.copy(),
                self._info())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.env.action_mask.copy(),
                "illegal": self.tables.illegal.copy(),
                "unplayed_reward": self.tables.unplayed_reward.copy(),
                "unplayed_games": self.tables.unplayed_games.copy()}


class GymEnv(gymnasium.Env):
    """One table of ``game`` as a Gymnasium env; after an episode ends, call ``reset``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, seat: int = 0, opponents: str | OpponentPolicy = "random",
                 seed: int = 0, render_mode: str | None = None, **options: Any):
        self.tables = SeatedTables(game, 1, seat, opponents, seed, options)
        self.env = self.tables.env
        self.observation_space, self.action_space = _spaces(self.env)
        if not (render_mode is None or is_str(render_mode, "ansi")):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(int(seed))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:  # checked before gymnasium reseeds the opponents; a plain int
            seed = int(check_seed(seed))  # for gymnasium (a numpy int is no seed to it)
        super().reset(seed=seed)
        self.tables.reset(seed, self.np_random)
        return self.env._obs[0].copy(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.tables.step(np.array([action]), self.np_random)  # no cast: 0.7 is a TypeError
        t = self.tables
        return (self.env._obs[0].copy(), float(t.reward[0]), bool(t.terminated[0]),
                bool(t.truncated[0]), self._info())

    def render(self) -> str | None:
        return self.env.render(0) if self.render_mode == "ansi" else None

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.env.action_mask[0].copy(),
                "illegal": bool(self.tables.illegal[0]),
                "unplayed_reward": float(self.tables.unplayed_reward[0]),
                "unplayed_games": int(self.tables.unplayed_games[0])}
