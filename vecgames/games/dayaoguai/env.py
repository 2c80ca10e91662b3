"""The batched Da Yaoguai environment (``vecgames.make("dayaoguai", ...)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.state_table import keep_row
from ...core.validation import check_int
from ...core.vec_env import VecEnv
from .names import check_seat_names, seat_label
from .observe import obs_dim, observe_one
from .rules import (
    NUM_ACTIONS,
    PASS,
    PLAYER,
    Rules,
    State,
    card_name,
    field,
    hand_text,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)


@jit
def _publish(s, i, r, obs, mask, current):
    observe_one(s, i, r, obs[i])
    bits = legal_bits(s.table[i], r)
    for a in range(NUM_ACTIONS):
        mask[i, a] = (bits >> a) & 1
    current[i] = s.table[i, PLAYER]


@jit(parallel=True)
def _reset_kernel(s, r, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, obs, mask, current)


@jit
def _step_env(s, i, r, a, reward, truncated, final):
    """One step of env i (a legal action: ``VecEnv.step`` refused the others): bean transfers
    as rewards; a new game when this one ends (its table kept in ``final[i]`` first)."""
    for q in range(r.num_players):
        reward[i, q] = 0.0
    _, done, cut = step_one(s, i, a, r, reward[i])
    truncated[i] = cut
    if done or cut:
        keep_row(s.table, i, final)
        reset_one(s, i, r)
    return done


@jit(parallel=True)
def _step_kernel(s, r, actions, obs, reward, terminated, truncated, mask, current, final):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        terminated[i] = _step_env(s, i, r, actions[i], reward, truncated, final)
        _publish(s, i, r, obs, mask, current)


class DaYaoguaiEnv(VecEnv):
    """B tables of Da Yaoguai (RULES.md §5). Options: ``num_players`` (4; 3..6), ``base``
    (1: beans per card picked up), ``max_steps`` (5000: truncation), ``must_beat`` (False: a
    player may pass and pick up even when it could beat; True: only when nothing beats, the
    seed's rule). ``seat_names``: ``"numbers"`` or ``"xiyouji"`` (the seed's 西游记 characters)
    in ``render``; a label only, not a rule.

    Actions: 0..27 play that card (id = 4 x rank + suit, ranks J Q K 3 8 5 10, suits h s c
    d), 28 pass and pick up the table. An illegal action raises (``illegal="raise"``) or is
    charged ``illegal_penalty`` with nothing moved and ``info["illegal"]`` set
    (``illegal="penalty"``): the contract of ``vecgames.core.vec_env``. Rewards are the bean
    transfers of a pickup, at that step, for every player (zero-sum). ``obs`` is the view of
    the player to act (``observe.py``). ``reset``/``step`` return the env's own buffers,
    overwritten by the next call. ``final_table[i]``: env i's ``state.table`` row at the end
    of the game that ended (or was truncated) at the last step (stale elsewhere), for
    recorders.
    """

    name = "dayaoguai"
    num_actions = NUM_ACTIONS

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 illegal: str = "raise", illegal_penalty: float = 0.0,
                 seat_names: str = "numbers", **options: Any):
        self.seat_names = check_seat_names(seat_names)
        self.rules: Rules = make_rules(**options)
        self.obs_dim = obs_dim(self.rules.num_players)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, rng=self._rng)
        self.final_table = np.zeros_like(self.state.table)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._obs, self._mask, self._current)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, actions, self._obs, self._reward,
                     self._terminated, self._truncated, self._mask, self._current,
                     self.final_table)

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]

    @staticmethod
    def action_name(action: int) -> str:
        action = check_int(action, "action", 0, NUM_ACTIONS - 1)
        return "pass (pick up)" if action == PASS else f"play {card_name(action)}"

    def render(self, i: int) -> str:
        i = self._check_index(i)
        n = self.rules.num_players
        f = {k: int(field(self.state, k)[i]) for k in ("player", "table_n", "steps", "pickups")}
        cards = self.state.table_cards[i, :f["table_n"]]
        table = " ".join(card_name(int(c)) for c in cards) or "(empty: a lead)"
        lines = [f"dayaoguai env {i}: step {f['steps']}, {f['pickups']} pickups, to act: "
                 f"{seat_label(f['player'], self.seat_names)}", f"  table: {table}"]
        for p in range(n):
            place = int(field(self.state, "place")[i, p])
            hand = hand_text(int(field(self.state, "hand")[i, p]))
            lines.append(f"  {seat_label(p, self.seat_names)}: {hand}, "
                         f"beans {int(field(self.state, 'beans')[i, p]):+d}"
                         + (f", finished #{place}" if place else ""))
        return "\n".join(lines)
