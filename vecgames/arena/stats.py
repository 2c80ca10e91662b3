"""Means with 95% confidence intervals over independent units.

A unit is one deal: without duplicate deals every game has its own, so a unit is a game; with
duplicate deals a unit is the set of games that shared the deal (its value is their mean), since
those games are not independent of one another. The interval is the normal approximation,
mean +- 1.96 standard errors of the unit values (NaN with fewer than two units).
"""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def unit_means(values: np.ndarray, deals: np.ndarray) -> np.ndarray:
    """The mean of ``values`` per distinct deal, in increasing deal order."""
    offset = deals - deals.min()  # deals are game indices: count them in place, no sort
    counts = np.bincount(offset)
    sums = np.bincount(offset, weights=values)
    played = counts > 0
    return sums[played] / counts[played]


def mean_ci(units: np.ndarray) -> tuple[float, float, float]:
    """``(mean, ci_low, ci_high)`` of independent unit values (95%, normal approximation)."""
    units = np.asarray(units, np.float64)
    if len(units) == 0:
        return (np.nan, np.nan, np.nan)
    mean = float(units.mean())
    if len(units) < 2:
        return (mean, np.nan, np.nan)
    half = Z95 * float(units.std(ddof=1)) / np.sqrt(len(units))
    return (mean, mean - half, mean + half)
