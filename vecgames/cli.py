"""The ``vecgames`` command.

    vecgames list [--json]
    vecgames simulate zhajinhua --games 1000000 --players 6 --report report.md
    vecgames simulate hanabi --games 1000000000 --summary --backend ray --address auto
    vecgames arena holdem --players random,call,strength --games 100000 --plot arena.png
    vecgames preflop-matrix --out preflop.npz --backend ray
    vecgames train zhajinhua [trainer args...]
    vecgames play liars-dice --players 4 --rounds 3 --agent heuristic
    vecgames play holdem --players 3 --agent strength,call
    vecgames play hanabi --watch --seed 3
    vecgames equity AhKh QsQd --board 2c7d9h
    vecgames equity "QQ+,AKs" random --samples 1e7
    vecgames --version

Every subcommand's ``--help`` lists its options (``train GAME --help`` and ``play GAME
--help``: the trainer's or the game's own). Library errors (bad option values) print
``vecgames: error: ...`` and exit with code 2. Long runs (simulate, preflop-matrix) draw a
progress bar on stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import os
import sys
import time
from typing import Any

from vecgames import __version__

from .cli_args import (
    FLAG_OF_ARG,
    PROG,
    RULE_FLAGS,
    TRAIN_HINT,
    CLIError,
    Parser,
    flagged,
    parse_rule,
    print_throughput,
)
from .games.catalog import game_names, spec_of, specs


def play_names() -> list[str]:
    """The names ``vecgames play`` takes: each game with a terminal view, its aliases first."""
    return [name for spec in specs().values() if spec.has("play") or spec.has("view")
            for name in (*spec.aliases, spec.name)]

# Games per seat assignment of the arena that `simulate --report` runs among distinct players.
ARENA_GAMES = 2_000



# ---------------------------------------------------------------- parser


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
    _add_simulate(sub.add_parser("simulate", help="play whole games and summarize/report them"))
    _add_arena(sub.add_parser("arena", help="matches between players: pairwise results with "
                                            "95%% CIs, ratings, a plot",
                              description="Play every pairing of PLAYERS (every seat "
                                          "assignment for 3+ seats), with duplicate deals "
                                          "where the game allows them; print the pairwise "
                                          "results and ratings (Hanabi: self-play and "
                                          "cross-play scores)."))
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
                      help="arguments passed on to vecgames.play.<game>.main")
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


def _add_equity(p: argparse.ArgumentParser) -> None:
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="2..10 hands: exact cards (AhKh) or ranges ('QQ+,AKs', random)")
    p.add_argument("--board", default="", help="0..5 board cards, e.g. 2c7d9h")
    p.add_argument("--dead", default="", help="cards out of play")
    p.add_argument("--samples", type=float,
                   help="Monte Carlo deals (default: exact when feasible, else 1e6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")


def _equity(args: argparse.Namespace) -> int:
    from .poker.equity import equity

    if args.samples is not None and not (args.samples.is_integer() and args.samples >= 1):
        raise CLIError(f"argument --samples: must be a whole number >= 1, got {args.samples:g}")
    import numba

    from .core.simulation import max_threads

    threads_before = numba.get_num_threads()
    if args.threads is not None:
        if not 1 <= args.threads <= max_threads():
            raise CLIError(f"argument --threads: must be in 1..{max_threads()}")
        numba.set_num_threads(args.threads)
    start = time.perf_counter()
    try:
        result = equity(args.hands, board=args.board, dead=args.dead,
                        samples=None if args.samples is None else int(args.samples),
                        seed=args.seed)
    except (ValueError, TypeError) as exc:
        raise CLIError(str(exc)) from None
    finally:
        numba.set_num_threads(threads_before)
    elapsed = time.perf_counter() - start
    shown = result[["hand", "combos", "win", "tie", "equity", "std_error"]].copy()
    for column in ("win", "tie", "equity", "std_error"):
        shown[column] = (100 * shown[column]).map("{:.3f}%".format)
    print(shown.to_string())
    method = result.attrs["method"]
    deals = result.attrs["deals"]
    print(f"{method}: {deals:,} deals in {elapsed:.3f} s"
          + (f" (board {args.board})" if args.board else ""))
    return 0


def _add_simulate(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))
    p.add_argument("--games", type=int, default=1_000_000, help="number of games (1000000)")
    p.add_argument("--policy",
                   help="player name for every seat, or a comma list with one per seat "
                        "(`vecgames players GAME` lists a game's built-in players), "
                        "or a trainer's checkpoint path (.pt: plays through env.step). "
                        "Default: the game's default player (`vecgames list`)")
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
    rules = p.add_argument_group("rule options (default: the game's defaults)")
    rules.add_argument("--players", type=int)
    rules.add_argument("--ante", type=int)
    rules.add_argument("--max-rounds", type=int)
    rules.add_argument("--no-compare-rounds", type=int)
    rules.add_argument("--a23", choices=("lowest", "second"))
    rules.add_argument("--special-235", action="store_true", default=None)
    rules.add_argument("--first-player", type=int, help="opening seat (default: random)")
    rules.add_argument("--stack", type=int, help="holdem: chips per seat at every hand (100)")
    rules.add_argument("--small-blind", type=int, help="holdem: small blind (1)")
    rules.add_argument("--big-blind", type=int, help="holdem: big blind (2)")
    rules.add_argument("--dice", type=int, help="liars_dice: dice per player (5)")
    rules.add_argument("--rounds", type=int, help="liars_dice: rounds per match (1)")
    rules.add_argument("--base", type=int, help="dayaoguai: beans per card picked up (1)")
    rules.add_argument("--max-steps", type=int,
                       help="dayaoguai: steps before a game is truncated (5000)")
    rules.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                       help="any rule option of the game, e.g. --rule min_raise=call "
                            "(repeatable; `vecgames list` shows every game's options)")


def _add_backend(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("running on a Ray cluster (needs the ray extra)")
    group.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="ray: shards run as Ray tasks, with the same result bit for bit")
    group.add_argument("--address", help="Ray cluster: auto, local, host:port or "
                                         "ray://host:port (default: RAY_ADDRESS, else a Ray "
                                         "started here, else a private one)")
    group.add_argument("--shards", type=int,
                       help="shards (default: 4 per task slot of the cluster; simulate: at "
                            "most one per 100,000 games)")
    group.add_argument("--cpus-per-shard", type=int, default=1,
                       help="CPUs and Numba threads per shard (1)")


def _ray_options(args: argparse.Namespace) -> dict[str, Any]:
    """The library keywords of the backend flags (none for a local run, which rejects them)."""
    if args.backend == "local":
        given = [flag for flag, value in (("--address", args.address), ("--shards", args.shards),
                                          ("--cpus-per-shard", args.cpus_per_shard != 1 or None))
                 if value is not None]
        if given:
            raise CLIError(f"argument {given[0]}: needs --backend ray")
        return {}
    if getattr(args, "threads", None) is not None:
        raise CLIError("argument --threads: not allowed with --backend ray "
                       "(use --cpus-per-shard)")
    try:
        import ray  # noqa: F401
    except ImportError:
        raise CLIError('argument --backend: ray needs the ray extra: '
                       'pip install -e ".[ray]"') from None
    return {"backend": "ray", "address": args.address, "num_shards": args.shards,
            "cpus_per_shard": args.cpus_per_shard}


def _add_preflop(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="PATH.npz", required=True,
                   help="write the counts (wins, ties, losses, combos) here")
    _add_backend(p)


def _preflop(args: argparse.Namespace) -> int:
    import numpy as np

    from .core.simulation import show_progress
    from .poker.preflop import MATRIX_FILE, compute_preflop_matrix

    _check_output(args.out, "--out")
    options = _ray_options(args)
    options.pop("backend", None)
    start = time.perf_counter()
    try:
        if args.backend == "ray":
            from .distributed.tables import compute_preflop_matrix_ray

            counts = compute_preflop_matrix_ray(progress=show_progress(None), **options)
        else:
            counts = compute_preflop_matrix(progress=show_progress(None))
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc)) from None
    elapsed = time.perf_counter() - start
    np.savez_compressed(args.out, **counts)  # type: ignore[arg-type]  # numpy's stub
    with np.load(MATRIX_FILE) as shipped:
        same = all(np.array_equal(shipped[name], counts[name]) for name in counts)
    print(f"169 x 169 matrix in {elapsed:.1f} s ({args.backend}); wrote {args.out}; "
          f"{'equal to' if same else 'DIFFERENT FROM'} the shipped {MATRIX_FILE.name}")
    return 0 if same else 1


# ---------------------------------------------------------------- list


def _add_list(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", choices=sorted(game_names()),
                   help="one game (default: every game)")
    p.add_argument("--json", action="store_true", help="print JSON (one object per game)")


def _add_players(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))


def _players(args: argparse.Namespace) -> int:
    from .policies.catalog import players
    from .simulators import default_policy

    described = players(args.game)
    width = max(map(len, described))
    default = default_policy(args.game)
    for player, how in described.items():
        mark = " (default)" if player == default else ""
        print(f"{player:<{width}}  {how}{mark}")
    return 0


def _list(args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from .api import game_info, list_games
    from .games.catalog import guide_module
    from .policies.catalog import players
    from .zoo import PREFIX, cards

    infos = list_games() if args.game is None else [game_info(args.game)]
    if args.json:
        print(json.dumps([dataclasses.asdict(g) for g in infos], indent=2))
        return 0
    for g in infos:
        sizes = ", ".join(f"{k!r} {v}" for k, v in g.obs_dim.items())
        print(f"{g.name}  ({g.gym_id}; report: {'yes' if spec_of(g.name).has('report') else 'no'})")
        print(f"  rules:    {_options_text(g.rule_options)}")
        docs = guide_module(g.name).OPTION_DOCS
        width = max(map(len, docs))
        for name, doc in docs.items():
            choices = "" if doc.choices is None else f" ({' or '.join(map(repr, doc.choices))})"
            print(f"    {name:<{width}}  {doc.label}: {doc.help}{choices}")
        print(f"  env:      {_options_text(g.env_options)}")
        if g.simulate_options:
            print(f"  simulate: {_options_text(g.simulate_options)}")
        print(f"  players:  {', '.join(g.policies)}  (simulate --policy; default "
              f"{g.default_policy})")
        width = max(map(len, g.policies))
        for player, how in players(g.name).items():
            print(f"    {player:<{width}}  {how}")
        zoo = [f"{PREFIX}{name} ({card['seats']} seats)" for name, card in cards().items()
               if card["game"] == g.name]
        if zoo:
            print(f"  zoo:      {', '.join(zoo)}  (trained players: vecgames.zoo(game))")
        print(f"  sizes:    obs {sizes}; actions {g.num_actions} ({g.num_players} players)")
    print(f"\n{LIST_LEGEND}")
    return 0


# What the sizes line counts. A layout named 'seed' is the original rules' observation: an
# env option value (obs= or observation=), so it keeps its name.
LIST_LEGEND = ("sizes: obs = floats in one seat's observation, per observation layout (the env "
               "option obs= or observation=; layout 'seed' is the original rules' layout), at "
               "the default rules; actions = the action ids of the env")


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in options.items()) or "-"


# ---------------------------------------------------------------- simulate


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    given = {kw: getattr(args, flag[2:].replace("-", "_")) for flag, kw in RULE_FLAGS.items()}
    options = {kw: v for kw, v in given.items() if v is not None}
    return _add_rules(args.game, args.rule, options)


def _add_rules(game: str, texts: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` plus the ``--rule KEY=VALUE`` texts of ``game``; a key given twice is an
    error."""
    defaults = spec_of(game).load("rules").DEFAULT_OPTIONS
    for text in texts:
        key, value = parse_rule(text, defaults)
        if key in options:
            flag = FLAG_OF_ARG.get(key, f"--rule {key}")
            raise CLIError(f"argument --rule: {key} given twice ({flag} and --rule {text})")
        options[key] = value
    return options




def _policy(text: str) -> str | list[str]:
    names = [s.strip() for s in text.split(",")]
    return names[0] if len(names) == 1 else names


def _seat_players(text: str) -> dict[str, Any]:
    """``--policy``'s keyword for simulate: ``players=`` takes built-in names (the in-kernel
    path) and checkpoint paths (batched env steps) alike."""
    return {"players": _policy(text)}


def _print_plain_summary(args: argparse.Namespace, df: Any, startup: float,
                         elapsed: float) -> None:
    """A game without a summary of its own: each seat's mean payoff (its spec's), with its
    standard deviation, or the per-seat summary frame as it is."""
    import pandas as pd

    from .arena.payoffs import seat_payoffs, unit_of

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


def _check_output(path: str | None, flag: str, create: bool = False) -> None:
    """Check a file to write before the run, not after it: its missing folder is refused or,
    with ``create``, made (a report's folder, as ``--report out/run1.md`` asks)."""
    if path is None:
        return
    if os.path.isdir(path):
        raise CLIError(f"argument {flag}: {path!r} is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(os.path.expanduser(path)))
    if create and not os.path.exists(folder):
        try:
            os.makedirs(folder)
        except OSError as exc:
            raise CLIError(f"argument {flag}: cannot create the folder {folder!r}: "
                           f"{exc.strerror}") from None
    if not os.path.isdir(folder):
        raise CLIError(f"argument {flag}: the folder {folder!r} does not exist")


def _simulate(args: argparse.Namespace) -> int:
    from .api import simulate

    if args.policy is None:
        from .simulators import default_policy

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
    options = _rule_options(args)
    kwargs = dict(_seat_players(args.policy), seed=args.seed, **options)
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
            from .distributed import connect

            connect(args.address)  # Ray's start-up is start-up time too
        t1 = time.perf_counter()
        df = simulate(args.game, args.games, progress=None, **kwargs, **ray_options)
        elapsed = time.perf_counter() - t1
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc)) from None
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
    from .arena import arena

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

# Library argument name -> flag of the arena command, to name the flag in error messages.
ARENA_FLAGS: dict[str, str] = {"players": "--players", "num_games": "--games",
                               "seed": "--seed", "duplicate": "--duplicate",
                               "num_threads": "--threads", "num_shards": "--shards",
                               "cpus_per_shard": "--cpus-per-shard", "address": "--address"}


def _add_arena(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))
    p.add_argument("--players", required=True, metavar="A,B,...",
                   help="comma list of players: built-in names (`vecgames list`), checkpoint "
                        "paths (.pt); at least 2 (hanabi: 1 for self-play only)")
    p.add_argument("--games", type=int, default=10_000,
                   help="games per pairing or seat assignment (10000)")
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

    from .arena.replay import arena_replay, save_replay

    firsts = result.matches.reset_index(drop=True).groupby("assignment", observed=True).head(1)
    for n, (row, assignment) in enumerate(zip(firsts.index, firsts["assignment"], strict=True)):
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(assignment)).strip("-")[:80]
        save_replay(arena_replay(result, players, int(row)), folder / f"{n:03d}_{name}.json")
    print(f"wrote {len(firsts)} replays to {folder}")


def _arena(args: argparse.Namespace) -> int:
    players = [s.strip() for s in args.players.split(",")]
    _check_output(args.plot, "--plot")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CLIError('argument --plot: needs matplotlib: pip install -e ".[report]"'
                           ) from None
    csv_dir = _out_folder(args.csv, "--csv")
    replay_dir = _out_folder(args.replays, "--replays")
    options = _add_rules(args.game, args.rule, {})
    ray_options = _ray_options(args)
    if not ray_options:
        options["num_threads"] = args.threads
    import warnings

    from .arena import FewUnitsWarning, arena
    from .arena.stats import MIN_UNITS

    start = time.perf_counter()
    try:
        with warnings.catch_warnings():  # said once below, without the warning's source line
            warnings.simplefilter("ignore", FewUnitsWarning)
            result = arena(args.game, players, args.games, seed=args.seed,
                           duplicate=args.duplicate, progress=None, **ray_options, **options)
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc, ARENA_FLAGS)) from None
    elapsed = time.perf_counter() - start
    _print_arena(result, args.markdown)
    if result.few_units:
        print(f"note: some 95% intervals rest on only {result.min_units} independent "
              f"{result.ci_unit}s (fewer than {MIN_UNITS}): read them as rough; give more "
              f"--games",
              file=sys.stderr)
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
        from .analysis.arena_plot import plot_arena

        try:
            print(f"wrote {plot_arena(result, args.plot)}")
        except (ValueError, TypeError) as exc:
            raise CLIError(f"argument --plot: {exc}") from None
    return 0


def _out_folder(path: str | None, flag: str) -> Any:
    """An output folder (created if missing; its parent must exist), checked before a run."""
    if path is None:
        return None
    from pathlib import Path

    folder = Path(path).expanduser()
    if folder.exists() and not folder.is_dir():
        raise CLIError(f"argument {flag}: {path!r} is a file; give a folder")
    if not folder.parent.is_dir():
        raise CLIError(f"argument {flag}: the folder {str(folder.parent)!r} does not exist")
    folder.mkdir(exist_ok=True)
    return folder


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
    print(f"{result.game}: {', '.join(result.players)} at {result.seats} seats; "
          f"{result.num_games:,} games per seat assignment ({dup}), seed {result.seed}; "
          f"unit: {result.unit}")
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


# ---------------------------------------------------------------- train


def _train(args: argparse.Namespace) -> int:
    try:
        trainer = spec_of(args.game).load("trainer")
    except ImportError as exc:
        # The torch bridge's message already says how to install the extra.
        reason = str(exc) if TRAIN_HINT in str(exc) else (
            f"training needs the train extra ({exc}); install it with: {TRAIN_HINT}")
        print(f"{PROG}: error: {reason}", file=sys.stderr)
        return 1
    # The trainer's usage and error lines name this command (`vecgames train GAME`).
    return _forward(functools.partial(trainer.main, prog=f"{PROG} train {args.game}"),
                    args.args)


def _exploit(args: argparse.Namespace) -> int:
    try:
        exploit = importlib.import_module("vecgames.training.exploit")
        importlib.import_module("vecgames.torch_bridge")  # the trainers need torch
    except ImportError as exc:
        reason = str(exc) if TRAIN_HINT in str(exc) else (
            f"exploit trains a policy: it needs the train extra ({exc}); install it with: "
            f"{TRAIN_HINT}")
        print(f"{PROG}: error: {reason}", file=sys.stderr)
        return 1
    return _forward(exploit.main, args.args)


# ---------------------------------------------------------------- play


def _play(args: argparse.Namespace) -> int:
    spec = spec_of(args.game, aliases=True)
    if spec.has("play"):  # a game with its own command line
        return _forward(spec.load("play").main, args.args)
    from .play import terminal  # the shared loop, over the game's view

    return _forward(lambda argv: terminal.main(spec.load("view"), argv), args.args)


def _forward(entry: Any, argv: list[str]) -> int:
    """Run a forwarded ``main(argv)``; its argparse exits (``--help``, usage errors) become
    return codes, as for this command's own."""
    try:
        return int(entry(list(argv)) or 0)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1


# ---------------------------------------------------------------- serve


def _add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--checkpoint", action="append", default=[], metavar="PATH",
                   help="a checkpoint the page may seat (repeatable); the only files the "
                        "server loads players from")
    p.add_argument("--replays", metavar="DIR",
                   help="a folder of replay files (*.json) to list on the replays page")


def _serve(args: argparse.Namespace) -> int:
    from .web import serve

    if not 0 < args.port < 65536:
        raise CLIError(f"argument --port: must be in 1..65535, got {args.port}")
    for path in args.checkpoint:
        _check_input(path, "--checkpoint")
    if args.replays is not None and not os.path.isdir(args.replays):
        raise CLIError(f"argument --replays: no folder {args.replays!r}")
    try:
        serve(args.host, args.port, args.checkpoint, args.replays)
    except ImportError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a checkpoint that does not load
        raise CLIError(f"argument --checkpoint: {exc}") from None
    except KeyboardInterrupt:
        return 0
    return 0


def _check_input(path: str, flag: str) -> None:
    if not os.path.isfile(path):
        raise CLIError(f"argument {flag}: no file {path!r}")


# ---------------------------------------------------------------- entry point


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
