"""The line-up label of every Liar's Dice baseline names that baseline (issue 34, item 3)."""
import pytest

from vecgames.games.liars_dice.players import POLICIES
from vecgames.games.liars_dice.view import VIEW
from vecgames.play.terminal import Match


@pytest.mark.parametrize("name", POLICIES)
def test_baseline_label_names_the_baseline(name):
    lines: list[str] = []
    match = Match(VIEW, agent=name, seed=1, print_fn=lines.append)
    assert match.labels == ["you", name]
    assert f"seat 1 ({name})" in match.line_up()
