"""Strength of Hold'em players against a tight-aggressive bot built outside the project's
players, on another evaluator (eval7): a check that a player is not tuned to ``equity`` only.

    python benchmarks/holdem_tag_check.py [--players zoo:holdem-2p,equity] [--seats 2]
        [--deals 4000] [--seed 11]

Each player meets the bot in ``vecgames.arena`` (duplicate deals, every seat assignment);
printed: the player's mean against the bot in bb/100 with its 95% CI. Not timed: a seed gives
the same games again (the bot's Monte Carlo is eval7's generator, seeded from ``--seed``).

The bot sees only its own cards, the board and the betting (``act_env`` reads nothing else):
its hand's equity against one random hand (eval7's Monte Carlo, ``SAMPLES`` deals), raised to
the power of the opponents still in. Preflop it opens with the top of its range (3 big
blinds), 3-bets the strongest hands (3x the bet) and calls a raise only with good ones;
postflop it bets two thirds of the pot with equity over ``BET_E``, raises over ``RAISE_E``,
calls when its equity beats the pot odds by ``CALL_MARGIN`` and otherwise checks or folds.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from vecgames.core.cards import format_card  # noqa: E402
from vecgames.games.holdem.rules import CUR_BET, FOLDED, PAID, PLAYER, STREET  # noqa: E402

SAMPLES = 400
OPEN_E = {2: 0.50, 3: 0.55}  # preflop equity vs a random hand to open (heads-up; else 6-max)
OPEN_E_FULL = 0.58
THREE_BET_E = 0.68  # ... to re-raise a raise (TT+, AK-ish)
CALL_RAISE_E = 0.60  # ... to call a raise
BET_E, RAISE_E, CALL_MARGIN = 0.58, 0.80, 0.08
BOARD_SEEN = (0, 3, 4, 5)  # board cards visible on each street
FOLD, CALL, RAISE = 0, 1, 2


def _random_range() -> Any:
    import eval7

    ranks = "AKQJT98765432"
    classes = [r + r for r in ranks]
    classes += [a + b + s for i, a in enumerate(ranks) for b in ranks[i + 1:] for s in "so"]
    return eval7.HandRange(",".join(classes))


class TightAggressive:
    """The tight-aggressive bot: exact (kind, amount) actions from ``act_env``."""

    name = "tag (eval7)"

    def __init__(self, seed: int = 0):
        import eval7

        self.eval7 = eval7
        self.any_hand = _random_range()
        eval7.xorshift_rand.seed(seed)  # eval7's Monte Carlo generator: the same games again

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        raise TypeError("the tag bot plays through act_env (it reads its cards from the env)")

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        return np.array([self._decide(env, int(i)) for i in rows], np.int64).reshape(-1, 2)

    def _decide(self, env: Any, i: int) -> tuple[int, int]:
        t, d = env.state.table[i], env.state.deck[i]
        n = env.rules.num_players
        p = int(t[PLAYER])
        hole = [self.eval7.Card(format_card(int(c))) for c in d[2 * p:2 * p + 2]]
        board = [self.eval7.Card(format_card(int(c)))
                 for c in d[2 * n:2 * n + BOARD_SEEN[int(t[STREET])]]]
        opponents = sum(1 for q in range(n) if q != p and not (int(t[FOLDED]) >> q) & 1)
        e1 = self.eval7.py_hand_vs_range_monte_carlo(hole, self.any_hand, board, SAMPLES)
        to_call, lo, hi = env.raise_bounds(i)
        pot = int(sum(int(t[PAID + q]) for q in range(n)))
        bet = int(t[CUR_BET])
        bb = env.rules.big_blind
        can_raise = lo <= hi

        def raise_to(amount: float) -> tuple[int, int]:
            return RAISE, int(min(max(int(amount), lo), hi))

        if int(t[STREET]) == 0:
            if to_call <= bb - env.rules.small_blind or bet <= bb:  # no raise yet
                if can_raise and e1 >= OPEN_E.get(n, OPEN_E_FULL):
                    return raise_to(3 * bb)
            elif can_raise and e1 >= THREE_BET_E:
                return raise_to(3 * bet)
            elif e1 >= CALL_RAISE_E:
                return CALL, 0
            return (CALL, 0) if to_call == 0 else (FOLD, 0)
        e = e1 ** opponents
        if to_call == 0:
            if can_raise and e >= BET_E:
                return raise_to(bet + 2 * pot / 3)
            return CALL, 0
        if can_raise and e >= RAISE_E:
            return raise_to(bet + pot + to_call)
        if e >= to_call / (pot + to_call) + CALL_MARGIN:
            return CALL, 0
        return FOLD, 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="equity", help="comma list of players to check")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    for name in args.players.split(","):
        result = vecgames.arena("holdem", [name, TightAggressive(args.seed)], args.deals,
                                seed=args.seed, num_players=args.seats, progress=False)
        row = result.pairwise.iloc[0]
        print(f"{name} vs tag at {args.seats} seats: {row['mean']:+.1f} "
              f"[{row['ci_low']:+.1f}, {row['ci_high']:+.1f}] {row['unit']} over "
              f"{int(row['games']):,} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
