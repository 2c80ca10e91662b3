"""The shipped 169 x 169 heads-up matrix and the tables built on it."""

import numpy as np
import pytest

from vecgames.core.cards import format_cards
from vecgames.poker.equity import equity
from vecgames.poker.preflop import (
    _matrix_counts,
    class_grid,
    equity_vs_random,
    plot_class_grid,
    preflop_counts,
    preflop_matrix,
)
from vecgames.poker.ranges import CLASS_NAMES, CLASS_SIZES, class_combos


def test_matrix_is_symmetric_over_all_combo_pairs():
    counts = _matrix_counts()
    sizes = CLASS_SIZES[:, None]
    for mine, theirs in (("wins", "losses"), ("ties", "ties"), ("combos", "combos")):
        np.testing.assert_array_equal(sizes * counts[mine], (sizes * counts[theirs]).T)
    boards = counts["wins"] + counts["ties"] + counts["losses"]
    np.testing.assert_array_equal(boards, counts["combos"] * 1_712_304)


@pytest.mark.parametrize("hero, villain", [("AKs", "QQ"), ("AA", "AA"), ("72o", "T9s"),
                                           ("KQo", "AKo")])
def test_entries_match_the_equity_calculator(hero, villain):
    counts = preflop_counts().set_index(["hero", "villain"]).loc[(hero, villain)]
    hero_cards = format_cards(class_combos(hero)[0]).replace(" ", "")
    result = equity([hero_cards, villain])
    assert result["wins"][0] == counts["wins"]
    assert result["ties"][0] == counts["ties"]
    assert result["losses"][0] == counts["losses"]
    hero_set = set(class_combos(hero)[0].tolist())
    apart = [c for c in class_combos(villain).tolist() if not hero_set & set(c)]
    assert counts["combos"] == len(apart)


def test_known_equities():
    matrix = preflop_matrix()
    assert matrix.shape == (169, 169)
    assert matrix.loc["AA", "KK"] == pytest.approx(0.8195, abs=5e-4)
    vs_random = equity_vs_random([1])["1"]
    assert vs_random["AA"] == pytest.approx(0.8520, abs=5e-4)
    assert vs_random["72o"] == pytest.approx(0.3460, abs=1e-3)
    assert vs_random.idxmax() == "AA" and vs_random.idxmin() == "32o"


def test_multiway_columns_are_sampled_with_errors():
    table = equity_vs_random([1, 3], samples=4_096, seed=1)
    assert list(table.columns) == ["1", "3", "3_std_error"]
    assert (table["3"] < table["1"]).mean() > 0.95
    assert table["3_std_error"].between(0, 0.02).all()
    with pytest.raises(ValueError, match="1..9"):
        equity_vs_random([0])


def test_grid_layout_and_plot(tmp_path):
    values = equity_vs_random([1])["1"]
    grid = class_grid(values)
    assert grid.loc["A", "K"] == values["AKs"] and grid.loc["K", "A"] == values["AKo"]
    assert grid.loc["T", "T"] == values["TT"]
    assert list(values.index) == CLASS_NAMES
    path = plot_class_grid(values, tmp_path / "grid.png", title="vs 1 random")
    assert path.stat().st_size > 10_000
