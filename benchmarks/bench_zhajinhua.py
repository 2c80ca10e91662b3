"""Zha Jin Hua throughput, side by side with a pure-Python engine, as a table.

    python benchmarks/bench_zhajinhua.py [--games 4000000] [--python-games 2000]

Run it alone on the machine (2 cores): timings of concurrent jobs mean nothing. Each rate is
the best of three runs.
"""

from __future__ import annotations

import argparse
import os
import sys

import numba

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.timing import REPEATS, best_seconds, print_table  # noqa: E402
from benchmarks.zhajinhua_workloads import (  # noqa: E402
    BATCH,
    compile_times,
    pure_python_games,
    zhajinhua_stepper,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4_000_000)
    parser.add_argument("--python-games", type=int, default=2_000)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()

    cold, warm = compile_times()
    rows = [("compile + first call, empty cache", f"{cold:.1f} s", ""),
            ("compile + first call, warm cache", f"{warm:.1f} s", "")]

    py_seconds = pure_python_games(args.python_games)
    py_rate = args.python_games / py_seconds
    rows.append(("pure-Python engine, random 6-player games", f"{py_rate:,.0f} games/s", "1.0x"))

    vecgames.simulate("zhajinhua", 1000)
    vecgames.simulate("zhajinhua", 1000, summary=True)
    stepper = zhajinhua_stepper(BATCH)
    for threads in (1, 2):
        numba.set_num_threads(threads)
        for summary in (False, True):
            rate = args.games / best_seconds(
                lambda s=summary: vecgames.simulate("zhajinhua", args.games, seed=1, summary=s))
            kind = "summary" if summary else "per-game DataFrame"
            rows.append((f"vecgames.simulate, {threads} thread(s), {kind}",
                         f"{rate / 1e6:.2f} M games/s", f"{rate / py_rate:,.0f}x"))
        rate = args.steps * BATCH / min(stepper.run(args.steps) for _ in range(REPEATS))
        rows.append((f"VecEnv.step, batch {BATCH}, obs + masks, {threads} thread(s)",
                     f"{rate / 1e6:.2f} M steps/s", ""))

    print_table(("workload", "rate", "vs Python"), rows)


if __name__ == "__main__":
    main()
