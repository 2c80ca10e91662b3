"""A JaxMARL-style facade over the batched Hanabi env, for code ported from JaxMARL.

JaxMARL code such as ::

    import jaxmarl
    env = jaxmarl.make("hanabi", num_agents=2)
    obs, state = env.reset(key)
    legal = env.get_legal_moves(state)
    obs, state, rewards, dones, infos = env.step(key, state, actions)

runs with only the import changed (``from vecgames.games.hanabi import jaxmarl``), on a
batch: every value of the agent-keyed dicts has a leading env axis ``[B, ...]`` (``num_envs``
tables; ``num_envs=1`` gives ``[1, ...]``). Differences to know:

- the ``key`` arguments are accepted and ignored: each env draws from its own random stream,
  seeded by ``seed`` (reproducible for any thread count);
- ``state`` is the facade's batch itself (the same object comes back; there is no functional
  copy), and ``reset``/``step`` change it in place;
- like JaxMARL's ``step``, a finished game is replaced by a new one at once (auto-reset): the
  returned observations and legal moves are the new game's, rewards and dones the finished
  game's. ``infos["score"]`` and ``infos["end"]`` have the returns of the games that ended at
  this step and how they ended (-1 elsewhere).
- actions: a dict agent -> int array ``[B]`` (only the player to act's entry counts, as in
  JaxMARL), or an int array ``[B]`` of the acting players' moves.
- rule options (``end="deck_empty"``, ``discard_at_max="capped"``, ``hint_target="next"``:
  the seed's rules, docs/hanabi.md) are passed to ``make`` like any other keyword;
- an illegal move of the player to act, which JaxMARL does not check, is a ``ValueError``
  here (nothing changed); ``make("hanabi", illegal="penalty", illegal_penalty=p)`` makes it a
  wasted turn instead (the same player acts again, ``-p`` to it, ``infos["illegal"]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.validation import check_int
from .env import HanabiEnv
from .rules import MAX_PLAYERS


class Discrete:
    """A discrete space of ``n`` actions (JaxMARL/gymnax naming)."""

    def __init__(self, n: int):
        self.n = n
        self.shape = ()
        self.dtype = np.int64

    def __repr__(self) -> str:
        return f"Discrete({self.n})"


class Box:
    """A float32 box of the given shape, values in [low, high]."""

    def __init__(self, low: float, high: float, shape: tuple[int, ...]):
        self.low, self.high, self.shape = low, high, shape
        self.dtype = np.float32

    def __repr__(self) -> str:
        return f"Box({self.low}, {self.high}, {self.shape})"


class HanabiJaxMARL:
    """``num_envs`` Hanabi tables behind JaxMARL's ``MultiAgentEnv`` interface."""

    def __init__(self, num_agents: int = 2, num_envs: int = 1, seed: int = 0,
                 obs: str = "jaxmarl", **options: Any):
        num_agents = check_int(num_agents, "num_agents", 2, MAX_PLAYERS)
        for name in ("num_players", "observers"):  # set by the facade
            if name in options:
                raise TypeError(f"HanabiJaxMARL sets {name} itself (num_agents, every seat "
                                f"observed); drop {name}")
        self._env = HanabiEnv(num_envs=num_envs, seed=seed, obs=obs, observers="all",
                              num_players=num_agents, **options)
        self.num_agents = num_agents
        self.num_envs = self._env.num_envs
        self.agents = [f"agent_{i}" for i in range(num_agents)]
        self.num_moves = self._env.num_actions
        self.obs_size = self._env.obs_dim
        self.action_spaces = {a: Discrete(self.num_moves) for a in self.agents}
        self.observation_spaces = {a: Box(0.0, 1.0, (self.obs_size,)) for a in self.agents}

    @property
    def env(self) -> HanabiEnv:
        """The underlying ``HanabiEnv`` (render, reset_from_deck, state arrays)."""
        return self._env

    @property
    def name(self) -> str:
        return "Hanabi"

    def observation_space(self, agent: str | None = None) -> Box:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str | None = None) -> Discrete:
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: Any) -> str:
        if agent is None:
            return self.agents[0]
        if not isinstance(agent, str) or agent not in self.agents:
            raise ValueError(f"agent must be one of {self.agents}, got {agent!r}")
        return agent

    def _obs(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {a: obs[:, k] for k, a in enumerate(self.agents)}

    def reset(self, key: Any = None) -> tuple[dict[str, np.ndarray], HanabiJaxMARL]:
        obs, _ = self._env.reset()
        return self._obs(obs), self

    def reset_from_deck(self, deck: Any, key: Any = None) -> tuple[dict[str, np.ndarray],
                                                                   HanabiJaxMARL]:
        """JaxMARL's ``reset_from_deck``: the one-hot deck ``[50, 5, 5]`` (or card ids)."""
        obs, _ = self._env.reset_from_deck(deck)
        return self._obs(obs), self

    def get_legal_moves(self, state: Any = None) -> dict[str, np.ndarray]:
        legal = self._env._info["legal_moves"]
        return {a: legal[:, k] for k, a in enumerate(self.agents)}

    def get_obs(self, state: Any = None) -> dict[str, np.ndarray]:
        return self._obs(self._env._obs)

    def step(self, key: Any, state: Any, actions: Any) -> tuple[
            dict[str, np.ndarray], HanabiJaxMARL, dict[str, np.ndarray],
            dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(actions, dict):
            missing = [a for a in self.agents if a not in actions]
            if missing:
                raise ValueError(f"actions must have an entry for every agent; missing "
                                 f"{missing}")
            stacked = np.stack([np.asarray(actions[a]).reshape(self.num_envs)
                                for a in self.agents], axis=1)
            current = self._env.current_player
            actions = stacked[np.arange(self.num_envs), current]
        obs, reward, terminated, truncated, info = self._env.step(actions)
        done = terminated | truncated
        rewards = {a: reward[:, k] for k, a in enumerate(self.agents)}
        rewards["__all__"] = reward[:, 0]
        dones = {a: done for a in self.agents}
        dones["__all__"] = done
        infos = {"score": info["score"], "end": info["end"], "illegal": info["illegal"]}
        return self._obs(obs), self, rewards, dones, infos


def make(env_id: str = "hanabi", num_envs: int = 1, seed: int = 0,
         **kwargs: Any) -> HanabiJaxMARL:
    """``jaxmarl.make("hanabi", num_agents=..)`` with a batch size and a seed."""
    if not isinstance(env_id, str) or env_id.lower() != "hanabi":
        raise ValueError(f"env_id: this facade provides 'hanabi' only, got {env_id!r}")
    return HanabiJaxMARL(num_envs=num_envs, seed=seed, **kwargs)
