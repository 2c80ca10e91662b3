"""What the single-agent adapters share: one seat per table is the agent, the other seats are
played by opponents, and the native env moves only the tables whose seat to act is not the
agent's (the others wait, ``VecEnv.WAIT``) until every table waits for its agent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.validation import check_actions, check_int, is_str
from ..core.vec_env import VecEnv
from ..games.catalog import env_takes, make

# ``opponents(obs, mask) -> actions`` for the rows of the tables where an opponent acts.
OpponentPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``mask``."""
    legal = mask.sum(axis=1)
    pick = np.floor(rng.random(len(mask)) * legal).astype(np.int64)
    return np.argmax(np.cumsum(mask, axis=1) > pick[:, None], axis=1)


class SeatedTables:
    """``num_envs`` tables of ``game`` where the agent holds seat ``seat``.

    ``advance`` plays the opponents until every table waits for the agent. The agent's reward
    from those moves is kept for the agent's episode it belongs to: up to a game's end it is
    the current episode's; a game that starts and ends without an agent decision (everybody
    else folded, say) is no episode for the agent, and its reward goes to ``unplayed_reward``.
    """

    def __init__(self, game: str, num_envs: int, seat: int, opponents: str | OpponentPolicy,
                 seed: int, options: dict[str, Any]):
        if env_takes(game, "observers") and not is_str(options.get("observers", "current"),
                                                        "current"):
            raise ValueError(f"the single-agent adapters observe the seat to act: {game}'s "
                             f"observers must be 'current'")
        self.env = make(game, num_envs=num_envs, seed=seed, **options)
        self.seat = check_int(seat, "seat", 0, self.env.num_players - 1)
        if not (is_str(opponents, "random") or callable(opponents)):
            raise ValueError(f"opponents must be 'random' or a callable (obs, mask) -> actions, "
                             f"got {opponents!r}")
        self.opponents = opponents
        b = self.env.num_envs
        self.reward = np.zeros(b, np.float32)  # the agent's reward of the step being built
        self.pending = np.zeros(b, np.float32)  # reward of the next episode, already paid
        self.terminated = np.zeros(b, np.bool_)
        self.truncated = np.zeros(b, np.bool_)
        self.unplayed_reward = np.zeros(b, np.float32)
        self.unplayed_games = np.zeros(b, np.int64)
        self.illegal = np.zeros(b, np.bool_)  # the agent's action was refused (penalty mode)
        self._actions = np.full(b, VecEnv.WAIT, np.int64)

    def reset(self, seed: int | None, rng: np.random.Generator) -> None:
        """New games everywhere, played by the opponents up to the agent's first decision."""
        self.env.reset(seed=seed)
        self.pending[:] = 0.0
        self.reward[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self.illegal[:] = False
        self._begin_report()
        self._advance(np.ones(self.env.num_envs, np.bool_), rng)

    def step(self, actions: Any, rng: np.random.Generator) -> None:
        """The agent's actions (every table waits for it), then the opponents' moves."""
        actions = check_actions(actions, self.env.num_envs, self.env.num_actions)  # no WAIT
        _, reward, terminated, truncated, info = self.env.step(actions)
        self.illegal[:] = info["illegal"]  # refused: the agent's table waits for it again
        self.reward[:] = self.pending + reward[:, self.seat]
        self.pending[:] = 0.0
        self.terminated[:] = terminated
        self.truncated[:] = truncated
        self._begin_report()
        self._advance(terminated | truncated, rng)

    def _begin_report(self) -> None:
        self.unplayed_reward[:] = 0.0
        self.unplayed_games[:] = 0

    def _advance(self, ended: np.ndarray, rng: np.random.Generator) -> None:
        """Opponents move until every table waits for the agent. ``ended[b]``: the agent has
        no episode running at table b (it ended at this step, or none began yet)."""
        env = self.env
        ended = ended.copy()
        while True:
            others = env.current_player != self.seat
            if not others.any():
                return
            self._actions[:] = env.WAIT
            self._actions[others] = self._opponent_actions(others, rng)
            _, reward, terminated, truncated, _ = env.step(self._actions)
            mine = reward[:, self.seat]
            live = ~ended  # the agent's episode: its reward now, and its end
            self.reward += np.where(live, mine, 0.0)
            self.terminated |= live & terminated
            self.truncated |= live & truncated
            # A later game's reward waits for its first agent decision; a game that ends
            # before one is no episode of the agent's, and is reported apart.
            self.pending += np.where(ended, mine, 0.0)
            lost = ended & (terminated | truncated)
            self.unplayed_reward += np.where(lost, self.pending, 0.0)
            self.unplayed_games += lost
            self.pending[lost] = 0.0
            ended |= terminated | truncated

    def _opponent_actions(self, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        mask = self.env.action_mask[rows]
        if isinstance(self.opponents, str):  # "random", checked at construction
            return random_legal(mask, rng)
        actions = check_actions(self.opponents(self.env._obs[rows], mask), len(mask),
                                self.env.num_actions)
        illegal = ~mask[np.arange(len(mask)), actions]
        if illegal.any():  # an illegal move may change nothing: the loop would never end
            k = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"opponents returned the illegal action {int(actions[k])} for "
                             f"table {int(np.flatnonzero(rows)[k])}")
        return actions
