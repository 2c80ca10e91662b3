"""Exact equilibria of small two-player Liar's Dice variants (vecgames.solve), as tables.

    python benchmarks/bench_liars_dice_solver.py [--target 1e-3] [--variants NAME ...]
        [--players random,heuristic,odds,PATH] [--frontier] [--json out.json]
    python benchmarks/bench_liars_dice_solver.py --quick      # tiny variants (a smoke test)

For each variant: the public tree's size (decision nodes = bid histories, terminals,
information sets), CFR+ run until the exploitability (NashConv / 2, exact best responses)
is below ``--target`` (checked every ``--check-every`` iterations), the iterations, wall
time and game value (the opener's, seat 0 unless the name says otherwise), and the time of
one exact best response. Then every player of ``--players`` on the same tree, read as
``vecgames.exploitability`` reads it: its exploitability, what a best response gains against
it in each seat over the game value, and its mean payoff against the equilibrium over both
seats. A player that cannot play a variant (a checkpoint trained on other dice, ``odds``
with unequal dice) is left out of that variant's rows, with the reason printed.
``--frontier`` counts the 斋/飞 trees that do not fit. Wall times depend on the machine: run
it alone (2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.timing import print_table  # noqa: E402
from vecgames.games.liars_dice.solver_judge import strategy as player_strategy  # noqa: E402
from vecgames.games.liars_dice.tree import build_tree, make_variant, tree_size  # noqa: E402
from vecgames.policies.protocol import resolve_player  # noqa: E402
from vecgames.solve import (  # noqa: E402
    best_response_value,
    exploitability,
    game_value,
    solve,
    tree_sizes,
)
from vecgames.solve.cfr import profile  # noqa: E402

# name -> make_variant options; seat 0 opens unless opener=1
VARIANTS: dict[str, dict[str, Any]] = {
    "1v1 fei": {"dice": 1},
    "2v1 fei": {"dice": (2, 1)},
    "1v2 fei": {"dice": (1, 2)},
    "2v2 fei, first>2": {"dice": 2, "min_first_count": 3},  # the env's default first bid
    "1v1 zhai/fei, 6 steps": {"dice": 1, "variant": "zhai_fei", "max_round_steps": 6},
}
# solved on request (--variants): the largest 斋/飞 run (documented with --method dcfr)
LARGER: dict[str, dict[str, Any]] = {
    "1v1 zhai/fei, 7 steps": {"dice": 1, "variant": "zhai_fei", "max_round_steps": 7},
}
QUICK: dict[str, dict[str, Any]] = {
    "1v1 fei, first>1": {"dice": 1, "min_first_count": 2},
    "1v1 zhai/fei, 2 steps": {"dice": 1, "variant": "zhai_fei", "max_round_steps": 2},
}
# counted only (--frontier): the 斋/飞 trees past the solved one
FRONTIER: dict[str, dict[str, Any]] = {
    "1v1 zhai/fei, 8 steps": {"dice": 1, "variant": "zhai_fei", "max_round_steps": 8},
    "1v1 zhai/fei, 9 steps": {"dice": 1, "variant": "zhai_fei", "max_round_steps": 9},
    "2v1 zhai/fei, 5 steps": {"dice": (2, 1), "variant": "zhai_fei", "max_round_steps": 5},
    "1v1 zhai/fei, first>=2": {"dice": 1, "variant": "zhai_fei", "min_first_count": 2},
}
# uncapped, first count >= 1: 18,408,863,744 bid histories, a count of minutes (docs)


def players(tree: Any, v: Any, names: list[str]) -> dict[str, np.ndarray]:
    out = {}
    for name in names:
        try:
            out[os.path.basename(name)] = player_strategy(resolve_player("liars_dice", name),
                                                          v, tree)[0]
        except ValueError as e:  # trained on other rules: not this variant's table
            print(f"  {name}: {e}")
    return out


def run_variant(name: str, options: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    v = make_variant(**options)
    start = time.perf_counter()
    tree = build_tree(v)
    built = time.perf_counter() - start
    sol = solve(tree, args.max_iterations, target=args.target, check_every=args.check_every,
                method=args.method)
    start = time.perf_counter()
    best_response_value(tree, sol.strategy, 0)
    br_s = time.perf_counter() - start
    row: dict[str, Any] = {"variant": name, "label": v.label(), **tree_sizes(tree),
                           "build_s": built, "iterations": sol.iterations,
                           "solve_s": sol.seconds, "exploitability": sol.exploitability,
                           "value": sol.value, "br_s": br_s, "players": []}
    for player, s in players(tree, v, args.players).items():
        gains = [best_response_value(tree, s, 0) - sol.value,
                 best_response_value(tree, s, 1) + sol.value]
        vs_eq = 0.5 * (game_value(tree, profile(tree, s, sol.strategy)) - sol.value
                       - game_value(tree, profile(tree, sol.strategy, s)) + sol.value)
        row["players"].append({"player": player, "exploitability": exploitability(tree, s),
                               "br_gain_seat0": gains[0], "br_gain_seat1": gains[1],
                               "vs_equilibrium": vs_eq})
    return row


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--max-iterations", type=int, default=20_000)
    parser.add_argument("--check-every", type=int, default=25)
    parser.add_argument("--method", choices=("cfr+", "dcfr"), default="cfr+")
    parser.add_argument("--variants", nargs="+", choices=sorted({**VARIANTS, **LARGER}),
                        default=None, help=f"default: {', '.join(VARIANTS)}")
    parser.add_argument("--players", type=lambda text: text.split(","),
                        default=["random", "heuristic", "odds"],
                        help="comma list: built-in names, zoo names, checkpoint paths")
    parser.add_argument("--checkpoint", default=None, help="a checkpoint, added to --players")
    parser.add_argument("--frontier", action="store_true", help="count the trees past it")
    parser.add_argument("--quick", action="store_true", help="tiny variants only")
    parser.add_argument("--json", default=None, help="write the rows here too")
    args = parser.parse_args(argv)
    if args.checkpoint:
        args.players = [*args.players, args.checkpoint]
    known = {**VARIANTS, **LARGER}
    chosen = QUICK if args.quick else {k: known[k] for k in args.variants or VARIANTS}
    print(f"numba threads: {numba.get_num_threads()}, target {args.target}, {args.method}")
    rows = []
    for name, options in chosen.items():
        rows.append(run_variant(name, options, args))
        r = rows[-1]
        print(f"{name}: {r['iterations']} iterations, {r['solve_s']:.1f} s, "
              f"exploitability {r['exploitability']:.2e}, value {r['value']:+.5f}", flush=True)
    print()
    print_table(["variant", "bid histories", "terminals", "infosets", "iterations", "seconds",
                 "exploitability", "value (opener)", "best response ms"],
                [[r["variant"], f"{r['decision_nodes']:,}", f"{r['terminals']:,}",
                  f"{r['infosets']:,}", str(r["iterations"]), f"{r['solve_s']:.1f}",
                  f"{r['exploitability']:.2e}", f"{r['value']:+.5f}",
                  f"{1000 * r['br_s']:.1f}"] for r in rows])
    print()
    print_table(["variant", "player", "exploitability", "BR gain as seat 0",
                 "BR gain as seat 1", "payoff vs equilibrium"],
                [[r["variant"], p["player"], f"{p['exploitability']:.4f}",
                  f"{p['br_gain_seat0']:.4f}", f"{p['br_gain_seat1']:.4f}",
                  f"{p['vs_equilibrium']:+.4f}"] for r in rows for p in r["players"]])
    if args.frontier:
        print()
        sizes = []
        for name, options in FRONTIER.items():
            start = time.perf_counter()
            decisions, terminals = tree_size(make_variant(**options))
            sizes.append([name, f"{decisions:,}", f"{terminals:,}",
                          f"{time.perf_counter() - start:.0f}"])
            print(f"  counted {name}", flush=True)
        print_table(["variant (not solved)", "bid histories", "terminals", "count s"], sizes)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
