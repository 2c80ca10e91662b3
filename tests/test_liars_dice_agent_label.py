"""The line-up label of every Liar's Dice baseline names that baseline (issue 34, item 3)."""
import pytest

from vecgames.games.liars_dice.play import load_opponent
from vecgames.games.liars_dice.players import POLICIES


@pytest.mark.parametrize("name", POLICIES)
def test_baseline_label_names_the_baseline(name):
    label = load_opponent(name, num_players=2, dice=5, threshold=0.5).describe()
    assert label.split(" ")[0] == name
    assert ("threshold" in label) == (name == "heuristic")
