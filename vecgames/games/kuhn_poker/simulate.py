"""Whole Kuhn poker games inside the kernels (simulate = plan, run, frame over
``vecgames.core.simulation.SimJob``).

Game g deals from the random stream of global index g under the seed, so any game can be
replayed alone and results do not depend on the thread count or on how games are blocked;
an env with ``env_offset = g`` deals the same game, and built-in players draw from it as here.
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
from .rules import (
    CARD,
    FOLDED,
    GAME,
    HISTORIES,
    MAX_PLAYERS,
    PLAYER,
    RESULT,
    STEPS,
    WINNER,
    Rules,
    history_code,
    make_rules,
    new_state,
    reset_one,
    rules_to_options,
    step_one,
)

RUNS = 64
# Per-game columns of ``cols`` (int32): actions, showdown, winner, the history's index in
# ``HISTORIES``, then per seat chips won and card.
C_STEPS, C_SHOWDOWN, C_WINNER, C_HISTORY = range(4)
C_SEAT = 4
SEAT_COLS = ("chips", "card")
NUM_COLS = C_SEAT + len(SEAT_COLS) * MAX_PLAYERS
# Per-run totals (int64).
T_GAMES, T_STEPS, T_SHOWDOWNS = range(3)
T_CHIPS = 3
T_CHIPS_SQ = T_CHIPS + MAX_PLAYERS
T_WINS = T_CHIPS_SQ + MAX_PLAYERS
NUM_TOTALS = T_WINS + MAX_PLAYERS
MAX_ROWS = 50_000_000


@jit
def write_row(t, g, cols):
    """Game g's columns from its finished table row ``t`` (simulate and the recorder)."""
    cols[g, C_STEPS] = t[STEPS]
    cols[g, C_SHOWDOWN] = t[FOLDED] < 0
    cols[g, C_WINNER] = t[WINNER]
    cols[g, C_HISTORY] = history_code(t)
    for q in range(MAX_PLAYERS):
        cols[g, C_SEAT + q] = t[RESULT + q]
        cols[g, C_SEAT + MAX_PLAYERS + q] = t[CARD + q]


@jit
def write_rows(tables, rows, games, cols):
    """``write_row`` for each finished row ``tables[rows[k]]`` as game ``games[k]``."""
    for k in range(rows.shape[0]):
        write_row(tables[rows[k]], games[k], cols)


@jit
def _play_run(s, slot, r, seat_policy, seed, first_game, lo, hi, rows, totals, cols):
    fast_random = True
    for q in range(r.num_players):
        fast_random &= seat_policy[q] == policies.RANDOM
    t = s.table[slot]
    key = seed_key(seed)
    for g in range(lo, hi):
        s.rng[slot] = keyed_start(key, first_game + g)  # (not in a prange body: kept)
        reset_one(s, slot, r)
        while True:
            if fast_random:
                a = policies.random_legal(s, slot, r)
            else:
                a = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r)
            _, done = step_one(s, slot, a, r)
            if done:
                break
        totals[slot, T_GAMES] += 1
        totals[slot, T_STEPS] += t[STEPS]
        totals[slot, T_SHOWDOWNS] += t[FOLDED] < 0
        for q in range(r.num_players):
            chips = t[RESULT + q]
            totals[slot, T_CHIPS + q] += chips
            totals[slot, T_CHIPS_SQ + q] += chips * chips
            totals[slot, T_WINS + q] += t[WINNER] == q
        if rows:
            write_row(t, g, cols)


@jit(parallel=True)
def _play_all(s, r, seat_policy, seed, first_game, n, rows, totals, cols):
    runs = totals.shape[0]
    for c in prange(runs):
        _play_run(s, c, r, seat_policy, seed, first_game, (n * c) // runs,
                  (n * (c + 1)) // runs, rows, totals, cols)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             summary: bool = False, first_game: int = 0, num_threads: int | None = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games; one row per game, or per seat with ``summary=True``.

    Per-game columns: ``game``, ``steps`` (actions, 2 or 3), ``showdown`` (no one folded),
    ``winner`` (the seat that took the pot), ``history`` (OpenSpiel's letters, a categorical
    of ``pp``, ``pbp``, ``pbb``, ``bp``, ``bb``), then per seat ``chips_p`` (its return:
    chips won or lost, +-1 or +-2; the two sum to 0) and ``card_p`` (its card: 0 J, 1 Q,
    2 K). Summary: per seat ``games``, ``mean_chips``, ``std_chips`` and ``win_share``, with
    ``mean_steps`` and ``showdowns`` in ``df.attrs``. Both carry ``attrs`` ``game``,
    ``seed``, ``num_games``, ``policy`` (one name per seat) and ``rules``. ``policy``:
    ``random`` (the default) or ``rule`` for every seat, or a list with one per seat
    (``players.py``).
    """
    job = plan(num_games, policy, seed, summary, first_game, **options)
    with numba_threads(num_threads):
        return frame(job, run(job))


def plan(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
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
    return SimJob(GAME, num_games, first_game, int(seed64), summary,
                  {"rules": rules, "seat_policy": seat_policy})


def run(job: SimJob) -> dict[str, np.ndarray]:
    """Play the job's games: ``cols`` (one row per game; none with ``summary``), ``totals``."""
    runs = min(job.num_games, RUNS)
    totals = np.zeros((runs, NUM_TOTALS), np.int64)
    cols = np.zeros((0 if job.summary else job.num_games, NUM_COLS), np.int32)
    _play_all(new_state(runs), job.params["rules"], job.params["seat_policy"],
              np.uint64(job.seed), job.first_game, job.num_games, not job.summary, totals, cols)
    return {"cols": cols, "totals": totals.sum(axis=0)}


def frame(job: SimJob, out: dict[str, np.ndarray]) -> pd.DataFrame:
    """The user's table from ``run``'s outputs (of one run, or of its shards merged)."""
    n = job.params["rules"].num_players
    if job.summary:
        tot = out["totals"]
        games = int(tot[T_GAMES])
        mean = tot[T_CHIPS:T_CHIPS + n] / games
        df = pd.DataFrame({
            "seat": np.arange(n), "games": games, "mean_chips": mean,
            "std_chips": np.sqrt(np.maximum(tot[T_CHIPS_SQ:T_CHIPS_SQ + n] / games - mean**2,
                                            0.0)),
            "win_share": tot[T_WINS:T_WINS + n] / games,
        })
        df.attrs.update(mean_steps=tot[T_STEPS] / games, showdowns=int(tot[T_SHOWDOWNS]))
    else:
        cols = out["cols"]
        data: dict[str, Any] = {
            "game": job.first_game + np.arange(job.num_games, dtype=np.int64),
            "steps": cols[:, C_STEPS], "showdown": cols[:, C_SHOWDOWN].astype(bool),
            "winner": cols[:, C_WINNER],
            "history": pd.Categorical.from_codes(cols[:, C_HISTORY], HISTORIES)}
        for k, name in enumerate(SEAT_COLS):
            for p in range(n):
                data[f"{name}_{p}"] = cols[:, C_SEAT + k * MAX_PLAYERS + p]
        df = pd.DataFrame(data)
    df.attrs.update(game=GAME, seed=job.seed, num_games=job.num_games,
                    policy=[policies.POLICIES[k] for k in job.params["seat_policy"]],
                    rules=rules_to_options(job.params["rules"]))
    return df
