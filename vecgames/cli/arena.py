"""``vecgames arena GAME --players a,b,...``: matches, ratings, plots, replays."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..cli_args import (
    CLIError,
    flagged,
)
from ..games.catalog import game_names
from ..games.rule_flags import add_rule_texts
from .common import _add_backend, _check_output, _out_folder, _ray_options

ARENA_TOTAL = 10_000  # games in all by default (a balanced schedule)
# Library argument name -> flag of the arena command, to name the flag in error messages.
ARENA_FLAGS: dict[str, str] = {"players": "--players", "num_games": "--per-assignment",
                               "total_games": "--games",
                               "seed": "--seed", "duplicate": "--duplicate",
                               "minutes": "--minutes",
                               "num_threads": "--threads", "num_shards": "--shards",
                               "cpus_per_shard": "--cpus-per-shard", "address": "--address"}


def _add_arena(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))
    p.add_argument("--players", required=True, metavar="A,B,...",
                   help="comma list of players: built-in names (`vecgames list`), checkpoint "
                        "paths (.pt); at least 2 (hanabi: 1 for self-play only)")
    p.add_argument("--num-players", type=int, metavar="N",
                   help="seats at the table (default: the game's)")
    p.add_argument("--games", type=int,
                   help=f"games in all ({ARENA_TOTAL}), spread by a balanced schedule: each player "
                        "equally often in each seat and each pair equally often at a table, "
                        "the same games per seat assignment (every assignment when they fit)")
    p.add_argument("--minutes", type=float, metavar="M",
                   help="stop cleanly after about M minutes with the games played so far "
                        "(every seat assignment the same deals), tables and CIs included")
    p.add_argument("--per-assignment", type=int, metavar="N",
                   help="instead of --games: every seat assignment (the exhaustive schedule), "
                        "N games each")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--duplicate", action=argparse.BooleanOptionalAction,
                   help="duplicate deals: the same cards with the seats swapped (default: on "
                        "where the game allows it)")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--plot", metavar="PATH.png",
                   help="write the heat map of pairwise means and the ratings with error bars "
                        "(needs the report extra)")
    p.add_argument("--csv", metavar="DIR", help="write every table as DIR/<table>.csv "
                                                "(matches.csv: one row per game)")
    p.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    p.add_argument("--replays", metavar="DIR",
                   help="write the first game of every seat assignment as a replay file, "
                        "DIR/<n>_<seats>.json (vecgames serve --replays DIR plays them back)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="any rule option of the game, e.g. --rule num_players=2 (repeatable)")
    _add_backend(p)


def _write_replays(result: Any, players: list[str], folder: Any) -> None:
    """The first game of each seat assignment of ``result`` as a replay file in ``folder``."""
    import re

    from ..arena.replay import arena_replay, save_replay

    firsts = result.matches.reset_index(drop=True).groupby("assignment", observed=True).head(1)
    for n, (row, assignment) in enumerate(zip(firsts.index, firsts["assignment"], strict=True)):
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(assignment)).strip("-")[:80]
        save_replay(arena_replay(result, players, int(row)), folder / f"{n:03d}_{name}.json")
    print(f"wrote {len(firsts)} replays to {folder}")


def _arena(args: argparse.Namespace) -> int:
    players = [s.strip() for s in args.players.split(",")]
    if args.games is not None and args.per_assignment is not None:
        raise CLIError("argument --per-assignment: not allowed with --games (a total)")
    _check_output(args.plot, "--plot")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CLIError('argument --plot: needs matplotlib: pip install -e ".[report]"'
                           ) from None
    csv_dir = _out_folder(args.csv, "--csv")
    replay_dir = _out_folder(args.replays, "--replays")
    options = add_rule_texts(args.game, args.rule, {} if args.num_players is None
                         else {"num_players": args.num_players})
    ray_options = _ray_options(args)
    if not ray_options:
        options["num_threads"] = args.threads
    import warnings

    from ..arena import FewUnitsWarning, arena
    from ..arena.stats import MIN_UNITS

    start = time.perf_counter()
    try:
        with warnings.catch_warnings():  # said once below, without the warning's source line
            warnings.simplefilter("ignore", FewUnitsWarning)
            games = ({"total_games": ARENA_TOTAL if args.games is None else args.games}
                     if args.per_assignment is None else {"num_games": args.per_assignment})
            result = arena(args.game, players, seed=args.seed, duplicate=args.duplicate,
                           progress=None, minutes=args.minutes, **games, **ray_options,
                           **options)
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc, ARENA_FLAGS)) from None
    elapsed = time.perf_counter() - start
    _print_arena(result, args.markdown)
    if result.few_units:
        print(f"note: some 95% intervals rest on only {result.min_units} independent "
              f"{result.ci_unit}s (fewer than {MIN_UNITS}): read them as rough; give more "
              f"--games",
              file=sys.stderr)
    if result.stopped:
        print(f"note: stopped after --minutes {args.minutes:g}: {result.num_games:,} games per "
              f"seat assignment played (every assignment the same deals)", file=sys.stderr)
    played = len(result.matches)
    print(f"played {played:,} games in {elapsed:.2f} s ({played / max(elapsed, 1e-9):,.0f} "
          f"games/s, kernel load/compile included)")
    if csv_dir is not None:
        tables = {**result.tables(), "matches": result.matches}
        for name, table in tables.items():
            table.to_csv(csv_dir / f"{name}.csv", index=False)
        print(f"wrote {csv_dir}{os.sep}{{{','.join(tables)}}}.csv")
    if replay_dir is not None:
        _write_replays(result, players, replay_dir)
    if args.plot:
        from ..analysis.arena_plot import plot_arena

        try:
            print(f"wrote {plot_arena(result, args.plot)}")
        except (ValueError, TypeError) as exc:
            raise CLIError(f"argument --plot: {exc}") from None
    return 0


# What each of the arena's tables holds, printed above it.
ARENA_TITLES: dict[str, str] = {
    "pairwise": "pairwise: mean {unit} per game of player against opponent, 95% CI",
    "ratings": "ratings, 95% CI (best first)",
    "selfplay": "self-play: mean {unit} of each player's own team, 95% CI, perfect-game rate",
    "crossplay": "cross-play: mean {unit} of player (one seat) with partner (the others), "
                 "95% CI"}


def _print_arena(result: Any, markdown: bool) -> None:
    if markdown:
        print(result.to_markdown())
        return
    dup = "duplicate deals" if result.duplicate else "a deal per game"
    assignments = result.matches["assignment"].cat.categories.size
    print(f"{result.game}: {', '.join(result.players)} at {result.seats} seats; "
          f"{assignments:,} seat assignments x {result.num_games:,} games ({dup}), seed "
          f"{result.seed}; unit: {result.unit}")
    number = lambda v: f"{v:.4f}" if abs(v) < 1 else f"{v:.2f}"  # noqa: E731
    for name, table in result.tables().items():
        if table.empty:  # e.g. Hanabi's cross-play with one player
            continue
        print("\n" + ARENA_TITLES.get(name, name).format(unit=result.unit))
        print(table.drop(columns=["unit"], errors="ignore").to_string(
            index=False, float_format=number))
    if len(result.players) > 2:  # who beats whom at a glance
        square = result.matrix() if result.pairwise is not None else result.cross_matrix()
        print(f"\nmean {result.unit}: row player against (Hanabi: with) column player")
        print(square.to_string(float_format=number, na_rep="-"))
    print()
