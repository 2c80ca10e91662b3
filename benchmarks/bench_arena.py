"""The arena's speed next to ``simulate``'s, and what duplicate deals buy, as two tables.

    python benchmarks/bench_arena.py [--scale 1.0] [--pairs 100000]
                                     [--only speed|checkpoint|duplicate]

Speed: for each game, an arena of built-in players (in-kernel) against ``vecgames.simulate``
with the random policy under the same rules, both per-game DataFrames, in games/s; a third
rate is ``simulate`` with the arena's own players seated in turn, so that the ratio
arena / same players is the arena's overhead (schedule, payoff tables, CIs, ratings) and the
ratio arena / random what the issue's target (>= 50%) asks. An arena's games are all the
games of all its seat assignments (``len(result.matches)``). Each rate is the best of three
runs after a warm-up call that compiles; the ratios come from one run.

Checkpoint: for each game a zoo network (greedy), its decisions/s with itself at every seat
through ``play_games`` (2,048 tables stepped together, bench_players' setting: its own
batched rate) next to its decisions/s in an arena of it and two cheap built-ins
(``total_games``, a balanced schedule), counted at the network's forward; the issue's target
is an arena rate >= 50% of the batched one. A third rate is the same arena with its tables
played one after another (each through its own ``play_games``, as before they were played
together), and the last column the speed-up of playing them together.

Duplicate deals: heads-up Hold'em, the same number of games per seat order with and without
duplicate deals, and the width of the 95% CI of the first player's mean (bb/100) against the
second in each. Run it alone on the machine (2 cores), niced if others work there.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402
from vecgames.arena import api, arena  # noqa: E402

# game -> (games per run at scale 1, the arena's built-in players, rule options)
LINEUPS: dict[str, tuple[int, tuple[str, ...], dict[str, Any]]] = {
    "zhajinhua": (1_000_000, ("random", "heuristic"), {}),
    "holdem": (400_000, ("random", "call", "raise"), {"num_players": 2}),
    "liars_dice": (400_000, ("random", "heuristic"), {}),
    "hanabi": (200_000, ("random", "rules"), {}),
    "dayaoguai": (50_000, ("random", "shed"), {}),
}
# Pairs from card-driven (raise vs raise-uniform: all-in every hand) to dominated by a
# player's own coin flips (call folds half the time).
DUPLICATE_PAIRS = (("strength", "call"), ("strength", "raise"), ("strength", "raise-uniform"),
                   ("random", "call"), ("raise", "raise-uniform"))


def _arena_games(result: Any) -> int:
    return len(result.matches)


def _simulate_seconds(game: str, num_games: int, policy: Any, rules: dict[str, Any]) -> float:
    """Best-of-three seconds of a per-game ``simulate`` run (after a compiling warm-up)."""
    vecgames.simulate(game, 1000, players=policy, seed=1, progress=False, **rules)
    return best_seconds(lambda: vecgames.simulate(game, num_games, players=policy, seed=1,
                                                  progress=False, **rules))


def speed_rows(scale: float) -> list[tuple[str, ...]]:
    """One row per game: players, the three rates and the two ratios."""
    from vecgames.arena.schedule import count_assignments, hanabi_assignments

    rows = []
    for game, (games, lineup, rules) in LINEUPS.items():
        total = max(1000, int(games * scale))
        seats = int(vecgames.simulate(game, 1, seed=0, **rules).attrs["rules"]["num_players"])
        count = (len(hanabi_assignments(len(lineup), seats)) if game == "hanabi"
                 else count_assignments(len(lineup), seats))
        per_assignment = max(1, total // count)
        mixed = [lineup[s % len(lineup)] for s in range(seats)]
        played = _arena_games(arena(game, list(lineup), per_assignment, seed=1,
                                             progress=False, **rules))  # compiles, counts
        random_rate = total / _simulate_seconds(game, total, "random", rules)
        mixed_rate = total / _simulate_seconds(game, total, mixed, rules)
        arena_rate = played / best_seconds(lambda: arena(
            game, list(lineup), per_assignment, seed=1, progress=False, **rules))  # noqa: B023
        rows.append((game, ", ".join(lineup) + f" ({seats} seats, {count} assignments)",
                     f"{random_rate:,.0f}", f"{mixed_rate:,.0f}", f"{arena_rate:,.0f}",
                     f"{arena_rate / random_rate:.0%}", f"{arena_rate / mixed_rate:.0%}"))
    return rows


# game -> (zoo network, its arena opponents, arena games at scale 1, rule options)
CHECKPOINT_LINEUPS: dict[str, tuple[str, tuple[str, ...], int, dict[str, Any]]] = {
    "zhajinhua": ("zoo:zhajinhua-6p", ("heuristic", "random"), 20_000, {}),
    "holdem": ("zoo:holdem-6p", ("call", "raise"), 6_000, {}),
    "liars_dice": ("zoo:liars-dice-2p", ("heuristic", "random"), 20_000, {}),
    "hanabi": ("zoo:hanabi-2p", ("conventions",), 4_000, {}),
    "dayaoguai": ("zoo:dayaoguai-4p", ("shed", "random"), 1_000, {"max_steps": 1000}),
}


def checkpoint_rows(scale: float) -> list[tuple[str, ...]]:
    """One row per game: the network's batched rate, its arena rates and their ratios."""
    from vecgames.torch_bridge import import_torch

    import_torch().set_num_threads(1)  # bench_players' default (2 cores beside Numba's)
    return [checkpoint_row(game, max(100, int(games * scale)), name, opponents, rules)
            for game, (name, opponents, games, rules) in CHECKPOINT_LINEUPS.items()]


def checkpoint_row(game: str, total: int, name: str, opponents: tuple[str, ...],
                   rules: dict[str, Any]) -> tuple[str, ...]:
    from vecgames.simulators.mixed import play_games

    player = vecgames.load_player(name, greedy=True)
    counted = [0]
    player.net.register_forward_hook(
        lambda module, args, out: counted.__setitem__(0, counted[0] + len(args[0])))

    def decisions_per_second(work: Any) -> float:
        work()  # compiles, warms up
        counted[0] = 0
        work()
        per_run = counted[0]
        return per_run / best_seconds(work)

    def batched() -> None:
        play_games(game, player, total, seed=1, progress=False, **rules)

    def in_arena() -> None:
        lineup = [player, *opponents]
        if game == "hanabi":  # cooperative: self-play and cross-play, per assignment
            arena(game, lineup, total // 4, seed=1, progress=False, **rules)
        else:
            arena(game, lineup, total_games=total, seed=1, progress=False, **rules)

    own, mixed = decisions_per_second(batched), decisions_per_second(in_arena)
    together = api.play_matches_together
    api.play_matches_together = one_at_a_time
    try:
        alone = decisions_per_second(in_arena)
    finally:
        api.play_matches_together = together
    return (game, f"{name} vs {', '.join(opponents)}", f"{total:,}", f"{own:,.0f}",
            f"{mixed:,.0f}", f"{mixed / own:.0%}", f"{alone:,.0f}", f"{mixed / alone:.1f}x")


def one_at_a_time(jobs: list[Any], on_games: Any, num_envs: Any = None) -> list[Any]:
    """The arena's tables with other players, each through its own ``play_games``."""
    from vecgames.arena.matches import play_match

    out = []
    for job in jobs:
        out.append(play_match(job))
        on_games(job.num_games)
    return out


def duplicate_rows(num_games: int, seed: int) -> list[tuple[str, ...]]:
    """Heads-up Hold'em: the CI width of the first player against the second, plain and
    duplicate, at ``num_games`` games per seat order."""
    rows = []
    for first, second in DUPLICATE_PAIRS:
        widths, means = {}, {}
        for duplicate in (False, True):
            result = arena("holdem", [first, second], num_games, seed=seed,
                                    duplicate=duplicate, progress=False, num_players=2)
            row = result.pairwise.set_index(["player", "opponent"]).loc[(first, second)]
            widths[duplicate] = float(row["ci_high"] - row["ci_low"])
            means[duplicate] = f"{row['mean']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"
        ratio = f"{widths[False] / widths[True]:.2f}x" if widths[True] > 0 else "exact"
        rows.append((f"{first} vs {second}", f"{2 * num_games:,}", means[False], means[True],
                     f"{widths[False]:.2f}", f"{widths[True]:.2f}", ratio))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiplies each game's games per run (speed table)")
    parser.add_argument("--pairs", type=int, default=100_000,
                        help="games per seat order in the duplicate table (100000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the duplicate table")
    parser.add_argument("--only", choices=("speed", "checkpoint", "duplicate"))
    args = parser.parse_args()
    if args.only in (None, "speed"):
        print_table(("game", "arena players", "simulate random games/s",
                     "simulate same players games/s", "arena games/s", "arena / random",
                     "arena / same players"), speed_rows(args.scale))
        print()
    if args.only in (None, "checkpoint"):
        print_table(("game", "arena", "games", "network decisions/s, every seat",
                     "network decisions/s, arena", "arena / every seat",
                     "decisions/s, tables one at a time", "together / one at a time"),
                    checkpoint_rows(args.scale))
        print()
    if args.only in (None, "duplicate"):
        print_table(("heads-up Hold'em", "games", "plain: mean bb/100 [95% CI]",
                     "duplicate: mean bb/100 [95% CI]", "plain CI width",
                     "duplicate CI width", "narrower by"),
                    duplicate_rows(args.pairs, args.seed))


if __name__ == "__main__":
    main()
