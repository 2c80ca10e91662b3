"""Leduc Hold'em as a public tree (``vecgames.core.tree``) for the exact solvers of
``vecgames.solve``: OpenSpiel's ``leduc_poker`` with its default parameters.

6 cards, 3 ranks (J < Q < K) x 2 suits; each player antes 1 and gets one private card; two
betting rounds, player 0 first in each, raises of 2 (first round) and 4 (second), at most 2
raises a round, fold only when facing a raise; a public card between the rounds; at the
showdown a private card pairing the public one wins, else the higher rank, equal ranks split.
Actions (OpenSpiel's ids): 0 fold, 1 call/check, 2 raise.

Suits never matter for play, so the private types are the 3 ranks: the 6 x 6 deal folds
into rank weights with card removal (``deal_matrix``), and the public card is a chance node
whose outcomes are its rank (the edge's action id: the rank, 0 J, 1 Q, 2 K), drawn with
probability ``board_probs()[b, r0, r1]`` (the 4 unseen cards); a terminal below it holds
P(r0, r1) P(b | r0, r1) x payoff. 96 decision nodes (288 information sets), 15 chance
children.
"""

from __future__ import annotations

import numpy as np

from ...core.tree import CHANCE, Tree, from_nested

RANKS = ("J", "Q", "K")
SUITS = 2
FOLD, CALL, RAISE = 0, 1, 2
ANTE = 1
RAISE_SIZES = (2, 4)  # per round
MAX_RAISES = 2  # per round
# the payoff matrices: [0] the deal (a fold in the first round); [1 + b] the deal x the
# board's probability (a fold below board b); [4 + b] that x who wins the showdown
DEAL, BOARD_FOLD, BOARD_SHOWDOWN = 0, 1, 4


def deal_matrix() -> np.ndarray:
    """``[3, 3]`` P(rank of player 0, rank of player 1): 2 of 6 cards, 1 of the other 5."""
    same = np.eye(3, dtype=bool)
    return np.where(same, (2 / 6) * (1 / 5), (2 / 6) * (2 / 5))


def board_probs() -> np.ndarray:
    """``[3, 3, 3]`` P(board rank b | ranks r0, r1): of the 4 cards left, those of rank b."""
    r = np.arange(3)
    left = 2 - (r[:, None, None] == r[None, :, None]) - (r[:, None, None] == r[None, None, :])
    return left / 4.0


def _showdown(board: int) -> np.ndarray:
    """``[3, 3]`` +1 where player 0 wins with board ``board``, -1 where it loses, 0 a split."""
    strength = np.arange(3) + 10 * (np.arange(3) == board)  # a pair beats any high card
    return np.sign(np.subtract.outer(strength, strength)).astype(np.float64)


def _matrices() -> np.ndarray:
    deal = deal_matrix()
    board = deal[None] * board_probs()
    showdown = board * np.stack([_showdown(b) for b in range(3)])
    return np.concatenate([deal[None], board, showdown])


def _round(rnd: int, board: int, bets: tuple[int, int], player: int, raises: int,
           opening: bool) -> dict:
    """The decision of ``player`` in round ``rnd`` (0, 1) with ``bets`` in the pot so far;
    children in OpenSpiel's action order: fold (facing a raise), call/check, raise."""
    other = 1 - player
    children: list[tuple[int, dict]] = []
    if bets[other] > bets[player]:  # folding gives the pot to the other player
        won = -bets[0] if player == 0 else bets[1]  # player 0's
        fold = BOARD_FOLD + board if rnd == 1 else DEAL
        children.append((FOLD, {"payoff": fold, "scale": float(won)}))
    called = (bets[other], bets[other])
    if opening:  # a check opening the round: the other player acts
        after: dict = _round(rnd, board, called, other, raises, False)
    elif rnd == 0:  # the first round is closed: the public card
        after = {"player": CHANCE, "probs": [0, 1, 2],
                 "children": [(b, _round(1, b, called, 0, 0, True)) for b in range(3)]}
    else:
        after = {"payoff": BOARD_SHOWDOWN + board, "scale": float(called[0])}
    children.append((CALL, after))
    if raises < MAX_RAISES:
        raised = list(called)
        raised[player] += RAISE_SIZES[rnd]
        children.append((RAISE, _round(rnd, board, (raised[0], raised[1]), other, raises + 1,
                                       False)))
    return {"player": player, "children": children}


def public_tree() -> Tree:
    """The whole game; ``matrices[0]`` is the deal (``deal_matrix()``), ``chance_probs`` is
    ``board_probs()``."""
    return from_nested(_round(0, -1, (ANTE, ANTE), 0, 0, True), _matrices(), board_probs())
