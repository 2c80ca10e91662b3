"""A pure-Python reference engine for Zha Jin Hua 扎金花 (RULES.md §2), for the tests.

Written from the rules text and the documented implementation decisions, not from the kernels:
it keeps sets and dicts instead of bitmasks, ranks hands with its own evaluator (tuples compared
lexicographically) and walks the seats to find the next player and the end of a round.

One ``Game`` is one deal: it takes the seats' cards and the opener, applies the actions of the
player to act one by one and reports, per step, every player's reward and whether the game
ended. ``observation()`` encodes the documented 256-float layout (``observe.py``),
``seed_observation()`` the seed's c1..c12 (``obs="seed"``, ``observe_seed.py``) from the game's
list of decisions.

It also carries a Python copy of the counter-based random streams (``Stream``) and of the two
random baseline policies, so a test can replay ``simulate``'s games decision by decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NUM_ACTIONS = 15
NOOP, LOOK, FOLD = 0, 1, 2
COMPARE = range(3, 9)  # compare with seat a - 3
BET = range(9, 15)  # bet 2 ** (a - 9) blind units
OBS_DIM = 256
SEED_OBS_DIM = 4070
HIGH_CARD, PAIR, STRAIGHT, FLUSH, STRAIGHT_FLUSH, TRIPS = range(6)
END_FOLD, END_COMPARE, END_SHOWDOWN, END_ILLEGAL = "fold", "compare", "showdown", "illegal"


# -- hands ------------------------------------------------------------------------------------
def hand_key(cards, a23: str = "lowest") -> tuple[int, tuple]:
    """(category, ranks to compare from the highest) of a 3-card hand; larger is stronger.

    Ranks are 0..12 for 2..A (card id = 4 * rank + suit).
    """
    ranks = sorted((int(c) >> 2 for c in cards), reverse=True)
    suits = {int(c) & 3 for c in cards}
    flush = len(suits) == 1
    hi, mid, lo = ranks
    if hi == mid == lo:
        return TRIPS, (hi,)
    if hi == mid:
        return PAIR, (hi, lo)
    if mid == lo:
        return PAIR, (lo, hi)
    top = None
    if hi - mid == 1 and mid - lo == 1:
        top = float(hi)
    elif ranks == [12, 1, 0]:  # A-2-3
        # lowest: below 2-3-4 (top rank 2); second: between K-Q-J (11) and A-K-Q (12)
        top = 0.5 if a23 == "lowest" else 11.5
    if top is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT), (top,)
    return (FLUSH if flush else HIGH_CARD), (hi, mid, lo)


def is_235(cards) -> bool:
    """Off-suit 2-3-5 (the special hand that beats 豹子 under ``special_235``)."""
    ranks = sorted(int(c) >> 2 for c in cards)
    return ranks == [0, 1, 3] and len({int(c) & 3 for c in cards}) > 1


# -- one game ---------------------------------------------------------------------------------
@dataclass
class StepResult:
    reward: np.ndarray  # float [P]
    done: bool


@dataclass
class Game:
    """One deal of Zha Jin Hua. ``hands[p]`` = seat p's 3 card ids; ``first`` = the opener."""

    hands: list
    first: int
    num_players: int = 6
    ante: int = 1
    no_compare_rounds: int = 1
    max_rounds: int = 20
    a23: str = "lowest"
    special_235: bool = False
    # state
    alive: set = field(default_factory=set)
    seen: set = field(default_factory=set)
    pot: int = 0
    min_bet: int = 1
    player: int = 0
    phase: str = "look"
    round: int = 0
    decisions: int = 0
    paid: list = field(default_factory=list)
    payout: list = field(default_factory=list)
    known: dict = field(default_factory=dict)
    last_action: dict = field(default_factory=dict)
    history: list = field(default_factory=list)  # (round, seat, phase, action) per decision
    end: str | None = None
    winners: set = field(default_factory=set)

    def __post_init__(self):
        n = self.num_players
        assert len(self.hands) == n and 0 <= self.first < n
        self.hands = [tuple(int(c) for c in h) for h in self.hands]
        self.keys = [hand_key(h, self.a23) for h in self.hands]
        self.alive = set(range(n))
        self.paid = [self.ante] * n
        self.payout = [0] * n
        self.pot = self.ante * n
        self.player = self.first
        self.known = {p: set() for p in range(n)}

    # -- rules --------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.end is not None

    def legal(self) -> set[int]:
        p = self.player
        if self.phase == "look":
            return {NOOP} if p in self.seen else {NOOP, LOOK}
        out = {FOLD} | {a for a in BET if 2 ** (a - 9) >= self.min_bet}
        if self.round >= self.no_compare_rounds:
            out |= {3 + j for j in self.alive if j != p}
        return out

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, bool)
        mask[sorted(self.legal())] = True
        return mask

    def beats(self, p: int, q: int) -> bool:
        """Does seat p's hand beat seat q's (strictly)?"""
        if self.special_235:
            if is_235(self.hands[p]) and self.keys[q][0] == TRIPS:
                return True
            if is_235(self.hands[q]) and self.keys[p][0] == TRIPS:
                return False
        return self.keys[p] > self.keys[q]

    def _pay(self, p: int, chips: int) -> None:
        self.paid[p] += chips
        self.pot += chips

    def step(self, a: int) -> StepResult:
        """Apply action ``a`` of the player to act."""
        assert not self.done
        n = self.num_players
        reward = np.zeros(n, np.float64)
        if self.decisions == 0:
            reward -= self.ante
        p = self.player
        paid_before = self.paid[p]
        legal = a in self.legal()
        self.decisions += 1
        self.history.append((self.round, p, self.phase, a))
        if self.phase == "look" and legal:
            if a == LOOK:
                self.seen.add(p)
            self.phase = "action"
            return StepResult(reward, False)
        self.last_action[p] = a
        out: int
        reason = END_ILLEGAL
        if not legal:
            out = p
        elif a == FOLD:
            out, reason = p, END_FOLD
        elif a in BET:
            units = 2 ** (a - 9)
            self._pay(p, units * (2 if p in self.seen else 1))
            self.min_bet = units
            out = -1
        else:
            j = a - 3
            self._pay(p, 2 * self.min_bet)
            self.known[p].add(j)
            self.known[j].add(p)
            out = j if self.beats(p, j) else p  # a tie puts the comparer out
            reason = END_COMPARE
        if out >= 0:
            self.alive.discard(out)
        reward[p] -= self.paid[p] - paid_before
        if len(self.alive) == 1:
            self._finish(set(self.alive), reason)
        else:
            q, wrapped = self._next_seat(p)
            if wrapped:
                self.round += 1
            if self.round >= self.max_rounds:
                self._finish(self._showdown_winners(), END_SHOWDOWN)
            else:
                self.player, self.phase = q, "look"
        if self.done:
            reward += np.array(self.payout, np.float64)
        return StepResult(reward, self.done)

    def _next_seat(self, p: int) -> tuple[int, bool]:
        """The next seat still in after p, and whether the walk passed the opener's seat."""
        n = self.num_players
        wrapped = False
        for k in range(1, n + 1):
            q = (p + k) % n
            if q == self.first:
                wrapped = True
            if q in self.alive:
                return q, wrapped
        raise AssertionError("nobody left")

    def _showdown_winners(self) -> set[int]:
        best = max(self.keys[q] for q in self.alive)
        winners = {q for q in self.alive if self.keys[q] == best}
        special = {q for q in self.alive if is_235(self.hands[q])}
        if self.special_235 and best[0] == TRIPS and special:
            winners = special
        return winners

    def _finish(self, winners: set[int], reason: str) -> None:
        n = self.num_players
        share, rest = divmod(self.pot, len(winners))
        for q in winners:
            self.payout[q] = share
        for k in range(1, n + 1):  # odd chips: first winner after the opener, opener last
            q = (self.first + k) % n
            if q in winners:
                self.payout[q] += rest
                break
        self.winners = winners
        self.end = reason

    @property
    def rounds_played(self) -> int:
        """Rounds the game lasted (the round it ended in, 1-based; max_rounds at a showdown)."""
        return min(self.round + 1, self.max_rounds)

    def chips(self) -> list[int]:
        return [self.payout[q] - self.paid[q] for q in range(self.num_players)]

    # -- observation --------------------------------------------------------------------------
    def observation(self) -> np.ndarray:
        """The 256-float observation of the player to act (layout table in ``observe.py``)."""
        o = np.zeros(OBS_DIM, np.float32)
        n, p = self.num_players, self.player
        o[0 + n - 2] = 1
        o[5 + p] = 1
        o[11 + self.first] = 1
        o[17] = self.phase == "action"
        if p in self.seen:
            o[18] = 1
            for c in self.hands[p]:
                o[19 + c] = 1
            o[71 + self.keys[p][0]] = 1
        for q in range(n):
            o[77 + q] = q in self.alive
            o[83 + q] = q not in self.alive
            o[89 + q] = q in self.seen
            if q in self.known[p]:
                o[95 + 6 * q + self.keys[q][0]] = 1
            o[131 + q] = self.paid[q] / (self.paid[q] + 64.0)
            if q in self.last_action:
                o[137 + 15 * q + self.last_action[q]] = 1
        o[227] = self.pot / (self.pot + 256.0)
        o[228 + min(self.round, 19)] = 1
        o[248] = (self.max_rounds - self.round) / self.max_rounds
        o[249 + self.min_bet.bit_length() - 1] = 1
        o[255] = self.round >= self.no_compare_rounds
        return o

    def seed_observation(self) -> np.ndarray:
        """The seed's c1..c12 for the player to act (``obs="seed"``, table in observe_seed.py),
        built block by block in the seed's order."""
        n, p = self.num_players, self.player
        c1 = np.zeros(5)
        c1[n - 2] = 1
        c2 = np.zeros((20, 6, 2, NUM_ACTIONS))  # round, seat, phase (look, action), action
        for rnd, seat, phase, a in self.history:
            c2[rnd, seat, int(phase == "action"), a] = 1
        c3 = np.zeros(52)
        if p in self.seen:
            c3[list(self.hands[p])] = 1
        c4 = np.zeros((6, 52))
        for q in self.known[p]:
            c4[q, list(self.hands[q])] = 1
        c5 = [float(q < n and q not in self.alive) for q in range(6)]
        c6 = [float(q in self.alive) for q in range(6)]
        c7 = [self.pot / (self.pot + 256.0)]
        c8 = np.eye(6)[p]
        c9 = np.eye(20)[self.round]
        c10 = np.eye(20)[self.max_rounds - self.round - 1]
        c11 = np.eye(6)[self.min_bet.bit_length() - 1]
        c12 = np.zeros((6, 6))
        for q in range(n):
            c12[q, (q - self.first) % n] = 1
        blocks = [c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12]
        o = np.concatenate([np.ravel(b) for b in blocks]).astype(np.float32)
        assert o.size == SEED_OBS_DIM
        return o


# -- the random streams and the random policies, for replaying ``simulate`` -------------------
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK64
    z = ((z ^ (z >> 27)) * _M2) & _MASK64
    return z ^ (z >> 31)


def _below(bits: int, n: int) -> int:
    return ((bits & 0xFFFFFFFF) * n) >> 32


class Stream:
    """Python copy of the splitmix64 stream of global index ``index`` under ``seed``."""

    def __init__(self, seed: int, index: int):
        self.state = _mix64((_mix64(seed ^ _GOLDEN) + index * _M2) & _MASK64)

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        return _mix64(self.state)

    def deal(self, num_cards: int) -> list[int]:
        """A partial Fisher-Yates shuffle of 0..51, one 64-bit draw per two cards."""
        deck = list(range(52))
        for k in range(0, num_cards, 2):
            bits = self.next()
            j = k + _below(bits, 52 - k)
            deck[k], deck[j] = deck[j], deck[k]
            if k + 1 < num_cards:
                j = k + 1 + _below(bits >> 32, 51 - k)
                deck[k + 1], deck[j] = deck[j], deck[k + 1]
        return deck[:num_cards]

    def random_legal(self, legal: set[int]) -> int:
        options = sorted(legal)
        return options[_below(self.next(), len(options))]

    def uniform(self) -> int:
        return _below(self.next(), NUM_ACTIONS)


def new_game_from_stream(stream: Stream, **rules) -> Game:
    """Deal a game the way the kernels do: the cards, then the opener unless it is fixed."""
    rules = dict(rules)
    n = rules.get("num_players", 6)
    cards = stream.deal(3 * n)
    first = rules.pop("first_player", None)
    if first is None:
        first = _below(stream.next(), n)
    return Game([cards[3 * p:3 * p + 3] for p in range(n)], first, **rules)
