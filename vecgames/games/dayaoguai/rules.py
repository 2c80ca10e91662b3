"""Da Yaoguai 打妖怪 / 西游记 (RULES.md §5): options, the batch state and the per-env kernels.

Cards: id = 4 x rank + suit, ranks J, Q, K, 3, 8, 5, 10 (index 0..6: the small, middle and
big monsters, the disciples 沙僧, 八戒, 悟空, the master 唐僧) and suits hearts, spades, clubs,
diamonds (0..3); the 方块J (jack of diamonds) is card 3. Actions: 0..27 play that card, 28 pass
(pick up every card on the table). ``step_one`` is the single implementation of the rules.

Hands, the table and the cards each player is known to hold are 28-bit sets; the table's
order is kept too (``State.table_cards``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import lowest_bit, pick_set_bit
from ...core.deal import deal_prefix
from ...core.jit import jit
from ...core.rng import next_u64
from ...core.state_table import table_field
from ...core.validation import check_bool, check_int, check_options

NUM_CARDS = 28
NUM_RANKS = 7
RANK_NAMES = ("J", "Q", "K", "3", "8", "5", "10")
SUIT_SYMBOLS = "♥♠♣♦"
MASTER = 6  # rank index of the 10
DIAMOND_JACK = 3
PASS = NUM_CARDS  # action 28: pass and pick up the table
NUM_ACTIONS = NUM_CARDS + 1
MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND_SIZE = 7

# must_beat: the seed's "pick up only when no card beats" (False: passing is always allowed).
DEFAULT_OPTIONS: dict[str, Any] = {"num_players": 4, "base": 1, "max_steps": 5000,
                                   "must_beat": False}


def rank_beats(ra: int, rb: int) -> bool:
    """Whether a card of rank index ra beats one of rank index rb (RULES.md §5)."""
    if rb == MASTER:
        return ra < 3  # a monster takes the master
    if ra == MASTER:
        return 3 <= rb < 6  # the master takes a disciple
    return ra > rb  # J < Q < K < 3 < 8 < 5


def beats(card_a: int, card_b: int) -> bool:
    """Whether card_a may be played on card_b (card ids 0..27)."""
    check_int(card_a, "card_a", 0, NUM_CARDS - 1)
    check_int(card_b, "card_b", 0, NUM_CARDS - 1)
    return rank_beats(card_a // 4, card_b // 4)


# BEATEN_BY[b]: the set of cards that beat card b.
BEATEN_BY = np.array([sum(1 << a for a in range(NUM_CARDS) if rank_beats(a // 4, b // 4))
                      for b in range(NUM_CARDS)], np.int64)


class Rules(NamedTuple):
    num_players: int
    base: int
    max_steps: int
    hand_size: int  # 7, or 28 // players for 5-6 players
    must_beat: bool  # a pass is legal only when no held card beats the top card


def make_rules(**options: Any) -> Rules:
    """Validate rule options (RULES.md §5) and fill in the defaults."""
    check_options(options, DEFAULT_OPTIONS, "dayaoguai")
    o = {**DEFAULT_OPTIONS, **options}
    players = check_int(o["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
    return Rules(num_players=players, base=check_int(o["base"], "base", 1, 1_000_000),
                 max_steps=check_int(o["max_steps"], "max_steps", 1, 10_000_000),
                 hand_size=min(HAND_SIZE, NUM_CARDS // players),
                 must_beat=check_bool(o["must_beat"], "must_beat"))


def rules_to_options(rules: Rules) -> dict[str, Any]:
    return {"num_players": rules.num_players, "base": rules.base,
            "max_steps": rules.max_steps, "must_beat": rules.must_beat}


# Columns of ``State.table`` (int64), one row per env.
PLAYER = 0  # seat to act
TOP = 1  # card on top of the table, -1 when the table is empty (a lead)
ON_TABLE = 2  # the set of cards on the table
TABLE_N = 3  # cards on the table
IN_PLAY = 4  # the set of seats still holding cards
FINISHED = 5  # seats out so far
STEPS = 6  # steps taken (for max_steps)
FIRST = 7  # 1 before the forced 方块J lead
PICKUPS = 8  # pickups so far
HAND = 9  # per seat: the set of cards held
KNOWN = HAND + MAX_PLAYERS  # per seat: cards it picked up and still holds (public)
BEANS = KNOWN + MAX_PLAYERS  # per seat: beans won (+) or paid (-) this game
PLACE = BEANS + MAX_PLAYERS  # per seat: finishing place 1.., 0 while holding cards
START = PLACE + MAX_PLAYERS  # per seat: the dealt hand (for reports)
NUM_FIELDS = START + MAX_PLAYERS
SCALAR_FIELDS = ("player", "top", "on_table", "table_n", "in_play", "finished", "steps",
                 "first", "pickups")
SEAT_FIELDS = {"hand": HAND, "known": KNOWN, "beans": BEANS, "place": PLACE, "start": START}


class State(NamedTuple):
    """A batch of tables: ``table[i]`` holds env i's fields, ``table_cards[i, :n]`` the
    cards on its table in the order played, ``deck[i]`` scratch for dealing, ``rng[i]``."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    table_cards: np.ndarray  # int8 [B, 28]
    deck: np.ndarray  # int8 [B, 28]
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    return State(table=np.zeros((num_envs, NUM_FIELDS), np.int64),
                 table_cards=np.full((num_envs, NUM_CARDS), -1, np.int8),
                 deck=np.zeros((num_envs, NUM_CARDS), np.int8),
                 rng=np.zeros(num_envs, np.uint64) if rng is None else rng)


def field(state: State, name: str) -> np.ndarray:
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


@jit
def reset_one(s, i, r):
    """Deal ``hand_size`` cards to each seat from env i's stream (the first cards of a
    shuffle: with other than 4 players some cards stay out of play); the holder of the 方块J
    leads it (if it was not dealt, it replaces seat 0's last card)."""
    t = s.table[i]
    d = s.deck[i]
    n, h = r.num_players, r.hand_size
    deal_prefix(d, s.rng, i, h * n)
    dealt = 0
    for p in range(MAX_PLAYERS):
        hand = 0
        if p < n:
            for k in range(h):
                hand |= np.int64(1) << d[p * h + k]
        t[HAND + p] = hand
        t[START + p] = hand
        t[KNOWN + p] = 0
        t[BEANS + p] = 0
        t[PLACE + p] = 0
        dealt |= hand
    # the 方块J must be dealt: with fewer than 28 cards in play, swap it into a hand
    holder = -1
    for p in range(n):
        if (t[HAND + p] >> DIAMOND_JACK) & 1:
            holder = p
    if holder < 0:  # give it to seat 0 in place of its last dealt card
        last = d[h - 1]
        t[HAND] = (t[HAND] & ~(np.int64(1) << last)) | (np.int64(1) << DIAMOND_JACK)
        t[START] = t[HAND]
        holder = 0
    t[PLAYER] = holder
    t[TOP] = -1
    t[ON_TABLE] = 0
    t[TABLE_N] = 0
    t[IN_PLAY] = (1 << n) - 1
    t[FINISHED] = 0
    t[STEPS] = 0
    t[FIRST] = 1
    t[PICKUPS] = 0


@jit
def legal_bits(t, r):
    """Bitmask over the 29 actions of what the player to act may do now."""
    p = t[PLAYER]
    hand = t[HAND + p]
    if t[FIRST]:
        return np.int64(1) << DIAMOND_JACK
    top = t[TOP]
    if top < 0:
        return hand  # a lead: any card held
    beaters = hand & BEATEN_BY[top]
    if r.must_beat and beaters != 0:
        return beaters
    return beaters | (np.int64(1) << PASS)


@jit
def _next_in_play(in_play, p, n):
    """The first seat after p (wrapping) still holding cards; p itself if none other."""
    for k in range(1, n + 1):
        q = p + k
        if q >= n:
            q -= n
        if (in_play >> q) & 1:
            return q
    return p


@jit
def step_one(s, i, a, r, reward):
    """Apply action ``a`` of the player to act in env i, adding the bean transfers to
    ``reward`` (length >= num_players). Returns (legal, done, truncated); an illegal action
    changes nothing and the same player acts again."""
    t = s.table[i]
    n = r.num_players
    if a < 0 or a >= NUM_ACTIONS or not (legal_bits(t, r) >> a) & 1:
        return False, False, False
    p = t[PLAYER]
    t[STEPS] += 1
    t[FIRST] = 0
    if a == PASS:  # pick up the table and lead the next trick
        cards = t[TABLE_N]
        t[HAND + p] |= t[ON_TABLE]
        t[KNOWN + p] |= t[ON_TABLE]
        t[ON_TABLE] = 0
        t[TABLE_N] = 0
        t[TOP] = -1
        t[PICKUPS] += 1
        cost = cards * r.base
        for q in range(n):
            gain = -cost * (n - 1) if q == p else cost
            t[BEANS + q] += gain
            reward[q] += gain
    else:
        bit = np.int64(1) << a
        t[HAND + p] &= ~bit
        t[KNOWN + p] &= ~bit
        t[ON_TABLE] |= bit
        s.table_cards[i, t[TABLE_N]] = a
        t[TABLE_N] += 1
        t[TOP] = a
        if t[HAND + p] == 0:  # out of cards: the next place
            t[IN_PLAY] &= ~(1 << p)
            t[FINISHED] += 1
            t[PLACE + p] = t[FINISHED]
        t[PLAYER] = _next_in_play(t[IN_PLAY], p, n)
    in_play = t[IN_PLAY]
    done = (in_play & (in_play - 1)) == 0  # at most one seat holds cards
    if done and in_play != 0:
        last = lowest_bit(in_play)
        t[FINISHED] += 1
        t[PLACE + last] = t[FINISHED]
    truncated = (not done) and t[STEPS] >= r.max_steps
    return True, done, truncated


@jit
def random_legal(s, i, r):
    """A uniformly drawn legal action of the player to act."""
    return pick_set_bit(legal_bits(s.table[i], r), next_u64(s.rng, i))


def card_name(card: int) -> str:
    """``"J♦"``, ``"10♥"``, ..."""
    return f"{RANK_NAMES[card // 4]}{SUIT_SYMBOLS[card % 4]}"


def hand_text(cards: int) -> str:
    return " ".join(card_name(c) for c in range(NUM_CARDS) if (cards >> c) & 1) or "-"

