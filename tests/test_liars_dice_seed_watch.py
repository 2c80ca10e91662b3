"""Spectator mode, ``vecgames play liars-dice --watch`` (the seed's ``--render`` of AI-vs-AI
games): every seat is a computer player, the match is printed move by move with the whole
table after each move, and a seed replays it."""

from __future__ import annotations

import re
from functools import partial

import pytest

from vecgames.cli import main as cli_main
from vecgames.games.liars_dice.view import VIEW
from vecgames.play import terminal
from vecgames.play.terminal import Match, MatchResult, PlayError

main = partial(terminal.main, VIEW)
MOVE_RE = re.compile(r"^seat (\d+) (bids (\d+) x (\d) \((fei|zhai)\)|challenges)")
SEAT_RE = re.compile(r"^  seat (\d+): penalty points \d+; dice ([1-6 ]+)$")
REVEAL_RE = re.compile(r"^  seat (\d+) dice: ([1-6 ]+)$")
LOSER_RE = re.compile(r"^  \d+ dice count for it: seat (\d+) loses the round$")


def _no_input(prompt: str) -> str:
    raise AssertionError(f"a spectator was asked for a move: {prompt}")


def watch(**options) -> tuple[list[str], MatchResult]:
    lines: list[str] = []
    match = Match(VIEW, watch=True, input_fn=_no_input,
                  print_fn=lambda t="": lines.extend(str(t).split("\n")), **options)
    return lines, match.run()


def rounds(lines: list[str]) -> list[list[str]]:
    """The lines of each round, from its first move to the line naming its loser."""
    out: list[list[str]] = [[]]
    for line in lines:
        if MOVE_RE.match(line) or out[-1]:
            out[-1].append(line)
        if LOSER_RE.match(line):
            out.append([])
    return out[:-1]


def test_transcript_is_the_match_move_by_move():
    lines, result = watch(num_players=3, num_rounds=3, seed=5,
                          agent="heuristic,random,heuristic")
    assert result.status == "finished" and abs(sum(result.totals)) < 1e-9
    assert result.labels == ["heuristic", "random", "heuristic"]
    assert any(line.startswith("Watching (spectator mode") for line in lines)
    assert not any("(you)" in line or "You " in line for line in lines)
    played = rounds(lines)
    assert len(played) == 3
    loser = None
    for block in played:
        moves = [m for line in block if (m := MOVE_RE.match(line))]
        seats = [int(m.group(1)) for m in moves]
        assert all((b - a) % 3 == 1 for a, b in zip(seats, seats[1:], strict=False))
        assert moves[-1].group(2) == "challenges" and all(m.group(3) for m in moves[:-1])
        if loser is not None:
            assert seats[0] == loser  # the last round's loser opens
        # every seat's dice, shown in the table before the challenge, are the ones revealed
        shown = {int(m.group(1)): m.group(2) for line in block if (m := SEAT_RE.match(line))}
        revealed = {int(m.group(1)): m.group(2) for line in block
                    if (m := REVEAL_RE.match(line))}
        assert shown == revealed and sorted(shown) == [0, 1, 2]
        loser = int(LOSER_RE.match(block[-1]).group(1))
    assert lines[-4] == "=== Match over: 1 of 1 game(s) played ==="


def test_same_seed_same_transcript_and_delay():
    slept: list[float] = []
    first, _ = watch(num_rounds=2, seed=9, agent="random", delay=0.25, sleep_fn=slept.append)
    again, _ = watch(num_rounds=2, seed=9, agent="random")
    other, _ = watch(num_rounds=2, seed=10, agent="random")
    assert first == again and first != other
    moves = sum(1 for line in first if MOVE_RE.match(line))
    assert slept == [0.25] * moves  # a pause after every move


def test_basic_variant_is_watched():
    lines, result = watch(num_rounds=2, seed=3, variant="basic", agent="random")
    assert result.status == "finished"
    assert "basic rules" in lines[0]
    bids = [m.group(5) for line in lines if (m := MOVE_RE.match(line)) and m.group(3)]
    assert bids and set(bids) == {"fei"}


@pytest.mark.parametrize("argv", [
    ["--watch", "--seed", "5"],
    ["--watch", "--players", "3", "--rounds", "3", "--agent", "heuristic,random,heuristic",
     "--delay", "1"],
    ["--watch", "--seed", "4", "--rounds", "2", "--agent", "heuristic,random"],
])
def test_command_line(argv, capsys):
    slept: list[float] = []
    assert main(argv, input_fn=_no_input, print_fn=print, sleep_fn=slept.append) == 0
    out = capsys.readouterr().out
    assert "Watching" in out and "Match over" in out
    assert bool(slept) == ("--delay" in argv)


def test_command_line_errors(capsys):
    assert cli_main(["play", "liars-dice", "--watch", "--delay", "-1"]) == 2
    assert "--delay" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--watch", "--agent", "random,random,random"]) == 2
    assert "one per other seat" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--help"]) == 0
    assert "--watch" in capsys.readouterr().out


def test_bad_options_are_named():
    with pytest.raises(TypeError, match="delay"):
        Match(VIEW, watch=True, delay="1")
    with pytest.raises(TypeError, match="watch"):
        Match(VIEW, watch=1)
    with pytest.raises(PlayError, match="one per other seat"):
        Match(VIEW, num_players=3, agent=["random"] * 3)  # a person at seat 0: two computers
