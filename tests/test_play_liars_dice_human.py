"""Liar's Dice with a HumanPlayer (``vecgames.games.liars_dice.view``), as in simulate's seats."""

from __future__ import annotations

import re

import pytest
from play_script import ANSWERS, assert_answered, narrated, play, watch

from vecgames.games.liars_dice.rules import field, unpack_counts
from vecgames.games.liars_dice.view import VIEW
from vecgames.play.terminal import Match


def others_dice_unseen(match: Match, block: list[str]) -> None:
    """No line of this round before the prompt shows another seat's dice (a challenge shows
    the finished round's, on indented lines after the move that ended it)."""
    s, seat = match.env.state, match.seat
    start = max((k for k, line in enumerate(block) if "challenges" in line), default=-1)
    shown = [line for line in block[start + 1:] if re.search(r"dice [1-6 ]+$", line)]
    assert all(line.startswith(f"  seat {seat} (you):") for line in shown), shown
    own = [f + 1 for f, c in enumerate(unpack_counts(int(field(s, "dice")[0, seat])))
           for _ in range(c)]
    assert shown and shown[-1].endswith("dice " + " ".join(map(str, own)))


def test_a_whole_match_with_bad_input_reasked_and_the_state_untouched():
    result, script = play(VIEW, seed=3, seat=1, agent="heuristic", num_rounds=2,
                          from_menu=False)
    assert result.status == "finished" and result.games == 1
    assert abs(sum(result.totals)) < 1e-9  # zero-sum points
    assert_answered(script, (*ANSWERS[:2], "Not allowed: "))  # an illegal bid: its rule
    assert "lowest legal moves now: 'fei 3 2'" in script.text()  # the menu of the opener


@pytest.mark.parametrize("seed", range(3))
def test_the_view_shows_only_the_own_dice(seed):
    result, script = play(VIEW, seed=seed, seat=seed % 3, agent="random", num_players=3,
                          num_rounds=2, check=others_dice_unseen, bad=(), from_menu=False)
    assert result.status == "finished" and script.prompts > 0


def test_spectator_mode_tells_every_move_and_ends():
    result, lines, steps, _ = watch(VIEW, seed=1, agent="heuristic,random", num_rounds=2)
    assert result.status == "finished" and steps == narrated(lines)
    assert sum("loses the round" in line for line in lines) == 2
