"""Whole games inside the kernels: ``vecgames.simulate("dayaoguai", ...)``.

Game g deals from the random stream of global index g under the seed, so any game can be
replayed alone and results do not depend on the thread count or on how games are blocked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numba import prange

from ...core.bits import popcount
from ...core.jit import jit
from ...core.rng import check_seed, keyed_start, seed_key
from ...core.simulation import SimJob, numba_threads, resolve_policies
from ...core.validation import check_bool, check_int
from . import players as policies
from .rules import (
    BEANS,
    MAX_PLAYERS,
    PICKUPS,
    PLACE,
    PLAYER,
    START,
    STEPS,
    Rules,
    make_rules,
    new_state,
    reset_one,
    rules_to_options,
    step_one,
)

RUNS = 64
MONSTERS = (1 << 12) - 1  # J, Q, K: card ids 0..11
DISCIPLES = ((1 << 24) - 1) & ~MONSTERS  # 3, 8, 5: ids 12..23
MASTER_CARDS = ((1 << 28) - 1) & ~((1 << 24) - 1)  # the four 10s
# Per-game columns of ``cols`` (int32): steps, truncated, pickups, then per seat beans,
# place, monsters, disciples and masters dealt.
C_STEPS, C_TRUNC, C_PICKUPS = range(3)
C_SEAT = 3
SEAT_COLS = ("beans", "place", "monsters", "disciples", "masters")
NUM_COLS = C_SEAT + len(SEAT_COLS) * MAX_PLAYERS
# Per-run totals (int64): over all games, then per seat over the finished games only (a
# truncated game has no complete order of places).
T_GAMES, T_STEPS, T_TRUNC, T_PICKUPS = range(4)
T_BEANS = 4
T_BEANS_SQ = T_BEANS + MAX_PLAYERS
T_PLACE = T_BEANS_SQ + MAX_PLAYERS
T_FIN_BEANS = T_PLACE + MAX_PLAYERS
T_FIN_BEANS_SQ = T_FIN_BEANS + MAX_PLAYERS
T_FIN_PLACE = T_FIN_BEANS_SQ + MAX_PLAYERS
T_FIN_WINS = T_FIN_PLACE + MAX_PLAYERS
NUM_TOTALS = T_FIN_WINS + MAX_PLAYERS


@jit
def _play_run(s, slot, r, seat_policy, seed, first_game, lo, hi, rows, totals, cols,
              reward):
    fast_random = True
    for q in range(r.num_players):
        fast_random &= seat_policy[q] == policies.RANDOM
    t = s.table[slot]
    key = seed_key(seed)
    n = r.num_players
    for g in range(lo, hi):
        s.rng[slot] = keyed_start(key, first_game + g)  # (not in a prange body: kept)
        reset_one(s, slot, r)
        while True:
            if fast_random:
                a = policies.random_legal(s, slot, r)
            else:
                a = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r)
            legal, done, cut = step_one(s, slot, a, r, reward)
            if done or cut:
                break
        totals[slot, T_GAMES] += 1
        totals[slot, T_STEPS] += t[STEPS]
        totals[slot, T_TRUNC] += cut
        totals[slot, T_PICKUPS] += t[PICKUPS]
        for q in range(n):
            beans = t[BEANS + q]
            totals[slot, T_BEANS + q] += beans
            totals[slot, T_BEANS_SQ + q] += beans * beans
            totals[slot, T_PLACE + q] += t[PLACE + q]
            if not cut:
                totals[slot, T_FIN_BEANS + q] += beans
                totals[slot, T_FIN_BEANS_SQ + q] += beans * beans
                totals[slot, T_FIN_PLACE + q] += t[PLACE + q]
                totals[slot, T_FIN_WINS + q] += t[PLACE + q] == 1
        if rows:
            cols[g, C_STEPS] = t[STEPS]
            cols[g, C_TRUNC] = cut
            cols[g, C_PICKUPS] = t[PICKUPS]
            for q in range(n):
                start = t[START + q]
                cols[g, C_SEAT + q] = t[BEANS + q]
                cols[g, C_SEAT + MAX_PLAYERS + q] = t[PLACE + q]
                cols[g, C_SEAT + 2 * MAX_PLAYERS + q] = popcount(start & MONSTERS)
                cols[g, C_SEAT + 3 * MAX_PLAYERS + q] = popcount(start & DISCIPLES)
                cols[g, C_SEAT + 4 * MAX_PLAYERS + q] = popcount(start & MASTER_CARDS)


@jit(parallel=True)
def _play_all(s, r, seat_policy, seed, first_game, n, rows, totals, cols, rewards):
    runs = totals.shape[0]
    for c in prange(runs):
        _play_run(s, c, r, seat_policy, seed, first_game, (n * c) // runs,
                  (n * (c + 1)) // runs, rows, totals, cols, rewards[c])


MAX_ROWS = 50_000_000


def simulate(num_games: int, policy: str | Sequence[str] = "shed", seed: int = 0,
             summary: bool = False, first_game: int = 0, num_threads: int | None = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games; one row per game, or per seat with ``summary=True``.

    Per-game columns: ``game, steps, truncated, pickups``, then per seat ``beans_p`` (beans
    won or paid), ``place_p`` (finishing place 1..P; the last seat holding cards is placed
    last; 0 in a truncated game for seats still holding cards), and what it was dealt:
    ``monsters_p`` (J, Q, K), ``disciples_p`` (3, 8, 5), ``masters_p`` (10s). Summary: per seat
    ``mean_beans``, ``std_beans``, ``mean_place`` over all games, and over the ``finished``
    games only ``mean_beans_finished``, ``std_beans_finished``, ``mean_place_finished`` and
    ``win_share_finished``, with ``mean_steps``, ``truncated`` and ``mean_pickups`` in
    ``df.attrs``. ``policy``: ``shed`` (the default), ``random``, ``weakest`` or ``pickup`` for
    every seat, or a list with one per seat (``vecgames.games.dayaoguai.players``).
    """
    job = plan(num_games, policy, seed, summary, first_game, **options)
    with numba_threads(num_threads):
        return frame(job, run(job))


def plan(num_games: int, policy: str | Sequence[str] = "shed", seed: int = 0,
         summary: bool = False, first_game: int = 0, **options: Any) -> SimJob:
    """The validated job of a ``simulate`` call (see ``vecgames.core.simulation``)."""
    rules: Rules = make_rules(**options)
    num_games = check_int(num_games, "num_games", 1, 2**40)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    seed64 = check_seed(seed)
    summary = check_bool(summary, "summary")
    seat_policy = resolve_policies(policy, rules.num_players, policies.POLICIES)
    if not summary and num_games > MAX_ROWS:
        raise ValueError(f"num_games above {MAX_ROWS:,} needs summary=True, got {num_games:,}")
    return SimJob("dayaoguai", num_games, first_game, int(seed64), summary,
                  {"rules": rules, "seat_policy": seat_policy})


def run(job: SimJob) -> dict[str, np.ndarray]:
    """Play the job's games: ``cols`` (one row per game; none with ``summary``), ``totals``."""
    runs = min(job.num_games, RUNS)
    totals = np.zeros((runs, NUM_TOTALS), np.int64)
    cols = np.zeros((0 if job.summary else job.num_games, NUM_COLS), np.int32)
    rewards = np.zeros((runs, MAX_PLAYERS), np.float32)
    _play_all(new_state(runs), job.params["rules"], job.params["seat_policy"],
              np.uint64(job.seed), job.first_game, job.num_games, not job.summary, totals, cols,
              rewards)
    return {"cols": cols, "totals": totals.sum(axis=0)}


def _finished_columns(tot: np.ndarray, n: int, finished: int) -> dict[str, Any]:
    """The summary's per-seat statistics of the finished games (NaN when none finished)."""
    k = max(finished, 1)
    mean = tot[T_FIN_BEANS:T_FIN_BEANS + n] / k
    nan = np.nan if finished == 0 else 0.0
    return {"finished": finished, "mean_beans_finished": mean + nan,
            "std_beans_finished": np.sqrt(np.maximum(
                tot[T_FIN_BEANS_SQ:T_FIN_BEANS_SQ + n] / k - mean**2, 0.0)) + nan,
            "mean_place_finished": tot[T_FIN_PLACE:T_FIN_PLACE + n] / k + nan,
            "win_share_finished": tot[T_FIN_WINS:T_FIN_WINS + n] / k + nan}


def frame(job: SimJob, out: dict[str, np.ndarray]) -> pd.DataFrame:
    """The user's table from ``run``'s outputs (of one run, or of its shards merged)."""
    n = job.params["rules"].num_players
    cols = out["cols"]
    if job.summary:
        tot = out["totals"]
        games = int(tot[T_GAMES])
        mean = tot[T_BEANS:T_BEANS + n] / games
        df = pd.DataFrame({
            "seat": np.arange(n), "games": games, "mean_beans": mean,
            "std_beans": np.sqrt(np.maximum(tot[T_BEANS_SQ:T_BEANS_SQ + n] / games - mean**2,
                                            0.0)),
            "mean_place": tot[T_PLACE:T_PLACE + n] / games,
            **_finished_columns(tot, n, games - int(tot[T_TRUNC])),
        })
        df.attrs.update(mean_steps=tot[T_STEPS] / games, truncated=int(tot[T_TRUNC]),
                        mean_pickups=tot[T_PICKUPS] / games)
    else:
        data: dict[str, Any] = {
            "game": job.first_game + np.arange(job.num_games, dtype=np.int64),
            "steps": cols[:, C_STEPS], "truncated": cols[:, C_TRUNC].astype(bool),
            "pickups": cols[:, C_PICKUPS]}
        for k, name in enumerate(SEAT_COLS):
            for p in range(n):
                data[f"{name}_{p}"] = cols[:, C_SEAT + k * MAX_PLAYERS + p]
        df = pd.DataFrame(data)
    df.attrs.update(game="dayaoguai", seed=job.seed, num_games=job.num_games,
                    policy=[policies.POLICIES[k] for k in job.params["seat_policy"]],
                    rules=rules_to_options(job.params["rules"]))
    return df
