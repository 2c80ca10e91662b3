"""Games/s of ``vecgames.simulate`` in process against the Ray backend on 1 and 2 local workers,
and the Ray overhead per shard.

    python benchmarks/bench_ray.py [--game zhajinhua] [--games 20000000]

Every run plays the same games (``summary=True``) and the sharded frames are checked equal to
the in-process one. Ray rows start a fresh local Ray with that many CPUs (one Numba thread per
worker); their time includes sending the shards and merging, not Ray's start-up. The overhead
row runs many one-game shards: its time per shard is what each shard costs beyond its games.
"""

from __future__ import annotations

import argparse
import time

import pandas as pd
import ray

import vecgames
from benchmarks.timing import best_seconds, print_table
from vecgames.distributed import simulate_ray

OVERHEAD_SHARDS = 400


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="zhajinhua")
    p.add_argument("--games", type=int, default=20_000_000)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args(argv)
    run = dict(seed=1, summary=True)
    reference = vecgames.simulate(a.game, a.games, **run)
    rows = []
    for threads in (1, 2):
        seconds = best_seconds(lambda t=threads: vecgames.simulate(
            a.game, a.games, num_threads=t, **run), a.repeats)
        rows.append((f"in process, {threads} Numba thread(s)", seconds))
    base = rows[-1][1]
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            simulate_ray(a.game, 2 * workers, num_shards=2 * workers, **run)  # start workers

            def sharded(workers=workers):
                df = simulate_ray(a.game, a.games, **run)
                pd.testing.assert_frame_equal(df, reference, check_exact=True)

            rows.append((f"Ray, {workers} local worker(s), {4 * workers} shards",
                         best_seconds(sharded, a.repeats)))
            if workers == 2:
                start = time.perf_counter()
                simulate_ray(a.game, OVERHEAD_SHARDS, num_shards=OVERHEAD_SHARDS, **run)
                per_shard = (time.perf_counter() - start) / OVERHEAD_SHARDS
        finally:
            ray.shutdown()
    print(f"{a.game}: {a.games:,} games (summary), best of {a.repeats}")
    print_table(["run", "seconds", "M games/s", "vs in process (2 threads)"],
                [(name, f"{s:.2f}", f"{a.games / s / 1e6:.2f}", f"{base / s:.2f}x")
                 for name, s in rows])
    print(f"Ray overhead: {1e3 * per_shard:.2f} ms per shard "
          f"({OVERHEAD_SHARDS} one-game shards on 2 workers, wall time / shards)")


if __name__ == "__main__":
    main()
