"""The parser of every subcommand, and the entry point."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import __version__
from ..cli_args import (
    PROG,
    CLIError,
    Parser,
)
from ..games.catalog import specs
from .arena import _add_arena, _arena
from .equity import _add_equity, _add_preflop, _equity, _preflop
from .listing import _add_list, _add_players, _list, _players, players_epilog
from .play import _play, play_names
from .serve import _add_serve, _serve
from .simulate import _add_simulate, _simulate
from .train import _exploit, _train


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="Batched card game simulators.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_list(sub.add_parser("list", help="the games: rule options, players, sizes",
                             description="Every game with its rule options and their "
                                         "defaults, env options, the players simulate "
                                         "takes, observation and action sizes."))
    _add_players(sub.add_parser("players", help="a game's built-in players, one line each",
                                description="The built-in players of GAME (simulate's "
                                            "--policy names) with how each plays."))
    simulate = sub.add_parser("simulate", help="play whole games and summarize/report them")
    _add_simulate(simulate)
    arena = sub.add_parser("arena", help="matches between players: pairwise results with "
                                            "95%% CIs, ratings, a plot",
                              description="Play every pairing of PLAYERS (every seat "
                                          "assignment for 3+ seats), with duplicate deals "
                                          "where the game allows them; print the pairwise "
                                          "results and ratings (Hanabi: self-play and "
                                          "cross-play scores).")
    _add_arena(arena)
    for p in (simulate, arena):
        p.lazy_epilog = players_epilog  # type: ignore[attr-defined]
    _add_equity(sub.add_parser("equity", help="Hold'em equity of hands or ranges"))
    _add_preflop(sub.add_parser("preflop-matrix",
                                help="compute the exact 169 x 169 heads-up preflop matrix"))
    # Everything after GAME goes to the trainer or game (argparse.REMAINDER keeps a --help
    # given after GAME for it: `vecgames train hanabi --help` is the trainer's help).
    train = sub.add_parser("train", help="train a policy (needs the train extra)",
                           description="Train a policy for GAME; `vecgames train GAME --help` "
                                       "lists the trainer's options.")
    train.add_argument("game", choices=sorted(n for n, s in specs().items() if s.has("trainer")))
    train.add_argument("args", nargs=argparse.REMAINDER,
                       help="arguments passed on to vecgames.training.<game>.main")
    exploit = sub.add_parser(
        "exploit", help="an approximate best response to a player (needs the train extra)",
        description="Train a best response against PLAYER at every other seat for --minutes, "
                    "then score it against PLAYER in the arena: a lower bound on PLAYER's "
                    "exploitability with its 95% CI. `vecgames exploit GAME PLAYER --help` "
                    "lists the options.")
    exploit.add_argument("args", nargs=argparse.REMAINDER,
                         help="GAME PLAYER [--minutes M] ... (vecgames.training.exploit)")
    play = sub.add_parser("play", help="play a game against the computer (or watch it)",
                          description="Play GAME in the terminal, or watch the computer play "
                                      "every seat (--watch); `vecgames play GAME --help` lists "
                                      "its options.")
    play.add_argument("game", choices=play_names())
    play.add_argument("args", nargs=argparse.REMAINDER,
                      help="the terminal game's options (vecgames play GAME --help)")
    _add_serve(sub.add_parser("serve", help="play, watch and replay games in the browser "
                                            "(needs the web extra)",
                              description="Start the local web app: play against built-in "
                                          "players or checkpoints, watch them play, open "
                                          "arena replays, run arenas. Needs the web extra: "
                                          'pip install -e ".[web]" (from a clone).'))
    return parser


def subcommands(parser: argparse.ArgumentParser | None = None) -> dict[str, Any]:
    """The subcommand parsers by name (for tests and docs)."""
    parser = build_parser() if parser is None else parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def main(argv: list[str] | None = None) -> int:
    """Run the ``vecgames`` command; returns the exit code (0 ok, 1 failure, 2 usage error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, argparse usage errors
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        handler = {"list": _list, "players": _players, "simulate": _simulate, "equity": _equity,
                   "train": _train,
                   "exploit": _exploit, "play": _play, "preflop-matrix": _preflop, "arena": _arena,
                   "serve": _serve}[args.command]
        return handler(args)
    except CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `vecgames list --json | head`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit's flush does not raise again
        return 0
    except ConnectionError as exc:  # a Ray cluster that cannot be reached
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
