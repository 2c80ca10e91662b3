"""The batched Hanabi environment (``vecgames.make("hanabi", ...)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.state_table import keep_row
from ...core.validation import as_array, check_choice, check_int
from ...core.vec_env import VecEnv
from .observe import ENCODERS, SEED1680, obs_dim, observe_all, observe_one
from .rules import (
    COLOR_NAMES,
    DECK_SIZE,
    LAST_ACTION,
    LAST_ACTOR,
    LIFE,
    PLAYER,
    SCORE,
    TERMINAL,
    Rules,
    State,
    _begin,
    end_reason,
    field,
    hands,
    knowledge,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)

OBSERVERS = ("current", "all")


@jit
def _publish(s, i, r, encoder, all_seats, obs, mask, legal, current):
    """Observation(s), the masks of every seat and the seat to act of env i."""
    t = s.table[i]
    p = t[PLAYER]
    bits = legal_bits(t, r)
    for a in range(r.num_actions):
        mask[i, a] = (bits >> a) & 1
    for q in range(r.num_players):
        for a in range(r.num_actions):
            legal[i, q, a] = mask[i, a] if q == p else a == r.noop
    current[i] = p
    if all_seats:  # obs is [B, P, D], else [B, 1, D]
        observe_all(s, i, r, encoder, obs[i])
    else:
        observe_one(s, i, r, encoder, p, obs[i, 0])


@jit(parallel=True)
def _reset_kernel(s, r, encoder, all_seats, obs, mask, legal, current):
    for i in prange(s.rng.shape[0]):
        reset_one(s, i, r)
        _publish(s, i, r, encoder, all_seats, obs, mask, legal, current)


@jit(parallel=True)
def _begin_kernel(s, r, encoder, all_seats, obs, mask, legal, current):
    for i in prange(s.rng.shape[0]):
        _begin(s, i, r, 0)  # a given deck: drawn in its order
        _publish(s, i, r, encoder, all_seats, obs, mask, legal, current)


@jit
def _step_env(s, i, r, a, reward, score, end, final):
    """One step of env i (a legal action: ``VecEnv.step`` refused the others): the shared
    reward; a new game when this one ends (its return and how it ended are kept in
    ``score[i]`` and ``end[i]`` first, -1 there otherwise; its table in ``final[i]``)."""
    value, _ = step_one(s, i, a, r)
    for q in range(r.num_players):
        reward[i, q] = value
    done = s.table[i, TERMINAL] != 0
    score[i] = -1
    end[i] = -1
    if done:  # the game's return: the firework total, 0 once the lives ran out
        score[i] = s.table[i, SCORE] if s.table[i, LIFE] > 0 else 0
        end[i] = end_reason(s.table[i])
        keep_row(s.table, i, final)
        reset_one(s, i, r)
    return done


@jit(parallel=True)
def _step_kernel(s, r, encoder, all_seats, actions, obs, reward, terminated, mask, legal,
                 current, score, end, final):
    for i in prange(s.rng.shape[0]):
        if actions[i] < 0:  # VecEnv.WAIT: this table sits the step out
            continue
        terminated[i] = _step_env(s, i, r, actions[i], reward, score, end, final)
        _publish(s, i, r, encoder, all_seats, obs, mask, legal, current)


class HanabiEnv(VecEnv):
    """B tables of Hanabi with JaxMARL's rules (RULES.md §4, docs/hanabi.md), or the seed's
    by the rule options ``end``, ``discard_at_max`` and ``hint_target`` (``rules.py``).

    ``step(actions)`` takes the action of the player to act in each env (``[B]``; a ``[B, P]``
    array of every agent's action, JaxMARL style, is accepted too: only the player to act's
    entry counts). An illegal action raises (``illegal="raise"``) or is charged
    ``illegal_penalty`` with nothing moved and ``info["illegal"]`` set (``illegal="penalty"``):
    the contract of ``vecgames.core.vec_env``. The reward, shared by all players, is the change
    in the total firework height (on the move that loses the last life, minus the total, so that
    the game's return is 0). ``info["legal_moves"]`` ``[B, P, A]`` holds every seat's legal
    moves (the no-op only, for the seats not to act); ``info["score"]`` the return of the games
    that ended at this step (their firework total, 0 if the lives ran out; -1 elsewhere) and
    ``info["end"]`` how they ended (an index into ``END_NAMES``: lives, perfect, deck; -1).
    ``obs`` is ``[B, D]`` for the seat to act (``observers="current"``) or ``[B, P, D]`` for
    every seat (``observers="all"``). ``reset``/``step`` return the env's own buffers,
    overwritten by the next call. ``final_table[i]``: env i's ``state.table`` row at the end
    of the game that ended at the last step (stale where none ended), for recorders.
    """

    name = "hanabi"
    event_info = {"score": -1, "end": -1}

    def __init__(self, num_envs: int = 1, seed: int = 0, env_offset: int = 0,
                 obs: str = "jaxmarl", observers: str = "current", illegal: str = "raise",
                 illegal_penalty: float = 0.0, **options: Any):
        self.rules: Rules = make_rules(**options)
        self.encoder = check_choice(obs, "obs", ENCODERS)
        self._encoder = ENCODERS.index(self.encoder)
        if self._encoder == SEED1680 and self.rules.num_players != 2:
            raise ValueError(f"obs='seed1680' is the seed's 2-player layout; "
                             f"got num_players={self.rules.num_players}")
        self.observers = check_choice(observers, "observers", OBSERVERS)
        self._all = self.observers == "all"
        self.num_actions = self.rules.num_actions
        self.obs_dim = obs_dim(self._encoder, self.rules.num_players, self.rules.hand_size)
        super().__init__(num_envs, self.rules.num_players, seed, env_offset, illegal,
                         illegal_penalty)
        b, n = self.num_envs, self.num_players
        # The kernels write [B, seats, D]; with one seat the returned obs is its [B, D] view.
        self._obs3 = np.zeros((b, n if self._all else 1, self.obs_dim), np.float32)
        self._obs: np.ndarray = self._obs3 if self._all else self._obs3.reshape(b, self.obs_dim)
        self.state: State = new_state(b, rng=self._rng)
        self._legal = np.zeros((b, n, self.num_actions), np.bool_)
        self._score = np.full(b, -1, np.int64)
        self._end = np.full(b, -1, np.int8)
        self.final_table = np.zeros_like(self.state.table)
        self._info.update(legal_moves=self._legal, score=self._score, end=self._end)

    def _reset_all(self) -> None:
        _reset_kernel(self.state, self.rules, self._encoder, self._all, self._obs3,
                      self._mask, self._legal, self._current)
        self._score[:] = -1
        self._end[:] = -1

    def step(self, actions: Any):
        """``VecEnv.step`` (``[B]`` actions, or ``[B, P]`` with the player to act's entry
        used); returns the env's own buffers, overwritten by the next call."""
        arr = np.asarray(actions)
        if arr.ndim == 2 and arr.shape == (self.num_envs, self.num_players) and self._started:
            actions = arr[np.arange(self.num_envs), self._current]
        return super().step(actions)

    def _step_all(self, actions: np.ndarray) -> None:
        _step_kernel(self.state, self.rules, self._encoder, self._all, actions, self._obs3,
                     self._reward, self._terminated, self._mask, self._legal, self._current,
                     self._score, self._end, self.final_table)

    def reset_from_deck(self, decks: Any) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every env from a given deck order, top card first: card ids ``[B, 50]`` (or
        ``[50]`` for all envs) with id = 5 x colour + rank (colours R, Y, G, W, B; rank 0..4 =
        value 1..5), or JaxMARL's one-hot form ``[B, 50, 5, 5]`` / ``[50, 5, 5]``. Each must
        be a full deck (3/2/2/2/1 copies per colour). Games that follow are shuffled from the
        env streams as usual. Returns the env's own buffers, overwritten by the next call."""
        ids = deck_ids(decks, self.num_envs)
        if not self._started:  # seed the streams for the games after these
            super().reset()
        self.state.deck[:] = ids
        _begin_kernel(self.state, self.rules, self._encoder, self._all, self._obs3,
                      self._mask, self._legal, self._current)
        self._reward[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._illegal[:] = False
        self._score[:] = -1
        self._end[:] = -1
        return self._obs, self._info

    # -- views for people and tests ------------------------------------------------------------
    def legal_actions(self, i: int) -> list[int]:
        i = self._check_index(i)
        return [int(a) for a in np.flatnonzero(self._mask[i])]

    def action_name(self, action: int) -> str:
        return action_name(check_int(action, "action", 0, self.num_actions - 1), self.rules)

    def render(self, i: int) -> str:
        i = self._check_index(i)
        r = self.rules
        t = self.state.table[i]
        f = {name: int(field(self.state, name)[i]) for name in
             ("player", "info", "life", "dealt", "score", "turn")}
        fire = " ".join(f"{COLOR_NAMES[c]}{int(h)}" for c, h in
                        enumerate(field(self.state, "fireworks")[i]))
        lines = [f"hanabi env {i}: turn {f['turn']}, to act: seat {f['player']}, "
                 f"info {f['info']}, lives {f['life']}, deck {DECK_SIZE - f['dealt']}, "
                 f"fireworks {fire} (score {f['score']})"]
        if t[LAST_ACTOR] >= 0:
            last = self.action_name(int(t[LAST_ACTION]))
            lines.append(f"  last: seat {int(t[LAST_ACTOR])} {last}")
        for p in range(r.num_players):
            cards = [card_text(int(c), int(k)) for c, k in
                     zip(hands(self.state)[i, p, :r.hand_size],
                         knowledge(self.state)[i, p, :r.hand_size], strict=True)]
            lines.append(f"  seat {p}: {' '.join(cards)}")
        discards = self.state.pile[i, :int(field(self.state, 'piled')[i])]
        lines.append("  discards: " + (" ".join(card_text(int(c)) for c in discards) or "-"))
        return "\n".join(lines)


def card_text(card: int, know: int | None = None) -> str:
    """``R1`` .. ``B5`` (``--`` for an empty slot); with knowledge, what the holder knows:
    ``R1[R?]`` = the holder knows the colour only."""
    if card < 0:
        return "--"
    text = f"{COLOR_NAMES[card // 5]}{card % 5 + 1}"
    if know is None:
        return text
    colors = [COLOR_NAMES[c] for c in range(5) if (know >> c) & 1]
    ranks = [str(v + 1) for v in range(5) if (know >> (5 + v)) & 1]
    return (f"{text}[{colors[0] if len(colors) == 1 else '?'}"
            f"{ranks[0] if len(ranks) == 1 else '?'}]")


def action_name(action: int, rules: Rules) -> str:
    """``discard 2``, ``play 0``, ``hint +1 red``, ``hint +2 rank 3``, ``no-op``."""
    h = rules.hand_size
    if action == rules.noop:
        return "no-op"
    if action < h:
        return f"discard {action}"
    if action < 2 * h:
        return f"play {action - h}"
    color = action < rules.rank_hints
    k, value = divmod(action - (rules.color_hints if color else rules.rank_hints), 5)
    what = "RYGWB"[value] if color else f"rank {value + 1}"
    return f"hint +{k + 1} {what}"


def deck_ids(decks: Any, num_envs: int) -> np.ndarray:
    """Validate decks as card ids ``[num_envs, 50]`` (see ``HanabiEnv.reset_from_deck``)."""
    arr = as_array(decks, "decks")
    if arr.ndim >= 3 and arr.shape[-2:] == (5, 5):  # JaxMARL's one-hot form
        flat = arr.reshape(*arr.shape[:-2], 25)
        if not np.isin(flat, (0, 1)).all() or not (flat.sum(axis=-1) == 1).all():
            raise ValueError("decks in one-hot form [.., 50, 5, 5] must have exactly one 1 "
                             "per card")
        arr = flat.argmax(axis=-1)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"decks must be integer card ids or one-hot [.., 50, 5, 5], got dtype "
                        f"{arr.dtype}")
    if arr.shape == (DECK_SIZE,):
        arr = np.broadcast_to(arr, (num_envs, DECK_SIZE))
    if arr.shape != (num_envs, DECK_SIZE):
        raise ValueError(f"decks must have shape ({num_envs}, 50) or (50,), got {arr.shape}")
    full = np.bincount(np.array([5 * c + r for c in range(5) for r in range(5)
                                 for _ in range((3, 2, 2, 2, 1)[r])]), minlength=25)
    for i, row in enumerate(arr):
        if row.min() < 0 or row.max() > 24 or not (np.bincount(row, minlength=25) == full).all():
            raise ValueError(f"deck of env {i} is not a full Hanabi deck (ids 0..24 with "
                             f"3/2/2/2/1 copies of ranks 1..5 per colour)")
    return np.ascontiguousarray(arr, dtype=np.int8)
