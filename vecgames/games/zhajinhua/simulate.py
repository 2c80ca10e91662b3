"""Whole games inside the kernels: ``vecgames.simulate("zhajinhua", ...)``.

Game g draws from the random stream of global index g under the seed, so any game of a run can
be replayed alone, and results do not depend on the thread count or on how games are blocked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import prange

from ...core.bits import popcount
from ...core.jit import jit
from ...core.rng import check_seed, seed_stream
from ...core.simulation import SimJob, max_threads, numba_threads, resolve_policies
from ...core.validation import check_bool, check_int
from . import players as policies
from .rules import (
    DECISIONS,
    END,
    END_NAMES,
    FIRST,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PAID,
    PAYOUT,
    PHASE,
    PLAYER,
    POT,
    ROUND,
    SEEN,
    STRENGTH,
    WINNERS,
    Rules,
    make_rules,
    new_state,
    reset_one,
    rules_to_options,
    step_one,
)

SLOTS = 64  # game runs per kernel call, each in its own state slot (a few per thread)


@jit(inline=True)  # a call passes ~50 words of array structs on the stack
def _play_game(s, j, r, seat_policy, seed, game, record, action_counts, fast_random):
    """Deal game ``game`` into slot j and play it to the end with the seats' policies."""
    seed_stream(s.rng, j, seed, game)
    reset_one(s, j, r)
    t = s.table[j]
    last_round = action_counts.shape[1] - 1
    done = False
    if fast_random:  # every seat random, nothing recorded: no dispatch (2-4% of a game's time)
        while not done:
            done = step_one(s, j, policies.random_legal(s, j, r), r)
    while not done:
        p = t[PLAYER]
        a = policies.policy_action(seat_policy[p], s, j, r)
        if record:
            rnd = min(t[ROUND], last_round)
            action_counts[numba.get_thread_id(), rnd, t[PHASE], 2 * p + ((t[SEEN] >> p) & 1),
                          a] += 1
        done = step_one(s, j, a, r)


# Columns of the per-slot totals (float64: a sum of squared chips overflows int64 within a few
# million games at a large ante). Counts and sums stay exact integers below 2**53, and win
# shares are counted in 1/60 pots (60 is divisible by every possible number of winners).
T_GAMES, T_ROUNDS, T_DECISIONS, T_END = 0, 1, 2, 3
SHARE60 = np.array([0] + [60 // k for k in range(1, MAX_PLAYERS + 1)], np.int64)
T_CHIPS = T_END + len(END_NAMES)
T_CHIPS_SQ = T_CHIPS + MAX_PLAYERS
T_WIN60 = T_CHIPS_SQ + MAX_PLAYERS
NUM_TOTALS = T_WIN60 + MAX_PLAYERS


@jit(inline=True)  # a call passes ~80 words of array structs on the stack
def _record_game(t, r, j, rows, totals, chips, pot, rounds, decisions, end, winners, opener,
                 category, looked):
    """Add the finished game in table row ``t`` to ``totals``; with ``rows`` also write row j."""
    n = r.num_players
    n_rounds = min(t[ROUND] + 1, r.max_rounds)
    share60 = SHARE60[popcount(t[WINNERS])]  # 60 // winners, without a division
    totals[T_GAMES] += 1
    totals[T_ROUNDS] += n_rounds
    totals[T_DECISIONS] += t[DECISIONS]
    totals[T_END + t[END]] += 1
    for q in range(MAX_PLAYERS):  # a fixed count unrolls; empty seats add 0
        c = t[PAYOUT + q] - t[PAID + q]
        totals[T_CHIPS + q] += c
        totals[T_CHIPS_SQ + q] += np.float64(c) * c
        totals[T_WIN60 + q] += share60 * ((t[WINNERS] >> q) & 1)
    if rows:
        for q in range(n):
            chips[j, q] = t[PAYOUT + q] - t[PAID + q]
            category[j, q] = t[STRENGTH + q] >> 12
            looked[j, q] = (t[SEEN] >> q) & 1
        pot[j] = t[POT]
        rounds[j] = n_rounds
        decisions[j] = t[DECISIONS]
        end[j] = t[END]
        winners[j] = t[WINNERS]
        opener[j] = t[FIRST]


@jit
def _play_games(s, slot, r, seat_policy, seed, first_game, lo, hi, record, action_counts,
                rows, totals, chips, pot, rounds, decisions, end, winners, opener, category,
                looked):
    """Play games first_game+lo .. first_game+hi-1 one after another in state slot ``slot``."""
    t = s.table[slot]
    fast_random = not record
    for q in range(r.num_players):
        fast_random &= seat_policy[q] == policies.RANDOM
    for j in range(lo, hi):
        _play_game(s, slot, r, seat_policy, seed, first_game + j, record, action_counts,
                   fast_random)
        _record_game(t, r, j, rows, totals[slot], chips, pot, rounds, decisions, end, winners,
                     opener, category, looked)


@jit(parallel=True)
def _play_all(s, r, seat_policy, seed, first_game, n, record, action_counts, rows, totals,
              chips, pot, rounds, decisions, end, winners, opener, category, looked):
    """Play games first_game .. first_game+n-1 to the end.

    The games are split into as many runs as ``s`` has slots, each played in its own state slot
    (which stays in cache) and totalled in its own row of ``totals``. Game g depends on
    (seed, g) only and which run plays it depends on n alone, so the thread count changes no
    result. With ``record``, decisions are counted in
    ``action_counts[thread, round, phase, 2 * seat + seen, action]``; with ``rows``, per-game
    results are
    written at row j for game first_game+j.
    """
    slots = s.rng.shape[0]
    for c in prange(slots):
        _play_games(s, c, r, seat_policy, seed, first_game, (n * c) // slots,
                    (n * (c + 1)) // slots, record, action_counts, rows, totals, chips, pot,
                    rounds, decisions, end, winners, opener, category, looked)


MAX_PER_GAME_ROWS = 50_000_000  # per-game frames above this need summary=True (memory)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             summary: bool = False, record_actions: bool = False,
             first_game: int = 0, num_threads: int | None = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games and return one row per game (or per seat with ``summary``).

    Per-game columns: ``game, opener, rounds, decisions, end, pot, winners`` (bitmask of seats
    that shared the pot), then per seat ``chips_p`` (chip change), ``category_p`` (hand category
    0..5) and ``looked_p`` (1 if the seat had looked by the end).
    ``summary=True`` keeps only per-seat aggregates (for many millions of games): ``mean_chips``,
    ``std_chips``, ``win_share`` (pot shares won) and ``games``; run totals go to ``df.attrs``.
    ``record_actions=True`` adds ``df.attrs["action_counts"]``: a count array
    ``[round, phase, seen, action]`` over all decisions, and ``df.attrs["seat_action_counts"]``
    ``[seat, phase, seen, action]`` (the same decisions by the seat that made them).
    ``first_game`` offsets the global game index (to shard a run: the union of shards is the run).
    ``num_threads`` runs the kernels on that many Numba threads (results do not depend on it).
    """
    job = plan(num_games, policy, seed, summary, first_game, record_actions=record_actions,
               **options)
    with numba_threads(num_threads):
        return frame(job, run(job))


def plan(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
         summary: bool = False, first_game: int = 0, record_actions: bool = False,
         **options: Any) -> SimJob:
    """The validated job of a ``simulate`` call (see ``vecgames.core.simulation``)."""
    rules: Rules = make_rules(**options)
    num_games = check_int(num_games, "num_games", 1, 2**40)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    seed64 = check_seed(seed)
    summary = check_bool(summary, "summary")
    record = check_bool(record_actions, "record_actions")
    seat_policy = resolve_policies(policy, rules.num_players, policies.POLICIES)
    if not summary and num_games > MAX_PER_GAME_ROWS:
        raise ValueError(f"num_games above {MAX_PER_GAME_ROWS:,} needs summary=True "
                         f"(per-game rows would not fit in memory), got {num_games:,}")
    return SimJob("zhajinhua", num_games, first_game, int(seed64), summary,
                  {"rules": rules, "seat_policy": seat_policy, "record": record})


def run(job: SimJob) -> dict[str, np.ndarray]:
    """Play the job's games: per-game columns (none with ``summary``), ``totals`` and, when
    recording, ``action_counts``."""
    rules: Rules = job.params["rules"]
    record: bool = job.params["record"]
    n_players, num_games = rules.num_players, job.num_games
    rows = 0 if job.summary else num_games
    out: dict[str, np.ndarray] = {
        "chips": np.empty((rows, n_players), np.int32),
        "pot": np.empty(rows, np.int32),
        "rounds": np.empty(rows, np.int32),
        "decisions": np.empty(rows, np.int32),
        "end": np.empty(rows, np.int8),
        "winners": np.empty(rows, np.int32),
        "opener": np.empty(rows, np.int8),
        "category": np.empty((rows, n_players), np.int8),
        "looked": np.empty((rows, n_players), np.int8),
    }
    threads = max_threads()
    action_counts = np.zeros((threads, rules.max_rounds if record else 1, 2,
                              2 * n_players, NUM_ACTIONS), np.int64)
    slots = min(num_games, SLOTS)
    totals = np.zeros((slots, NUM_TOTALS), np.float64)
    _play_all(new_state(slots), rules, job.params["seat_policy"], np.uint64(job.seed),
              job.first_game, num_games, record, action_counts, not job.summary, totals,
              out["chips"], out["pot"], out["rounds"], out["decisions"], out["end"],
              out["winners"], out["opener"], out["category"], out["looked"])
    out["totals"] = totals.sum(axis=0)
    if record:  # [round, phase, seat, seen, action]: pooled over seats, and per seat
        counts = action_counts.sum(axis=0).reshape(-1, 2, n_players, 2, NUM_ACTIONS)
        out["action_counts"] = counts.sum(axis=2)
        out["seat_action_counts"] = counts.sum(axis=0).transpose(1, 0, 2, 3)
    return out


def frame(job: SimJob, out: dict[str, np.ndarray]) -> pd.DataFrame:
    """The user's table from ``run``'s outputs (of one run, or of its shards merged)."""
    rules: Rules = job.params["rules"]
    if job.summary:
        df = _summary_frame(out["totals"], rules.num_players)
    else:
        df = _games_frame(out, rules.num_players, job.first_game)
    df.attrs.update(game="zhajinhua", seed=job.seed, num_games=job.num_games,
                    policy=[policies.POLICIES[k] for k in job.params["seat_policy"]],
                    rules=rules_to_options(rules))
    if job.params["record"]:
        df.attrs["action_counts"] = out["action_counts"]
        if "seat_action_counts" in out:  # (frames of env-driven games may lack it)
            df.attrs["seat_action_counts"] = out["seat_action_counts"]
    return df


def _games_frame(out: dict[str, np.ndarray], n_players: int, first_game: int) -> pd.DataFrame:
    rows = out["pot"].shape[0]
    cols: dict[str, Any] = {
        "game": np.arange(first_game, first_game + rows, dtype=np.int64),
        "opener": out["opener"],
        "rounds": out["rounds"],
        "decisions": out["decisions"],
        "end": pd.Categorical.from_codes(out["end"] - 1, categories=list(END_NAMES[1:])),
        "pot": out["pot"],
        "winners": out["winners"],
    }
    for name in ("chips", "category", "looked"):
        for p in range(n_players):
            cols[f"{name}_{p}"] = out[name][:, p]
    return pd.DataFrame(cols)


def _summary_frame(totals: np.ndarray, n_players: int) -> pd.DataFrame:
    games = int(totals[T_GAMES])
    seats = slice(0, n_players)
    mean = totals[T_CHIPS:T_CHIPS + MAX_PLAYERS][seats] / games
    mean_sq = totals[T_CHIPS_SQ:T_CHIPS_SQ + MAX_PLAYERS][seats] / games
    df = pd.DataFrame({
        "seat": np.arange(n_players),
        "games": games,
        "mean_chips": mean,
        "std_chips": np.sqrt(np.maximum(mean_sq - mean * mean, 0.0)),
        "win_share": totals[T_WIN60:T_WIN60 + MAX_PLAYERS][seats] / (60 * games),
    })
    ends = [int(e) for e in totals[T_END:T_END + len(END_NAMES)]]
    df.attrs.update(end_counts=dict(zip(END_NAMES[1:], ends[1:], strict=True)),
                    mean_rounds=totals[T_ROUNDS] / games,
                    mean_decisions=totals[T_DECISIONS] / games)
    return df


assert MAX_PLAYERS <= 8  # category/looked/opener fit int8
