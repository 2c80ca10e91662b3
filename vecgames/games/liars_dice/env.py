"""The batched Liar's Dice environment (``vecgames.make("liars_dice", ...)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.validation import check_choice
from ...core.vec_env import VecEnv
from .bids import action_to_bid, format_bid
from .observe import OBSERVATIONS, obs_dim, observe_one
from .rules import (
    ACTUAL,
    CHALLENGED,
    CHALLENGER,
    LOSER,
    MATCH_END,
    PENALTY,
    PLAYER,
    ROUND_END,
    TRUNCATED,
    Rules,
    State,
    field,
    make_rules,
    new_state,
    reset_match,
    step_one,
    unpack_counts,
    write_mask,
)


@jit
def _publish(s, i, r, observation, obs, mask, current, penalty):
    t = s.table[i]
    observe_one(t, r, observation, obs[i])
    write_mask(t, r, mask[i])
    current[i] = t[PLAYER]
    for q in range(r.num_players):
        penalty[i, q] = t[PENALTY + q]


@jit
def _reset_one(s, i, r):
    """``reset_match`` as a call: it is inlined at IR level, and Numba's parfor pass can lose
    a direct store to a NamedTuple's array inside a ``prange`` body."""
    reset_match(s, i, r)


@jit(parallel=True)
def _reset_kernel(s, r, observation, obs, mask, current, penalty):
    for i in prange(s.rng.shape[0]):
        _reset_one(s, i, r)
        _publish(s, i, r, observation, obs, mask, current, penalty)


@jit
def _step_env(s, i, r, a, reward, flags, loser, final_penalty):
    """One step of env i: rewards, what happened (flags, loser), and a new match when the
    match ended (its final penalty points are kept in ``final_penalty[i]`` first)."""
    t = s.table[i]
    n = r.num_players
    for q in range(n):
        reward[q] = 0.0
    f = step_one(s, i, a, r)  # a legal action: ``VecEnv.step`` refused the others
    flags[i] = f
    loser[i] = -1
    if f & ROUND_END:
        lost = t[LOSER]
        win = 1.0 if r.reward_seed else 1.0 / (n - 1)
        for q in range(n):
            reward[q] += -1.0 if q == lost else win
        loser[i] = lost
    if f & (MATCH_END | TRUNCATED):
        for q in range(n):
            final_penalty[i, q] = t[PENALTY + q]
        reset_match(s, i, r)


@jit(parallel=True)
def _step_kernel(s, r, observation, actions, obs, reward, terminated, truncated, mask, current,
                 penalty, flags, loser, final_penalty):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        _step_env(s, i, r, actions[i], reward[i], flags, loser, final_penalty)
        f = flags[i]
        terminated[i] = (f & MATCH_END) != 0
        truncated[i] = (f & (MATCH_END | TRUNCATED)) == TRUNCATED
        _publish(s, i, r, observation, obs, mask, current, penalty)


class LiarsDiceEnv(VecEnv):
    """B tables of Liar's Dice with 斋/飞 (RULES.md §3); an episode is a match of
    ``num_rounds`` rounds. Rule options: ``rules.DEFAULT_OPTIONS``; ``observation="full"``
    (default) or ``"seed"`` (the seed project's 22 values), laid out in ``observe.py``.

    Actions: 0 challenge, then the bids in the order of ``bids.py``. An illegal action raises
    (``illegal="raise"``) or is charged ``illegal_penalty`` with nothing moved and
    ``info["illegal"]`` set (``illegal="penalty"``): the contract of ``vecgames.core.vec_env``.
    At the step that ends a round the loser
    gets -1 and every other player +1/(P-1) (``reward="seed"``: +1). ``info`` also holds
    ``round_over`` and ``loser`` (-1 where no round ended), ``penalty_points`` of the match in
    progress and ``final_penalty_points`` of a match that ended at this step (rows of other
    envs are stale). A round that reaches ``max_round_steps`` steps ends the match with
    ``truncated=True`` and no reward (possible only with ``forbid_repeat_bids=False``).
    ``reset``/``step`` return the env's own buffers, overwritten by the next call.
    """

    name = "liars_dice"
    event_info = {"round_over": False, "loser": -1}

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 observation: str = "full", illegal: str = "raise",
                 illegal_penalty: float = 0.0, **options: Any):
        self.rules: Rules = make_rules(**options)
        self.observation = check_choice(observation, "observation", OBSERVATIONS)
        self._observation = OBSERVATIONS.index(self.observation)
        self.num_actions = self.rules.num_actions
        self.obs_dim = obs_dim(self._observation, self.rules.num_players,
                               self.rules.num_actions)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, rng=self._rng)
        b, n = self.num_envs, self.num_players
        self._flags = np.zeros(b, np.int64)
        self._loser = np.full(b, -1, np.int32)
        self._penalty = np.zeros((b, n), np.int32)
        self._final_penalty = np.zeros((b, n), np.int32)
        self._info.update(round_over=np.zeros(b, np.bool_), loser=self._loser,
                          penalty_points=self._penalty, final_penalty_points=self._final_penalty)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._observation, self._obs, self._mask,
                      self._current, self._penalty)
        self._loser[:] = -1
        self._info["round_over"][:] = False

    def _action_text(self, action: int) -> str:
        return f"action {action} ({format_bid(self.bid(action))})"

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, self._observation, actions, self._obs,
                     self._reward, self._terminated, self._truncated, self._mask,
                     self._current, self._penalty, self._flags, self._loser,
                     self._final_penalty)
        np.not_equal(self._flags & ROUND_END, 0, out=self._info["round_over"])

    # -- views for people and tests ------------------------------------------------------------
    def dice(self, i: int, revealed: bool = False) -> list[list[int]]:
        """Every seat's dice in env i, sorted; ``revealed=True``: the dice shown at the last
        challenge (kept through the next match, so a match's last round can be shown)."""
        i = self._check_index(i)
        seats = field(self.state, "revealed" if revealed else "dice")[i]
        return [[f + 1 for f, c in enumerate(unpack_counts(seats[p])) for _ in range(c)]
                for p in range(self.num_players)]

    def bid(self, action: int) -> tuple[str, int, int] | None:
        """The bid of an action id at this table (None for the challenge)."""
        return action_to_bid(action, self.num_players, self.rules.dice)

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]

    def last_round(self, i: int) -> dict[str, Any] | None:
        """The last finished round in env i (also after its match ended and a new one was
        dealt): who challenged which bid, every seat's dice, how many counted for the bid and
        who lost; None before any round ended."""
        i = self._check_index(i)
        t = self.state.table[i]
        if t[LOSER] < 0:
            return None
        return {"challenger": int(t[CHALLENGER]), "bid": self.bid(int(t[CHALLENGED])),
                "dice": self.dice(i, revealed=True), "actual": int(t[ACTUAL]),
                "loser": int(t[LOSER])}

    def render(self, i: int) -> str:
        i = self._check_index(i)
        f = {name: int(field(self.state, name)[i]) for name in
             ("round", "player", "first", "last", "bids")}
        penalty = field(self.state, "penalty")[i]
        last = format_bid(self.bid(f["last"])) if f["last"] else "none yet"
        lines = [f"liars_dice env {i}: round {f['round'] + 1}/{self.rules.num_rounds}, "
                 f"opener seat {f['first']}, {f['bids']} bids, last bid {last}, "
                 f"to act: seat {f['player']}"]
        for p, dice in enumerate(self.dice(i)):
            lines.append(f"  seat {p}: dice {' '.join(map(str, dice))}, "
                         f"penalty points {int(penalty[p])}")
        return "\n".join(lines)

