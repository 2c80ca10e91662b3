"""Liar's Dice throughput, side by side with OpenSpiel's liars_dice, as a table.

    python benchmarks/bench_liars_dice.py [--rounds 10000000] [--openspiel-games 20000]

OpenSpiel is a benchmark-only dependency (``pip install open_spiel``, or the ``bench`` extra);
without it its rows say so. Its liars_dice has one wild face, no 斋/飞 and at most 2 players,
so the common ground is 2 players x 5 dice with uniform random legal actions: OpenSpiel's
games are played from Python (one call per action and per die) and by its C++ core
(``pyspiel.evaluate_bots`` with two uniform random C++ bots); ours are whole rounds through
``vecgames.simulate`` and env steps at batch 4096 with observations and masks written. Run it
alone on the machine (2 cores). Each rate is the best of three runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.env_stepper import BATCH, EnvStepper  # noqa: E402
from benchmarks.openspiel_peer import random_play  # noqa: E402
from benchmarks.peers import not_installed_row  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402


def openspiel_python_games(num_games: int, seed: int = 0) -> float | None:
    """Seconds for random 2-player, 5-dice OpenSpiel games driven from Python, or None."""
    played = random_play("liars_dice", {"players": 2, "numdice": 5}, num_games, seed=seed)
    return None if played is None else played[0]


def openspiel_cpp_games(num_games: int, seed: int = 0) -> float | None:
    """Seconds for the same games played by OpenSpiel's C++ core with C++ random bots."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 5})
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(2)]
    start = time.perf_counter()
    for g in range(num_games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + g)
    return time.perf_counter() - start


def simulate_rounds(rounds: int, threads: int, summary: bool = True) -> float:
    return best_seconds(lambda: vecgames.simulate("liars_dice", rounds, seed=1,
                                                  summary=summary, num_threads=threads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--openspiel-games", type=int, default=20_000)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()

    rows: list[tuple[str, str, str]] = []
    py = openspiel_python_games(args.openspiel_games // 4)
    cpp = openspiel_cpp_games(args.openspiel_games)
    if py is None or cpp is None:
        rows.append(not_installed_row("OpenSpiel liars_dice", 3, "pip install open_spiel"))
        peer = None
    else:
        peer = args.openspiel_games / cpp
        py_rate = args.openspiel_games / 4 / py
        rows.append(("OpenSpiel, from Python, random 2-player rounds", f"{py_rate:,.0f} /s",
                     f"{py_rate / peer:.2f}x"))
        rows.append(("OpenSpiel C++ core (evaluate_bots), random rounds", f"{peer:,.0f} /s",
                     "1x"))
    rows.append(("the seed project (issue 5's figure, not run here)", "about 2,000 /s",
                 f"{2000 / peer:.3f}x" if peer else ""))

    def ratio(rate: float) -> str:
        return f"{rate / peer:,.0f}x" if peer else ""

    vecgames.simulate("liars_dice", 1000)
    vecgames.simulate("liars_dice", 1000, summary=True)
    steppers = {obs: EnvStepper("liars_dice", observation=obs) for obs in ("full", "seed")}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        for summary in (False, True):
            rounds = args.rounds if summary else args.rounds // 4
            rate = rounds / simulate_rounds(rounds, threads, summary)
            kind = "summary" if summary else "per-round DataFrame"
            rows.append((f"vecgames.simulate, {threads} thread(s), {kind}",
                         f"{rate / 1e6:,.2f} M rounds/s", ratio(rate)))
        for obs, stepper in steppers.items():
            seconds = min(stepper.run(args.steps) for _ in range(3))
            rows.append((f"env.step, batch {BATCH}, {obs} obs + masks, {threads} thread(s)",
                         f"{BATCH * args.steps / seconds / 1e6:,.2f} M steps/s", ""))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    print_table(("workload", "rate", "vs OpenSpiel C++"), rows)


if __name__ == "__main__":
    main()
