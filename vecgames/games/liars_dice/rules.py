"""Liar's Dice with 斋/飞 (RULES.md §3): options, the batch state and the per-env kernels.

``step_one(state, i, action, rules)`` is the single implementation of the rules: the VecEnv
kernel, ``simulate`` and the policies all go through it (and the legal starts of
``Rules.bids``). Actions are numbered in ``bids.py``.

A match is ``num_rounds`` rounds; the loser of a round opens the next one, the first round's
opener is drawn at random. An illegal action changes nothing and the same player acts again.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import lowest_bit
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...core.state_table import table_field
from ...core.validation import check_bool, check_choice, check_int, check_options
from .bids import (
    B_BID_N,
    B_CHOICES,
    B_COUNT,
    B_FACE,
    B_FEI_N,
    B_FEI_START,
    B_MODE,
    B_ZHAI_START,
    B_ZHAI_STEP,
    FEI,
    FEI_FACES,
    ZHAI_FACES,
    bid_table,
)
from .odds import MAX_TOTAL_DICE

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_DICE = 10  # per player: a seat's count of one face fits 4 bits
MAX_BIDS = (FEI_FACES + ZHAI_FACES) * MAX_TOTAL_DICE
MAX_WORDS = (MAX_BIDS + 63) // 64  # the round's bids so far, one bit per bid index
REWARDS = ("zero_sum", "seed")
VARIANTS = ("zhai_fei", "basic")  # basic: the seed's basic rules, 飞 bids only (ones wild)

DEFAULT_OPTIONS: dict[str, Any] = {
    "num_players": 2,
    "dice": 5,
    "num_rounds": 1,
    "variant": "zhai_fei",
    "forbid_repeat_bids": True,
    "reward": "zero_sum",
    "max_round_steps": 1000,
    # The first bid's least count; None: the seed's "count > P" (P + 1). Lower it for the
    # small games (with 1 die each there is no opening bid under count > P).
    "min_first_count": None,
}

# What a step did (bit flags, returned by step_one).
OK, ILLEGAL, ROUND_END, MATCH_END, TRUNCATED = 0, 1, 2, 4, 8


class Rules(NamedTuple):
    """Rule options as plain numbers, the form the kernels take."""

    num_players: int
    dice: int
    num_rounds: int
    basic: int  # 1: variant "basic", the 斋 bids are never legal (same action ids)
    forbid_repeat: int
    reward_seed: int  # 0: -1 / +1/(P-1) (zero-sum); 1: -1 / +1 to everyone else (the seed)
    max_round_steps: int
    total_dice: int
    num_actions: int
    bids: np.ndarray  # bids.bid_table: legal starts, count, face and mode per action id
    roll_sizes: np.ndarray  # roll_plan(dice): 6**chunk sizes and the padding ones


def make_rules(**options: Any) -> Rules:
    """Validate rule options (RULES.md §3) and fill in the defaults."""
    check_options(options, DEFAULT_OPTIONS, "liars_dice")
    o = {**DEFAULT_OPTIONS, **options}
    players = check_int(o["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
    relaxed = o["min_first_count"] is not None
    # two dice at least under count > players: a first bid needs count <= total dice
    dice = check_int(o["dice"], "dice", 1 if relaxed else 2,
                     min(MAX_DICE, MAX_TOTAL_DICE // players))
    total = players * dice
    first = check_int(o["min_first_count"], "min_first_count", 1, total) if relaxed else None
    basic = VARIANTS.index(check_choice(o["variant"], "variant", VARIANTS))
    return Rules(
        num_players=players,
        dice=dice,
        num_rounds=check_int(o["num_rounds"], "num_rounds", 1, 1_000_000),
        basic=basic,
        forbid_repeat=int(check_bool(o["forbid_repeat_bids"], "forbid_repeat_bids")),
        reward_seed=REWARDS.index(check_choice(o["reward"], "reward", REWARDS)),
        max_round_steps=check_int(o["max_round_steps"], "max_round_steps", 1, 2**31 - 1),
        total_dice=total,
        num_actions=1 + (FEI_FACES + ZHAI_FACES) * total,
        bids=bid_table(players, total, basic=bool(basic), min_first_count=first),
        roll_sizes=roll_plan(dice),
    )


def rules_to_options(rules: Rules) -> dict[str, Any]:
    """The user-facing options that :func:`make_rules` turns into ``rules``."""
    return {
        "num_players": rules.num_players,
        "dice": rules.dice,
        "num_rounds": rules.num_rounds,
        "variant": VARIANTS[rules.basic],
        "forbid_repeat_bids": bool(rules.forbid_repeat),
        "reward": REWARDS[rules.reward_seed],
        "max_round_steps": rules.max_round_steps,
        "min_first_count": _min_first_count(rules),
    }


def _min_first_count(rules: Rules) -> int | None:
    """The ``min_first_count`` option read back from the first bid's legal start (None: the
    default count > P)."""
    count = int(rules.bids[0, B_FEI_START]) // FEI_FACES + 1
    return None if count == rules.num_players + 1 else count


# Columns of ``State.table`` (int64), one row per env.
PLAYER = 0  # seat to act
LAST = 1  # action id of the round's last bid (0: none yet)
PREV = 2  # action id of the bid before it (0: none)
BIDS = 3  # bids made this round
ROUND = 4  # 0-based round of the match
STEPS = 5  # steps taken this round, illegal ones included (for the step cap)
FIRST = 6  # seat that opened this round
SUM_COUNT = 7  # sum of this round's bid counts (the seed's mean-count feature)
MAX_COUNT = 8  # largest count bid this round
TOTAL = 9  # every seat's dice: count of face f (1..6) in bits 8(f-1) .. 8f-1
BIDDER = 10  # seat that made the last bid
# The last finished round, kept through the next round and the next match (for info, views
# and simulate rows):
LOSER = 11  # -1 before the first round ends
CHALLENGER = 12
CHALLENGED = 13  # action id of the challenged bid
ACTUAL = 14  # dice that counted for it
ROUND_BIDS = 15  # bids that round made
DICE = 16  # per seat: count of face f in bits 4(f-1) .. 4f-1
PENALTY = DICE + MAX_PLAYERS  # per seat: penalty points this match
MADE = PENALTY + MAX_PLAYERS  # MAX_WORDS words: bit k of the bids made this round
REVEALED = MADE + MAX_WORDS  # per seat: its dice in the last finished round (packed as DICE)
NUM_FIELDS = REVEALED + MAX_PLAYERS
SCALAR_FIELDS = ("player", "last", "prev", "bids", "round", "steps", "first", "sum_count",
                 "max_count", "total", "bidder", "loser", "challenger", "challenged", "actual",
                 "round_bids")
SEAT_FIELDS = {"dice": DICE, "penalty": PENALTY, "revealed": REVEALED}


class State(NamedTuple):
    """A batch of tables, leading axis = env: ``table[i]`` holds env i's fields (column
    constants above; :func:`field` gives named views), ``rng[i]`` its random stream."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    rng: np.ndarray  # uint64 [B]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    table = np.zeros((num_envs, NUM_FIELDS), np.int64)
    table[:, [LOSER, CHALLENGER]] = -1  # no round has ended yet
    return State(table=table, rng=np.zeros(num_envs, np.uint64) if rng is None else rng)


def field(state: State, name: str) -> np.ndarray:
    """A named view into ``state.table``: ``[B]`` for scalars, ``[B, 8]`` for per-seat fields."""
    return table_field(state.table, name, SCALAR_FIELDS, SEAT_FIELDS, MAX_PLAYERS)


def unpack_counts(packed: int, bits: int = 4) -> list[int]:
    """Counts of faces 1..6 from a packed seat (4 bits per face) or total (8 bits)."""
    return [(int(packed) >> (bits * f)) & ((1 << bits) - 1) for f in range(6)]


_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
CHUNK = 5  # dice rolled by one table lookup


def _chunk_tables() -> tuple[np.ndarray, np.ndarray]:
    """For k in [0, 6**5): the 5 dice whose faces - 1 are k's base-6 digits, as packed counts
    per seat (4 bits per face) and per table (8 bits per face)."""
    k = np.arange(6**CHUNK)
    seat = np.zeros(k.size, np.int64)
    table = np.zeros(k.size, np.int64)
    for _ in range(CHUNK):
        k, digit = np.divmod(k, 6)
        seat += np.int64(1) << (4 * digit)
        table += np.int64(1) << (8 * digit)
    return seat, table


CHUNK_SEAT, CHUNK_TABLE = _chunk_tables()


def roll_plan(dice: int) -> np.ndarray:
    """A seat's roll as one or two table lookups: [6**m1, 6**m2 (0: none), padding ones] with
    m1 + m2 = dice, m1 <= 5, m2 <= 5; a chunk of m < 5 dice reads 5 - m extra ones."""
    first = min(dice, CHUNK)
    second = dice - first
    padding = (CHUNK - first) + (CHUNK - second if second else 0)
    plan = np.array([6**first, 6**second if second else 0, padding], np.int64)
    plan.setflags(write=False)
    return plan


@jit
def _scaled_high(x, n):
    """floor(n x / 2**64) for n < 2**32: x / 2**64 scaled to [0, n)."""
    return np.int64((((x >> _S32) * n) + (((x & _LOW32) * n) >> _S32)) >> _S32)


@jit(inline=True)
def start_round(s, i, r, first):
    """Roll every seat's dice and open a round with seat ``first`` to bid.

    A seat's dice are the base-6 digits of one 64-bit draw read as a fraction, up to 5 at a
    time: a chunk of m dice is k = floor(6**m x) (then x keeps the fractional part) looked up
    in the 5-dice tables, where k < 6**m has 5 - m extra ones to take off (``roll_plan``).
    Bias: below 6**10 / 2**64 = 3e-12 for the most likely outcome of 10 dice.
    """
    t = s.table[i]
    total = 0
    first_size = np.uint64(r.roll_sizes[0])
    second_size = np.uint64(r.roll_sizes[1])
    for p in range(r.num_players):
        x = next_u64(s.rng, i)
        k = np.uint64(_scaled_high(x, first_size))
        seat = CHUNK_SEAT[k] - r.roll_sizes[2]  # less the padding ones (the lowest field)
        total += CHUNK_TABLE[k] - r.roll_sizes[2]
        if second_size:
            k = np.uint64(_scaled_high(x * first_size, second_size))
            seat += CHUNK_SEAT[k]
            total += CHUNK_TABLE[k]
        t[DICE + p] = seat
    t[TOTAL] = total
    t[PLAYER] = first
    t[FIRST] = first
    t[LAST] = 0
    t[PREV] = 0
    t[BIDS] = 0
    t[STEPS] = 0
    t[SUM_COUNT] = 0
    t[MAX_COUNT] = 0
    t[BIDDER] = -1
    for w in range(MAX_WORDS):  # a fixed count: a few stores, where a variable one was a
        t[MADE + w] = 0  # memset call (words past the rules' actions stay 0 anyway)


@jit(inline=True)
def reset_match(s, i, r):
    """A new match in env i: penalties cleared, a random opener, the first round rolled."""
    t = s.table[i]
    for p in range(MAX_PLAYERS):  # fixed count, as in start_round
        t[PENALTY + p] = 0
    t[ROUND] = 0
    start_round(s, i, r, below(next_u64(s.rng, i), r.num_players))


@jit
def bid_made(t, index):
    # Unsigned indices (here and in the hot paths below) spare Numba's negative-index
    # wrap-around, which sat on every decision's dependency chain.
    return (t[np.uint64(MADE + (index >> 6))] >> (index & 63)) & 1


@jit
def counted_dice(total, mode, face):
    """Dice on the table that count for a bid: the face, plus the wild ones in 飞."""
    n = (total >> (8 * (face - 1))) & 255
    if mode == FEI and face != 1:
        n += total & 255
    return n


@jit
def is_legal(t, a, r):
    """Whether action ``a`` (any int) is legal for the player to act in table row ``t``."""
    if a == 0:
        return t[BIDS] > 0
    index = a - 1
    last = t[LAST]
    in_range = ((r.bids[last, B_FEI_START] <= index) & (index < FEI_FACES * r.total_dice)) | (
        (r.bids[last, B_ZHAI_START] <= index) & (index < r.num_actions - 1))
    if not in_range:
        return False
    return not (r.forbid_repeat and bid_made(t, index))


@jit(inline=True)
def step_one(s, i, a, r):
    """Apply action ``a`` of the player to act in env i; returns the step's flags.

    A challenge ends the round (ROUND_END): the loser gets a penalty point and, unless the
    match is over (MATCH_END; the caller starts the next match), opens the next round, which
    is rolled at once. An illegal action changes nothing but the step count (ILLEGAL). A round
    reaching ``max_round_steps`` steps ends the match unresolved (TRUNCATED).
    """
    t = s.table[i]
    if not is_legal(t, a, r):
        t[STEPS] += 1
        return ILLEGAL | (TRUNCATED if t[STEPS] >= r.max_round_steps else OK)
    return play_legal(s, i, a, r)


@jit(inline=True)
def play_legal(s, i, a, r):
    """``step_one`` for an action known to be legal (a policy's pick): no check."""
    t = s.table[i]
    t[STEPS] += 1
    p = t[PLAYER]
    if a != 0:
        index = a - 1
        count = r.bids[np.uint64(a), B_COUNT]
        t[PREV] = t[LAST]
        t[LAST] = a
        t[BIDS] += 1
        t[SUM_COUNT] += count
        t[MAX_COUNT] = max(t[MAX_COUNT], count)
        t[np.uint64(MADE + (index >> 6))] |= np.int64(1) << (index & 63)
        t[BIDDER] = p
        nxt = p + 1
        t[PLAYER] = 0 if nxt == r.num_players else nxt
        return TRUNCATED if t[STEPS] >= r.max_round_steps else OK
    return _challenge(s, i, r, p)


@jit(inline=True)
def _challenge(s, i, r, p):
    """Seat p challenges the last bid: reveal, score, and roll the next round if any."""
    t = s.table[i]
    last = t[LAST]
    bid = r.bids[np.uint64(last)]
    actual = counted_dice(t[TOTAL], bid[B_MODE], bid[B_FACE])
    loser = p if actual >= bid[B_COUNT] else t[BIDDER]
    t[LOSER] = loser
    t[CHALLENGER] = p
    t[CHALLENGED] = last
    t[ACTUAL] = actual
    t[ROUND_BIDS] = t[BIDS]
    for q in range(r.num_players):
        t[REVEALED + q] = t[DICE + q]
    t[PENALTY + loser] += 1
    t[ROUND] += 1
    if t[ROUND] >= r.num_rounds:
        return ROUND_END | MATCH_END
    start_round(s, i, r, loser)
    return ROUND_END


@jit
def write_mask(t, r, out):
    """out[a] = whether action a is legal (out has length r.num_actions): the two legal ranges
    filled, then the bids already made cleared (few, found from the set bits)."""
    out[0] = t[BIDS] > 0
    fei_start = r.bids[t[LAST], B_FEI_START]
    zhai_start = r.bids[t[LAST], B_ZHAI_START]
    fei_end = FEI_FACES * r.total_dice
    for index in range(r.num_actions - 1):
        out[index + 1] = (fei_start <= index < fei_end) | (zhai_start <= index)
    if r.forbid_repeat:
        for w in range((r.num_actions + 62) // 64):
            word = t[MADE + w]
            while word != 0:
                out[1 + 64 * w + lowest_bit(word)] = False
                word &= word - 1


@jit(inline=True)
def random_legal(s, i, r):
    """A uniformly drawn legal action (the challenge counts as one action)."""
    t = s.table[i]
    row = r.bids[np.uint64(t[LAST])]
    while True:  # redraw a repeated bid: uniform over the legal ones
        k = below(next_u64(s.rng, i), row[B_CHOICES])
        if k >= row[B_BID_N]:
            return 0
        # the k-th bid of the two ranges, without a branch (which one is a coin flip)
        index = row[B_FEI_START] + k + (k >= row[B_FEI_N]) * row[B_ZHAI_STEP]
        if not (r.forbid_repeat and bid_made(t, index)):
            return index + 1


assert MAX_DICE < 16 and MAX_TOTAL_DICE < 256  # packed 4-bit seat and 8-bit total counts
assert ZHAI_FACES == 6 and FEI_FACES == 5
