"""The batched Zha Jin Hua environment (``vecgames.make("zhajinhua", ...)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.cards import format_cards
from ...core.jit import jit
from ...core.vec_env import VecEnv
from ...poker.three_card import CATEGORY_NAMES
from .observe import OBS_DIM, observe_one, write_mask
from .rules import (
    ACTION_NAMES,
    MAX_PLAYERS,
    NUM_ACTIONS,
    Rules,
    State,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)


@jit
def _publish(s, i, r, obs, mask, current):
    observe_one(s, i, r, obs[i])
    write_mask(legal_bits(s, i, r), mask[i])
    current[i] = s.player[i]


@jit(parallel=True)
def _reset_kernel(s, r, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, obs, mask, current)


@jit(parallel=True)
def _step_kernel(s, r, actions, obs, reward, terminated, mask, current):
    n = r.num_players
    for i in prange(s.rng.shape[0]):
        for q in range(n):
            reward[i, q] = 0.0
        if s.decisions[i] == 0:  # the ante belongs to the first step of a game
            for q in range(n):
                reward[i, q] -= s.paid[i, q]
        p = s.player[i]
        before = s.paid[i, p]
        done = step_one(s, i, actions[i], r)
        reward[i, p] -= s.paid[i, p] - before
        terminated[i] = done
        if done:
            for q in range(n):
                reward[i, q] += s.payout[i, q]
            reset_one(s, i, r)
        _publish(s, i, r, obs, mask, current)


class ZhaJinHuaEnv(VecEnv):
    """B tables of Zha Jin Hua (RULES.md §2). Rule options: see ``rules.DEFAULT_OPTIONS``.

    ``obs`` is the view of the player to act (layout in ``observe.py`` and docs/zhajinhua.md).
    Rewards: each chip paid is -1 to its payer at that step (antes at the game's first step);
    the pot is paid out at the final step, so a game's rewards sum to zero.
    The game is bounded by ``max_rounds``, so ``truncated`` is always False.
    """

    name = "zhajinhua"
    num_actions = NUM_ACTIONS
    obs_dim = OBS_DIM
    action_names = ACTION_NAMES

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0, **options: Any):
        self.rules: Rules = make_rules(**options)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset)
        self.state: State = new_state(self.num_envs)._replace(rng=self._rng)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._obs, self._mask, self._current)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, actions, self._obs, self._reward,
                     self._terminated, self._mask, self._current)

    def render(self, i: int) -> str:
        i = self._check_index(i)
        s, n = self.state, self.rules.num_players
        phase = "look" if s.phase[i] == 0 else "action"
        lines = [
            f"zhajinhua env {i}: round {s.round[i]}, pot {s.pot[i]}, min bet {s.min_bet[i]}, "
            f"opener {s.first[i]}, to act: seat {s.player[i]} ({phase} phase)"
        ]
        for p in range(n):
            cards = format_cards(s.deck[i, 3 * p:3 * p + 3])
            status = "in " if (s.alive[i] >> p) & 1 else "out"
            seen = "seen " if (s.seen[i] >> p) & 1 else "blind"
            last = s.last_action[i, p]
            last_name = ACTION_NAMES[last] if last >= 0 else "-"
            category = CATEGORY_NAMES[s.strength[i, p] >> 12]
            lines.append(
                f"  seat {p}: {status} {seen} {cards} ({category}), paid {s.paid[i, p]}, "
                f"last {last_name}"
            )
        return "\n".join(lines)

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]


assert MAX_PLAYERS * 3 <= 52
