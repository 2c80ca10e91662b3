"""Hanabi's ``conventions`` observation: the jaxmarl observation of the player to act, then
what the ``conventions`` player's conventions have made common knowledge, so that a network
can play by them (and be taught by ``conventions``).

Per seat from the player to act on, per slot: the types the card may be (its hints, the
meaning of the clues that touched it, the copies left: 25 values), whether it was clued,
saved, or clued to play (3), and four facts (``SLOT_VALUES``). Then the types playable now,
playable once the cards known to be playable are played, trash and critical (4 x 25). Then,
for each of the ten clues to the next player, how it would read (``CLUE_VALUES``). These are
what ``conventions`` reads from ``State.memo`` and weighs when it chooses a clue. A learned
player keeps that memory up to date as ``conventions`` does: after it chooses a clue, it
writes the clue's meaning (:meth:`ConventionView.record`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.bits import popcount
from ...core.jit import jit
from . import players_conventions as hc
from .observe import JAXMARL, obs_dim, observe_one
from .rules import PLAYER, card_at, held, know_at

TYPES = 25
FLAGS = (hc.F_CLUED, hc.F_SAVE, hc.F_PLAY)
# per slot: its types, the flags, then four facts: of the player's own card, known playable,
# known trash, may be critical (and 0); of another's, the card playable, trash, critical,
# and its holder knowing it playable
SLOT_VALUES = TYPES + len(FLAGS) + 4
TABLE_VALUES = 4 * TYPES  # playable, queued playable, trash, critical
# per clue to the next player (5 colours, then 5 ranks): whether it touches a card, the
# slots it touches, its focus slot, whether that reading holds the real card, whether the
# focus card is playable, critical, and the share of the hand it newly touches
CLUE_VALUES = 1 + 5 + 5 + 4
CLUES_VALUES = 10 * CLUE_VALUES


def view_dim(num_players: int, hand_size: int) -> int:
    """Length of the observation: the jaxmarl one, then the conventions' features."""
    return (obs_dim(JAXMARL, num_players, hand_size) + num_players * hand_size * SLOT_VALUES
            + TABLE_VALUES + CLUES_VALUES)


@jit(inline=True)
def _put_types(types, out, o):
    """The spaced set ``types`` (type x at bit 2x) as 25 zeros and ones from out[o]."""
    for x in range(TYPES):
        out[o + x] = (types >> (2 * x)) & 1


@jit(inline=True)
def _subset(types, of):
    return types != 0 and types & ~of == 0


@jit
def _features(s, i, r, out):
    """The conventions' common knowledge in env i, seen by the player to act, into out."""
    t = s.table[i]
    n, h = r.num_players, r.hand_size
    p = t[PLAYER]
    q = p + 1 if p + 1 < n else 0
    memo = s.memo[i]
    u, alive, playable, ext, trash, critical, stall = hc.clue_context(t, memo, r, p)
    seen = np.int64(0)  # copies in the other players' hands: the player to act sees them
    for o in range(n):
        if o != p:
            for k in range(h):
                c = card_at(t, o, k)
                if c >= 0:
                    seen += np.int64(1) << (2 * c)
    my_alive = hc._nonzero(u - seen)
    out[:] = 0.0
    o = 0
    for d in range(n):
        seat = (p + d) % n
        for k in range(held(t, seat, r)):
            word = memo[seat, k]
            types = hc._slot_set(know_at(t, seat, k), word, my_alive if d == 0 else alive)
            _put_types(types, out, o)
            for f in range(len(FLAGS)):
                out[o + TYPES + f] = (word & FLAGS[f]) != 0
            f = o + TYPES + len(FLAGS)
            if d == 0:
                out[f] = _subset(types, playable)
                out[f + 1] = _subset(types, trash)
                out[f + 2] = (types & critical) != 0
            else:
                card = np.int64(1) << (2 * card_at(t, seat, k))
                out[f] = (card & playable) != 0
                out[f + 1] = (card & trash) != 0
                out[f + 2] = (card & critical) != 0
                out[f + 3] = _subset(types, playable)
            o += SLOT_VALUES
        o += (h - held(t, seat, r)) * SLOT_VALUES
    for m, types in enumerate((playable, ext, trash, critical)):
        _put_types(types, out, o + m * TYPES)
    o += TABLE_VALUES
    if q == p:
        return
    nq = held(t, q, r)
    for c in range(10):
        is_color = c < 5
        touched, new, focus, fmask = hc.reading(t, memo, r, q, is_color, c % 5, alive,
                                                playable, ext, trash, critical, stall)
        at = o + c * CLUE_VALUES
        out[at] = touched != 0
        for k in range(5):
            out[at + 1 + k] = (touched >> k) & 1
        if focus >= 0:
            out[at + 6 + focus] = 1.0
            card = np.int64(1) << (2 * card_at(t, q, focus))
            out[at + 11] = (card & fmask) != 0
            out[at + 12] = (card & playable) != 0
            out[at + 13] = (card & critical) != 0
        if nq > 0:
            out[at + 14] = popcount(new) / nq


@jit(parallel=True)
def observe_rows(s, r, rows, base, out):
    """``out[k]``: the view of the player to act in env ``rows[k]`` (``base``: the length of
    its jaxmarl part)."""
    for k in prange(rows.shape[0]):
        i = rows[k]
        observe_one(s, i, r, JAXMARL, s.table[i, PLAYER], out[k, :base])
        _features(s, i, r, out[k, base:])


@jit(parallel=True)
def read_clues(s, r, rows, actions):
    """The meaning of the clues among ``actions`` (one per env ``rows[k]``, by its player to
    act), written as ``conventions`` reads them (``hanabi_conventions.read_clue``)."""
    for k in prange(rows.shape[0]):
        hc.read_clue(s, rows[k], r, actions[k])


class ConventionView:
    """The ``conventions`` observation of a Hanabi env's players to act (``observe``) and the
    memory their clues leave (``record``, before the env steps)."""

    name = "conventions"

    def __init__(self, num_players: int, hand_size: int):
        self.base = obs_dim(JAXMARL, num_players, hand_size)
        self.dim = view_dim(num_players, hand_size)

    @classmethod
    def for_obs_dim(cls, num_players: int, obs_dim: int) -> ConventionView:
        """The view of ``num_players`` seats whose observations have ``obs_dim`` values (a
        checkpoint's: the hand size follows)."""
        for hand_size in range(1, 6):
            if view_dim(num_players, hand_size) == obs_dim:
                return cls(num_players, hand_size)
        raise ValueError(f"no conventions observation of {num_players} players has "
                         f"{obs_dim} values")

    def observe(self, env: Any, rows: np.ndarray | None = None) -> np.ndarray:
        """float32 ``[len(rows), dim]`` (every env when ``rows`` is None)."""
        rows = _rows(env, rows)
        out = np.empty((rows.shape[0], self.dim), np.float32)
        observe_rows(env.state, env.rules, rows, self.base, out)
        return out

    def record(self, env: Any, rows: np.ndarray | None, actions: np.ndarray) -> None:
        """Write what the clues among ``actions`` (of envs ``rows``) mean."""
        rows = _rows(env, rows)
        read_clues(env.state, env.rules, rows, np.ascontiguousarray(actions, dtype=np.int64))


def _rows(env: Any, rows: np.ndarray | None) -> np.ndarray:
    if rows is None:
        return np.arange(env.num_envs, dtype=np.int64)
    return np.ascontiguousarray(rows, dtype=np.int64)
