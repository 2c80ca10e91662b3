"""What every ``vecgames`` command shares: the parser class, usage errors, ``--rule`` values
and flag names in messages. The top-level ``vecgames`` command (``cli``) and the interactive
games (``vecgames.play``) both build on it, so neither imports the other's module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn

PROG = "vecgames"
TRAIN_HINT = 'pip install torch==2.13.0 -e ".[train]"'
# Library argument name -> CLI flag, to name the flag in error messages (the rule options'
# flags are read from the game specs: ``vecgames.games.rule_flags``).
FLAG_OF_ARG: dict[str, str] = {
    "num_players": "--num-players", "num_games": "--games", "policy": "--policy",
    "players": "--policy", "seed": "--seed", "num_threads": "--threads",
    "num_shards": "--shards", "cpus_per_shard": "--cpus-per-shard", "address": "--address"}


class CLIError(Exception):
    """A usage error found after parsing: printed as ``vecgames: error: ...``, exit code 2."""


PLAYERS_HELP = ("the players: a built-in name (`vecgames players GAME`) or a checkpoint path, "
                "for every seat or a comma list with one per seat")


def add_seat_flags(p: argparse.ArgumentParser, players_help: str = PLAYERS_HELP) -> None:
    """``--num-players N`` (the seat count) and ``--players A,B,...`` (who sits), the same in
    every subcommand. ``--players N`` with a number is the old spelling of ``--num-players``:
    it still works, with a note, for one release."""
    p.add_argument("--num-players", type=int, metavar="N",
                   help="seats at the table (default: the game's)")
    p.add_argument("--players", metavar="A,B,...", help=players_help)


def seat_flags(args: argparse.Namespace, prog: str = PROG) -> tuple[int | None, str | None]:
    """(seat count, players) from ``--num-players`` and ``--players`` (see
    ``add_seat_flags``); a seat count given both ways is a CLIError."""
    count, players = args.num_players, args.players
    if players is not None and players.strip().isdigit():
        print(f"{prog}: note: --players {players} (a seat count) is deprecated: use "
              f"--num-players {players}", file=sys.stderr)
        if count is not None:
            raise CLIError("argument --num-players: given twice (--num-players and --players "
                           "N)")
        return int(players), None
    return count, players


class Parser(argparse.ArgumentParser):
    """argparse with a usage error on one line, ``vecgames: error: ...`` (exit code 2), like
    the errors found after parsing; ``--help`` still shows the usage. Subcommand parsers
    are of the same class. ``lazy_epilog``: a function giving the epilog, called only when the
    help is shown (it may import every game's players)."""

    lazy_epilog: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.lazy_epilog is not None and self.epilog is None:
            self.epilog = self.lazy_epilog()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message} (see {self.prog} --help)\n")


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def parse_rule(text: str, defaults: dict[str, Any]) -> tuple[str, Any]:
    """``KEY=VALUE`` of ``--rule``: VALUE read as the type of KEY's default (bool: true/false,
    int, float, str; a None default takes an int, ``none`` or a word)."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip().replace("-", "_"), raw.strip()
    if not sep or not key or not raw:
        raise CLIError(f"argument --rule: expected KEY=VALUE, got {text!r}")
    if key not in defaults:
        raise CLIError(f"argument --rule: unknown rule option {key!r} "
                       f"(this game's options: {', '.join(defaults)})")
    return key, convert_rule(key, raw, defaults[key], "--rule")


def convert_rule(key: str, raw: str, default: Any, flag: str) -> Any:
    """A rule option's text as the type of its default (bool: true/false, int, float, str; a
    None default takes an int, ``none`` or a word); a CLIError naming ``flag`` otherwise."""
    try:
        if isinstance(default, bool):
            if raw.lower() not in _TRUE + _FALSE:
                raise ValueError
            return raw.lower() in _TRUE
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if default is None:
            if raw.lower() == "none":
                return None
            try:
                return int(raw)
            except ValueError:
                return raw
    except ValueError:
        kind = "true or false" if isinstance(default, bool) else type(default).__name__
        raise CLIError(f"argument {flag}: {key} takes {kind}, got {raw!r}") from None
    return raw


def flagged(exc: Exception, flag_of_arg: dict[str, str] | None = None) -> str:
    """The library's message, prefixed with the CLI flag of the argument it names
    (``flag_of_arg``: library argument -> flag; default this command's)."""
    msg = str(exc)
    for arg, flag in (FLAG_OF_ARG if flag_of_arg is None else flag_of_arg).items():
        if msg.startswith((arg + " ", arg + ":")):
            return f"argument {flag}: {msg}"
    return msg


def rate(per_second: float) -> str:
    """A rate as people read it: 6.2 M, 57.6 k, 812."""
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f} M"
    if per_second >= 1e4:
        return f"{per_second / 1e3:.1f} k"
    return f"{per_second:,.0f}"


def print_throughput(games: int, elapsed: float, startup: float, unit: str) -> None:
    """What the rate counts: the kernels' games and the building of the result table (the
    kernels' load or first-run compile before it, and a report after it, are timed apart)."""
    print(f"simulated {games:,} {unit} in {elapsed:.2f} s: {rate(games / max(elapsed, 1e-9))} "
          f"{unit}/s in the kernels incl. building the DataFrame "
          f"(kernel load/compile {startup:.2f} s and any report not counted)")
