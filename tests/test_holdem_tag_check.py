"""The outside tight-aggressive bot of benchmarks/holdem_tag_check.py plays legal exact
actions at any table size, and a seed gives the same games again."""

import pytest

import vecgames

pytest.importorskip("eval7")

from benchmarks.holdem_tag_check import TightAggressive, main  # noqa: E402


@pytest.mark.parametrize("seats", [2, 6])
def test_the_bot_plays_legal_hands(seats):
    # the arena checks every (kind, amount) pair by the rules: an illegal one raises
    result = vecgames.arena("holdem", [TightAggressive(1), "random"], 30, seed=4,
                            num_players=seats, progress=False)
    assert result.pairwise["games"].iloc[0] > 0


def test_a_seed_gives_the_same_games_again(capsys):
    lines = []
    for _ in range(2):
        assert main(["--players", "random", "--deals", "200", "--seed", "5"]) == 0
        lines.append(capsys.readouterr().out)
    assert lines[0] == lines[1] and lines[0].startswith("random vs tag at 2 seats: ")
