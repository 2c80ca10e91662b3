"""Spectator mode, ``vecgames play liars-dice --watch`` (the seed's ``--render`` of AI-vs-AI
games): every seat is an agent, the match is printed move by move, and a seed replays it."""

from __future__ import annotations

import re

import pytest

from vecgames.cli import main as cli_main
from vecgames.games.liars_dice.play import PlayError, PlayResult, main, play

DICE_RE = re.compile(r"^  seat (\d+) dice: ([1-6 ]+)$")
MOVE_RE = re.compile(r"^seat (\d+) (bids|challenges)")


def watch(**options) -> tuple[list[str], PlayResult]:
    lines: list[str] = []

    def no_input(prompt: str) -> str:
        raise AssertionError(f"a spectator was asked for a move: {prompt}")

    result = play(watch=True, input_fn=no_input, print_fn=lambda t="": lines.extend(
        str(t).split("\n")), **options)
    return lines, result


def test_transcript_is_the_match_move_by_move():
    lines, result = watch(players=3, rounds=3, seed=5, agent="heuristic,random,heuristic")
    assert result.status == "finished" and sum(result.penalty_points) == 3
    assert any(ln.startswith("Watching (spectator mode") for ln in lines)
    assert not any("Type 'h'" in ln or "You " in ln or "(you)" in ln for ln in lines)
    assert "seat 0, seat 2: heuristic" in "\n".join(lines) and "seat 1: random" in "\n".join(lines)
    # every round: all seats' dice shown up front, then the moves in seat order, then the reveal
    for record in result.rounds:
        start = lines.index(next(ln for ln in lines
                                 if ln.startswith(f"=== Round {record.number}/3")))
        shown = [DICE_RE.match(ln) for ln in lines[start + 1:start + 4]]
        assert [sorted(map(int, m.group(2).split())) for m in shown] == record.dice
        moves = []
        for ln in lines[start + 4:]:
            if ln == "--- Dice revealed ---":
                break
            m = MOVE_RE.match(ln)
            assert m, ln
            moves.append(int(m.group(1)))
        assert moves[0] == record.opener and moves[-1] == record.challenger
        assert all((b - a) % 3 == 1 for a, b in zip(moves, moves[1:], strict=False))
        assert [p for p, _ in record.bids] == moves[:-1]
    best = min(result.penalty_points)
    winners = [p for p, x in enumerate(result.penalty_points) if x == best]
    assert lines[-1] == (f"Seat {winners[0]} wins." if len(winners) == 1 else
                         f"Seats {', '.join(map(str, winners))} tie for first place.")


def test_same_seed_same_transcript_and_delay():
    slept: list[float] = []
    first, _ = watch(rounds=2, seed=9, agent="random", delay=0.25, sleep_fn=slept.append)
    again, _ = watch(rounds=2, seed=9, agent="random")
    other, _ = watch(rounds=2, seed=10, agent="random")
    assert first == again and first != other
    moves = sum(1 for ln in first if MOVE_RE.match(ln))
    assert slept == [0.25] * moves  # a pause after every move


def test_basic_variant_is_watched():
    lines, result = watch(rounds=2, seed=3, variant="basic", agent="random")
    assert result.status == "finished"
    assert "basic rules" in lines[0]
    assert all(b[0] == "fei" for r in result.rounds for _, b in r.bids)


def test_command_line(capsys):
    assert main(["--watch", "--seed", "4", "--rounds", "2", "--agent", "heuristic,random"],
                print_fn=print) == 0
    out = capsys.readouterr().out
    assert "Watching" in out and "Match over" in out
    assert cli_main(["play", "liars-dice", "--watch", "--delay", "-1"]) == 2
    assert "--delay" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--watch", "--agent", "random,random,random"]) == 2
    assert "one per computer seat" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--help"]) == 0
    assert "--watch" in capsys.readouterr().out


def test_bad_options_are_named():
    with pytest.raises(TypeError, match="delay"):
        play(watch=True, delay="1")
    with pytest.raises(TypeError, match="watch"):
        play(watch=1)
    with pytest.raises(PlayError, match="one per computer seat"):
        play(players=3, agent=["random"] * 3)  # a person at seat 0: two computer seats
