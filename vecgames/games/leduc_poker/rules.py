"""Leduc Hold'em as OpenSpiel's ``leduc_poker`` with its default parameters: options, the
batch state and the per-env kernels. ``step_one`` is the single implementation of the rules:
the env, ``simulate`` and the players all go through it.

The game (checked against ``pyspiel.load_game("leduc_poker")`` by tests/test_leduc_poker.py):

- 6 cards, OpenSpiel's ids: card c has rank c // 2 (0 J, 1 Q, 2 K) and suit c % 2, so 0 J,
  1 J, 2 Q, 3 Q, 4 K, 5 K. Each player antes 1 and is dealt one private card.
- Two betting rounds; player 0 acts first in each. Actions (OpenSpiel's ids): 0 fold, 1
  call/check, 2 raise. A raise puts in what is owed plus 2 (first round) or 4 (second
  round); at most 2 raises per round. Fold is legal only when there is something to call.
- A round ends after two checks, or after a call of the last raise. Then the public card is
  shown (second round) or the hands are shown down (after the second round).
- Showdown: a private card of the public card's rank (a pair) wins, else the higher private
  rank; equal ranks split the pot (each gets its chips back). A fold gives the pot to the
  other player. Returns (``RESULT``) are each seat's chips won (+) or lost (-).

The whole deal (both private cards, then the public card) is drawn at reset from the env's
own random stream, so a seed decides it; the public card stays hidden until the second
round.
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

GAME = "leduc_poker"
NUM_CARDS = 6
NUM_SUITS = 2
RANK_NAMES = ("J", "Q", "K")
SUIT_NAMES = ("s", "h")  # a label only: suits never rank
FOLD, CALL, RAISE = 0, 1, 2
ACTION_NAMES = ("fold", "call", "raise")
NUM_ACTIONS = 3
NUM_PLAYERS = 2  # the only count supported (OpenSpiel's default)
MIN_PLAYERS = MAX_PLAYERS = NUM_PLAYERS
NUM_ROUNDS = 2
ANTE = 1
RAISE_SIZES = (2, 4)  # per round
MAX_RAISES = 2  # per round
MAX_ROUND_ACTIONS = 4  # check, raise, raise, call: the longest round
# The most a seat can put in: ante, then two raises in each round.
MAX_PAID = ANTE + MAX_RAISES * (RAISE_SIZES[0] + RAISE_SIZES[1])

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
        raise ValueError(f"num_players must be {NUM_PLAYERS} (Leduc Hold'em as OpenSpiel's "
                         f"default leduc_poker is a two-player game), got {players}")
    return Rules(num_players=players)


def rules_to_options(rules: Rules) -> dict[str, Any]:
    """The user-facing options that :func:`make_rules` turns into ``rules``."""
    return {"num_players": rules.num_players}


# Columns of ``State.table`` (int64), one row per env.
PLAYER = 0  # seat to act
ROUND = 1  # 0: first betting round, 1: second (the public card shown)
STAKES = 2  # the contribution each seat must match to stay in
RAISES = 3  # raises this round
CALLS = 4  # calls/checks since the round's last raise (OpenSpiel's num_calls_)
ROUND_N = 5  # actions this round
STEPS = 6  # actions this game
PUBLIC = 7  # the public card: dealt at reset, shown from the second round on
FOLDED = 8  # the seat that folded, -1 none
WINNER = 9  # the seat that won the pot, -1 while playing or on a split
DONE = 10  # 1 once the game is over (kept in the env's final_table)
CARD = 11  # per seat: its private card
PAID = CARD + MAX_PLAYERS  # per seat: chips put in the pot, ante included
RESULT = PAID + MAX_PLAYERS  # per seat: chips won (+) or lost (-), set when the game ends
HISTORY = RESULT + MAX_PLAYERS  # round r's k-th action at HISTORY + 4r + k (-1: none)
NUM_FIELDS = HISTORY + NUM_ROUNDS * MAX_ROUND_ACTIONS
SCALAR_FIELDS = ("player", "round", "stakes", "raises", "calls", "round_n", "steps",
                 "public", "folded", "winner", "done")
SEAT_FIELDS = {"card": CARD, "paid": PAID, "result": RESULT}


class State(NamedTuple):
    """A batch of tables: ``table[i]`` holds env i's fields (column constants above;
    :func:`field` gives named views), ``deck[i]`` scratch for dealing, ``rng[i]`` its random
    stream."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    deck: np.ndarray  # int8 [B, 6]
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    num_envs = check_int(num_envs, "num_envs", 0)
    return State(table=np.zeros((num_envs, NUM_FIELDS), np.int64),
                 deck=np.zeros((num_envs, NUM_CARDS), np.int8),
                 rng=np.zeros(num_envs, np.uint64) if rng is None else rng)


def field(state: State, name: str) -> np.ndarray:
    """A named view into ``state.table``: ``[B]`` for scalars, ``[B, 2]`` for per-seat fields,
    ``[B, 8]`` for ``"history"`` (round 0's four action slots, then round 1's; -1: none)."""
    if name == "history":
        return state.table[:, HISTORY:NUM_FIELDS]
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


@jit
def reset_one(s, i, r):
    """Deal a new game in env i from its stream: seat 0's card, seat 1's, then the public
    card (OpenSpiel's chance order), the antes in, seat 0 to act."""
    t = s.table[i]
    d = s.deck[i]
    deal_prefix(d, s.rng, i, NUM_PLAYERS + 1)  # the deck row is the 6 Leduc cards
    for p in range(MAX_PLAYERS):
        t[CARD + p] = d[p]
        t[PAID + p] = ANTE
        t[RESULT + p] = 0
    t[PUBLIC] = d[NUM_PLAYERS]
    t[PLAYER] = 0
    t[ROUND] = 0
    t[STAKES] = ANTE
    t[RAISES] = 0
    t[CALLS] = 0
    t[ROUND_N] = 0
    t[STEPS] = 0
    t[FOLDED] = -1
    t[WINNER] = -1
    t[DONE] = 0
    for k in range(NUM_ROUNDS * MAX_ROUND_ACTIONS):
        t[HISTORY + k] = -1


@jit
def legal_bits(t):
    """Bitmask over the 3 actions of what the player to act may do now (OpenSpiel's
    LegalActions: fold only when facing a bet, call always, raise below the cap)."""
    bits = np.int64(1) << CALL
    if t[STAKES] > t[PAID + t[PLAYER]]:
        bits |= np.int64(1) << FOLD
    if t[RAISES] < MAX_RAISES:
        bits |= np.int64(1) << RAISE
    return bits


@jit
def hand_rank(card, public):
    """A showdown score: higher wins, equal splits. A pair (same rank as the public card)
    beats every high card; else the private rank decides (the public card is shared, so
    OpenSpiel's high-then-low comparison comes down to it)."""
    rank = card // NUM_SUITS
    if rank == public // NUM_SUITS:
        return NUM_CARDS + rank
    return rank


@jit
def _finish(t, winner):
    """End the game: the pot to ``winner`` (-1: split it), the returns written."""
    t[DONE] = 1
    t[WINNER] = winner
    pot = t[PAID] + t[PAID + 1]
    for q in range(MAX_PLAYERS):
        if winner < 0:
            t[RESULT + q] = pot // 2 - t[PAID + q]  # a split only follows equal stakes
        else:
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
    t[HISTORY + MAX_ROUND_ACTIONS * t[ROUND] + t[ROUND_N]] = a
    t[ROUND_N] += 1
    t[STEPS] += 1
    if a == FOLD:
        t[FOLDED] = p
        _finish(t, other)
        return True, True
    if a == CALL:
        t[PAID + p] = t[STAKES]
        t[CALLS] += 1
    else:  # raise: match the stakes, then raise them by this round's size
        t[STAKES] += RAISE_SIZES[0] if t[ROUND] == 0 else RAISE_SIZES[1]
        t[PAID + p] = t[STAKES]
        t[RAISES] += 1
        t[CALLS] = 0
    # OpenSpiel's ReadyForNextRound with both players in: two checks, or the last raise called
    if (t[RAISES] == 0 and t[CALLS] == NUM_PLAYERS) or (t[RAISES] > 0 and t[CALLS] == 1):
        if t[ROUND] == NUM_ROUNDS - 1:
            h0 = hand_rank(t[CARD], t[PUBLIC])
            h1 = hand_rank(t[CARD + 1], t[PUBLIC])
            _finish(t, 0 if h0 > h1 else (1 if h1 > h0 else -1))
            return True, True
        t[ROUND] += 1  # the public card is shown; player 0 opens the round
        t[RAISES] = 0
        t[CALLS] = 0
        t[ROUND_N] = 0
        t[PLAYER] = 0
    else:
        t[PLAYER] = other
    return True, False


@jit
def random_legal(s, i, r):
    """A uniformly drawn legal action of the player to act."""
    return pick_set_bit(legal_bits(s.table[i]), next_u64(s.rng, i))


def card_name(card: int) -> str:
    """``"Js"``, ``"Kh"``, ... for card ids 0..5 (OpenSpiel's: rank = id // 2)."""
    card = check_int(card, "card", 0, NUM_CARDS - 1)
    return f"{RANK_NAMES[card // NUM_SUITS]}{SUIT_NAMES[card % NUM_SUITS]}"
