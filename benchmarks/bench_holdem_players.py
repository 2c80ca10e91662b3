"""Decision rates of Hold'em's built-in players (``equity``, ``strength``, ``random``).

    python benchmarks/bench_holdem_players.py [--envs 4096] [--steps 12] [--threads N]

Decisions: the player's kernel (``rows_actions_kernel``, what ``simulate`` and ``act_env`` run)
over every env of a six-player batch, at the states uniform random play reaches after 0 ..
``steps`` - 1 steps (so preflop and postflop decisions mix as they come); the random streams
are restored before every timed call. Hands: ``vecgames.simulate`` heads-up and six-handed with
the player at every seat. The best of three runs after a warm-up call that compiles. Run it
alone on the machine (timings are meaningless on a shared one).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402
from vecgames.games.holdem import players as holdem  # noqa: E402
from vecgames.games.holdem.rules import STREET  # noqa: E402

PLAYERS = ("equity", "strength", "random")


def decision_states(envs: int, steps: int, seed: int = 0) -> list[tuple[Any, Any]]:
    """Snapshots (state copy, rules) of a six-player batch after 0 .. steps - 1 random steps."""
    env: Any = vecgames.make("holdem", num_envs=envs, num_players=6, seed=seed)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        s = env.state
        out.append((type(s)(*(a.copy() for a in s)), env.rules))
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        _, _, _, _, info = env.step(actions)
    return out


def decision_rate(name: str, states: list[tuple[Any, Any]]) -> tuple[float, float]:
    """(decisions/s, share of them postflop) of player ``name`` over ``states``."""
    code = holdem.POLICIES.index(name)
    rows = np.arange(states[0][0].table.shape[0], dtype=np.int64)
    out = np.empty((rows.size, 2), np.int64)
    saved = [s.rng.copy() for s, _ in states]

    def run() -> None:
        for (s, rules), rng in zip(states, saved, strict=True):
            s.rng[:] = rng
            holdem.rows_actions_kernel(s, rules, code, rows, out)

    run()  # compiles
    seconds = best_seconds(run)
    postflop = np.mean([(s.table[:, STREET] > 0).mean() for s, _ in states])
    return rows.size * len(states) / seconds, float(postflop)


def hand_rate(name: str, seats: int, hands: int, threads: int | None) -> float:
    """Hands/s of ``simulate`` with ``name`` at every seat."""
    def run() -> Any:
        return vecgames.simulate("holdem", hands, policy=name, seed=1, summary=True,
                                 num_players=seats, num_threads=threads)

    run()
    return hands / best_seconds(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=None, help="Numba threads (all)")
    args = parser.parse_args()
    if args.threads is not None:
        numba.set_num_threads(args.threads)
    states = decision_states(args.envs, args.steps)
    rows = []
    for name in PLAYERS:
        decisions, postflop = decision_rate(name, states)
        rows.append([name, f"{decisions:,.0f}", f"{postflop:.0%}",
                     f"{hand_rate(name, 2, args.hands, args.threads):,.0f}",
                     f"{hand_rate(name, 6, args.hands, args.threads):,.0f}"])
    print_table(["player", "decisions/s (6 seats)", "postflop", "hands/s heads-up",
                 "hands/s 6 seats"], rows)


if __name__ == "__main__":
    main()
