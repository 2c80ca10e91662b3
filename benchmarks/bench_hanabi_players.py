"""A built-in Hanabi player (``conventions``, ``hat``, ...): strength (self-play, and the
paired gain over ``rules``) and speed, as tables.

    python benchmarks/bench_hanabi_players.py [--policy conventions] [--games 100000]
                                              [--seed 0] [--players 2] [--speed-games 200000]
                                              [--threads 2]

Strength: ``vecgames.simulate("hanabi", games, policy=POLICY, seed=seed, num_players=P)``:
mean score with its 95% CI (1.96 standard errors), the perfect-game (25) and bomb-out
(lives lost, score 0) rates, and the mean per-game difference from ``rules`` on the same
deals (same seed) with its 95% CI. Speed: games/s of the same call with
``summary=True``, the best of three runs after a warm-up call that compiles, next to
``rules``' in the same run, and their ratio (``--speed-games 0`` skips it). Run the speed
part alone on the machine: timings of concurrent jobs mean nothing.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402


def strength(policy: str, players: int, games: int, seed: int) -> list[str]:
    df = vecgames.simulate("hanabi", games, policy=policy, seed=seed, num_players=players)
    score = df["score"].to_numpy(np.float64)
    base = vecgames.simulate("hanabi", games, policy="rules", seed=seed,
                             num_players=players)["score"].to_numpy(np.float64)
    diff = score - base  # game g is dealt alike for both teams: paired
    half = 1.96 * score.std(ddof=1) / np.sqrt(games)
    dhalf = 1.96 * diff.std(ddof=1) / np.sqrt(games)
    return [str(players), f"{score.mean():.3f}", f"± {half:.3f}",
            f"{100 * (df['end'] == 'perfect').mean():.2f}",
            f"{100 * (df['end'] == 'lives').mean():.3f}", f"{diff.mean():+.3f} ± {dhalf:.3f}",
            f"{games:,}", str(seed)]


def speed(policy: str, players: int, games: int, threads: int | None) -> list[str]:
    """games/s of ``policy`` in self-play next to ``rules``' in the same run, and the ratio
    (the issue's target for ``conventions`` and ``hat``: >= 0.7x)."""
    rates = {}
    for name in (policy, "rules"):
        def work(name: str = name) -> None:
            vecgames.simulate("hanabi", games, players=name, seed=0, num_players=players,
                              summary=True, num_threads=threads)

        vecgames.simulate("hanabi", 64, players=name, seed=0, num_players=players,
                          summary=True)
        rates[name] = games / best_seconds(work)
    return [str(players), f"{games:,}", f"{rates[policy]:,.0f}", f"{rates['rules']:,.0f}",
            f"{rates[policy] / rates['rules']:.2f}x"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policy", default="conventions")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--speed-games", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()

    if args.games > 0:
        print_table(["players", "mean", "95% CI", "perfect %", "bomb-out %",
                     "gain over rules", "games", "seed"],
                    [strength(args.policy, p, args.games, args.seed) for p in args.players])
    if args.speed_games > 0:
        print()
        print_table(["players", "games", f"{args.policy} games/s", "rules games/s",
                     "ratio"],
                    [speed(args.policy, p, args.speed_games, args.threads)
                     for p in args.players])


if __name__ == "__main__":
    main()
