"""``vecgames play hanabi``: scripted games through input_fn/print_fn; the CLI entry."""

from __future__ import annotations

import numpy as np
import pytest
from play_script import assert_answered, narrated, play, watch

from vecgames.cli import main as cli_main
from vecgames.games.hanabi.rules import HAND
from vecgames.games.hanabi.view import VIEW
from vecgames.play.terminal import Match
from vecgames.policies.human import row_state


def own_cards_unseen(match: Match, block: list[str]) -> None:
    """The view of the seat to act is the same whatever its own cards are: another seat's
    hand (same hints known) put in their place changes nothing in the text."""
    env, seat = match.env, match.seat
    s = row_state(env.state, 0)
    seen = VIEW.table(s, env, seat), VIEW.moves(s, env, env.action_mask[0])
    other = (seat + 1) % env.num_players
    s.table[0, HAND + seat] = s.table[0, HAND + other]  # packed card types of a whole hand
    assert (VIEW.table(s, env, seat), VIEW.moves(s, env, env.action_mask[0])) == seen
    assert seen[0] in "\n".join(block)  # the text checked is the text printed


def test_a_whole_game_with_bad_input_reasked_and_the_state_untouched():
    result, script = play(VIEW, seed=2, seat=1, agent="random")
    assert result.status == "finished" and result.games == 1
    assert result.totals[0] == result.totals[1] >= 0  # one team score
    assert_answered(script)
    assert "Team score" in script.text()


@pytest.mark.parametrize("seed", range(4))
def test_the_view_never_depends_on_the_own_cards(seed):
    result, script = play(VIEW, seed=seed, seat=seed % 3, agent="rules", num_players=3,
                          check=own_cards_unseen, bad=())
    assert result.status == "finished" and script.prompts > 5


def test_the_own_hand_shows_hints_only():
    result, script = play(VIEW, seed=5, seat=0, agent="rules", bad=())
    you = [line for line in script.lines if line.startswith("  seat 0 (you): ")]
    assert you and all(np.all([slot[2] == "[" for slot in line.split(": ", 1)[1].split()])
                       for line in you)  # "0:[??]": a slot number and what the hints told


def test_spectator_mode_tells_every_move_and_ends(capsys):
    assert cli_main(["play", "hanabi", "--watch", "--seed", "4", "--agent", "rules,random"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert any(line.startswith("Game over: ") for line in lines)
    result, lines, steps, choices = watch(VIEW, seed=4, agent="rules,random")
    assert result.status == "finished" and steps == narrated(lines) > 0
