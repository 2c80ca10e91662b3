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
    DECISIONS,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PAID,
    PAYOUT,
    PLAYER,
    Rules,
    State,
    field,
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
    current[i] = s.table[i, PLAYER]


@jit(parallel=True)
def _reset_kernel(s, r, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, obs, mask, current)


@jit
def _step_env(s, i, r, a, reward):
    """One step of env i with its reward row; deals the next game when this one ends.

    (State writes happen in called functions: Numba's parfor pass loses a direct store to a
    NamedTuple's array inside a ``prange`` body.)
    """
    t = s.table[i]
    n = r.num_players
    for q in range(n):
        reward[q] = 0.0
    if t[DECISIONS] == 0:  # the ante belongs to the first step of a game
        for q in range(n):
            reward[q] -= t[PAID + q]
    p = t[PLAYER]
    before = t[PAID + p]
    done = step_one(s, i, a, r)
    reward[p] -= t[PAID + p] - before
    if done:
        for q in range(n):
            reward[q] += t[PAYOUT + q]
        reset_one(s, i, r)
    return done


@jit(parallel=True)
def _step_kernel(s, r, actions, obs, reward, terminated, mask, current):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        terminated[i] = _step_env(s, i, r, actions[i], reward[i])
        _publish(s, i, r, obs, mask, current)


class ZhaJinHuaEnv(VecEnv):
    """B tables of Zha Jin Hua (RULES.md §2). Rule options: see ``rules.DEFAULT_OPTIONS``.

    ``obs`` is the view of the player to act (layout in ``observe.py`` and docs/zhajinhua.md).
    Rewards: each chip paid is -1 to its payer at that step (antes at the game's first step);
    the pot is paid out at the final step, so a game's rewards sum to zero.
    The game is bounded by ``max_rounds``, so ``truncated`` is always False.
    An illegal action raises (``illegal="raise"``) or is charged ``illegal_penalty`` with
    nothing moved (``illegal="penalty"``): the contract of ``vecgames.core.vec_env``; it never
    puts the player out (that is only the ``uniform`` simulate policy's rule).
    ``reset``/``step`` return the env's own buffers, overwritten by the next call.
    """

    name = "zhajinhua"
    num_actions = NUM_ACTIONS
    obs_dim = OBS_DIM
    action_names = ACTION_NAMES

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 illegal: str = "raise", illegal_penalty: float = 0.0, **options: Any):
        self.rules: Rules = make_rules(**options)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, rng=self._rng)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._obs, self._mask, self._current)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, actions, self._obs, self._reward,
                     self._terminated, self._mask, self._current)

    def render(self, i: int) -> str:
        i = self._check_index(i)
        n = self.rules.num_players
        f = {name: field(self.state, name)[i] for name in
             ("round", "pot", "min_bet", "first", "player", "phase", "alive", "seen",
              "paid", "strength", "last_action")}
        phase = "look" if f["phase"] == 0 else "action"
        lines = [
            f"zhajinhua env {i}: round {f['round']}, pot {f['pot']}, min bet {f['min_bet']}, "
            f"opener {f['first']}, to act: seat {f['player']} ({phase} phase)"
        ]
        for p in range(n):
            cards = format_cards(self.state.deck[i, 3 * p:3 * p + 3])
            status = "in " if (f["alive"] >> p) & 1 else "out"
            seen = "seen " if (f["seen"] >> p) & 1 else "blind"
            last = f["last_action"][p]
            last_name = ACTION_NAMES[last] if last >= 0 else "-"
            category = CATEGORY_NAMES[f["strength"][p] >> 12]
            lines.append(
                f"  seat {p}: {status} {seen} {cards} ({category}), paid {f['paid'][p]}, "
                f"last {last_name}"
            )
        return "\n".join(lines)

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]


assert MAX_PLAYERS * 3 <= 52
