"""Whole games inside the kernels: ``vecgames.simulate("hanabi", ...)``.

Game g shuffles from the random stream of global index g under the seed, so any game can be
replayed alone and results do not depend on the thread count or on how games are blocked.
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
    END_LIVES,
    END_NAMES,
    INFO,
    LIFE,
    PLAYER,
    SCORE,
    TERMINAL,
    TURN,
    Rules,
    end_reason,
    make_rules,
    new_state,
    play_legal,
    random_legal,
    reset_one,
    rules_to_options,
)

RUNS = 64  # runs per kernel call (a few per thread), each in its own state slot
KIND_NAMES = ("discard", "play", "hint")

# Per-game columns of ``cols`` (int32).
C_SCORE, C_FIREWORKS, C_TURNS, C_END, C_LIFE, C_INFO, C_DISCARDS, C_PLAYS, C_HINTS = range(9)
NUM_COLS = 9
# Per-run totals (int64): games, score sum and sum of squares, turns, ends, action kinds.
T_GAMES, T_SCORE, T_SCORE_SQ, T_TURNS = range(4)
T_END = 4
T_KIND = T_END + len(END_NAMES)
T_SCORES = T_KIND + len(KIND_NAMES)  # a histogram of scores 0..25
NUM_TOTALS = T_SCORES + 26


@jit
def _play_run(s, slot, r, seat_policy, seed, first_game, lo, hi, rows, totals, cols):
    """Play games first_game+lo .. first_game+hi-1 one after another in state slot ``slot``."""
    fast_random = True
    for q in range(r.num_players):
        fast_random &= seat_policy[q] == policies.RANDOM
    t = s.table[slot]
    key = seed_key(seed)
    h = r.hand_size
    for g in range(lo, hi):
        s.rng[slot] = keyed_start(key, first_game + g)  # (not in a prange body: kept)
        reset_one(s, slot, r)
        discards = plays = hints = 0
        while t[TERMINAL] == 0:
            if fast_random:
                a = random_legal(s, slot, r)
            else:
                a = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r)
            play_legal(s, slot, a, r)  # the policies pick legal actions only
            discards += a < h
            plays += (a >= h) & (a < 2 * h)
            hints += a >= 2 * h
        end = end_reason(t)
        score = t[SCORE] if end != END_LIVES else 0  # the return: 0 once the lives are gone
        totals[slot, T_GAMES] += 1
        totals[slot, T_SCORE] += score
        totals[slot, T_SCORE_SQ] += score * score
        totals[slot, T_TURNS] += t[TURN]
        totals[slot, T_END + end] += 1
        totals[slot, T_KIND] += discards
        totals[slot, T_KIND + 1] += plays
        totals[slot, T_KIND + 2] += hints
        totals[slot, T_SCORES + score] += 1
        if rows:
            cols[g, C_SCORE] = score
            cols[g, C_FIREWORKS] = t[SCORE]
            cols[g, C_TURNS] = t[TURN]
            cols[g, C_END] = end
            cols[g, C_LIFE] = t[LIFE]
            cols[g, C_INFO] = t[INFO]
            cols[g, C_DISCARDS] = discards
            cols[g, C_PLAYS] = plays
            cols[g, C_HINTS] = hints


@jit(parallel=True)
def _play_all(s, r, seat_policy, seed, first_game, n, rows, totals, cols):
    runs = totals.shape[0]
    for c in prange(runs):
        _play_run(s, c, r, seat_policy, seed, first_game, (n * c) // runs,
                  (n * (c + 1)) // runs, rows, totals, cols)



MAX_ROWS = 50_000_000  # per-game frames above this need summary=True (memory)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             summary: bool = False, first_game: int = 0, num_threads: int | None = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games and return one row per game (or one summary row).

    Per-game columns: ``game, score`` (the game's return: the firework total, or 0 when the
    lives ran out), ``fireworks`` (the total height at the end), ``turns``, ``end`` (``lives``,
    ``perfect`` or ``deck``), ``lives`` and ``info`` (tokens left), ``discards``, ``plays``,
    ``hints``. ``summary=True``: ``games, mean_score, std_score, mean_turns`` and the share of
    each end and action kind, with the score histogram in ``df.attrs["score_counts"]``.
    ``policy``: ``random`` or ``rules`` for every seat, or a list with one per seat.
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
        raise ValueError(f"num_games above {MAX_ROWS:,} needs summary=True "
                         f"(per-game rows would not fit in memory), got {num_games:,}")
    return SimJob("hanabi", num_games, first_game, int(seed64), summary,
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
    if job.summary:
        df = _summary_frame(out["totals"])
    else:
        df = _games_frame(out["cols"], job.first_game)
    df.attrs.update(game="hanabi", seed=job.seed, num_games=job.num_games,
                    policy=[policies.POLICIES[k] for k in job.params["seat_policy"]],
                    rules=rules_to_options(job.params["rules"]))
    return df


def _games_frame(cols: np.ndarray, first_game: int) -> pd.DataFrame:
    data: dict[str, Any] = {"game": first_game + np.arange(cols.shape[0], dtype=np.int64)}
    names = ("score", "fireworks", "turns", "end", "lives", "info", "discards", "plays", "hints")
    for k, name in enumerate(names):
        data[name] = cols[:, k].astype(np.int16)
    data["end"] = pd.Categorical.from_codes(cols[:, C_END], categories=list(END_NAMES))
    return pd.DataFrame(data)


def _summary_frame(totals: np.ndarray) -> pd.DataFrame:
    games = int(totals[T_GAMES])
    mean = totals[T_SCORE] / games
    actions = max(int(totals[T_KIND:T_KIND + 3].sum()), 1)
    row: dict[str, Any] = {
        "games": games, "mean_score": mean,
        "std_score": float(np.sqrt(max(totals[T_SCORE_SQ] / games - mean * mean, 0.0))),
        "mean_turns": totals[T_TURNS] / games,
    }
    for k, name in enumerate(END_NAMES):
        row[f"end_{name}"] = totals[T_END + k] / games
    for k, name in enumerate(KIND_NAMES):
        row[f"{name}_share"] = totals[T_KIND + k] / actions
    df = pd.DataFrame([row])
    df.attrs["score_counts"] = totals[T_SCORES:T_SCORES + 26].tolist()
    return df
