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

from ...core.jit import jit
from ...core.rng import check_seed, seed_stream
from ...core.validation import check_bool, check_int
from ...policies.zhajinhua import POLICIES, policy_action
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

BLOCK = 1 << 16  # games per kernel call: bounds the scratch state, not the results


@jit
def _play_game(s, j, r, seat_policy, seed, game, record, action_counts):
    """Deal game ``game`` into slot j and play it to the end with the seats' policies."""
    seed_stream(s.rng, j, seed, game)
    reset_one(s, j, r)
    t = s.table[j]
    last_round = action_counts.shape[1] - 1
    done = False
    while not done:
        p = t[PLAYER]
        a = policy_action(seat_policy[p], s, j, r)
        if record:
            rnd = min(t[ROUND], last_round)
            action_counts[numba.get_thread_id(), rnd, t[PHASE], (t[SEEN] >> p) & 1, a] += 1
        done = step_one(s, j, a, r)


@jit(parallel=True)
def _play_block(s, r, seat_policy, seed, start, n, chips, pot, rounds, decisions, end, winners,
                opener, category, looked, record, action_counts):
    """Play games start .. start+n-1 to the end; write per-game results at rows 0..n-1.

    With ``record``, count decisions in ``action_counts[thread, round, phase, seen, action]``.
    """
    num_players = r.num_players
    for j in prange(n):
        _play_game(s, j, r, seat_policy, seed, start + j, record, action_counts)
        t = s.table[j]
        for q in range(num_players):
            chips[j, q] = t[PAYOUT + q] - t[PAID + q]
            category[j, q] = t[STRENGTH + q] >> 12
            looked[j, q] = (t[SEEN] >> q) & 1
        pot[j] = t[POT]
        rounds[j] = min(t[ROUND] + 1, r.max_rounds)
        decisions[j] = t[DECISIONS]
        end[j] = t[END]
        winners[j] = t[WINNERS]
        opener[j] = t[FIRST]


def resolve_policies(policy: str | Sequence[str], num_players: int) -> np.ndarray:
    """A policy name for every seat, or one list entry per seat, as kernel policy ids."""
    names = [policy] * num_players if isinstance(policy, str) else list(policy)
    if len(names) != num_players:
        raise ValueError(f"policy must name one policy or {num_players} (one per seat), "
                         f"got {len(names)}")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {name!r}")
    return np.array([POLICIES.index(name) for name in names], dtype=np.int64)


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
    ``[round, phase, seen, action]`` over all decisions.
    ``first_game`` offsets the global game index (to shard a run: the union of shards is the run).
    ``num_threads`` runs the kernels on that many Numba threads (results do not depend on it).
    """
    rules: Rules = make_rules(**options)
    num_games = check_int(num_games, "num_games", 1, 2**40)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    seed64 = check_seed(seed)
    summary = check_bool(summary, "summary")
    record = check_bool(record_actions, "record_actions")
    seat_policy = resolve_policies(policy, rules.num_players)
    if not summary and num_games > MAX_PER_GAME_ROWS:
        raise ValueError(f"num_games above {MAX_PER_GAME_ROWS:,} needs summary=True "
                         f"(per-game rows would not fit in memory), got {num_games:,}")
    if num_threads is None:
        return _simulate(num_games, seat_policy, seed64, summary, record, first_game, rules)
    num_threads = check_int(num_threads, "num_threads", 1, numba.config.NUMBA_NUM_THREADS)
    previous = numba.get_num_threads()
    numba.set_num_threads(num_threads)
    try:
        return _simulate(num_games, seat_policy, seed64, summary, record, first_game, rules)
    finally:
        numba.set_num_threads(previous)


def _simulate(num_games: int, seat_policy: np.ndarray, seed64: np.uint64, summary: bool,
              record: bool, first_game: int, rules: Rules) -> pd.DataFrame:
    n_players = rules.num_players

    rows = min(num_games, BLOCK) if summary else num_games
    out = {
        "chips": np.zeros((rows, n_players), np.int32),
        "pot": np.zeros(rows, np.int32),
        "rounds": np.zeros(rows, np.int32),
        "decisions": np.zeros(rows, np.int32),
        "end": np.zeros(rows, np.int8),
        "winners": np.zeros(rows, np.int32),
        "opener": np.zeros(rows, np.int8),
        "category": np.zeros((rows, n_players), np.int8),
        "looked": np.zeros((rows, n_players), np.int8),
    }
    threads = numba.config.NUMBA_NUM_THREADS
    count_rounds = rules.max_rounds if record else 1
    action_counts = np.zeros((threads, count_rounds, 2, 2, NUM_ACTIONS), np.int64)
    state = new_state(min(num_games, BLOCK))
    totals = _Totals(n_players)
    for start in range(0, num_games, BLOCK):
        n = min(BLOCK, num_games - start)
        lo = 0 if summary else start
        views = {k: v[lo:lo + n] for k, v in out.items()}
        _play_block(state, rules, seat_policy, seed64, first_game + start, n, views["chips"],
                    views["pot"], views["rounds"], views["decisions"], views["end"],
                    views["winners"], views["opener"], views["category"], views["looked"],
                    record, action_counts)
        if summary:
            totals.add(views)
    if summary:
        df = totals.frame()
    else:
        df = _games_frame(out, n_players, first_game)
    df.attrs.update(game="zhajinhua", seed=int(seed64), num_games=num_games,
                    policy=[POLICIES[k] for k in seat_policy], rules=rules_to_options(rules))
    if record:
        df.attrs["action_counts"] = action_counts.sum(axis=0)
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


class _Totals:
    """Exact integer aggregates over blocks (so summaries are thread-count independent)."""

    def __init__(self, n_players: int):
        self.n_players = n_players
        self.games = 0
        self.chips = np.zeros(n_players, np.int64)
        self.chips_sq = np.zeros(n_players, np.int64)
        self.win_share = np.zeros(n_players, np.float64)
        self.end = np.zeros(len(END_NAMES), np.int64)
        self.rounds = 0
        self.decisions = 0

    def add(self, block: dict[str, np.ndarray]) -> None:
        chips = block["chips"].astype(np.int64)
        self.games += chips.shape[0]
        self.chips += chips.sum(axis=0)
        self.chips_sq += (chips * chips).sum(axis=0)
        bits = (block["winners"][:, None] >> np.arange(self.n_players)) & 1
        self.win_share += (bits / bits.sum(axis=1, keepdims=True)).sum(axis=0)
        self.end += np.bincount(block["end"], minlength=len(END_NAMES))
        self.rounds += int(block["rounds"].sum(dtype=np.int64))
        self.decisions += int(block["decisions"].sum(dtype=np.int64))

    def frame(self) -> pd.DataFrame:
        g = self.games
        mean = self.chips / g
        var = np.maximum(self.chips_sq / g - mean * mean, 0.0)
        df = pd.DataFrame({
            "seat": np.arange(self.n_players),
            "games": g,
            "mean_chips": mean,
            "std_chips": np.sqrt(var),
            "win_share": self.win_share / g,
        })
        df.attrs.update(end_counts=dict(zip(END_NAMES[1:], self.end[1:].tolist(), strict=True)),
                        mean_rounds=self.rounds / g, mean_decisions=self.decisions / g)
        return df


assert MAX_PLAYERS <= 8  # category/looked/opener fit int8
