"""Kuhn poker as OpenSpiel's ``kuhn_poker`` with its default parameters (two players):
options, the batch state and the per-env kernels. ``step_one`` is the single implementation
of the rules: the env, ``simulate`` and the players all go through it.

The game (checked against ``pyspiel.load_game("kuhn_poker")`` by tests/test_kuhn_poker.py):

- 3 cards, OpenSpiel's ids: 0 J, 1 Q, 2 K. Each player antes 1 and is dealt one card (seat
  0's first, then seat 1's: OpenSpiel's chance order); the third card stays out.
- One betting round, seat 0 first. Actions (OpenSpiel's ids): 0 pass (check, or fold when
  facing a bet), 1 bet (bet 1, or call a bet). Both are always legal.
- Pass-pass shows down for a pot of 2; a bet answered by a bet (a call) shows down for 4; a
  bet answered by a pass (a fold) gives the pot to the bettor. Histories: ``pp``, ``pbp``,
  ``pbb``, ``bp``, ``bb``: at most 3 actions.
- Showdown: the higher card wins the whole pot (no ties: the cards differ). Returns
  (``RESULT``) are each seat's chips won (+) or lost (-): the pot less what it put in for the
  winner, minus what it put in for the other seat.

The deal is drawn at reset from the env's own random stream, so a seed decides it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import pick_set_bit
from ...core.deal import deal_prefix
from ...core.jit import jit
from ...core.rng import next_u64
from ...core.state_table import table_field
from ...core.validation import check_int, check_options

GAME = "kuhn_poker"
NUM_CARDS = 3
RANK_NAMES = ("J", "Q", "K")
PASS, BET = 0, 1
ACTION_NAMES = ("pass", "bet")
NUM_ACTIONS = 2
NUM_PLAYERS = 2  # the only count supported (OpenSpiel's default)
MIN_PLAYERS = MAX_PLAYERS = NUM_PLAYERS
ANTE = 1
BET_SIZE = 1
MAX_STEPS = 3  # pass, bet, then an answer: the longest game
MAX_PAID = ANTE + BET_SIZE  # the most a seat can put in
# The five ways a game can go, OpenSpiel's letters (p pass, b bet); ``history_code`` numbers
# them in this order.
HISTORIES = ("pp", "pbp", "pbb", "bp", "bb")

DEFAULT_OPTIONS: dict[str, Any] = {"num_players": NUM_PLAYERS}


class Rules(NamedTuple):
    """Rule options as plain numbers, the form the kernels take."""

    num_players: int


def make_rules(**options: Any) -> Rules:
    """Validate rule options and fill in the defaults."""
    check_options(options, DEFAULT_OPTIONS, GAME)
    o = {**DEFAULT_OPTIONS, **options}
    players = check_int(o["num_players"], "num_players")
    if players != NUM_PLAYERS:
        raise ValueError(f"num_players must be {NUM_PLAYERS} (Kuhn poker here is OpenSpiel's "
                         f"default two-player kuhn_poker), got {players}")
    return Rules(num_players=players)


def rules_to_options(rules: Rules) -> dict[str, Any]:
    """The user-facing options that :func:`make_rules` turns into ``rules``."""
    return {"num_players": rules.num_players}


# Columns of ``State.table`` (int64), one row per env.
PLAYER = 0  # seat to act; -1 once the game is over
STEPS = 1  # actions this game
BETTOR = 2  # the seat that bet, -1 none (OpenSpiel's first_bettor_)
FOLDED = 3  # the seat that passed facing the bet, -1 none
WINNER = 4  # the seat that won the pot, -1 while playing
DONE = 5  # 1 once the game is over (kept in the env's final_table)
CARD = 6  # per seat: its card
PAID = CARD + MAX_PLAYERS  # per seat: chips put in the pot, ante included
RESULT = PAID + MAX_PLAYERS  # per seat: chips won (+) or lost (-), set when the game ends
HISTORY = RESULT + MAX_PLAYERS  # the k-th action of the game at HISTORY + k (-1: none)
NUM_FIELDS = HISTORY + MAX_STEPS
SCALAR_FIELDS = ("player", "steps", "bettor", "folded", "winner", "done")
SEAT_FIELDS = {"card": CARD, "paid": PAID, "result": RESULT}


class State(NamedTuple):
    """A batch of tables: ``table[i]`` holds env i's fields (column constants above;
    :func:`field` gives named views), ``deck[i]`` scratch for dealing, ``rng[i]`` its random
    stream."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    deck: np.ndarray  # int8 [B, 3]
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    num_envs = check_int(num_envs, "num_envs", 0)
    return State(table=np.zeros((num_envs, NUM_FIELDS), np.int64),
                 deck=np.zeros((num_envs, NUM_CARDS), np.int8),
                 rng=np.zeros(num_envs, np.uint64) if rng is None else rng)


def field(state: State, name: str) -> np.ndarray:
    """A named view into ``state.table``: ``[B]`` for scalars, ``[B, 2]`` for per-seat fields
    (``card``, ``paid``, ``result``), ``[B, 3]`` for ``"history"`` (the game's actions in
    order; -1: none yet)."""
    if name == "history":
        return state.table[:, HISTORY:NUM_FIELDS]
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


@jit
def reset_one(s, i, r):
    """Deal a new game in env i from its stream: seat 0's card, then seat 1's (OpenSpiel's
    chance order), the antes in, seat 0 to act."""
    t = s.table[i]
    deal_prefix(s.deck[i], s.rng, i, NUM_PLAYERS)  # the deck row is the 3 Kuhn cards
    for p in range(MAX_PLAYERS):
        t[CARD + p] = s.deck[i, p]
        t[PAID + p] = ANTE
        t[RESULT + p] = 0
    t[PLAYER] = 0
    t[STEPS] = 0
    t[BETTOR] = -1
    t[FOLDED] = -1
    t[WINNER] = -1
    t[DONE] = 0
    for k in range(MAX_STEPS):
        t[HISTORY + k] = -1


@jit
def legal_bits(t):
    """Bitmask over the 2 actions of what the player to act may do now: both while the game
    runs (OpenSpiel's LegalActions), none once it is over."""
    return np.int64(0) if t[DONE] else np.int64((1 << NUM_ACTIONS) - 1)


@jit
def _finish(t, winner):
    """End the game: the pot to ``winner``, the returns written."""
    t[DONE] = 1
    t[WINNER] = winner
    t[PLAYER] = -1
    pot = t[PAID] + t[PAID + 1]
    for q in range(MAX_PLAYERS):
        t[RESULT + q] = (pot if q == winner else 0) - t[PAID + q]


@jit
def step_one(s, i, a, r):
    """Apply action ``a`` of the player to act in env i. Returns (legal, done); an illegal
    action changes nothing and the same player acts again. The caller deals the next game."""
    t = s.table[i]
    if a < 0 or a >= NUM_ACTIONS or not (legal_bits(t) >> a) & 1:
        return False, False
    p = t[PLAYER]
    other = 1 - p
    t[HISTORY + t[STEPS]] = a
    t[STEPS] += 1
    if t[BETTOR] >= 0:  # p answers the bet (with two players, the only answer): game over
        if a == BET:  # a call: show down
            t[PAID + p] += BET_SIZE
            _finish(t, 0 if t[CARD] > t[CARD + 1] else 1)
        else:  # a fold: the bettor takes the pot
            t[FOLDED] = p
            _finish(t, other)
        return True, True
    if a == BET:
        t[BETTOR] = p
        t[PAID + p] += BET_SIZE
    elif t[STEPS] == NUM_PLAYERS:  # everyone passed: show down
        _finish(t, 0 if t[CARD] > t[CARD + 1] else 1)
        return True, True
    t[PLAYER] = other
    return True, False


@jit
def random_legal(s, i, r):
    """A uniformly drawn legal action of the player to act."""
    return pick_set_bit(legal_bits(s.table[i]), next_u64(s.rng, i))


@jit
def history_code(t):
    """The game's action sequence as its index in ``HISTORIES`` (-1 before it is over)."""
    if not t[DONE]:
        return -1
    if t[HISTORY] == PASS:
        if t[HISTORY + 1] == PASS:
            return 0
        return 1 if t[HISTORY + 2] == PASS else 2
    return 3 if t[HISTORY + 1] == PASS else 4


def card_name(card: int) -> str:
    """``"J"``, ``"Q"`` or ``"K"`` for card ids 0..2 (OpenSpiel's)."""
    return RANK_NAMES[check_int(card, "card", 0, NUM_CARDS - 1)]


def history_text(history: Any) -> str:
    """OpenSpiel's letters for a row of ``field(state, "history")``: ``"pb"``, ``"bb"``..."""
    return "".join("pb"[int(a)] for a in np.asarray(history) if a >= 0)
