"""No-limit Hold'em throughput, side by side with pokerkit, as a table.

    python benchmarks/bench_holdem.py [--games 2000000] [--pokerkit-hands 300] [--steps 200]

pokerkit comes with the ``dev`` extra (``pip install -e ".[dev]"``); without it its row says so.

RLCard is measured when it is installed (``pip install rlcard``; not a dependency).

Random six-player hands (the seed's random player: a uniform legal kind, a uniform raise
amount) through ``vecgames.simulate``, env steps at batch 4096 with uniform legal discrete
actions, and pokerkit playing the same kind of random hands one Python call per action. Run it
alone on the machine (2 cores). Each rate is the best of three runs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import warnings

import numba

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.env_stepper import BATCH, EnvStepper  # noqa: E402
from benchmarks.peers import installed, not_installed_row  # noqa: E402
from benchmarks.timing import REPEATS, best_seconds, print_table  # noqa: E402


def pokerkit_hands(num_hands: int, seed: int = 0) -> float:
    """Seconds for random six-player pokerkit hands (same random player), cards dealt by it."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = tuple(a for a in Automation)  # everything automatic except the decisions
    rnd = random.Random(seed)
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    for _ in range(num_hands):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (100,) * 6, 6,
                                                mode=Mode.CASH_GAME)
        while state.status:
            kinds = ["call"]
            if state.checking_or_calling_amount:
                kinds.append("fold")
            if state.can_complete_bet_or_raise_to():
                kinds.append("raise")
            kind = rnd.choice(kinds)
            if kind == "call":
                state.check_or_call()
            elif kind == "fold":
                state.fold()
            else:
                state.complete_bet_or_raise_to(rnd.randint(
                    state.min_completion_betting_or_raising_to_amount,
                    state.max_completion_betting_or_raising_to_amount))
    return time.perf_counter() - start


def rlcard_hands(num_hands: int, seed: int = 0) -> float | None:
    """Seconds for random six-player hands of RLCard's no-limit Hold'em (uniform over its
    legal abstract actions), or None when RLCard is not installed."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("no-limit-holdem", config={"game_num_players": 6, "seed": seed})
    rnd = random.Random(seed)
    start = time.perf_counter()
    for _ in range(num_hands):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rnd.choice(list(state["legal_actions"])))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--pokerkit-hands", type=int, default=300)
    parser.add_argument("--rlcard-hands", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()

    rows: list[tuple[str, ...]] = []
    pk_rate: float | None = None  # None: pokerkit is not installed, no "vs pokerkit" ratios
    if installed("pokerkit"):
        pk_rate = args.pokerkit_hands / pokerkit_hands(args.pokerkit_hands)
        rows.append(("pokerkit, random 6-player hands, one call per action",
                     f"{pk_rate:,.0f} hands/s", "1x"))
    else:
        rows.append(not_installed_row("pokerkit", 3))

    def vs_pokerkit(rate: float, fmt: str) -> str:
        return "" if pk_rate is None else format(rate / pk_rate, fmt) + "x"
    rl_seconds = rlcard_hands(args.rlcard_hands)
    if rl_seconds is None:
        rows.append(not_installed_row("RLCard no-limit Hold'em", 3, "pip install rlcard"))
    else:
        rl_rate = args.rlcard_hands / rl_seconds
        rows.append(("RLCard no-limit Hold'em, random 6-player hands", f"{rl_rate:,.0f} hands/s",
                     vs_pokerkit(rl_rate, ",.1f")))
    rows.append(("the original pure-Python engine (issue 4's figure, not run here)",
                 "about 18,000 games/s", vs_pokerkit(18_000, ",.0f")))
    vecgames.simulate("holdem", 1000)
    vecgames.simulate("holdem", 1000, summary=True)
    stepper = EnvStepper("holdem", BATCH, num_players=6)
    for threads in (1, 2):
        numba.set_num_threads(threads)
        for summary in (False, True):
            seconds = best_seconds(lambda summary=summary: vecgames.simulate(
                "holdem", args.games, seed=1, summary=summary))
            rate = args.games / seconds
            kind = "summary" if summary else "per-hand rows"
            rows.append((f"vecgames.simulate ({kind}), random 6-player hands, {threads} "
                         f"thread(s)", f"{rate / 1e6:.2f} M hands/s", vs_pokerkit(rate, ",.0f")))
        seconds = min(stepper.run(args.steps) for _ in range(REPEATS))
        rate = args.steps * BATCH / seconds
        rows.append((f"HoldemEnv.step, batch {BATCH}, obs + masks, {threads} thread(s)",
                     f"{rate / 1e6:.2f} M steps/s", ""))
    print_table(("workload", "rate", "vs pokerkit"), rows)


if __name__ == "__main__":
    main()
