"""Da Yaoguai throughput, as a table.

    python benchmarks/bench_dayaoguai.py [--games 1000000] [--steps 200]

Random legal play, 4 players: whole games through ``vecgames.simulate`` (decisions/s, games/s
and the mean game length; most random games reach ``max_steps`` = 1000) and env steps at batch
4096 with observations and masks written. No public toolkit has this game, so there is no peer
to run beside it. Run it alone on the machine (2 cores). Each rate is the best of three runs.
"""

from __future__ import annotations

import argparse
import os
import sys

import numba

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.env_stepper import BATCH, EnvStepper  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402

RANDOM_PLAY = {"policy": "random", "max_steps": 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    rows = []
    stepper = EnvStepper("dayaoguai", BATCH)
    # random play under the former limit: the figures stay comparable (simulate's own
    # defaults are now the shed player and max_steps 5000)
    df = vecgames.simulate("dayaoguai", args.games, seed=1, summary=True, **RANDOM_PLAY)
    length = df.attrs["mean_steps"]
    truncated = df.attrs["truncated"] / args.games
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        seconds = best_seconds(lambda threads=threads: vecgames.simulate(
            "dayaoguai", args.games, seed=1, summary=True, num_threads=threads,
            **RANDOM_PLAY))
        rows.append((f"vecgames.simulate, random 4-player games, {threads} thread(s)",
                     f"{length * args.games / seconds / 1e6:,.1f} M decisions/s, "
                     f"{args.games / seconds:,.0f} games/s"))
        seconds = min(stepper.run(args.steps) for _ in range(3))
        rows.append((f"env.step, batch {BATCH}, obs + masks, {threads} thread(s)",
                     f"{BATCH * args.steps / seconds / 1e6:,.2f} M steps/s"))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    rows.append(("mean game length (random play)", f"{length:,.1f} decisions, "
                 f"{100 * truncated:.1f}% truncated at max_steps"))
    print_table(("workload", "rate"), rows)


if __name__ == "__main__":
    main()
