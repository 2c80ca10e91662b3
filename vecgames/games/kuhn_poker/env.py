"""The batched Kuhn poker environment."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.state_table import keep_row
from ...core.vec_env import VecEnv
from .observe import OBS_DIM, observe_one
from .rules import (
    ACTION_NAMES,
    BETTOR,
    CARD,
    DONE,
    GAME,
    HISTORY,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_FIELDS,
    PAID,
    PLAYER,
    RESULT,
    Rules,
    State,
    card_name,
    history_text,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)


@jit
def _publish(s, i, r, obs, mask, current):
    observe_one(s, i, r, obs[i])
    bits = legal_bits(s.table[i])
    for a in range(NUM_ACTIONS):
        mask[i, a] = (bits >> a) & 1
    current[i] = s.table[i, PLAYER]


@jit(parallel=True)
def _reset_kernel(s, r, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, obs, mask, current)


@jit
def _step_env(s, i, r, a, reward, final):
    """One step of env i (a legal action: ``VecEnv.step`` refused the others): each seat's
    return at the step that ends the game (0 before), then a new game (its table kept in
    ``final[i]`` first)."""
    for q in range(r.num_players):
        reward[i, q] = 0.0
    _, done = step_one(s, i, a, r)
    if done:
        t = s.table[i]
        for q in range(r.num_players):
            reward[i, q] = t[RESULT + q]
        keep_row(s.table, i, final)
        reset_one(s, i, r)
    return done


@jit(parallel=True)
def _step_kernel(s, r, actions, obs, reward, terminated, mask, current, final):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        terminated[i] = _step_env(s, i, r, actions[i], reward, final)
        _publish(s, i, r, obs, mask, current)


class KuhnPokerEnv(VecEnv):
    """B tables of two-player Kuhn poker, as OpenSpiel's ``kuhn_poker`` (``rules.py``).
    Options: ``num_players`` (2, the only count).

    Actions (OpenSpiel's ids): 0 pass (check, or fold facing a bet), 1 bet (bet 1, or call).
    Both are legal at every decision, so ``illegal`` only matters for code that checks it;
    ids outside ``[-1, 2)`` are refused in both modes (``vecgames.core.vec_env``). Rewards:
    each seat's chips won or lost (OpenSpiel's returns) at the step that ends the game, 0
    before (the antes are settled there too), so a game's rewards sum to zero. Games last at
    most 3 actions, so ``truncated`` is always False. ``obs`` is the view of the player to
    act (``observe.py``; its first 11 values are OpenSpiel's information state tensor).
    ``reset``/``step`` return the env's own buffers, overwritten by the next call.
    ``final_table[i]``: env i's ``state.table`` row at the end of the game that ended at the
    last step (stale elsewhere), for recorders.
    """

    name = GAME
    num_actions = NUM_ACTIONS
    obs_dim = OBS_DIM
    action_names = ACTION_NAMES

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 illegal: str = "raise", illegal_penalty: float = 0.0, **options: Any):
        self.rules: Rules = make_rules(**options)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, rng=self._rng)
        self.final_table = np.zeros_like(self.state.table)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._obs, self._mask, self._current)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, actions, self._obs, self._reward,
                     self._terminated, self._mask, self._current, self.final_table)

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]

    def render(self, i: int) -> str:
        i = self._check_index(i)
        return render_table(self.state.table[i], i)


def render_table(t: np.ndarray, i: int = 0) -> str:
    """Env i's table row as text (a running game, or a finished one from ``final_table``)."""
    t = np.asarray(t)
    if t.shape != (NUM_FIELDS,):
        raise ValueError(f"t must be one state.table row of {NUM_FIELDS} values, got shape "
                         f"{t.shape}")
    pot = int(t[PAID] + t[PAID + 1])
    head = (f"{GAME} env {i}: game over" if t[DONE] else
            f"{GAME} env {i}: to act: seat {int(t[PLAYER])}")
    moves = history_text(t[HISTORY:NUM_FIELDS]) or "-"
    bet = f", seat {int(t[BETTOR])} bet" if t[BETTOR] >= 0 else ""
    lines = [f"{head}, pot {pot}, actions {moves}{bet}"]
    for p in range(MAX_PLAYERS):
        result = f", result {int(t[RESULT + p]):+d}" if t[DONE] else ""
        lines.append(f"  seat {p}: {card_name(int(t[CARD + p]))}, paid "
                     f"{int(t[PAID + p])}{result}")
    return "\n".join(lines)
