"""PettingZoo adapters for one table: ``AECGameEnv`` (agent by agent, the AEC API) and
``ParallelGameEnv`` (the Parallel API), both over a native env of one table.

Agents are ``player_0 .. player_{P-1}`` (seat order). As in PettingZoo's classic games, each
observation is a dict: ``"observation"``, the native observation of that seat, and
``"action_mask"`` (int8, 1 = legal). Only the seat to act has legal actions; the others see an
all-zero mask and, except in Hanabi (whose native env observes every seat), an all-zero
observation, since the native games describe the table from the view of the seat to act. One
episode is one game (Liar's Dice: one match); rewards are every seat's native rewards of each
step. In the Parallel API the actions of the seats not to act are ignored (they may be
omitted). Observations are copies, valid after later steps.

An illegal action follows the native ``illegal`` option, given with the game's options
(``AECGameEnv(game, illegal="penalty", illegal_penalty=1.0)``): a ``ValueError`` by
default; with ``"penalty"`` nothing moves, the seat to act gets ``-illegal_penalty``, acts
again, and its ``infos[agent]["illegal"]`` is True. A non-integer action is a ``TypeError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.validation import check_actions, check_int, is_str
from ..games.catalog import env_takes, make


class _Table:
    """One native table and the per-seat views both APIs share."""

    def _open(self, game: str, seed: int, render_mode: str | None,
              options: dict[str, Any]) -> None:
        # a game that can observe every seat at once (its env takes ``observers``) gives each
        # agent its own view
        self._all_seats = env_takes(game, "observers")
        if self._all_seats:
            if not is_str(options.get("observers", "all"), "all"):
                raise ValueError(f"the PettingZoo adapters observe every {game} seat: "
                                 f"observers must be 'all' (the default here)")
            options = {**options, "observers": "all"}
        self.env = make(game, num_envs=1, seed=seed, **options)
        if not (render_mode is None or is_str(render_mode, "ansi")):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        n, a = self.env.num_players, self.env.num_actions
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        obs_shape = (self.env.obs_dim,)
        self._obs_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, obs_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (a,), np.int8)}) for agent in self.possible_agents}
        self._act_spaces = {agent: spaces.Discrete(a) for agent in self.possible_agents}
        self._over = True

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._seat[agent]
        env = self.env
        acting = not self._over and int(env.current_player[0]) == p
        if self._over:
            obs = np.zeros(env.obs_dim, np.float32)
        elif self._all_seats:
            obs = env._obs[0, p].copy()
        else:
            obs = env._obs[0].copy() if acting else np.zeros(env.obs_dim, np.float32)
        mask = env.action_mask[0] if acting else np.zeros(env.num_actions, np.bool_)
        return {"observation": obs, "action_mask": mask.astype(np.int8)}

    def render(self) -> str | None:
        return self.env.render(0) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release: the table is plain arrays."""

    def _begin(self, seed: int | None) -> None:
        if seed is not None:
            seed = check_int(seed, "seed", 0)
        self.env.reset(seed=seed)
        self._over = False

    def _play(self, action: Any) -> tuple[np.ndarray, bool, bool, bool]:
        """One native step: every seat's reward, whether the game ended, and whether the
        action was refused as illegal (penalty mode)."""
        actions = check_actions(np.array([action]), 1, self.env.num_actions)  # no WAIT
        _, reward, terminated, truncated, info = self.env.step(actions)
        self._over = bool(terminated[0] or truncated[0])
        return (reward[0].astype(float), bool(terminated[0]), bool(truncated[0]),
                bool(info["illegal"][0]))

    def _to_act(self) -> str:
        return self.possible_agents[int(self.env.current_player[0])]


class AECGameEnv(_Table, AECEnv):
    """One table of ``game`` under PettingZoo's AEC API (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, seed: int = 0, render_mode: str | None = None,
                 **options: Any):
        super().__init__()
        self._open(game, seed, render_mode, options)
        self.metadata = {**self.metadata, "name": f"vecgames_{game}"}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._begin(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_act()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        reward, terminated, truncated, illegal = self._play(action)
        self.rewards = {a: float(reward[self._seat[a]]) for a in self.agents}
        self.infos = {a: {"illegal": illegal and a == agent} for a in self.agents}
        if self._over:
            self.terminations = dict.fromkeys(self.agents, terminated)
            self.truncations = dict.fromkeys(self.agents, truncated)
        else:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()


class ParallelGameEnv(_Table, ParallelEnv):
    """One table of ``game`` under PettingZoo's Parallel API (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, game: str, seed: int = 0, render_mode: str | None = None,
                 **options: Any):
        self._open(game, seed, render_mode, options)
        self.metadata = {**self.metadata, "name": f"vecgames_{game}"}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        self._begin(seed)
        self.agents = self.possible_agents[:]
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        agent = self._to_act()
        if agent not in actions:
            raise ValueError(f"actions must include the action of {agent}, the seat to act")
        reward, terminated, truncated, illegal = self._play(actions[agent])
        agents = self.agents
        obs = {a: self.observe(a) for a in agents}
        rewards = {a: float(reward[self._seat[a]]) for a in agents}
        terms = dict.fromkeys(agents, terminated)
        truncs = dict.fromkeys(agents, truncated)
        infos: dict[str, dict] = {a: {"illegal": illegal and a == agent} for a in agents}
        if self._over:
            self.agents = []
        return obs, rewards, terms, truncs, infos
