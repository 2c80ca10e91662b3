"""CFR+ on Kuhn and Leduc poker, vecgames against OpenSpiel's C++ solver, from one run.

    python benchmarks/bench_small_cfr.py [--repeats 3] [--target 1e-3]

vecgames: ``vecgames.solve.solve`` on the games' public trees (``public_tree()`` of
``vecgames.games.kuhn_poker.tree`` / ``leduc_poker.tree``: private ranks, Leduc's board a
chance node), timed per iteration (both players' alternating updates) over batches of
``solve(tree, n)`` (one exploitability check at the end of each batch, under 1% of it).
OpenSpiel (optional: ``pip install open_spiel``): ``pyspiel.CFRPlusSolver(game)``'s
``evaluate_and_update_policy()`` per iteration (alternating updates too), on its
``kuhn_poker`` and ``leduc_poker`` (6 cards, 936 information sets; with
``suit_isomorphism=True`` it deals ranks, 288 information sets as ours). Then the iterations
our CFR+ takes to an exploitability below ``--target`` (checked every iteration) and the
wall time of that many iterations. Best of ``--repeats`` timings each; run it alone
(2 cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.timing import best_seconds, print_table  # noqa: E402
from vecgames.core.tree import Tree, tree_sizes  # noqa: E402
from vecgames.games.kuhn_poker.tree import public_tree as kuhn_tree  # noqa: E402
from vecgames.games.leduc_poker.tree import public_tree as leduc_tree  # noqa: E402
from vecgames.solve import solve  # noqa: E402

# row name -> (our tree, OpenSpiel game and parameters)
GAMES: dict[str, tuple[Callable[[], Tree], str, dict[str, Any]]] = {
    "Kuhn": (kuhn_tree, "kuhn_poker", {}),
    "Leduc": (leduc_tree, "leduc_poker", {}),
    "Leduc, OpenSpiel suit_isomorphism": (leduc_tree, "leduc_poker",
                                          {"suit_isomorphism": True}),
}
MIN_SECONDS = 0.3  # a timing runs batches until this long, so short iterations add up


def per_iteration(step: Callable[[int], object], batch: int, repeats: int) -> float:
    """Seconds per iteration: ``step(batch)`` repeated until MIN_SECONDS have passed, the
    best of ``repeats`` such timings."""
    best = float("inf")
    for _ in range(repeats):
        done, start = 0, time.perf_counter()
        while True:
            step(batch)
            done += batch
            elapsed = time.perf_counter() - start
            if elapsed >= MIN_SECONDS:
                break
        best = min(best, elapsed / done)
    return best


def ours(tree: Tree, repeats: int, target: float) -> dict[str, Any]:
    solve(tree, 2, check_every=2)  # compiled
    seconds = per_iteration(lambda n: solve(tree, n, check_every=n), 200, repeats)
    reached = solve(tree, 100_000, target=target, check_every=1)
    wall = best_seconds(lambda: solve(tree, reached.iterations,
                                      check_every=reached.iterations), repeats)
    return {"infosets": tree_sizes(tree)["infosets"], "seconds": seconds,
            "iterations": reached.iterations, "exploitability": reached.exploitability,
            "value": reached.value, "wall": wall}


def openspiel(name: str, params: dict[str, Any], repeats: int) -> dict[str, Any] | None:
    try:
        import pyspiel
        from open_spiel.python.policy import TabularPolicy
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    infosets = len(TabularPolicy(game).state_lookup)
    solver = pyspiel.CFRPlusSolver(game)

    def step(n: int) -> None:
        for _ in range(n):
            solver.evaluate_and_update_policy()

    return {"infosets": infosets, "seconds": per_iteration(step, 10, repeats)}


def _cells(row: dict[str, Any]) -> list[str]:
    """A table row: ours, OpenSpiel's (blank without it), the ratio, ours to the target."""
    mine, peer = row["ours"], row["openspiel"]
    theirs = ["", "", ""] if peer is None else [
        f"{peer['infosets']}", f"{1e6 * peer['seconds']:.1f}",
        f"{peer['seconds'] / mine['seconds']:.1f}x"]
    return [row["game"], f"{mine['infosets']} / {theirs[0]}", f"{1e6 * mine['seconds']:.1f}",
            theirs[1], theirs[2], f"{mine['iterations']:,}", f"{mine['wall']:.4f}",
            f"{mine['value']:+.4f}"]


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target", type=float, default=1e-3)
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    solved: dict[Callable[[], Tree], dict[str, Any]] = {}
    for name, (build, game, params) in GAMES.items():
        if build not in solved:
            solved[build] = ours(build(), args.repeats, args.target)
        rows.append({"game": name, "ours": solved[build],
                     "openspiel": openspiel(game, params, args.repeats)})
    if all(r["openspiel"] is None for r in rows):
        print("OpenSpiel is not installed (pip install open_spiel): vecgames only")

    print_table(
        ["CFR+", "infosets ours / OpenSpiel", "ours us/iter", "OpenSpiel us/iter",
         "OpenSpiel / ours", f"ours: iterations to < {args.target:g}", "ours: seconds",
         "value"], [_cells(r) for r in rows])
    return rows


if __name__ == "__main__":
    main()
