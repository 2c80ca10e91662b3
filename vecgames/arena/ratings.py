"""Bradley-Terry ratings on the Elo scale, with standard errors: how often a player comes
out ahead of another in a game. In a game that is won or lost (Liar's Dice) that is the usual
Elo; in poker a player can win most hands and still lose chips, so the arena's main ``rating``
is the mean payoff against the field (``tables.ratings_table``) and this one is ``elo``.

Each game in which two players both sat is a comparison: the one with the larger payoff wins,
equal payoffs count half a win each. The model: P(i beats j) = 1 / (1 + 10**((r_j - r_i) /
400)). The maximum-likelihood ratings are found by Newton's method with the ratings summing to
zero (mean-zero anchoring); their covariance is the inverse of the Fisher information on that
constraint. ``prior_games`` adds that many virtual games, split evenly, to every pair that met,
so that a player who won every game still gets a finite rating.
"""

from __future__ import annotations

import numpy as np

ELO = 400.0 / np.log(10.0)  # Elo points per unit of natural log-odds


def bradley_terry(wins: np.ndarray, prior_games: float = 1.0, tol: float = 1e-10,
                  max_iter: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """``(ratings, cov)`` on the Elo scale from ``wins[i, j]``, the (possibly fractional)
    games i won against j. Ratings sum to zero. Raises ValueError when the players do not
    form one connected group (their relative strength would be undefined)."""
    w = np.asarray(wins, np.float64)
    k = w.shape[0]
    if w.ndim != 2 or w.shape != (k, k) or k < 2 or np.any(w < 0):
        raise ValueError(f"wins must be a square [k, k] array of counts >= 0 with k >= 2, "
                         f"got shape {w.shape}")
    games = w + w.T
    met = games > 0
    w = w + np.where(met, prior_games / 2.0, 0.0)
    games = w + w.T
    if not _connected(met):
        raise ValueError("the players do not all connect through games played: ratings need "
                         "every player linked to every other by a chain of games")
    theta = np.zeros(k)
    ones = np.ones((k, k)) / k  # adds the sum-zero direction, making the system regular
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        grad = (w - games * p).sum(axis=1)
        info = _information(games, p)
        step = np.linalg.solve(info + ones, grad)
        theta += step
        theta -= theta.mean()
        if np.max(np.abs(step)) < tol:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    cov = np.linalg.pinv(_information(games, p))  # the pseudo-inverse: on sum-zero ratings
    return theta * ELO, cov * ELO**2


def _information(games: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The Fisher information (negative Hessian of the log-likelihood) in natural units."""
    v = games * p * (1.0 - p)
    np.fill_diagonal(v, 0.0)
    return np.diag(v.sum(axis=1)) - v


def _connected(met: np.ndarray) -> bool:
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(met[i] | met[:, i]):
            if int(j) not in reached:
                reached.add(int(j))
                frontier.append(int(j))
    return len(reached) == met.shape[0]

