"""Strength of the Hold'em ``equity`` player under other parameters (the tuning harness).

    python benchmarks/tune_holdem_equity.py [--set CREDIBLE=1 --set BET_W=1.3 ...]
        [--seats 2] [--deals 4000] [--seed 7] [--opponents random,call,strength]

The player (``holdem_equity.decide`` with ``PARAMS`` changed by ``--set NAME=VALUE``, names as
the module's constants) sits at every seat of the same deal in turn, the other seats all
played by one opponent; its mean payoff in bb/100 over the deals, with a 95% CI over deals.
Heads-up this is the arena's duplicate pairwise mean of the player against the opponent.
Not timed: any machine gives the same numbers.
"""

from __future__ import annotations

import argparse
import os
import sys

import numba
import numpy as np
from numba import prange

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from vecgames.core.rng import seed_stream  # noqa: E402
from vecgames.games.holdem import players as holdem  # noqa: E402
from vecgames.games.holdem import players_equity as E  # noqa: E402
from vecgames.games.holdem.rules import (  # noqa: E402
    HAND_OVER,
    PAID,
    PAYOUT,
    PLAYER,
    STREET,
    apply_action,
    deal_hand,
    make_rules,
    new_state,
)


@numba.njit
def _play(s, slot, r, hero, opponent, prm, seed, game):
    seed_stream(s.rng, slot, seed, game)
    deal_hand(s, slot, r, game)
    t = s.table[slot]
    while t[STREET] != HAND_OVER:
        if t[PLAYER] == hero:
            kind, amount = E.decide(s, slot, r, prm)
        else:
            kind, amount = holdem.policy_action(opponent, s, slot, r)
        apply_action(s, slot, kind, amount, r)
    return t[PAYOUT + hero] - t[PAID + hero]


@numba.njit(parallel=True)
def _run(s, r, opponent, prm, seed, out):
    n = r.num_players
    for g in prange(out.shape[0]):
        total = 0.0
        for hero in range(n):
            total += _play(s, g, r, hero, opponent, prm, seed, g)
        out[g] = total / n


def evaluate(prm: np.ndarray, opponent: str, seats: int, deals: int,
             seed: int) -> tuple[float, float]:
    """(mean bb/100, 95% CI half-width) of the player with ``prm`` against ``opponent``."""
    r = make_rules(num_players=seats)
    out = np.zeros(deals)
    _run(new_state(deals, [100] * seats), r, holdem.POLICIES.index(opponent), prm, seed, out)
    bb = out * 100 / r.big_blind
    return float(bb.mean()), float(1.96 * bb.std() / np.sqrt(deals))


def params(settings: list[str]) -> np.ndarray:
    """``PARAMS`` with ``NAME=VALUE`` settings applied."""
    prm = E.PARAMS.copy()
    for item in settings:
        name, _, value = item.partition("=")
        index = getattr(E, f"P_{name}", None)
        if not isinstance(index, int) or not value:
            raise ValueError(f"--set takes NAME=VALUE with NAME one of the player's "
                             f"constants (e.g. CREDIBLE=1), got {item!r}")
        prm[index] = float(value)
    return prm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--opponents", default="random,call,strength")
    args = parser.parse_args()
    prm = params(args.set)
    for opponent in args.opponents.split(","):
        mean, ci = evaluate(prm, opponent, args.seats, args.deals, args.seed)
        print(f"{opponent}: {mean:+.1f} bb/100 +- {ci:.1f} ({args.deals} deals, "
              f"{args.seats} seats, seed {args.seed})")


if __name__ == "__main__":
    main()
