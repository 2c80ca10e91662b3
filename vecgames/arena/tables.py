"""The arena's tables from the per-game payoffs: pairwise means with CIs, ratings, and
Hanabi's self-play and cross-play scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from .ratings import bradley_terry
from .stats import deal_means, mean_ci, t95


class PairUnits(NamedTuple):
    """One ordered pair (i, j) over the deals where both sat: ``games``, which deals
    (``played``, bool over the deal range) and the per-deal means of half the difference of
    their payoffs (``values``, in increasing deal order)."""

    games: int
    played: np.ndarray
    values: np.ndarray


def pair_units(payoffs: np.ndarray, deals: np.ndarray) -> dict[tuple[int, int], PairUnits]:
    """``PairUnits`` of every ordered pair of players that met; (j, i) is (i, j) negated, so
    each unordered pair is reduced once."""
    present = ~np.isnan(payoffs)
    unit = deals - deals.min() if deals.size else deals  # deals are game indices: no sort
    size = int(unit.max()) + 1 if unit.size else 0
    out: dict[tuple[int, int], PairUnits] = {}
    k = payoffs.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            both = present[:, i] & present[:, j]
            if not both.any():
                continue
            values = (payoffs[both, i] - payoffs[both, j]) / 2.0
            played, means = deal_means(values, unit[both], size)
            games = int(np.count_nonzero(both))
            out[i, j] = PairUnits(games, played, means)
            out[j, i] = PairUnits(games, played, -means)
    return out


def pairwise_table(pairs: dict[tuple[int, int], PairUnits], labels: Sequence[str],
                   unit: str) -> pd.DataFrame:
    """One row per ordered pair of players that met (``pair_units``): the mean over the games
    where both sat of half the difference of their payoffs, with a 95% CI over deals
    (``stats``)."""
    rows = []
    for i, player in enumerate(labels):
        for j, opponent in enumerate(labels):
            pair = pairs.get((i, j))
            if pair is None:
                continue
            mean, low, high = mean_ci(pair.values)
            rows.append((player, opponent, pair.games, len(pair.values), mean, low, high, unit))
    return pd.DataFrame(rows, columns=["player", "opponent", "games", "units", "mean", "ci_low",
                                       "ci_high", "unit"])


def win_counts(payoffs: np.ndarray) -> np.ndarray:
    """``wins[i, j]``: games where i's payoff beat j's (equal payoffs: half each), over the
    games where both sat."""
    k = payoffs.shape[1]
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):  # NaN compares False: a game without both counts for none
            a, b = payoffs[:, i], payoffs[:, j]
            ahead, tied = np.count_nonzero(a > b), np.count_nonzero(a == b)
            wins[i, j] = ahead + 0.5 * tied
            wins[j, i] = np.count_nonzero(b > a) + 0.5 * tied
    return wins


def ratings_table(pairwise: pd.DataFrame, payoffs: np.ndarray,
                  pairs: dict[tuple[int, int], PairUnits], labels: Sequence[str]
                  ) -> pd.DataFrame:
    """Per player, best first: ``rating``, the mean payoff per game against the field (the
    mean of its pairwise means, each opponent weighted equally), its ``sd`` and 95% interval
    (over deals, ``rating_sds``; Student's t over its units), ``games`` played, and the
    Bradley-Terry ``elo`` and ``elo_sd`` of how often it came out ahead in a game
    (``ratings``)."""
    means = np.array([pairwise["mean"][pairwise["player"] == label].mean() for label in labels])
    sds, units = rating_sds(pairs, payoffs.shape[1])
    half = sds * np.array([t95(int(u)) for u in units])
    elo, elo_cov = bradley_terry(win_counts(payoffs))
    table = pd.DataFrame({"player": list(labels), "rating": means, "sd": sds,
                          "ci_low": means - half, "ci_high": means + half,
                          "games": (~np.isnan(payoffs)).sum(axis=0), "elo": elo,
                          "elo_sd": np.sqrt(np.maximum(np.diag(elo_cov), 0.0))})
    return table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def rating_sds(pairs: dict[tuple[int, int], PairUnits], k: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The standard error of each of the ``k`` players' ratings (the mean of its pairwise
    means), and the number of deals (units) it rests on.

    Deals are the independent units, and with duplicate deals one deal enters several of a
    player's pairwise means, which are then correlated: so the error is summed per deal first
    (each deal's deviation from each pairwise mean, weighted as the rating weights it), then
    over deals, as ``mean_ci`` does for one pairwise mean (the same value with one opponent)."""
    size = next((p.played.size for p in pairs.values()), 0)
    sds = np.full(k, np.nan)
    counts_of_units = np.zeros(k, np.int64)
    for i in range(k):
        influence = np.zeros(size)
        touched = np.zeros(size, np.bool_)
        opponents = 0
        for j in range(k):
            pair = pairs.get((i, j))
            if pair is None:
                continue
            influence[pair.played] += (pair.values - pair.values.mean()) / pair.values.size
            touched |= pair.played
            opponents += 1
        units = int(np.count_nonzero(touched))
        counts_of_units[i] = units
        if units >= 2:
            sds[i] = np.sqrt(np.sum(influence**2) * units / (units - 1)) / opponents
    return sds, counts_of_units


def team_row(scores: np.ndarray) -> tuple[int, float, float, float]:
    """``(games, mean, ci_low, ci_high)`` of cooperative scores, one game per unit."""
    return (len(scores), *mean_ci(scores))


def selfplay_table(scores: np.ndarray, perfect: np.ndarray, assignment: np.ndarray,
                   labels: Sequence[str]) -> pd.DataFrame:
    """Hanabi self-play: assignment a (for a < len(labels)) is player a in every seat."""
    rows = []
    for a, label in enumerate(labels):
        mine = assignment == a
        rows.append((label, *team_row(scores[mine]), float(perfect[mine].mean())))
    return pd.DataFrame(rows, columns=["player", "games", "mean", "ci_low", "ci_high",
                                       "perfect_rate"])


def crossplay_table(scores: np.ndarray, assignment: np.ndarray,
                    seats: Sequence[tuple[int, ...]], labels: Sequence[str]) -> pd.DataFrame:
    """Hanabi cross-play: the player alone in one seat (any), the partner in every other."""
    rows = []
    for a, player in enumerate(labels):
        for b, partner in enumerate(labels):
            if a == b:
                continue
            ids = [k for k, s in enumerate(seats) if s.count(a) == 1 and s.count(b) == len(s) - 1]
            mine = np.isin(assignment, ids)
            rows.append((player, partner, *team_row(scores[mine])))
    return pd.DataFrame(rows, columns=["player", "partner", "games", "mean", "ci_low",
                                       "ci_high"])
