"""Decision rates of Liar's Dice's built-in players inside ``vecgames.simulate``.

    python benchmarks/bench_liars_dice_players.py [--games 200000] [--threads N]

For each pairing (``odds``, ``heuristic`` and ``random`` against ``heuristic``, and each in
self-play), heads-up with 5 dice each: whole one-round matches through
``vecgames.simulate(..., summary=True)``. A round has its bids plus the challenge as
decisions, so decisions/s = rounds x (mean bids + 1) / seconds, counting every seat's
decisions. The best of three runs after a warm-up call that compiles. Run it alone on the
machine (timings are meaningless on a shared one).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402

PAIRINGS = (("odds", "heuristic"), ("odds", "odds"), ("heuristic", "heuristic"),
            ("random", "random"))


def rates(pairing: tuple[str, str], games: int, threads: int | None = None) -> tuple[float, float]:
    """(games/s, decisions/s) of ``games`` one-round matches of the pairing."""
    def run() -> Any:
        return vecgames.simulate("liars_dice", games, policy=list(pairing), seed=1,
                                 summary=True, num_threads=threads)

    df = run()  # compiles on the first pairing; its counts are every run's (same seed)
    decisions = df.attrs["rounds"] * (df.attrs["mean_bids"] + 1)
    seconds = best_seconds(run)
    return games / seconds, decisions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=None, help="Numba threads (all)")
    args = parser.parse_args()
    rows = []
    for pairing in PAIRINGS:
        games_s, decisions_s = rates(pairing, args.games, args.threads)
        rows.append([" vs ".join(pairing), f"{games_s:,.0f}", f"{decisions_s:,.0f}"])
    print_table(["players", "games/s", "decisions/s"], rows)


if __name__ == "__main__":
    main()
