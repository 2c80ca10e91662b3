"""The terminal loop that ``vecgames play GAME`` shares across games.

One table (an env with ``num_envs=1``): a person at one seat (a :class:`HumanPlayer`) and a
player from ``vecgames.policies`` at every other seat, or, with ``watch=True`` (spectator
mode), players at every seat and the whole table printed after each move. A game brings a
:class:`View` (what a seat may see, its moves with short names, what each move did); this
module brings the rest: the options, the players, the prompt that re-asks on bad input, the
loop, and the command line. Input and output go through ``input_fn(prompt)`` and
``print_fn(text)``, so tests drive a whole game with scripted input.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.rng import check_seed
from ..core.validation import check_bool, check_int, shown
from ..policies.human import (  # the prompt is the human player's; views build on it
    Quit,
    View,
    row_state,
)


class PlayError(ValueError):
    """A problem with the options or a player: printed as an error; ``code`` is the exit code.
    A ValueError, as every bad argument of the API is."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def check_delay(delay: Any) -> float:
    """Seconds to wait after a computer's move: a finite number >= 0."""
    if isinstance(delay, bool) or not isinstance(delay, (int, float, np.integer, np.floating)):
        raise TypeError(f"delay must be a number of seconds, got {type(delay).__name__}")
    if not 0 <= delay <= 3600:  # NaN fails too; no float() of a huge int (OverflowError)
        raise ValueError(f"delay must be in [0, 3600] seconds, got {shown(delay)}")
    return float(delay)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def check_io(**fns: Any) -> None:
    for name, fn in fns.items():
        if not callable(fn):
            raise TypeError(f"{name} must be a function, got {type(fn).__name__}")


# ---------------------------------------------------------------- what a game brings


# ---------------------------------------------------------------- players


def split_agents(agent: str | Sequence[Any]) -> list[Any]:
    """The items of ``--agent``: a comma list, a sequence, or one item."""
    if isinstance(agent, str):
        return [a.strip() for a in agent.split(",")]
    if isinstance(agent, (list, tuple)):
        return list(agent)
    return [agent]


def load_agents(game: str, agent: str | Sequence[Any]) -> list[Any]:
    """The players ``agent`` names (checkpoints loaded once, here), or a :class:`PlayError`:
    a bad name or file is a usage error; a checkpoint that cannot be read (no torch, a
    damaged file) fails with code 1."""
    from ..cli_args import TRAIN_HINT
    from ..policies.protocol import resolve_items

    items = split_agents(agent)
    try:
        return resolve_items(game, items)[0]
    except (ValueError, TypeError) as exc:
        raise PlayError(f"argument --agent: {exc}") from None
    except ImportError as exc:
        raise PlayError(f"argument --agent: playing a checkpoint needs torch ({exc}); install "
                        f"it with:\n    {TRAIN_HINT}", code=1) from None
    except (RuntimeError, OSError) as exc:  # torch's or the file system's own errors
        raise PlayError(f"argument --agent: cannot load {', '.join(map(str, items))}: {exc}",
                        code=1) from None


# ---------------------------------------------------------------- the match


@dataclass
class MatchResult:
    """How a match ended: ``finished``, ``quit`` (the person left) or ``truncated`` (a game
    hit the env's step cap); each seat's summed rewards over the games played."""

    status: str
    totals: list[float]
    games: int = 0
    seed: int = 0
    labels: list[str] = field(default_factory=list)


class Match:
    """One match of ``games`` games at one table; :meth:`run` plays it."""

    def __init__(self, view: View, seat: int = 0, agent: str | Sequence[Any] | None = None,
                 seed: int | None = None, games: int = 1, watch: bool = False,
                 delay: float = 0.0, input_fn: Callable[[str], str] = input,
                 print_fn: Callable[[str], Any] = print,
                 sleep_fn: Callable[[float], Any] = time.sleep, **options: Any):
        from ..policies.human import HumanPlayer
        from ..simulators.one_table import TableError, one_table

        self.view = view
        self.watch = check_bool(watch, "watch")
        self.games = check_int(games, "games", 1, 10_000)
        self.delay = check_delay(delay)
        self.seed = int(check_seed(secrets.randbits(63) if seed is None else seed))
        check_io(input_fn=input_fn, print_fn=print_fn, sleep_fn=sleep_fn)
        self.input_fn, self.print_fn, self.sleep_fn = input_fn, print_fn, sleep_fn
        cycle = agent is None and self.watch and bool(view.watch_agents)
        if agent is None:
            agent = list(view.watch_agents) if cycle else view.default_agent
        agents = load_agents(view.game, agent)
        if any(isinstance(a, HumanPlayer) for a in agents):  # one terminal shows one seat
            raise PlayError("argument --agent: the computer seats take built-in players or "
                            "checkpoints; 'human' is you, at --seat (a second person at this "
                            "terminal would see your cards)")
        person = None if self.watch else HumanPlayer(view.game, input_fn=input_fn,
                                                      print_fn=print_fn)
        try:
            seated = one_table(view.game, agents, options, self.seed, person, seat, cycle)
        except TableError as exc:  # the options and the seat are named by run_command
            if exc.part in ("options", "seat"):
                raise ValueError(str(exc)) from None
            raise PlayError(f"argument --agent: {exc}") from None
        self.env: Any = seated.env
        self.seat: int | None = seated.seat
        self.table, self.players, self.labels = seated.table, seated.table.seats, seated.labels

    def say(self, text: str = "") -> None:
        self.print_fn(text)

    def seat_label(self, p: int) -> str:
        return f"seat {p} ({self.labels[p]})"

    def _you(self, line: str) -> str:
        """A move line of the person's seat says so: ``seat 1 (you) folds``."""
        mine = f"seat {self.seat} "
        return line.replace(mine, f"seat {self.seat} (you) ", 1) if line.startswith(mine) else line

    def line_up(self) -> str:
        seats = "; ".join(self.seat_label(p) for p in range(len(self.players)))
        if self.seat is None:
            return f"Watching (spectator mode, every card shown): {seats}. Seed {self.seed}."
        return f"You are seat {self.seat}. {seats}. Seed {self.seed}."

    def run(self) -> MatchResult:
        from ..core.simulation import numba_threads

        with numba_threads(1):  # one table: waking a thread pool per step costs more
            return self._run()

    def _run(self) -> MatchResult:
        env, view = self.env, self.view
        n = env.num_players
        self.say(view.rules_text(env))
        self.say(self.line_up())
        obs, info = env.reset()
        result = MatchResult("finished", [0.0] * n, 0, self.seed, list(self.labels))
        game_reward = np.zeros(n)
        self._header(1)
        while True:
            p = int(info["current_player"][0])
            before = row_state(env.state, 0)
            try:
                action, obs, reward, terminated, truncated, info = self._move(obs, info)
            except Quit:
                result.status = "quit"
                self._final(result)
                return result
            done = bool(terminated[0] or truncated[0])
            game_reward += reward[0, :n]
            after = row_state(env.state, 0)
            told = [self._you(line) for line in
                    view.narrate(before, after, env, action, reward[0, :n], done)]
            for line in told:
                self.say(line)
            if self.delay and p != self.seat:  # let people follow the computer's moves
                self.sleep_fn(self.delay)
            if not done:
                if told and self.seat is None:  # a spectator sees the table after each move
                    self.say(view.table(after, env, None))
                continue
            self.say(view.game_over(before, env, action, game_reward, self.seat,
                                    bool(truncated[0] and not terminated[0])))
            result.totals = [t + float(g) for t, g in zip(result.totals, game_reward,
                                                          strict=True)]
            result.games += 1
            game_reward[:] = 0
            if truncated[0] and not terminated[0]:
                result.status = "truncated"
            if result.games == self.games:
                self._final(result)
                return result
            self._header(result.games + 1)

    def _move(self, obs: np.ndarray, info: dict[str, Any]) -> tuple[Any, ...]:
        """The acting seat's move (the runner's ``choose``: players' outputs checked under the
        env's illegal-action contract), and the step's outputs. The move is an action id, or
        a Hold'em built-in's exact (kind, raise-to) pair."""
        from ..simulators.mixed import choose

        try:
            actions, exact = choose(self.env, self.table, obs, info, np.ones(1, np.bool_))
        except ValueError as exc:  # a player's illegal move: its fault, not the options'
            raise PlayError(str(exc), code=1) from None
        if exact is None:
            return int(actions[0]), *self.env.step(actions)
        return (int(exact[0][0]), int(exact[1][0])), *self.env.step_amounts(*exact)

    def _header(self, number: int) -> None:
        self.say()
        self.say(f"=== {self.view.title}: game {number}/{self.games} ===")
        if self.seat is None:
            self.say(self.view.table(row_state(self.env.state, 0), self.env, None))

    def _final(self, result: MatchResult) -> None:
        title = {"finished": "Match over", "quit": "Match abandoned",
                 "truncated": "Match over (a game was cut at the step limit)"}[result.status]
        self.say()
        self.say(f"=== {title}: {result.games} of {self.games} game(s) played ===")
        if not result.games:
            return
        width = max(len(self.seat_label(p)) for p in range(len(result.totals)))
        for p, total in enumerate(result.totals):
            self.say(f"  {self.seat_label(p):<{width}}  {total:+g}")


# ---------------------------------------------------------------- the command


def build_parser(view: View, prog: str) -> argparse.ArgumentParser:
    from ..cli_args import Parser, add_seat_flags
    from ..games.rule_flags import add_rule_flags

    p = Parser(prog=prog, description=f"Play {view.title} in the terminal against the "
               "computer, or watch the computer play every seat (--watch). Type a move's "
               "short name, '?' for the rules, 'q' to quit.")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    add_seat_flags(p, "the computer's players (the same as --agent)")
    watch_default = (f"; with --watch: {', '.join(view.watch_agents)} in turn"
                     if view.watch_agents else "")
    p.add_argument("--agent", metavar="SPEC[,SPEC...]",
                   help=f"the computer's players: a built-in name (`vecgames list`) or a "
                        f"checkpoint path, for every computer seat or one per computer seat "
                        f"in seat order (default {view.default_agent}{watch_default})")
    p.add_argument("--games", type=int, default=1, help="games in the match (default 1)")
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed)")
    p.add_argument("--watch", action="store_true",
                   help="spectator mode: the computer plays every seat and the whole table is "
                        "printed after each move (--seat is ignored)")
    p.add_argument("--delay", type=float, default=0.0,
                   help="seconds to wait after each computer move (default 0)")
    add_rule_flags(p, view.game)
    return p


def main(view: View, argv: list[str] | None = None,
         input_fn: Callable[[str], str] = input, print_fn: Callable[[str], Any] = print,
         sleep_fn: Callable[[float], Any] = time.sleep) -> int:
    """Run ``vecgames play GAME``; returns the exit code (0 played or quit, 1 failure,
    2 usage error, 130 interrupted)."""

    from ..cli_args import CLIError, seat_flags
    from ..games.rule_flags import add_rule_texts, flag_of_arg, rule_options

    prog = f"vecgames play {view.game}"
    try:
        args = build_parser(view, prog).parse_args(argv)
    except SystemExit as exc:  # --help, argparse usage errors
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    flags = {**flag_of_arg(), "seat": "--seat", "num_players": "--num-players",
             "games": "--games", "seed": "--seed", "delay": "--delay", "agent": "--agent"}
    try:  # the options and the players are checked before anything is played
        options = add_rule_texts(view.game, args.rule, rule_options(args, view.game))
        count, listed = seat_flags(args, prog)
        if listed is not None:
            if args.agent is not None:
                raise CLIError("argument --players: given twice (--players and --agent)")
            args.agent = listed
        if count is not None:
            if "num_players" in options:
                raise CLIError("argument --num-players: given twice (--num-players and --rule "
                               "num_players)")
            options["num_players"] = count
    except CLIError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return run_command(prog, lambda: Match(
        view, seat=args.seat, agent=args.agent, seed=args.seed, games=args.games,
        watch=args.watch, delay=args.delay, input_fn=input_fn, print_fn=print_fn,
        sleep_fn=sleep_fn, **options), flags, print_fn)


def run_command(prog: str, build: Callable[[], Any], flag_of_arg: dict[str, str],
                print_fn: Callable[[str], Any]) -> int:
    """Build a match (its options and players are checked before anything is played: a
    usage error exits 2, a :class:`PlayError` its own code), then run it (Ctrl-C: 130)."""
    from ..cli_args import flagged

    try:
        match = build()
    except PlayError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.code
    except (ValueError, TypeError) as exc:
        print(f"{prog}: error: {flagged(exc, flag_of_arg)}", file=sys.stderr)
        return 2
    try:
        match.run()
    except KeyboardInterrupt:
        print_fn("\nInterrupted.")
        return 130
    except PlayError as exc:  # a player's illegal move
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.code
    return 0
