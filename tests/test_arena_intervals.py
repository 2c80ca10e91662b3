"""The arena's 95% intervals: Student's t over the units, flagged under 30 units."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import vecgames
from vecgames.arena import FewUnitsWarning
from vecgames.arena.stats import MIN_UNITS, Z95, mean_ci, t95, t_cdf, t_quantile

# t(0.975, df) from the printed tables (Abramowitz and Stegun, table 26.10), to 4 decimals
T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 9: 2.2622, 10: 2.2281, 29: 2.0452,
        30: 2.0423, 60: 2.0003, 120: 1.9799}


@pytest.mark.parametrize("df, value", sorted(T975.items()))
def test_t_quantile_matches_the_table(df, value):
    assert round(t_quantile(0.975, df), 4) == value


def test_t_quantile_inverts_the_cdf_and_tends_to_the_normal():
    for df in (1, 2, 5, 17, 200):
        for p in (0.6, 0.9, 0.975, 0.995):
            assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-12)
    # both sides of the switch to the expansion agree with the cdf, and large df give z
    assert t_cdf(t_quantile(0.975, 201), 201) == pytest.approx(0.975, abs=1e-10)
    assert t_quantile(0.975, 10**9) == pytest.approx(Z95, abs=1e-8)
    assert t_quantile(0.975, 9999) == pytest.approx(1.960201, abs=1e-6)
    assert np.isnan(t95(1)) and t95(2) == pytest.approx(12.7062, abs=1e-4)
    with pytest.raises(ValueError, match="df >= 1"):
        t_quantile(0.975, 0)


def test_few_units_give_wider_intervals():
    """3 units: the half-width is t(0.975, 2) = 4.30 standard errors, not 1.96."""
    units = np.array([1.0, 4.0, 2.5])
    mean, low, high = mean_ci(units)
    se = units.std(ddof=1) / np.sqrt(3)
    assert (high - mean) / se == pytest.approx(4.302653, abs=1e-6)
    # 10,000 units: 1.2e-4 wider than the normal interval (t = 1.96020)
    many = np.random.default_rng(0).normal(3.0, 10.0, 10_000)
    mean, low, high = mean_ci(many)
    half_z = Z95 * many.std(ddof=1) / 100.0
    assert (high - mean) / half_z == pytest.approx(1.96020126 / Z95, rel=1e-8)


def test_an_arena_of_few_deals_is_flagged():
    with pytest.warns(FewUnitsWarning, match="only 3 independent deals"):
        result = vecgames.arena("holdem", ["random", "call"], 3, num_players=2, seed=1)
    assert result.min_units == 3 and result.few_units
    assert "only 3 deals" in result.to_markdown()
    row = result.pairwise.iloc[0]
    units = (result.matches["payoff_random"] - result.matches["payoff_call"]) / 2
    per_deal = units.groupby(result.matches["deal"]).mean().to_numpy()
    se = per_deal.std(ddof=1) / np.sqrt(3)
    assert (row["ci_high"] - row["mean"]) == pytest.approx(4.302653 * se, rel=1e-6)
    rating = result.ratings.set_index("player").loc["random"]
    assert (rating["ci_high"] - rating["rating"]) == pytest.approx(4.302653 * rating["sd"],
                                                                   rel=1e-6)


def test_an_arena_of_enough_deals_is_not_flagged():
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewUnitsWarning)
        result = vecgames.arena("holdem", ["random", "call"], MIN_UNITS, num_players=2)
    assert result.min_units == MIN_UNITS and not result.few_units
    assert "rough" not in result.to_markdown()
    hanabi = vecgames.arena("hanabi", ["rules"], 40)
    assert hanabi.min_units == 40 and not hanabi.few_units


def test_the_command_notes_few_units_once(capsys):
    from vecgames.cli import main

    assert main(["arena", "holdem", "--players", "random,call", "--per-assignment", "5", "--rule",
                 "num_players=2", "--threads", "1"]) == 0
    err = capsys.readouterr().err
    assert err.count("note: some 95% intervals rest on only 5 independent deals") == 1
    assert "FewUnitsWarning" not in err
