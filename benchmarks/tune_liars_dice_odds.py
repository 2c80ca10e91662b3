"""Coordinate search over the Liar's Dice ``odds`` player's parameters (how ``PARAMS`` was set).

    python benchmarks/tune_liars_dice_odds.py [--deals 30000] [--seed 1] [--sweeps 3]
        [--start '[2.0, 0.5, ...]']

Heads-up, 5 dice each: ``odds`` with a candidate parameter vector plays ``heuristic`` on
``--deals`` deals, each twice with the seats swapped (the arena's duplicate deals), inside one
Numba kernel; the score is its mean points per game. One parameter at a time takes each value
of its grid, and a change is kept when it raises the score by more than 0.002; sweeps repeat
until none is kept. Same seed, same deals for every candidate, so differences are paired.
Strength only: no timing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from numba import prange  # noqa: E402

import vecgames.games.liars_dice  # noqa: E402, F401  # before its policies
from vecgames.core.jit import jit  # noqa: E402
from vecgames.core.rng import keyed_start, seed_key  # noqa: E402
from vecgames.games.liars_dice.players import DEFAULT_THRESHOLD, heuristic  # noqa: E402
from vecgames.games.liars_dice.players_odds import PARAM_NAMES, PARAMS, decide  # noqa: E402
from vecgames.games.liars_dice.rules import (  # noqa: E402
    LOSER,
    PLAYER,
    ROUND_END,
    make_rules,
    new_state,
    play_legal,
    reset_match,
)

GRID = {
    "beta": [0.5, 1.0, 1.5, 2.0, 3.0, 4.0],
    "theta_bid": [0.1, 0.25, 0.35, 0.4, 0.5, 0.6],
    "kappa_bid": [1.0, 3.0, 6.0, 10.0, 30.0],
    "theta_raise": [0.2, 0.3, 0.4, 0.5],
    "kappa_raise": [3.0, 10.0, 30.0, 100.0],
    "theta_call": [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65],
    "kappa_call": [1.0, 2.0, 3.0, 4.0, 6.0, 12.0, 30.0],
    "continue": [0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9],
    "floor": [0.0, 0.01, 0.02, 0.05, 0.1],
}


@jit
def _deal(r, prm, key, g, s):
    """Deal g played twice (odds at seat 0, then at seat 1): odds' points summed."""
    points = 0
    for seat in range(2):
        s.rng[g] = keyed_start(key, g)
        reset_match(s, g, r)
        t = s.table[g]
        while True:
            if t[PLAYER] == seat:
                a = decide(s, g, r, prm)
            else:
                a = heuristic(s, g, r, DEFAULT_THRESHOLD)
            if play_legal(s, g, a, r) & ROUND_END:
                break
        points += 1 if t[LOSER] != seat else -1
    return points


@jit(parallel=True)
def _deals(r, prm, seed, out, s):
    key = seed_key(seed)
    for g in prange(out.shape[0]):
        out[g] = _deal(r, prm, key, g, s)


def score(params: np.ndarray, deals: int, seed: int) -> tuple[float, float]:
    """(mean points per game of odds(params) against heuristic, 95% CI half-width)."""
    out = np.zeros(deals, np.int64)
    _deals(make_rules(), np.asarray(params, np.float64), np.uint64(seed), out, new_state(deals))
    per_game = out / 2.0
    return float(per_game.mean()), float(1.96 * per_game.std() / np.sqrt(deals))


def search(start: np.ndarray, deals: int, seed: int, sweeps: int) -> tuple[np.ndarray, float]:
    params = np.array(start, np.float64)
    best, half = score(params, deals, seed)
    print(f"start {params.tolist()}: {best:+.4f} (+-{half:.4f})", flush=True)
    for _ in range(sweeps):
        kept = False
        for name, values in GRID.items():
            k = PARAM_NAMES.index(name)
            for value in values:
                if value == params[k]:
                    continue
                trial = params.copy()
                trial[k] = value
                mean, _ = score(trial, deals, seed)
                print(f"  {name} = {value}: {mean:+.4f}", flush=True)
                if mean > best + 0.002:
                    best, params, kept = mean, trial, True
                    print(f"kept {params.tolist()}: {best:+.4f}", flush=True)
        if not kept:
            break
    return params, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sweeps", type=int, default=3)
    parser.add_argument("--start", default=None, help="a JSON list of the 9 parameters "
                        "(default: the shipped PARAMS)")
    args = parser.parse_args()
    start = PARAMS if args.start is None else np.array(json.loads(args.start), np.float64)
    if start.shape != PARAMS.shape:
        raise SystemExit(f"--start needs {PARAMS.size} numbers ({', '.join(PARAM_NAMES)})")
    params, best = search(start, args.deals, args.seed, args.sweeps)
    print(f"final {params.tolist()}: {best:+.4f}")


if __name__ == "__main__":
    main()
