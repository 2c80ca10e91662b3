"""The Hanabi ``search`` player: what search adds over its blueprint, and what it costs.

    python benchmarks/bench_hanabi_search.py [--players 2] [--games 2000] [--seed 0]
                                             [--threads 2] [--no-all-seats]

Strength (the same seeds for every team): the blueprint at every seat (``conventions`` with 2
players, ``hat`` with 3-5: the one ``search`` plays over); ``search`` at seat 0 beside the
blueprint (SPARTA's single-agent setting); ``search`` at every seat.
Each row: mean score with its 95% CI, the gain over the blueprint team with the 95% CI of the
per-game difference (the same deals start each game, so the difference is paired), the
perfect-game and bomb-out rates. Speed: the searcher's decisions per second and the wall time
per decision, from the seat-0 run (a searcher moves on one turn in P). Run it alone on the
machine: timings of concurrent jobs mean nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numba  # noqa: E402
import numpy as np  # noqa: E402

import vecgames  # noqa: E402
from benchmarks.timing import print_table  # noqa: E402
from vecgames.games.hanabi.players_search import (  # noqa: E402
    DEALS,
    FINALISTS,
    MARGIN,
    MORE_DEALS,
    blueprint_name,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--no-all-seats", action="store_true",
                        help="skip the team of searchers (P times the searched decisions)")
    args = parser.parse_args()
    n = args.players
    blueprint = blueprint_name(n)
    print(f"search over {blueprint!r}, {n} players: {DEALS} worlds for every legal move, the "
          f"blueprint's move and {FINALISTS} finalists in {MORE_DEALS} more, margin {MARGIN} "
          f"points")
    vecgames.simulate("hanabi", 2, players="search", seed=args.seed, num_players=n)  # compile
    rest = " + ".join([blueprint] * (n - 1))
    teams = {f"{blueprint} x {n}": [blueprint] * n,
             f"search + {rest}": ["search"] + [blueprint] * (n - 1)}
    if not args.no_all_seats:
        teams[f"search x {n}"] = ["search"] * n
    scores, seconds, turns = {}, {}, {}
    for label, team in teams.items():
        start = time.perf_counter()
        df = vecgames.simulate("hanabi", args.games, players=team, seed=args.seed,
                               num_threads=args.threads, num_players=n)
        seconds[label] = time.perf_counter() - start
        scores[label] = df
        turns[label] = df["turns"].to_numpy()
    base = scores[f"{blueprint} x {n}"]["score"].to_numpy(np.float64)
    rows = []
    for label, df in scores.items():
        score = df["score"].to_numpy(np.float64)
        diff = score - base
        rows.append([label, f"{score.mean():.3f}",
                     f"± {1.96 * score.std(ddof=1) / np.sqrt(len(score)):.3f}",
                     f"{diff.mean():+.3f}",
                     f"± {1.96 * diff.std(ddof=1) / np.sqrt(len(diff)):.3f}",
                     f"{100 * (df['end'] == 'perfect').mean():.2f}",
                     f"{100 * (df['end'] == 'lives').mean():.2f}", f"{len(score):,}"])
    print_table(["team", "mean", "95% CI", "gain", "gain CI", "perfect %", "bomb-out %",
                 "games"], rows)
    label = f"search + {rest}"
    decisions = int(((turns[label] + n - 1) // n).sum())  # seat 0 moves on turns 0, n, 2n...
    threads = args.threads or numba.get_num_threads()
    print()
    print_table(["searcher", "decisions", "wall s", "decisions/s", "ms per decision (wall x "
                 "threads)"],
                [[label, f"{decisions:,}", f"{seconds[label]:.1f}",
                  f"{decisions / seconds[label]:,.0f}",
                  f"{1000 * seconds[label] * threads / decisions:.2f}"]])


if __name__ == "__main__":
    main()
