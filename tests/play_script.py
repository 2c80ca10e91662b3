"""A scripted person for the ``vecgames play GAME`` tests (tests/test_play_<game>.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from vecgames.play.terminal import Match
from vecgames.policies.human import View, row_state

ILLEGAL = object()  # stands for a move the game knows but that is not legal at that prompt
BAD_INPUTS = ("", "xyzzy", ILLEGAL, "?")
# What each bad input must be answered with (a re-prompt, the game untouched).
ANSWERS = ("Type a move from the list", "Not a move: unknown move 'xyzzy'", "is not allowed now")


class Script:
    """Plays the person's seat with random legal moves read from the printed menu. The first
    prompt with a choice first gets every input of ``bad``; the env's state must not move
    while it does. ``check(match, block)`` runs at each prompt on the lines printed since the
    previous one (this game's only)."""

    def __init__(self, seed: int = 0, bad: tuple[Any, ...] = BAD_INPUTS,
                 check: Callable[[Match, list[str]], None] | None = None,
                 from_menu: bool = True):
        self.rng = random.Random(seed)
        self.bad, self.check, self.from_menu = list(bad), check, from_menu
        self.lines: list[str] = []
        self.start = 0
        self.prompts = 0
        self.frozen: list[np.ndarray] | None = None
        self.match: Match | None = None

    def print_fn(self, text: str = "") -> None:
        self.lines.extend(str(text).split("\n"))

    def input_fn(self, prompt: str) -> str:
        match = self.match
        assert match is not None and prompt == "Your move: "
        self.prompts += 1
        block, self.start = self.lines[self.start:], len(self.lines)
        heads = [k for k, line in enumerate(block) if line.startswith("=== ")]
        block = block[heads[-1]:] if heads else block  # a new game: the last one's end is out
        if self.check is not None:
            self.check(match, block)
        state = [np.array(a) for a in match.env.state]
        if self.frozen is not None:  # the bad inputs changed nothing
            assert all(np.array_equal(a, b) for a, b in zip(self.frozen, state, strict=True))
        illegal = self._illegal(match)
        if self.bad and (self.bad[0] is not ILLEGAL or illegal is not None):
            self.frozen = state
            item = self.bad.pop(0)
            return illegal if item is ILLEGAL else item  # type: ignore[return-value]
        self.frozen = None  # (an illegal move waits for a prompt that has one)
        if not self.from_menu:  # a menu that does not list every move: the view's own list
            env = match.env
            return self.rng.choice([m.short for m in match.view.moves(
                row_state(env.state, 0), env, env.action_mask[0]) if m.legal])
        menu = next(line for line in reversed(self.lines) if line.lstrip().startswith("Moves: "))
        return self.rng.choice([item.split(" ")[0]
                                for item in menu.split("Moves: ", 1)[1].split(" | ")])

    @staticmethod
    def _illegal(match: Match) -> str | None:
        env = match.env
        moves = match.view.moves(row_state(env.state, 0), env, env.action_mask[0])
        return next((m.short for m in moves if not m.legal), None)

    def text(self) -> str:
        return "\n".join(self.lines)


def play(view: View, seed: int, check: Callable[[Match, list[str]], None] | None = None,
         bad: tuple[Any, ...] = BAD_INPUTS, from_menu: bool = True,
         **kwargs: Any) -> tuple[Any, Script]:
    """A whole match with the scripted person; (its MatchResult, the script)."""
    script = Script(seed, bad, check, from_menu)
    match = Match(view, seed=seed, input_fn=script.input_fn, print_fn=script.print_fn,
                  **kwargs)
    script.match = match
    return match.run(), script


def assert_answered(script: Script, answers: tuple[str, ...] = ANSWERS) -> None:
    """Every bad input got its answer (``answers``: a view that explains an illegal move
    answers it in its own words), and the game then went on."""
    text = script.text()
    for answer in answers:
        assert answer in text, answer
    match = script.match
    assert match is not None
    rules = match.view.rules_text(match.env).split("\n")[0]
    assert text.count(rules) == 2  # at the start, and again for '?'
    assert script.prompts > len(BAD_INPUTS)


def watch(view: View, seed: int, **kwargs: Any) -> tuple[Any, list[str], int, int]:
    """A spectator match: (result, printed lines, steps, steps with a choice)."""
    lines: list[str] = []
    match = Match(view, seed=seed, watch=True, print_fn=lambda t="": lines.extend(
        str(t).split("\n")), input_fn=_no_input, **kwargs)
    env = match.env
    counts = [0, 0]
    for name in ("step", "step_amounts"):
        original = getattr(env, name, None)
        if original is None:
            continue

        def counted(*args: Any, _original: Any = original) -> Any:
            counts[0] += 1
            counts[1] += int(env.action_mask[0].sum() > 1)
            return _original(*args)

        setattr(env, name, counted)
    return match.run(), lines, counts[0], counts[1]


def _no_input(prompt: str) -> str:
    raise AssertionError("a spectator is never asked")


def narrated(lines: list[str]) -> int:
    """Lines that tell a move (the table's own lines are indented)."""
    return sum(bool(re.match(r"seat \d+ \S", line)) for line in lines)
