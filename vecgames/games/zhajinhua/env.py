"""The batched Zha Jin Hua environment (``vecgames.make("zhajinhua", ...)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.cards import format_cards
from ...core.jit import jit
from ...core.state_table import keep_row
from ...core.validation import check_choice
from ...core.vec_env import VecEnv
from ...poker.three_card import CATEGORY_NAMES
from .observe import OBS_DIM, observe_one, write_mask
from .observe_seed import (
    HISTORY_SLOTS,
    SEED_OBS_DIM,
    SEED_ROUNDS,
    clear_history,
    observe_seed,
    record_decision,
)
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

OBSERVATIONS = ("default", "seed")  # the ``obs`` layouts: observe.py, observe_seed.py
OBS_DIMS = (OBS_DIM, SEED_OBS_DIM)
SEED = 1


@jit
def _publish(s, i, r, encoder, hist, obs, mask, current):
    if encoder == SEED:
        observe_seed(s, i, r, hist[i], obs[i])
    else:
        observe_one(s, i, r, obs[i])
    write_mask(legal_bits(s, i, r), mask[i])
    current[i] = s.table[i, PLAYER]


@jit(parallel=True)
def _reset_kernel(s, r, encoder, hist, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        if encoder == SEED:
            clear_history(hist[i])
        _publish(s, i, r, encoder, hist, obs, mask, current)


@jit
def _step_env(s, i, r, encoder, hist, a, reward, final):
    """One step of env i with its reward row; deals the next game when this one ends (its
    table is kept in ``final[i]`` first).

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
    if encoder == SEED:
        record_decision(s, i, a, hist[i])
    done = step_one(s, i, a, r)
    reward[p] -= t[PAID + p] - before
    if done:
        for q in range(n):
            reward[q] += t[PAYOUT + q]
        keep_row(s.table, i, final)
        reset_one(s, i, r)
        if encoder == SEED:
            clear_history(hist[i])
    return done


@jit(parallel=True)
def _step_kernel(s, r, encoder, hist, actions, obs, reward, terminated, mask, current, final):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        terminated[i] = _step_env(s, i, r, encoder, hist, actions[i], reward[i], final)
        _publish(s, i, r, encoder, hist, obs, mask, current)


class ZhaJinHuaEnv(VecEnv):
    """B tables of Zha Jin Hua (RULES.md §2). Rule options: see ``rules.DEFAULT_OPTIONS``.

    ``obs`` is the view of the player to act: ``obs="default"`` the 256 values of
    ``observe.py``, ``obs="seed"`` the seed's c1..c12 in 4,070 values (``observe_seed.py``,
    with the whole action history and the compared seats' cards; needs ``max_rounds <= 20``).
    Both are laid out in docs/zhajinhua.md.
    Rewards: each chip paid is -1 to its payer at that step (antes at the game's first step);
    the pot is paid out at the final step, so a game's rewards sum to zero.
    The game is bounded by ``max_rounds``, so ``truncated`` is always False.
    An illegal action raises (``illegal="raise"``) or is charged ``illegal_penalty`` with
    nothing moved (``illegal="penalty"``): the contract of ``vecgames.core.vec_env``; it never
    puts the player out (that is only the ``uniform`` simulate policy's rule).
    ``reset``/``step`` return the env's own buffers, overwritten by the next call.
    ``final_table[i]``: env i's ``state.table`` row at the end of the game that ended at the
    last step (the step dealt the next one; stale where no game ended), for recorders.
    """

    name = "zhajinhua"
    num_actions = NUM_ACTIONS
    obs_dim = OBS_DIM
    action_names = ACTION_NAMES

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 obs: str = "default", illegal: str = "raise", illegal_penalty: float = 0.0,
                 **options: Any):
        self.rules: Rules = make_rules(**options)
        self.obs: str = check_choice(obs, "obs", OBSERVATIONS)
        self._encoder = OBSERVATIONS.index(self.obs)
        if self._encoder == SEED and self.rules.max_rounds > SEED_ROUNDS:
            raise ValueError(f"obs='seed' keeps the seed's {SEED_ROUNDS} rounds of history; "
                             f"it needs max_rounds <= {SEED_ROUNDS}, got {self.rules.max_rounds}")
        self.obs_dim = OBS_DIMS[self._encoder]
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, rng=self._rng)
        # Each env's decisions this game (action per history slot, -1: none); obs="seed" only.
        rows = self.num_envs if self._encoder == SEED else 1
        self._history = np.full((rows, HISTORY_SLOTS), -1, np.int8)
        self.final_table = np.zeros_like(self.state.table)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._encoder, self._history, self._obs,
                      self._mask, self._current)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, self._encoder, self._history, actions, self._obs,
                     self._reward, self._terminated, self._mask, self._current,
                     self.final_table)

    def render(self, i: int) -> str:
        i = self._check_index(i)
        n = self.rules.num_players
        f = {name: field(self.state, name)[i] for name in
             ("round", "pot", "min_bet", "first", "player", "phase", "alive", "seen",
              "paid", "strength", "last_action")}
        phase = "look" if f["phase"] == 0 else "action"
        lines = [
            f"zhajinhua env {i}: round {f['round'] + 1}, pot {f['pot']}, min bet {f['min_bet']}, "
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
