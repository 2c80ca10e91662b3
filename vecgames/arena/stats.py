"""Means with 95% confidence intervals over independent units.

A unit is one deal: without duplicate deals every game has its own, so a unit is a game; with
duplicate deals a unit is the set of games that shared the deal (its value is their mean), since
those games are not independent of one another. The interval is Student's t interval, mean +-
t(0.975, units - 1) standard errors of the unit values (NaN with fewer than two units): with a
few units the normal 1.96 would be too narrow (3 units: t = 4.30), with thousands it is the
same to four digits (10,000 units: 1.9602). An interval from fewer than ``MIN_UNITS`` units
rests on the normality of the unit values, which few units cannot show: the arena flags it.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal
MIN_UNITS = 30  # fewer units than this: the interval is flagged (ArenaResult.few_units)
_SERIES_DF = 200  # up to this many degrees of freedom the quantile is solved on the exact cdf


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with an integer ``df`` >= 1, from the finite series of
    Abramowitz and Stegun 26.7.3-4 (exact up to rounding; ``df`` terms)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd: A = 2/pi (theta + sin cos (1 + 2/3 c2 + 2*4/(3*5) c2^2 + ...))
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        central = 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    else:  # even: A = sin (1 + 1/2 c2 + 1*3/(2*4) c2^2 + ...)
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        central = math.sin(theta) * total
    return 0.5 + 0.5 * central  # central = P(|T| < t) with its sign


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 <= p < 1) of Student's t with integer ``df`` >= 1: bisection on
    ``t_cdf`` up to ``_SERIES_DF`` degrees of freedom, above that the Cornish-Fisher
    expansion in 1/df (A&S 26.7.5; error below 1e-12 there)."""
    if not 0.5 <= p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 <= p < 1 and df >= 1, got p={p}, df={df}")
    if df > _SERIES_DF:
        z = _normal_quantile(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
        return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def _normal_quantile(p: float) -> float:
    """The standard normal's ``p`` quantile, by bisection on ``erf`` (0.975: ``Z95``)."""
    if p == 0.975:
        return Z95
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t95(units: int) -> float:
    """The two-sided 95% factor of an interval over ``units`` independent units (df = units -
    1); NaN with fewer than two."""
    return t_quantile(0.975, units - 1) if units >= 2 else math.nan


def unit_means(values: np.ndarray, deals: np.ndarray) -> np.ndarray:
    """The mean of ``values`` per distinct deal, in increasing deal order."""
    offset = deals - deals.min()  # deals are game indices: count them in place, no sort
    return deal_means(values, offset, int(offset.max()) + 1)[1]


def deal_means(values: np.ndarray, offsets: np.ndarray, size: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """(which of the ``size`` deals were played, bool; the mean of ``values`` per played deal
    in increasing order), the deals given as ``offsets`` in ``0 .. size - 1``."""
    counts = np.bincount(offsets, minlength=size)
    played = counts > 0
    return played, np.bincount(offsets, weights=values, minlength=size)[played] / counts[played]


def mean_ci(units: np.ndarray) -> tuple[float, float, float]:
    """``(mean, ci_low, ci_high)`` of independent unit values (95%, Student's t)."""
    units = np.asarray(units, np.float64)
    if len(units) == 0:
        return (np.nan, np.nan, np.nan)
    mean = float(units.mean())
    if len(units) < 2:
        return (mean, np.nan, np.nan)
    half = t95(len(units)) * float(units.std(ddof=1)) / np.sqrt(len(units))
    return (mean, mean - half, mean + half)
