"""The batched no-limit Hold'em environment (``vecgames.make("holdem", ...)``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import prange

from ...core.cards import format_cards
from ...core.jit import jit
from ...core.rng import check_seed
from ...core.state_table import keep_row
from ...core.validation import as_array, check_choice
from ...core.vec_env import VecEnv
from ...poker.describe import describe
from . import hand_equity, history
from .observe import (
    OBS_DIM,
    action_names,
    discrete_to_amount,
    legal_bounds,
    observe_one,
    write_mask,
)
from .rules import (
    ACTIONS,
    CALL,
    HAND_OVER,
    ILLEGAL_NAMES,
    NEXT_BUTTON,
    OK,
    PAID,
    PAYOUT,
    PLAYER,
    STREET,
    STREET_NAMES,
    Rules,
    State,
    check_action,
    clear_history,
    field,
    make_rules,
    new_state,
    raise_bounds,
    reset_one,
    start_hand,
    starting_stacks,
    step_one,
)

DEFAULT_FRACTIONS = (0.5, 1.0, 2.0)
WAIT_KIND = -1  # the kind a waiting table's action maps to (no rule sees it)


@jit
def _publish(s, i, r, fractions, obs, mask, current):
    bounds = legal_bounds(s, i, r)  # one computation for the observation and the mask
    observe_one(s, i, r, bounds, obs[i])
    write_mask(s, i, fractions, bounds, mask[i])
    current[i] = s.table[i, PLAYER]


@jit(parallel=True)
def _reset_kernel(s, r, fractions, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, fractions, obs, mask, current)


@jit(parallel=True)
def _start_kernel(s, r, buttons, fractions, obs, mask, current):
    for i in prange(s.rng.shape[0]):
        clear_history(s, i)
        start_hand(s, i, r, buttons[i])
        _publish(s, i, r, fractions, obs, mask, current)


@jit
def _step_env(s, i, r, kind, amount, reward, per_step, final):
    """One action in env i, its rewards, and a new hand when this one ends (its table is kept
    in ``final[i]`` first).

    Per hand (default): every player's chip change at the step that ends the hand. Per step:
    the chips each player put in at this step (the blinds belong to a hand's first step) as
    negative rewards, and the pots paid out at the last step; both sum to the same per hand.
    """
    t = s.table[i]
    n = r.num_players
    for q in range(reward.shape[0]):
        reward[q] = 0.0
    p = t[PLAYER]
    if per_step:
        if t[ACTIONS] == 0:
            for q in range(n):
                reward[q] -= t[PAID + q]
        reward[p] += t[PAID + p]
    code = step_one(s, i, kind, amount, r)
    if per_step:
        reward[p] -= t[PAID + p]
    if t[STREET] != HAND_OVER:
        return False, code
    for q in range(n):
        reward[q] += t[PAYOUT + q] if per_step else t[PAYOUT + q] - t[PAID + q]
    keep_row(s.table, i, final)
    reset_one(s, i, r)
    return True, code


@jit(parallel=True)
def _step_kernel(s, r, kinds, amounts, fractions, per_step, obs, reward, terminated, mask,
                 current, codes, final):
    for i in prange(s.rng.shape[0]):
        if kinds[i] == WAIT_KIND:
            continue
        terminated[i], codes[i] = _step_env(s, i, r, kinds[i], amounts[i], reward[i], per_step,
                                            final)
        _publish(s, i, r, fractions, obs, mask, current)


@jit(parallel=True)
def _discrete_kernel(s, r, actions, fractions, kinds, amounts):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            kinds[i], amounts[i] = WAIT_KIND, 0
            continue
        kinds[i], amounts[i] = discrete_to_amount(s, i, r, actions[i], fractions)


@jit(parallel=True)
def _check_kernel(s, r, kinds, amounts, codes):
    for i in prange(s.rng.shape[0]):
        codes[i] = OK if kinds[i] == WAIT_KIND else check_action(s, i, kinds[i], amounts[i], r)


@jit
def _check_rows_kernel(s, r, rows, kinds, amounts, codes):
    for k in range(rows.shape[0]):
        i = rows[k]
        codes[i] = check_action(s, i, kinds[k], amounts[k], r)


class HoldemEnv(VecEnv):
    """B tables of no-limit Hold'em (RULES.md §1); options: ``rules.DEFAULT_OPTIONS`` and
    ``raise_fractions`` (the discrete pot-fraction raises, default (0.5, 1, 2)) and
    ``observation``: ``"default"`` (``observe``, 222 values), ``"history"`` (the default
    values, then the chip scale, the blinds, the raise fractions and the hand's actions in
    order: ``history``) or ``"equity"`` (the default values, then Monte Carlo hand strength
    and the pot odds: ``hand_equity``).

    ``step(actions)`` takes discrete actions (``action_names``), ``step_amounts(kinds,
    amounts)`` exact ones: kind 0 fold, 1 check/call, 2 raise to ``amounts[i]`` chips. Both
    keep the illegal-action contract of ``vecgames.core.vec_env`` (``illegal="raise"``: a
    ``ValueError`` naming the env, the action, the legal actions and the raise range, before
    anything changes; ``illegal="penalty"``: that env does not move and its player is charged
    ``illegal_penalty``); the rules decide, not the returned mask. ``reset``/``step``/
    ``step_amounts`` return the env's own buffers, overwritten by the next call.
    Rewards (``rewards="hand"``): every player's chip change, at the step that ends the hand
    (0 before); ``rewards="step"``: the chips each player put in at each step as negative
    rewards (blinds at a hand's first step) and the pots paid out at its last step.
    ``final_table[i]``: env i's ``state.table`` row at the end of the hand that ended at the
    last step (the step dealt the next one; stale where no hand ended), for recorders.
    """

    name = "holdem"
    obs_dim = OBS_DIM

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 raise_fractions: Sequence[float] = DEFAULT_FRACTIONS, rewards: str = "hand",
                 observation: str = "default", illegal: str = "raise",
                 illegal_penalty: float = 0.0, **options: Any):
        self.per_step = check_choice(rewards, "rewards", ("hand", "step")) == "step"
        self.observation = check_choice(observation, "observation", history.OBSERVATIONS)
        self.rules: Rules = make_rules(**options)
        self.stacks = starting_stacks(**options)
        if min(self.stacks) <= self.rules.big_blind:
            # otherwise a hand could end at the blinds, with no decision to return
            raise ValueError(f"every stack must exceed the big blind ({self.rules.big_blind}) "
                             f"in the env; got {self.stacks}")
        try:
            fractions = np.asarray(raise_fractions, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):  # not numbers, ragged, a huge int
            fractions = np.array([np.nan])  # refused just below
        if fractions.ndim != 1 or not np.all(np.isfinite(fractions)) or np.any(fractions <= 0):
            raise ValueError("raise_fractions must be a list of positive pot fractions")
        self.fractions = fractions
        self.num_actions = len(fractions) + 4
        self.action_names = action_names(fractions)
        self.obs_dim = history.obs_dim(self.observation, len(fractions))
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        self.state: State = new_state(self.num_envs, self.stacks, rng=self._rng)
        # the hand's actions, kept for the history layout only
        self._log = history.new_log(self.num_envs if self.observation == "history" else 0)
        b = self.num_envs
        self._kinds = np.zeros(b, np.int64)
        self._amounts = np.zeros(b, np.int64)
        self._codes = np.zeros(b, np.int64)
        self.final_table = np.zeros_like(self.state.table)

    def reset(self, seed: int | None = None):
        """Deal new hands in every env; reseeding also restarts a rotating button at seat 0.
        Returns the env's own buffers, overwritten by the next call."""
        if seed is not None:
            check_seed(seed)  # before the button changes
        if seed is not None or not self._started:
            self._restart_deals()
        return super().reset(seed)

    def _restart_deals(self) -> None:
        self.state.table[:, NEXT_BUTTON] = 0

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self.fractions, self._obs, self._mask,
                      self._current)
        self._observe_layout()

    def _observe_layout(self, moved: np.ndarray | None = None) -> None:
        """The blocks the observation layout adds after the default one, in the envs that
        ``moved`` (None: all); a waiting env keeps its observation and its stream (the
        equity block draws its deals from it)."""
        if self.observation == "history":
            history.observe_kernel(self.state, self.rules, self.fractions, self._log,
                                   self._obs)
        elif self.observation == "equity":
            hand_equity.observe_kernel(self.state, self.rules, self._obs,
                                       np.ones(self.num_envs, np.bool_) if moved is None
                                       else moved)

    def _find_illegal(self, actions: np.ndarray, out: np.ndarray) -> int:
        """The rules decide (the mask is the caller's buffer): the discrete actions as
        kinds/amounts, kept for ``_step_all``, checked by ``check_action``."""
        _discrete_kernel(self.state, self.rules, actions, self.fractions, self._kinds,
                         self._amounts)
        return self._rule_check(self._kinds, self._amounts, out)

    def _rule_check(self, kinds: np.ndarray, amounts: np.ndarray, out: np.ndarray) -> int:
        _check_kernel(self.state, self.rules, kinds, amounts, self._codes)
        np.not_equal(self._codes, OK, out=out)
        return int(np.argmax(out)) if out.any() else -1

    def _step_all(self, actions: np.ndarray) -> None:
        # kinds/amounts of ``_find_illegal``; an action it refused is now WAIT (penalty mode)
        np.putmask(self._kinds, actions == self.WAIT, WAIT_KIND)
        self._apply(self._kinds, self._amounts)

    def _apply(self, kinds: np.ndarray, amounts: np.ndarray) -> None:
        if self.observation == "history":  # legal actions only: the others are WAIT_KIND
            history.record_kernel(self.state, self.rules, kinds, amounts, self._log)
        _step_kernel(self.state, self.rules, kinds, amounts, self.fractions, self.per_step,
                     self._obs, self._reward, self._terminated, self._mask, self._current,
                     self._codes, self.final_table)
        self._observe_layout(kinds != WAIT_KIND)

    def step_amounts(self, kinds: Any, amounts: Any, wait: Any = None):
        """Exact actions: ``kinds[i]`` 0 fold, 1 check/call, 2 raise to ``amounts[i]``;
        ``wait`` (bool per env, optional): the envs that do not move, as with ``WAIT`` in
        ``step`` (their kinds and amounts are not read).

        Illegal ones follow the env's ``illegal`` mode, as in ``step``. Returns the env's own
        buffers, overwritten by the next call."""
        if not self._started:
            raise RuntimeError("call reset() before step_amounts()")
        kinds = self._int_array(kinds, "kinds")  # copies: the caller's arrays are not written
        amounts = self._int_array(amounts, "amounts")
        if wait is not None:
            waiting = np.asarray(wait)
            if waiting.dtype != np.bool_ or waiting.shape != (self.num_envs,):
                raise TypeError(f"wait must be {self.num_envs} bools (one per env), got "
                                f"dtype {waiting.dtype}, shape {waiting.shape}")
            kinds[waiting] = CALL  # (not read: marked WAIT_KIND below)
        if kinds.size and kinds.min() < 0:  # the kernels read a negative kind as a wait
            bad = int(np.flatnonzero(kinds < 0)[0])
            raise ValueError(f"{self.name} env {bad}: kind {int(kinds[bad])} amount "
                             f"{int(amounts[bad])}: unknown action kind (0 fold, 1 check/call, "
                             f"2 raise; a waiting env: wait=)")
        if wait is not None:
            kinds[waiting] = WAIT_KIND
        first = self._rule_check(kinds, amounts, self._bad)
        if first >= 0:
            what = f"kind {int(kinds[first])} amount {int(amounts[first])}"
            if self.illegal == "raise":
                raise ValueError(self._illegal_message(first, what))
            np.putmask(kinds, self._bad, WAIT_KIND)
        self._apply(kinds, amounts)
        self._finish_step(kinds == WAIT_KIND)
        return self._obs, self._reward, self._terminated, self._truncated, self._info

    def first_illegal_amount(self, rows: np.ndarray, kinds: np.ndarray,
                             amounts: np.ndarray) -> int:
        """The first k for which the exact action (``kinds[k]``, ``amounts[k]``) is illegal in
        env ``rows[k]``, or -1; nothing moves (``_illegal_message(rows[k], ...)`` then names the
        rule broken)."""
        rows = np.ascontiguousarray(rows, np.int64)
        _check_rows_kernel(self.state, self.rules, rows, np.ascontiguousarray(kinds, np.int64),
                           np.ascontiguousarray(amounts, np.int64), self._codes)
        bad = self._codes[rows] != OK
        return int(np.argmax(bad)) if bad.any() else -1

    def _illegal_detail(self, i: int) -> str:
        """The rule broken and the chips at stake (``_codes`` holds the last check)."""
        to_call, lo, hi = raise_bounds(self.state, i, self.rules)
        bounds = f"raise to {lo}..{hi}" if lo <= hi else "no raise"
        # no code when the action was refused before a step checked it (a runner's check)
        rule = ILLEGAL_NAMES.get(int(self._codes[i]), "not legal now")
        return f" ({rule}; to call {to_call}, {bounds})"

    def _int_array(self, values: Any, name: str) -> np.ndarray:
        arr = np.asarray(values)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"{name} must be integers, got dtype {arr.dtype}")
        if arr.shape != (self.num_envs,):
            raise ValueError(f"{name} must be {self.num_envs} integers, got shape {arr.shape}")
        if arr.size and (arr.min() < -(2**62) or arr.max() > 2**62):
            raise ValueError(f"{name} out of range")
        return arr.astype(np.int64)

    def reset_from_deck(self, decks: Any, button: Any = 0):
        """Start hands from given card orders (``decks`` [B, >= 2n + 5] card ids: seat p gets
        ``decks[i, 2p:2p+2]``, the board is ``decks[i, 2n:2n+5]``) and buttons (int or [B]).
        Returns the env's own buffers, overwritten by the next call."""
        n = self.rules.num_players
        arr = as_array(decks, "decks")
        need = 2 * n + 5
        if arr.ndim != 2 or arr.shape[0] != self.num_envs or not need <= arr.shape[1] <= 52:
            raise ValueError(f"decks must have shape ({self.num_envs}, {need}..52), got "
                             f"{arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() > 51:
            raise ValueError("decks must hold card ids 0..51")
        dealt = np.sort(arr[:, :need], axis=1)
        if (np.diff(dealt, axis=1) == 0).any():
            raise ValueError("a deck repeats a card among the cards dealt")
        button = as_array(button, "button")
        if button.dtype == np.bool_ or not np.issubdtype(button.dtype, np.integer):
            raise TypeError(f"button must be an int or one int per env, got {button.dtype}")
        if button.shape not in ((), (self.num_envs,)):
            raise ValueError(f"button must be an int or {self.num_envs} ints (one per env), "
                             f"got shape {button.shape}")
        buttons = np.broadcast_to(button, (self.num_envs,)).astype(np.int64)
        if buttons.min() < 0 or buttons.max() >= n:
            raise ValueError(f"button must be a seat in 0..{n - 1}")
        if not self._started:
            self.reset()
        self.state.deck[:, :arr.shape[1]] = arr
        _start_kernel(self.state, self.rules, buttons, self.fractions, self._obs, self._mask,
                      self._current)
        self._observe_layout()
        self._reward[:] = 0.0
        self._terminated[:] = False
        self._illegal[:] = False
        return self._obs, self._info

    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]

    def raise_bounds(self, i: int) -> tuple[int, int, int]:
        """(to call, min raise-to, max raise-to) in env i; min > max when no raise is legal."""
        i = self._check_index(i)
        to_call, low, high = raise_bounds(self.state, i, self.rules)
        return int(to_call), int(low), int(high)

    def render(self, i: int) -> str:
        i = self._check_index(i)
        n = self.rules.num_players
        f = {name: field(self.state, name)[i] for name in
             ("button", "player", "street", "cur_bet", "folded", "all_in", "stack", "bet",
              "paid", "strength")}
        street = int(f["street"])
        shown = 0 if street == 0 else min(street + 2, 5)
        board = format_cards(self.state.deck[i, 2 * n:2 * n + shown]) or "-"
        pot = int(f["paid"][:n].sum())
        lines = [f"holdem env {i}: {STREET_NAMES[street]}, board {board}, pot {pot}, "
                 f"bet {int(f['cur_bet'])}, to act: seat {int(f['player'])}"]
        for p in range(n):
            status = ("folded" if (f["folded"] >> p) & 1 else
                      "all-in" if (f["all_in"] >> p) & 1 else "in")
            mark = " D" if p == f["button"] else "  "
            turn = " <" if p == f["player"] else ""
            hand = ""
            if f["strength"][p]:
                hand = f" ({describe(int(f['strength'][p]))})"
            lines.append(f" {mark} seat {p}: {format_cards(self.state.deck[i, 2 * p:2 * p + 2])}"
                         f"{hand}, stack {int(f['stack'][p])}, bet {int(f['bet'][p])}, "
                         f"paid {int(f['paid'][p])}, {status}{turn}")
        return "\n".join(lines)
