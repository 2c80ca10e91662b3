"""The seed's ``Card`` and ``Agent`` classes and its four sample strategies, for
``TexasPoker`` (the facade) and for porting agents written for the original engine.

Names follow the seed (camelCase included). ``Card.suit`` is 1..4 for spades, hearts, clubs,
diamonds and ``Card.point`` 1..13 with 1 the ace (11 J, 12 Q, 13 K). An agent's
``action(last, lowerbound)`` gets the chips it must add to call (``last``, 0 when it may
check) and the chips it must add for the smallest raise (``lowerbound``, ``None`` when it may
not raise), and returns the chips it adds now (less than ``last`` folds, more raises).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...core.cards import format_card, rank_of, suit_of
from ...core.validation import check_int

SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")  # the seed's suit 1..4
_SEED_SUIT = (3, 4, 2, 1)  # vecgames suit c, d, h, s -> the seed's suit number


class Card:
    """One card in the seed's fields: ``suit`` 1..4 (spades, hearts, clubs, diamonds) and
    ``point`` 1..13 (1 the ace)."""

    __slots__ = ("point", "suit")

    def __init__(self, suit: int, point: int):
        self.suit = check_int(suit, "suit", 1, 4)
        self.point = check_int(point, "point", 1, 13)

    @classmethod
    def from_id(cls, card: int) -> Card:
        """The card of a vecgames card id (``4 * rank + suit``, rank 0 the deuce)."""
        card = check_int(card, "card", 0, 51)
        rank = int(rank_of(card))
        return cls(_SEED_SUIT[int(suit_of(card))], 1 if rank == 12 else rank + 2)

    @property
    def id(self) -> int:
        """The vecgames card id."""
        return 4 * (12 if self.point == 1 else self.point - 2) + _SEED_SUIT.index(self.suit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and (self.suit, self.point) == (other.suit, other.point)

    def __hash__(self) -> int:
        return hash((self.suit, self.point))

    def __repr__(self) -> str:
        return f"Card(suit={self.suit}, point={self.point})"

    def __str__(self) -> str:
        return format_card(self.id)

    def print(self) -> None:
        print(self)


class Agent:
    """The seed's agent: its state (``name``, ``identity``, ``hand``, ``score``, ``final``)
    and betting helpers. Subclasses override ``action``; the base one always calls."""

    def __init__(self, name: str = "agent"):
        self.name = name
        self.identity = ""
        self.hand: list[Card] = []
        self.score = 0
        self.final = 0

    def reset(self) -> None:
        self.identity = ""
        self.hand = []
        self.final = 0

    def setIdentity(self, identity: str) -> None:
        self.identity = identity

    def setHand(self, HandList: Sequence[Card]) -> None:
        self.hand = list(HandList)

    def bet(self, score: int) -> int:
        """Put ``score`` chips in: the seed's agent keeps its own count (the facade resets
        it from the table before every decision)."""
        self.score -= score
        return score

    def action(self, last: int, lowerbound: int | None) -> int:
        return self.call(last)

    def actionAllowCheck(self, last: int, lowerbound: int | None) -> int:
        """``action`` when checking is free: a fold becomes a check."""
        amount = self.action(last, lowerbound)
        if self.final:
            self.final = 0
            return self.check()
        return amount

    def call(self, score: int) -> int:
        return self.bet(score)

    def raising(self, lowerbound: int) -> int:
        return self.bet(lowerbound)

    def fold(self) -> int:
        self.final = 1
        return -1

    def check(self) -> int:
        return 0

    def allin(self) -> int:
        return self.bet(self.score)

    def print(self) -> None:
        hand = " ".join(str(c) for c in self.hand) or "-"
        print(f"{self.name}: identity {self.identity or '-'}, hand {hand}, score "
              f"{self.score}, final {self.final}")


class RandomAgent(Agent):
    """The seed's random strategy: a uniform choice among fold, call and raise (fold only
    when a bet is owed, raise only when allowed); a raise adds a uniform amount between the
    smallest raise and the whole stack."""

    def __init__(self, name: str = "random", seed: int | None = None):
        super().__init__(name)
        self.rng = random.Random(seed)

    def action(self, last: int, lowerbound: int | None) -> int:
        choices = ["call"] + (["fold"] if last > 0 else [])
        if lowerbound is not None:
            choices.append("raise")
        choice = self.rng.choice(choices)
        if choice == "fold":
            return self.fold()
        if choice == "call" or lowerbound is None:
            return self.call(last)
        return self.raising(self.rng.randint(lowerbound, max(lowerbound, self.score)))


class CallAgent(Agent):
    """The seed's call strategy: call with a fixed probability ``p``, else fold (check when
    checking is free)."""

    def __init__(self, name: str = "call", p: float = 0.5, seed: int | None = None):
        super().__init__(name)
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
        self.p = float(p)
        self.rng = random.Random(seed)

    def action(self, last: int, lowerbound: int | None) -> int:
        if last == 0 or self.rng.random() < self.p:
            return self.call(last)
        return self.fold()


class RaiseAgent(Agent):
    """The seed's raise strategy: raise whenever allowed, by an amount drawn uniformly from
    the smallest raise to the whole stack (the seed's uniform fraction of the range, in whole
    chips); call when no raise is allowed."""

    def __init__(self, name: str = "raise", seed: int | None = None):
        super().__init__(name)
        self.rng = random.Random(seed)

    def action(self, last: int, lowerbound: int | None) -> int:
        if lowerbound is None:
            return self.call(last)
        upper = max(lowerbound, self.score)
        return self.raising(self.rng.randint(lowerbound, upper))  # every amount equally likely


class CheckAgent(Agent):
    """The seed's fold/check strategy: fold, but check when checking is free."""

    def __init__(self, name: str = "check"):
        super().__init__(name)

    def action(self, last: int, lowerbound: int | None) -> int:
        return self.fold()

    def actionAllowCheck(self, last: int, lowerbound: int | None) -> int:
        return self.check()


__all__ = ["SUIT_NAMES", "Agent", "CallAgent", "Card", "CheckAgent", "RaiseAgent",
           "RandomAgent"]
