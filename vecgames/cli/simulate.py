"""``vecgames simulate GAME``: whole games in the kernels, a summary, a report."""

from __future__ import annotations

import argparse
import inspect
import time
from typing import Any

from ..cli_args import (
    FLAG_OF_ARG,
    CLIError,
    add_seat_flags,
    flagged,
    print_throughput,
    seat_flags,
)
from ..games.catalog import game_names, spec_of, specs
from ..games.rule_flags import add_rule_flags, add_rule_texts, flag_of_arg, rule_options
from .arena import ARENA_FLAGS
from .common import _add_backend, _check_output, _policy, _ray_options

# Games per seat assignment of the arena that `simulate --report` runs among distinct players.
ARENA_GAMES = 2_000


def _add_simulate(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))
    p.add_argument("--games", type=int, default=1_000_000, help="number of games (1000000)")
    add_seat_flags(p, "the players: a built-in name for every seat, or a comma list with one "
                      "per seat (`vecgames players GAME` lists a game's built-in players), "
                      "or a trainer's checkpoint path (.pt: plays through env.step). "
                      "Default: the game's default player")
    p.add_argument("--policy", help="the same as --players")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    _add_backend(p)
    p.add_argument("--summary", action="store_true",
                   help="keep only per-seat aggregates (for very many games; no --report)")
    p.add_argument("--report", metavar="PATH.md", help="write the analysis report here")
    p.add_argument("--arena-games", type=int, default=ARENA_GAMES, metavar="N",
                   help="with --report and two or more distinct players in --policy: the "
                        "report's who-beats-whom arena plays N games per seat assignment "
                        f"({ARENA_GAMES}; 0: no arena)")
    p.add_argument("--decision-games", type=int, metavar="N",
                   help="with --report: games the per-player decision table plays through the "
                        "env (at most --games; default: holdem 2000, liars_dice 1000, hanabi "
                        "500, dayaoguai 50; 0: none; zhajinhua counts its decisions in the run)")
    p.add_argument("--csv", metavar="PATH", help="write the per-game (or summary) table")
    p.add_argument("--seat-names", choices=("numbers", "xiyouji"),
                   help="dayaoguai: seat labels of the report (xiyouji: the original's 西游记 "
                        "characters 唐僧, 孙悟空, 猪八戒, 沙僧, ...)")
    add_rule_flags(p)


def _print_plain_summary(args: argparse.Namespace, df: Any, startup: float,
                         elapsed: float) -> None:
    """A game without a summary of its own: each seat's mean payoff (its spec's), with its
    standard deviation, or the per-seat summary frame as it is."""
    import pandas as pd

    from ..arena.payoffs import seat_payoffs, unit_of

    spec = spec_of(args.game)
    print(f"{args.game}: {args.games:,} {spec.unit}, policy {args.policy}, seed {args.seed}")
    if args.summary:
        print(df.to_string(index=False))
    else:
        n = int(df.attrs.get("rules", {}).get("num_players", 0))
        pay = seat_payoffs(args.game, df, n)
        table = pd.DataFrame({"seat": range(n), f"mean {unit_of(args.game)}": pay.mean(axis=0),
                              "std": pay.std(axis=0)})
        print(table.to_string(index=False, float_format="{:+.4f}".format))
    print_throughput(args.games, elapsed, startup, spec.unit)


def _games_taking_seat_names() -> list[str]:
    """The games whose report labels seats by name (``--seat-names``)."""
    return [name for name, spec in specs().items() if spec.has("report") and "seat_names" in
            inspect.signature(spec.load("report").write_report).parameters]


def _simulate(args: argparse.Namespace) -> int:
    count, listed = seat_flags(args)
    args.num_players = count
    if listed is not None:
        if args.policy is not None:
            raise CLIError("argument --players: given twice (--players and --policy)")
        args.policy = listed
    from ..api import simulate

    if args.policy is None:
        from ..simulators import default_policy

        args.policy = default_policy(args.game)
    if args.summary and args.report:
        raise CLIError("argument --report: not allowed with --summary "
                       "(the report needs per-game rows)")
    if args.seat_names and args.game not in (named := _games_taking_seat_names()):
        raise CLIError(f"argument --seat-names: only for {', '.join(named)}")
    if args.seat_names and not args.report:
        raise CLIError("argument --seat-names: labels the report: give --report too")
    if args.report and not spec_of(args.game).has("report"):
        raise CLIError(f"argument --report: no report for game {args.game!r} yet")
    for flag, value in (("--arena-games", args.arena_games),
                        ("--decision-games", args.decision_games)):
        if value is not None and value < 0:
            raise CLIError(f"argument {flag}: must be >= 0, got {value}")
    _check_output(args.report, "--report", create=True)
    _check_output(args.csv, "--csv")
    seats = {} if args.num_players is None else {"num_players": args.num_players}
    options = add_rule_texts(args.game, args.rule, seats | rule_options(args))
    kwargs = dict(players=_policy(args.policy), seed=args.seed, **options)
    if args.summary:  # only when asked: play_games (checkpoint players) has no summary
        kwargs.update(summary=True)
    simulate_keywords = inspect.signature(spec_of(args.game).load("simulate").simulate).parameters
    if "record_actions" in simulate_keywords:
        kwargs.update(record_actions=bool(args.report))  # the report's action tables
    ray_options = _ray_options(args)
    if not ray_options:
        kwargs.update(num_threads=args.threads)
    try:  # the library checks every option before a kernel runs: its errors are usage errors
        t0 = time.perf_counter()
        simulate(args.game, 1, **kwargs)  # compiles or loads the cached kernels
        if ray_options:
            from ..distributed import connect

            connect(args.address)  # Ray's start-up is start-up time too
        t1 = time.perf_counter()
        df = simulate(args.game, args.games, progress=None, **kwargs, **ray_options)
        elapsed = time.perf_counter() - t1
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc, FLAG_OF_ARG | flag_of_arg())) from None
    spec = spec_of(args.game)
    if spec.has("summary"):
        spec.load("summary")(args, df, t1 - t0, elapsed)
    else:
        _print_plain_summary(args, df, t1 - t0, elapsed)
    if args.csv:
        df.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    if args.report:
        report = spec_of(args.game).load("report")
        extra: dict[str, Any] = {"seat_names": args.seat_names} if args.seat_names else {}
        default = getattr(report, "DECISION_GAMES", None)
        if default is not None:  # its per-player decision table plays more games like these
            count = default if args.decision_games is None else args.decision_games
            extra.update(players=_policy(args.policy), decision_games=min(count, args.games))
        start = time.perf_counter()
        result = _report_arena(args, options, ray_options)
        written = report.write_report(df, args.report, elapsed=elapsed, arena=result, **extra)
        print(f"wrote {args.report} (+ {len(written) - 1} csv/png files beside it) in "
              f"{time.perf_counter() - start:.1f} s (its arena, tables and plots)")
    return 0


def _report_arena(args: argparse.Namespace, options: dict[str, Any],
                  ray_options: dict[str, Any]) -> Any:
    """The arena among the distinct players of ``--policy`` for the report (None with fewer
    than two or ``--arena-games 0``: the report's section then says why there is none)."""
    spec = _policy(args.policy)
    players = list(dict.fromkeys([spec] if isinstance(spec, str) else spec))
    if len(players) < 2 or args.arena_games == 0:
        return None
    from ..arena import arena

    threads = {} if ray_options else {"num_threads": args.threads}
    start = time.perf_counter()
    try:
        result = arena(args.game, players, args.arena_games, seed=args.seed, progress=None,
                       **ray_options, **threads, **options)
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc, ARENA_FLAGS | {"num_games": "--arena-games"})) from None
    print(f"arena among {', '.join(players)}: {len(result.matches):,} games in "
          f"{time.perf_counter() - start:.2f} s")
    return result


# ---------------------------------------------------------------- arena
