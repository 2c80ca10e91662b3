"""A single table in the seed's vocabulary, so agents written for the original engine move
over: ``TexasPoker(agents).game()`` plays one hand and returns every player's chips after it
(the seed's score list).

An agent needs ``action(last, lowerbound) -> int``: ``last`` is the chips it must add to call
(0 when it may check), ``lowerbound`` the chips it must add for the smallest raise (``None``
when it may not raise). It returns the chips it adds now: less than ``last`` folds (or checks
when ``last`` is 0), exactly ``last`` calls, more raises. A raise smaller than the minimum
becomes the minimum; more than its stack is all-in.

The table drives the rest of the seed's agent interface where the agent has it: ``reset()``
at every hand, ``setIdentity`` with its seat role, ``setHand`` with its two ``Card`` objects,
``actionAllowCheck`` instead of ``action`` when checking is free, and the attributes
``score`` (chips behind, set before every decision and after the hand) and ``final`` (1 once
it folded). ``seed_agents`` has the seed's ``Agent``, ``Card`` and sample strategies.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from ...core.validation import check_bool
from ...poker.seven_card import ROYAL_FLUSH, category_of
from .env import HoldemEnv
from .rules import (
    BET,
    BUTTON,
    CALL,
    CUR_BET,
    END_STREET,
    FOLD,
    FOLDED,
    HAND_OVER,
    OK,
    PAID,
    PLAYER,
    RAISE,
    SHOWDOWN,
    STACK,
    STREET,
    STREET_NAMES,
    STRENGTH,
    raise_bounds,
    reset_one,
    step_one,
)
from .seed_agents import Card

BOARD_SHOWN = (0, 3, 4, 5, 5)  # board cards seen on each street (and once the hand is over)


def identities(num_players: int) -> list[str]:
    """The seed's seat roles clockwise from the button: D (dealer), S (small blind), R (big
    blind), then A, B, C; more players continue with E..H. Heads-up the dealer posts the
    small blind: D and R."""
    return ["D", "R"] if num_players == 2 else list("DSRABCEFGH"[:num_players])


def _tell(agent: Any, hook: str, attribute: str, value: Any) -> None:
    """Call the agent's ``hook(value)`` if it has one, else set ``attribute`` if it has it."""
    method = getattr(agent, hook, None) if hook else None
    if callable(method):
        method(value)
    elif hasattr(agent, attribute):
        setattr(agent, attribute, value)


def _chips(amount: Any, p: int) -> int:
    """An agent's answer as whole chips (the seed's agents may compute floats)."""
    if isinstance(amount, numbers.Integral) and not isinstance(amount, bool):
        return int(amount)
    if isinstance(amount, numbers.Real) and math.isfinite(float(amount)):
        return int(float(amount))
    raise TypeError(f"agent {p} returned {amount!r} from action(); expected the chips it "
                    f"adds (a finite number)")


class TexasPoker:
    """One table (2..10 agents) of the rules ``HoldemEnv`` takes (``**options``).

    ``game()`` runs the seed's steps ``reset``, ``prepare``, ``round1``..``round4``, ``win``
    (each also callable alone, in that order). The seed's fields are read-only views of the
    table: ``agentList``, ``publicList`` (the board ``Card`` objects seen so far),
    ``DPosition``, ``scorePool`` (all chips put in), ``roundScoreList`` (bets on this
    street), ``foldNum``, ``foldWinner`` (the seat left alone, else -1) and
    ``agentCompetList`` (per seat, ``(index, subindex)`` of its shown hand, ``None`` if not
    shown). ``debug=True`` prints every action and the result; ``printEnv()`` and
    ``printAgents()`` print (and return) the table and the agents.
    """

    def __init__(self, agents: Sequence[Any], seed: int = 0, debug: bool = False,
                 **options: Any):
        if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
            raise TypeError(f"agents must be a list of 2..10 agents, got "
                            f"{type(agents).__name__}")
        if not 2 <= len(agents) <= 10:
            raise ValueError(f"TexasPoker needs 2..10 agents, got {len(agents)}")
        for k, agent in enumerate(agents):
            if not callable(getattr(agent, "action", None)):
                raise TypeError(f"agent {k} has no action(last, lowerbound) method")
        if "num_players" in options:
            raise TypeError("TexasPoker takes the number of players from the agents; "
                            "drop num_players")
        if "num_envs" in options:
            raise TypeError("TexasPoker plays one table; drop num_envs")
        self.debug = check_bool(debug, "debug")
        self.agents = list(agents)
        self.env = HoldemEnv(num_envs=1, num_players=len(agents), seed=seed, **options)
        self.hands_dealt = 0  # the current hand's number (1-based)
        self._dealt = False  # the env has dealt its first hand
        self._ready = False  # the current hand is dealt and not yet settled by win()
        self._told = (False, False)  # this hand's roles / hole cards told to the agents

    # -- the seed's steps ----------------------------------------------------------------

    def game(self) -> list[int]:
        """Play one hand; every player's chips after it."""
        self.reset()
        self.prepare()
        self.round1()
        self.round2()
        self.round3()
        self.round4()
        return self.win()

    def reset(self) -> None:
        """Deal a new hand (the env's next one) and reset the agents."""
        if self._dealt:
            reset_one(self.env.state, 0, self.env.rules)
        else:
            self.env.reset()
            self._dealt = True
        self._ready = True
        self._told = (False, False)
        self.hands_dealt += 1
        for agent in self.agents:
            if callable(getattr(agent, "reset", None)):
                agent.reset()
            _tell(agent, "", "final", 0)
        self._log(f"hand {self.hands_dealt}: button at seat {self.DPosition}")

    def prepare(self) -> None:
        """Tell every agent its seat role (``identities``)."""
        self._check_ready()
        self._brief(hands=False)

    def round1(self) -> None:
        """Hole cards (the blinds are posted at the deal), then the preflop betting."""
        self._betting(0)

    def _brief(self, hands: bool = True) -> None:
        """Tell the agents their roles, then their hole cards, once per hand: a step run
        before ``prepare`` or ``round1`` (``round3`` straight after ``reset``) tells them
        first, so no agent acts without its hand."""
        identified, told = self._told
        if not identified:
            for p, agent in enumerate(self.agents):
                _tell(agent, "setIdentity", "identity", self.identity(p))
        if hands and not told:
            for p, agent in enumerate(self.agents):
                _tell(agent, "setHand", "hand", self.hand(p))
        self._told = (True, told or hands)

    def round2(self) -> None:
        """The flop's betting."""
        self._betting(1)

    def round3(self) -> None:
        """The turn's betting."""
        self._betting(2)

    def round4(self) -> None:
        """The river's betting."""
        self._betting(3)

    def win(self) -> list[int]:
        """Finish the hand (play what is left of it) and return every player's chips."""
        if self._ready:
            self._betting(3)
        t = self._table
        scores = [int(t[STACK + p]) for p in range(len(self.agents))]
        for agent, score in zip(self.agents, scores, strict=True):
            _tell(agent, "", "score", score)
        if self._ready:
            self._ready = False
            self._log(f"board {self._cards(self.publicList)}; scores {scores}")
        return scores

    # -- the seed's output ---------------------------------------------------------------

    def printEnv(self) -> str:
        """Print (and return) the table: street, button, board seen, pot, bets, folds."""
        t = self._table
        text = (f"hand {self.hands_dealt}, {STREET_NAMES[int(t[STREET])]}: DPosition "
                f"{self.DPosition}, publicList {self._cards(self.publicList)}, scorePool "
                f"{self.scorePool}, roundScoreList {self.roundScoreList}, foldNum "
                f"{self.foldNum}")
        print(text)
        return text

    def printAgents(self) -> str:
        """Print (and return) each agent's name, role, cards, chips and fold flag."""
        lines = []
        for p, agent in enumerate(self.agents):
            lines.append(f"seat {p} {getattr(agent, 'name', type(agent).__name__)}: identity "
                         f"{self.identity(p)}, hand "
                         f"{self._cards(self.hand(p))}, score {int(self._table[STACK + p])}, "
                         f"final {(self.folded >> p) & 1}")
        text = "\n".join(lines)
        print(text)
        return text

    # -- the seed's fields, read from the table ------------------------------------------

    @property
    def agentList(self) -> list[Any]:
        return self.agents

    @property
    def publicList(self) -> list[Card]:
        """The board cards seen so far (all five once a hand reached the showdown)."""
        t = self._table
        street = int(t[STREET])
        if street == HAND_OVER:
            street = HAND_OVER if t[SHOWDOWN] else int(t[END_STREET])
        n = len(self.agents)
        return [Card.from_id(int(c)) for c in
                self.env.state.deck[0, 2 * n:2 * n + BOARD_SHOWN[street]]]

    @property
    def DPosition(self) -> int:
        return int(self._table[BUTTON])

    @property
    def scorePool(self) -> int:
        return int(self._table[PAID:PAID + len(self.agents)].sum())

    @property
    def roundScoreList(self) -> list[int]:
        return [int(b) for b in self._table[BET:BET + len(self.agents)]]

    @property
    def folded(self) -> int:
        """The folded seats as bits."""
        return int(self._table[FOLDED]) & ((1 << len(self.agents)) - 1)

    @property
    def foldNum(self) -> int:
        return bin(self.folded).count("1")

    @property
    def foldWinner(self) -> int:
        """The seat that won because everyone else folded, else -1."""
        left = [p for p in range(len(self.agents)) if not (self.folded >> p) & 1]
        return left[0] if self._table[STREET] == HAND_OVER and len(left) == 1 else -1

    @property
    def agentCompetList(self) -> list[tuple[int, int] | None]:
        """Per seat, the seed's ``(index, subindex)`` of its hand at the showdown: index 1
        royal flush .. 10 high card (smaller is better), subindex the vecgames strength
        (larger is better); ``None`` for a hand not shown."""
        out: list[tuple[int, int] | None] = []
        for p in range(len(self.agents)):
            strength = int(self._table[STRENGTH + p])
            index = 1 if strength == ROYAL_FLUSH else 10 - int(category_of(strength))
            out.append((index, strength) if strength else None)
        return out

    def identity(self, p: int) -> str:
        """Seat p's role in this hand (``identities``)."""
        return identities(len(self.agents))[(p - self.DPosition) % len(self.agents)]

    def hand(self, p: int) -> list[Card]:
        """Seat p's two hole cards."""
        return [Card.from_id(int(c)) for c in self.env.state.deck[0, 2 * p:2 * p + 2]]

    # -- play ----------------------------------------------------------------------------

    @property
    def _table(self) -> Any:
        if not self._dealt:
            raise RuntimeError("no hand dealt yet: call game() or reset() first")
        return self.env.state.table[0]

    def _check_ready(self) -> None:
        if not self._ready:
            raise RuntimeError("the hand is settled: call reset() to deal the next one")

    def _betting(self, street: int) -> None:
        """Play the decisions of ``street`` (and of any street before it left unplayed)."""
        self._check_ready()
        self._brief()
        t = self._table
        while t[STREET] <= street:
            self._decide(int(t[PLAYER]))

    def _decide(self, p: int) -> None:
        env, t, agent = self.env, self._table, self.agents[p]
        to_call, lo, hi = (int(x) for x in raise_bounds(env.state, 0, env.rules))
        bet = int(t[BET + p])
        lowerbound = lo - bet if lo <= hi else None
        for q, other in enumerate(self.agents):
            _tell(other, "", "score", int(t[STACK + q]))
        free = t[CUR_BET] <= bet
        hook = getattr(agent, "actionAllowCheck", None) if free else None
        amount = _chips((hook if callable(hook) else agent.action)(to_call, lowerbound), p)
        if amount < to_call:
            kind, raise_to = (FOLD, 0) if to_call > 0 else (CALL, 0)
        elif amount == to_call or lo > hi:
            kind, raise_to = CALL, 0
        else:
            kind, raise_to = RAISE, min(max(bet + amount, lo), hi)
        street, paid = int(t[STREET]), int(t[PAID + p])
        code = step_one(env.state, 0, kind, raise_to, env.rules)
        assert code == OK, code  # legal by construction
        if (self.folded >> p) & 1:
            _tell(agent, "", "final", 1)
        _tell(agent, "", "score", int(t[STACK + p]))
        if self.debug:
            what = ("folds" if (self.folded >> p) & 1 else
                    f"raises to {raise_to}" if kind == RAISE else
                    "calls" if to_call else "checks")
            self._log(f"{STREET_NAMES[street]}: seat {p} {what}, adds {int(t[PAID + p]) - paid}"
                      f", stack {int(t[STACK + p])}")

    def _log(self, line: str) -> None:
        if self.debug:
            print(line)

    @staticmethod
    def _cards(cards: Sequence[Card]) -> str:
        return " ".join(str(c) for c in cards) or "-"
