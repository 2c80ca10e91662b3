"""Whole matches inside the kernels: ``vecgames.simulate("liars_dice", ...)``.

Match g draws from the random stream of global index g under the seed, so any match can be
replayed alone and results do not depend on the thread count or on how matches are blocked.
With the default ``num_rounds=1`` a match is one round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numba import prange

from ...core.jit import jit
from ...core.rng import check_seed, keyed_start, seed_key
from ...core.simulation import SimJob, numba_threads, resolve_policies
from ...core.validation import check_bool, check_int
from . import players as policies
from .bids import B_COUNT, B_FACE, B_MODE, MODE_NAMES
from .rules import (
    ACTUAL,
    CHALLENGED,
    CHALLENGER,
    FIRST,
    LOSER,
    MATCH_END,
    MAX_PLAYERS,
    PENALTY,
    PLAYER,
    ROUND,
    ROUND_BIDS,
    ROUND_END,
    TRUNCATED,
    Rules,
    make_rules,
    new_state,
    play_legal,
    random_legal,
    reset_match,
    rules_to_options,
)

SLOTS = 64  # runs per kernel call, each in its own state slot (a few per thread)
END_NAMES = ("challenge", "truncated", "unplayed")
END_CHALLENGE, END_TRUNCATED, END_UNPLAYED = range(3)

# Columns of the per-slot totals (int64 sums).
T_MATCHES, T_ROUNDS, T_BIDS, T_BIDS_SQ, T_BID_FALSE, T_OPENER_LOST, T_TRUNCATED = range(7)
T_LOST = 7  # per seat: rounds lost
T_PENALTY_SQ = T_LOST + MAX_PLAYERS  # per seat: sum over matches of penalty points squared
NUM_TOTALS = T_PENALTY_SQ + MAX_PLAYERS


# Per-round columns of ``cols`` (int32); the round number is implied by the row.
C_OPENER, C_BIDS, C_CHALLENGER, C_MODE, C_COUNT, C_FACE, C_ACTUAL, C_LOSER, C_END = range(9)
NUM_COLS = 9


@jit
def _round_row(t, r, row, opener, cols):
    """Write the round that just ended at ``row`` of the per-round columns."""
    bid = r.bids[t[CHALLENGED]]  # the challenged bid's row of the per-action table
    cols[row, C_OPENER] = opener
    cols[row, C_BIDS] = t[ROUND_BIDS]
    cols[row, C_CHALLENGER] = t[CHALLENGER]
    cols[row, C_MODE] = bid[B_MODE]
    cols[row, C_COUNT] = bid[B_COUNT]
    cols[row, C_FACE] = bid[B_FACE]
    cols[row, C_ACTUAL] = t[ACTUAL]
    cols[row, C_LOSER] = t[LOSER]
    cols[row, C_END] = END_CHALLENGE


@jit
def _play_run(s, slot, r, seat_policy, threshold, seed, first_game, lo, hi, rows, totals,
              cols):
    """Play matches first_game+lo .. first_game+hi-1 one after another in state slot ``slot``,
    adding them to ``totals[slot]`` and, with ``rows``, writing their rounds to ``cols`` (match
    g at rows g x num_rounds ..; pre-filled as unplayed). One loop with local sums: this is
    the hot path of a random round (about 70 ns)."""
    fast_random = True
    for q in range(r.num_players):
        fast_random &= seat_policy[q] == policies.RANDOM
    t = s.table[slot]
    key = seed_key(seed)
    rounds = bids_sum = bids_sq = bid_false = opener_lost = truncated = 0
    for g in range(lo, hi):
        s.rng[slot] = keyed_start(key, first_game + g)  # (not in a prange body: kept)
        reset_match(s, slot, r)
        opener = t[FIRST]
        base = g * r.num_rounds
        while True:
            if fast_random:
                a = random_legal(s, slot, r)
            else:
                a = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r, threshold)
            f = play_legal(s, slot, a, r)  # the policies pick legal actions only
            if f & ROUND_END:
                bids = t[ROUND_BIDS]
                rounds += 1
                bids_sum += bids
                bids_sq += bids * bids
                bid_false += t[LOSER] != t[CHALLENGER]
                opener_lost += t[LOSER] == opener
                if rows:
                    _round_row(t, r, base + t[ROUND] - 1, opener, cols)
                opener = t[FIRST]
            elif f & TRUNCATED:
                truncated += 1
                if rows:
                    cols[base + t[ROUND], C_END] = END_TRUNCATED
            if f & (MATCH_END | TRUNCATED):
                break
        for q in range(r.num_players):  # a match's points are the rounds each seat lost
            points = t[PENALTY + q]
            totals[slot, T_LOST + q] += points
            totals[slot, T_PENALTY_SQ + q] += points * points
    totals[slot, T_MATCHES] += hi - lo
    totals[slot, T_ROUNDS] += rounds
    totals[slot, T_BIDS] += bids_sum
    totals[slot, T_BIDS_SQ] += bids_sq
    totals[slot, T_BID_FALSE] += bid_false
    totals[slot, T_OPENER_LOST] += opener_lost
    totals[slot, T_TRUNCATED] += truncated


@jit(parallel=True)
def _play_all(s, r, seat_policy, threshold, seed, first_game, n, rows, totals, cols):
    """Play matches first_game .. first_game+n-1, split into as many runs as ``s`` has slots
    (which run plays a match depends on n alone, so the thread count changes nothing)."""
    slots = s.rng.shape[0]
    for c in prange(slots):
        _play_run(s, c, r, seat_policy, threshold, seed, first_game, (n * c) // slots,
                  (n * (c + 1)) // slots, rows, totals, cols)


MAX_ROWS = 50_000_000  # per-round frames above this need summary=True (memory)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             summary: bool = False, threshold: float | None = None, first_game: int = 0,
             num_threads: int | None = None, **options: Any) -> pd.DataFrame:
    """Play ``num_games`` matches (of ``num_rounds`` rounds, default 1) and return one row per
    round, or per seat with ``summary=True``.

    Per-round columns: ``game, round, opener, bids, challenger, mode, count, face`` (the
    challenged bid), ``actual`` (dice that counted for it), ``loser`` and ``end``
    (``challenge``; ``truncated`` for a round cut by ``max_round_steps``, then ``unplayed``
    for the rest of its match: -1 in the other columns).
    ``summary=True`` gives per seat ``rounds_lost``, ``loss_rate``, ``mean_penalty`` and
    ``std_penalty`` (points per match), with run totals in ``df.attrs``.
    ``policy``: ``random`` or ``heuristic`` for every seat, or a list with one per seat;
    ``threshold`` is the heuristic's challenge threshold (default 0.5). ``first_game`` offsets
    the global match index; ``num_threads`` runs the kernels on that many threads (results do
    not change).
    """
    job = plan(num_games, policy, seed, summary, first_game, threshold=threshold, **options)
    with numba_threads(num_threads):
        return frame(job, run(job))


def plan(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
         summary: bool = False, first_game: int = 0, threshold: float | None = None,
         **options: Any) -> SimJob:
    """The validated job of a ``simulate`` call (see ``vecgames.core.simulation``)."""
    rules: Rules = make_rules(**options)
    num_games = check_int(num_games, "num_games", 1, 2**40)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    seed64 = check_seed(seed)
    summary = check_bool(summary, "summary")
    threshold = policies.check_threshold(
        policies.DEFAULT_THRESHOLD if threshold is None else threshold)
    seat_policy = resolve_policies(policy, rules.num_players, policies.POLICIES)
    rounds = num_games * rules.num_rounds
    if num_games * rules.num_rounds**2 >= 2**62:  # sums of squared penalty points, in int64
        raise ValueError(f"num_games x num_rounds**2 must stay below 2**62 for exact totals, "
                         f"got {num_games:,} x {rules.num_rounds:,}**2")
    if not summary and rounds > MAX_ROWS:
        raise ValueError(f"num_games x num_rounds above {MAX_ROWS:,} needs summary=True "
                         f"(per-round rows would not fit in memory), got {rounds:,}")
    return SimJob("liars_dice", num_games, first_game, int(seed64), summary,
                  {"rules": rules, "seat_policy": seat_policy, "threshold": threshold})


def run(job: SimJob) -> dict[str, np.ndarray]:
    """Play the job's matches: ``cols`` (one row per round; none with ``summary``), ``totals``."""
    rules: Rules = job.params["rules"]
    slots = min(job.num_games, SLOTS)
    totals = np.zeros((slots, NUM_TOTALS), np.int64)
    cols = np.full((0 if job.summary else job.num_games * rules.num_rounds, NUM_COLS), -1,
                   np.int32)
    cols[:, C_END] = END_UNPLAYED
    _play_all(new_state(slots), rules, job.params["seat_policy"], job.params["threshold"],
              np.uint64(job.seed), job.first_game, job.num_games, not job.summary, totals, cols)
    return {"cols": cols, "totals": totals.sum(axis=0)}


def frame(job: SimJob, out: dict[str, np.ndarray]) -> pd.DataFrame:
    """The user's table from ``run``'s outputs (of one run, or of its shards merged)."""
    rules: Rules = job.params["rules"]
    if job.summary:
        df = _summary_frame(out["totals"], rules.num_players)
    else:
        df = _rounds_frame(out["cols"], rules.num_rounds, job.first_game)
    df.attrs.update(game="liars_dice", seed=job.seed, num_games=job.num_games,
                    policy=[policies.POLICIES[k] for k in job.params["seat_policy"]],
                    threshold=job.params["threshold"], rules=rules_to_options(rules))
    return df


def _rounds_frame(cols: np.ndarray, num_rounds: int, first_game: int) -> pd.DataFrame:
    rows = cols.shape[0]
    df = pd.DataFrame({
        "game": first_game + np.arange(rows, dtype=np.int64) // num_rounds,
        "round": np.arange(rows, dtype=np.int32) % num_rounds,
        "opener": cols[:, C_OPENER].astype(np.int8),
        "bids": cols[:, C_BIDS],
        "challenger": cols[:, C_CHALLENGER].astype(np.int8),
        "mode": pd.Categorical.from_codes(np.maximum(cols[:, C_MODE], -1),
                                          categories=list(MODE_NAMES)),
        "count": cols[:, C_COUNT].astype(np.int8),
        "face": cols[:, C_FACE].astype(np.int8),
        "actual": cols[:, C_ACTUAL].astype(np.int8),
        "loser": cols[:, C_LOSER].astype(np.int8),
        "end": pd.Categorical.from_codes(cols[:, C_END], categories=list(END_NAMES)),
    })
    return df


def _summary_frame(totals: np.ndarray, n_players: int) -> pd.DataFrame:
    matches = int(totals[T_MATCHES])
    rounds = max(int(totals[T_ROUNDS]), 1)
    lost = totals[T_LOST:T_LOST + n_players]
    mean = lost / matches
    mean_sq = totals[T_PENALTY_SQ:T_PENALTY_SQ + n_players] / matches
    df = pd.DataFrame({
        "seat": np.arange(n_players),
        "matches": matches,
        "rounds_lost": lost.astype(np.int64),
        "loss_rate": lost / rounds,
        "mean_penalty": mean,
        "std_penalty": np.sqrt(np.maximum(mean_sq - mean * mean, 0.0)),
    })
    mean_bids = totals[T_BIDS] / rounds
    df.attrs.update(rounds=int(totals[T_ROUNDS]), truncated=int(totals[T_TRUNCATED]),
                    mean_bids=mean_bids,
                    std_bids=float(np.sqrt(max(totals[T_BIDS_SQ] / rounds - mean_bids**2, 0))),
                    bid_false_rate=totals[T_BID_FALSE] / rounds,
                    opener_loss_rate=totals[T_OPENER_LOST] / rounds)
    return df


assert MAX_PLAYERS <= 127  # int8 seat columns
