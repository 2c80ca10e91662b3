"""Hanabi (RULES.md §4, the current JaxMARL rules): options, the batch state and the kernels.

``step_one(state, i, action, rules)`` is the single implementation of the rules: the VecEnv
kernel, ``simulate`` and the policies all go through it and ``legal_bits``.

Cards are type ids ``5 * colour + rank`` (colour 0..4 = R, Y, G, W, B; rank 0..4 = 1..5).
Actions for P players with hand size H (A = 2H + 10(P-1) + 1 ids):

- ``[0, H)``: discard slot i; ``[H, 2H)``: play slot i;
- ``2H + 5(k-1) + c``: hint colour c to the k-th player after the actor (k = 1..P-1);
- ``2H + 5(P-1) + 5(k-1) + r``: hint rank r to the k-th player after the actor;
- ``A - 1``: the no-op (the only legal action of the players not to act; illegal for the
  player to act).

Card knowledge is kept as what is still possible: 5 colour bits and 5 rank bits per slot (a
hint keeps or removes a colour or a rank, so knowledge is always a product set), plus the
revealed colour and rank (one-hot bits) for the observation.

Three options restore the seed's rules (docs/hanabi.md, "The seed's rules"), the defaults
being JaxMARL's: ``end="deck_empty"`` ends the game with the move that draws the last card;
``discard_at_max="capped"`` allows a discard at 8 tokens (the token is lost);
``hint_target="next"`` masks the hints to any seat but the next (the action ids stay).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.bits import pick_set_bit
from ...core.deal import shuffle_prefix
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...core.state_table import table_field
from ...core.validation import check_bool, check_choice, check_int, check_options

NUM_COLORS = 5
NUM_RANKS = 5
NUM_TYPES = NUM_COLORS * NUM_RANKS
COPIES = (3, 2, 2, 2, 1)  # of each rank, per colour
DECK_SIZE = NUM_COLORS * sum(COPIES)  # 50
MAX_INFO = 8
MAX_LIFE = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 5
MAX_HAND = 5
COLOR_NAMES = "RYGWB"
ALL_KNOWN = (1 << 10) - 1  # every colour and every rank still possible

DEFAULT_OPTIONS: dict[str, Any] = {
    "num_players": 2,
    "random_start": False,
    "end": "final_round",  # or "deck_empty" (the seed)
    "discard_at_max": "forbidden",  # or "capped" (the seed)
    "hint_target": "any",  # or "next" (the seed)
}
# The choices of the string options, the default first.
CHOICES = {"end": ("final_round", "deck_empty"), "discard_at_max": ("forbidden", "capped"),
           "hint_target": ("any", "next")}


class Rules(NamedTuple):
    """Rule options and derived sizes as plain ints, the form the kernels take."""

    num_players: int
    hand_size: int
    random_start: int
    num_actions: int
    color_hints: int  # first colour-hint id: 2H
    rank_hints: int  # first rank-hint id: 2H + 5(P-1)
    noop: int  # A - 1
    deck_empty_ends: int  # 1: the move that draws the last card ends the game
    discard_capped: int  # 1: a discard at 8 tokens is legal (and gains nothing)
    hint_next_only: int  # 1: hints go to the next player only


def make_rules(**options: Any) -> Rules:
    """Validate rule options (RULES.md §4) and fill in the defaults."""
    check_options(options, DEFAULT_OPTIONS, "hanabi")
    o = {**DEFAULT_OPTIONS, **options}
    players = check_int(o["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
    hand = 5 if players <= 3 else 4
    actions = 2 * hand + 10 * (players - 1) + 1
    random_start = int(check_bool(o["random_start"], "random_start"))
    seed_rule = {}  # option -> 1 where it takes the seed's (non-default) choice
    for name, choices in CHOICES.items():
        if not isinstance(o[name], str):
            raise TypeError(f"{name} must be a str, one of {choices}; got {o[name]!r}")
        seed_rule[name] = choices.index(check_choice(o[name], name, choices))
    return Rules(num_players=players, hand_size=hand, random_start=random_start,
                 num_actions=actions, color_hints=2 * hand,
                 rank_hints=2 * hand + 5 * (players - 1), noop=actions - 1,
                 deck_empty_ends=seed_rule["end"], discard_capped=seed_rule["discard_at_max"],
                 hint_next_only=seed_rule["hint_target"])


def rules_to_options(rules: Rules) -> dict[str, Any]:
    return {"num_players": rules.num_players, "random_start": bool(rules.random_start),
            "end": CHOICES["end"][rules.deck_empty_ends],
            "discard_at_max": CHOICES["discard_at_max"][rules.discard_capped],
            "hint_target": CHOICES["hint_target"][rules.hint_next_only]}


def _deck_types() -> np.ndarray:
    """The 50 physical cards as type ids, in a fixed order (colour, then rank)."""
    return np.array([5 * c + r for c in range(NUM_COLORS) for r in range(NUM_RANKS)
                     for _ in range(COPIES[r])], np.int8)


CARD_TYPE = _deck_types()
TYPE_COPIES = np.array([COPIES[t % 5] for t in range(NUM_TYPES)], np.int64)

# Columns of ``State.table`` (int64), one row per env.
PLAYER = 0  # seat to act
INFO = 1  # information tokens
LIFE = 2  # life tokens
DEALT = 3  # cards drawn from the deck so far
FINAL = 4  # turns left once the deck ran out (-1 before)
TERMINAL = 5  # 1 once the game is over
SCORE = 6  # total firework height
TURN = 7  # turns taken
PILED = 8  # cards in the discard pile (discards and failed plays), in ``State.pile`` order
LAZY = 9  # 1: the deck from DEALT on is not shuffled yet, each draw picks from it at random
FIRE = 10  # per colour: firework height 0..5
DISCARDS = FIRE + NUM_COLORS  # per type: copies discarded (a failed play included)
# The last move, for the observations: actor, action id, the card a play/discard moved (or
# -1), whether a play succeeded, whether a play gave an information token (a 5; a discard's
# token is not flagged, as in HLE/JaxMARL), the slots a hint touched (bitmask over the
# target's slots); -1 actor before any move.
LAST_ACTOR = DISCARDS + NUM_TYPES
LAST_ACTION = LAST_ACTOR + 1
LAST_CARD = LAST_ACTOR + 2
LAST_SCORED = LAST_ACTOR + 3
LAST_TOKEN = LAST_ACTOR + 4
LAST_TOUCHED = LAST_ACTOR + 5
# Hands, per seat: one int64 packing a field per slot (slot k at bits w k .. w k + w - 1),
# read with ``card_at`` / ``know_at`` / ``revealed_at``. Playing a card shifts the later
# fields down and the drawn card enters the last slot: a few bit operations per move where
# per-slot columns took a load and a store per slot.
HAND = LAST_ACTOR + 6  # 8-bit fields: card type + 1 (0: empty slot)
HINTS = HAND + MAX_PLAYERS  # 10-bit fields: the card's colour bit (0-4) and rank bit (5-9)
KNOW = HINTS + MAX_PLAYERS  # 10-bit fields: colours still possible (bits 0-4), ranks (5-9)
REVEALED = KNOW + MAX_PLAYERS  # 10-bit fields: hinted colour (one-hot 0-4), rank (5-9)
MEMO_ON = REVEALED + MAX_PLAYERS  # 1 once a player used ``State.memo`` in this game
NUM_FIELDS = MEMO_ON + 1
CARD_BITS, INFO_BITS = 8, 10  # widths of the HAND and the HINTS/KNOW/REVEALED fields
SLOT_LOW_BITS = sum(1 << (INFO_BITS * k) for k in range(MAX_HAND))  # bit 0 of each field
SCALAR_FIELDS = ("player", "info", "life", "dealt", "final", "terminal", "score", "turn",
                 "piled", "lazy")
SEAT_FIELDS = {"fireworks": FIRE, "discards": DISCARDS}


# Player memory, per env and seat: ``memo[i, p, k]`` for k < MAX_HAND belongs to the card in
# seat p's slot k and moves with it (a play or discard shifts the later words down, a drawn
# card's word starts at 0); words MAX_HAND.. are free words of seat p. The rules never read
# it: built-in convention players keep there what their conventions made common knowledge
# (a card's meaning once hinted, the last recommendation), which the hints alone do not hold.
# A player marks the game with ``use_memo`` before it writes: the rules move and clear the
# words only in games so marked, so that games without such players pay nothing for them
# (the random simulate kernel lost a quarter of its speed to it).
MEMO_WORDS = 16


class State(NamedTuple):
    """A batch of tables, leading axis = env: ``table[i]`` holds env i's fields (columns
    above), ``deck[i]`` its deck of type ids (drawn from the front; shuffled lazily, see
    ``reset_one``: the order beyond DEALT is not yet the draw order), ``pile[i]`` its
    discard pile in order (the seed observation shows it), ``rng[i]`` its random stream,
    ``memo[i]`` the players' memory (``MEMO_WORDS``), zeroed at each deal."""

    table: np.ndarray  # int64 [B, NUM_FIELDS]
    deck: np.ndarray  # int8 [B, 50]
    pile: np.ndarray  # int8 [B, 50]
    rng: np.ndarray  # uint64 [B]
    memo: np.ndarray  # int64 [B, MAX_PLAYERS, MEMO_WORDS]


def new_state(num_envs: int, rng: np.ndarray | None = None) -> State:
    return State(table=np.zeros((num_envs, NUM_FIELDS), np.int64),
                 deck=np.zeros((num_envs, DECK_SIZE), np.int8),
                 pile=np.zeros((num_envs, DECK_SIZE), np.int8),
                 rng=np.zeros(num_envs, np.uint64) if rng is None else rng,
                 memo=np.zeros((num_envs, MAX_PLAYERS, MEMO_WORDS), np.int64))


# A colour's part of the board, as players read it: its firework height (0..5) and the
# copies of each rank discarded (0..3, 0..2, 0..2, 0..2, 0..1), one of COLOUR_STATES states
# (``colour_state``). Players keep what they derive from it in tables over these states
# (``colour_table``) instead of deriving it on every move.
COLOUR_STATES = 6 * 4 * 3 * 3 * 3 * 2
# Its mixed-radix digits' weights: the height, then the discards of ranks 1..5.
COLOUR_STRIDES = (216, 54, 18, 6, 2, 1)


@jit(inline=True)
def colour_state(t, c):
    """The index of colour c's board (height and discards) in table row t; always inside
    the tables (0 where counts out of range, in a hand-built table no game reaches, would
    lead outside)."""
    d = DISCARDS + 5 * c
    w = COLOUR_STRIDES
    k = (t[FIRE + c] * w[0] + t[d] * w[1] + t[d + 1] * w[2] + t[d + 2] * w[3]
         + t[d + 3] * w[4] + t[d + 4] * w[5])
    return k if 0 <= k < COLOUR_STATES else 0


def colour_table(entry: Any) -> np.ndarray:
    """int64 ``[COLOUR_STATES]``: ``entry(height, discards)`` (discards: a tuple, by rank)
    at each state's ``colour_state`` index."""
    out = np.zeros(COLOUR_STATES, np.int64)
    for f in range(NUM_RANKS + 1):
        for d in np.ndindex(*(c + 1 for c in COPIES)):
            out[sum(x * w for x, w in zip((f, *d), COLOUR_STRIDES, strict=True))] = entry(f, d)
    return out


def field(state: State, name: str) -> np.ndarray:
    """Named views: scalars ``[B]``; ``fireworks`` ``[B, 5]``; ``discards`` ``[B, 25]``."""
    if name == "discards":
        return state.table[:, DISCARDS:DISCARDS + NUM_TYPES]
    return table_field(state.table, name, SCALAR_FIELDS, {"fireworks": FIRE}, NUM_COLORS)


def _unpack(state: State, column: int, width: int) -> np.ndarray:
    packed = state.table[:, column:column + MAX_PLAYERS, None]
    return (packed >> (width * np.arange(MAX_HAND))) & ((1 << width) - 1)


def hands(state: State) -> np.ndarray:
    """``[B, 5 seats, 5 slots]`` card types (-1: empty slot or seat not in play); a copy."""
    return _unpack(state, HAND, CARD_BITS) - 1


def knowledge(state: State) -> np.ndarray:
    """``[B, 5, 5]`` per seat and slot: colour bits 0-4 and rank bits 5-9 still possible
    (0 for an empty slot); a copy."""
    return _unpack(state, KNOW, INFO_BITS)


def revealed(state: State) -> np.ndarray:
    """``[B, 5, 5]``: the hinted colour (one-hot bits 0-4) and rank (bits 5-9) of each card;
    a copy."""
    return _unpack(state, REVEALED, INFO_BITS)


@jit(inline=True)
def use_memo(s, i):
    """Mark env i's game as one whose players keep ``State.memo`` (call before writing it)."""
    s.table[i, MEMO_ON] = 1


@jit(inline=True)
def card_at(t, seat, slot):
    """Card type in a seat's slot, -1 if empty."""
    return ((t[HAND + seat] >> (CARD_BITS * slot)) & 255) - 1


@jit(inline=True)
def know_at(t, seat, slot):
    return (t[KNOW + seat] >> (INFO_BITS * slot)) & ALL_KNOWN


@jit(inline=True)
def revealed_at(t, seat, slot):
    return (t[REVEALED + seat] >> (INFO_BITS * slot)) & ALL_KNOWN


# ---------------------------------------------------------------- dealing


@jit
def _begin(s, i, r, lazy):
    """Deal the hands from ``s.deck[i]`` (type ids, drawn from the front) and set the table
    for the first move: player 0 unless ``random_start``. ``lazy``: the deck after the hands
    is still in order, and each later draw picks its card at random (``_draw``)."""
    t = s.table[i]
    t[LAZY] = lazy
    d = s.deck[i]
    n, h = r.num_players, r.hand_size
    for p in range(MAX_PLAYERS):
        hand = hints = know = np.int64(0)
        if p < n:  # seat p gets the p-th block of h cards
            for slot in range(h):
                card = d[p * h + slot]
                hand |= np.int64(card + 1) << (CARD_BITS * slot)
                hints |= HINT_BITS[card + 1] << (INFO_BITS * slot)
                know |= np.int64(ALL_KNOWN) << (INFO_BITS * slot)
        t[HAND + p] = hand
        t[HINTS + p] = hints
        t[KNOW + p] = know
        t[REVEALED + p] = 0
        if t[MEMO_ON]:
            for k in range(MEMO_WORDS):
                s.memo[i, p, k] = 0
    for c in range(NUM_COLORS):
        t[FIRE + c] = 0
    for k in range(NUM_TYPES):
        t[DISCARDS + k] = 0
    t[DEALT] = n * h
    t[INFO] = MAX_INFO
    t[LIFE] = MAX_LIFE
    t[FINAL] = -1
    t[TERMINAL] = 0
    t[SCORE] = 0
    t[TURN] = 0
    t[PILED] = 0
    t[LAST_ACTOR] = -1
    t[LAST_ACTION] = -1
    t[LAST_CARD] = -1
    t[LAST_SCORED] = 0
    t[LAST_TOKEN] = 0
    t[LAST_TOUCHED] = 0
    t[MEMO_ON] = 0
    t[PLAYER] = below(next_u64(s.rng, i), n) if r.random_start else 0


@jit
def reset_one(s, i, r):
    """Deal a new game in env i from its stream.

    The shuffle is a lazy Fisher-Yates: the hands are shuffled into the deck's front now, and
    every later card when it is drawn (a random 2-player game draws about 5 of the 40 left).
    Each card is uniform among those not yet drawn, as in a full shuffle; the draws use the
    same stream as the moves.
    """
    d = s.deck[i]
    for k in range(DECK_SIZE):
        d[k] = CARD_TYPE[k]
    shuffle_prefix(d, s.rng, i, r.num_players * r.hand_size)
    _begin(s, i, r, 1)


@jit(inline=True)
def _draw(s, i):
    """The next card of env i's deck (DEALT < DECK_SIZE), shuffled into place if lazy."""
    t = s.table[i]
    k = t[DEALT]
    d = s.deck[i]
    if t[LAZY]:  # shuffle_prefix's step for position k: a uniform pick among the rest
        shuffle_prefix(d[k:], s.rng, i, 1)
    t[DEALT] = k + 1
    return d[k]


# ---------------------------------------------------------------- legal moves


# Bit of a slot's card among the colour-hint bits (0-4) and rank-hint bits (5-9), by card type
# + 1 (index 0: an empty slot).
HINT_BITS = np.array([0] + [(1 << (t // 5)) | (1 << (5 + t % 5)) for t in range(NUM_TYPES)],
                     np.int64)


@jit
def hand_hints(t, seat, r):
    """Colours (bits 0-4) and ranks (bits 5-9) present in a seat's hand."""
    x = t[HINTS + seat]
    return (x | (x >> 10) | (x >> 20) | (x >> 30) | (x >> 40)) & ALL_KNOWN


@jit
def held(t, seat, r):
    """Cards a seat holds (fewer than the hand size only after the deck ran out: cards are
    kept in the first slots)."""
    if t[DEALT] < DECK_SIZE or card_at(t, seat, r.hand_size - 1) >= 0:
        return r.hand_size
    n = 0
    for slot in range(r.hand_size):
        n += card_at(t, seat, slot) >= 0
    return n


@jit(inline=True)  # per move in every game: a call passed the row and rules on the stack
def legal_bits(t, r):
    """Bitmask over the action ids of what the player to act may do now (0 once over)."""
    if t[TERMINAL]:
        return 0
    n, h = r.num_players, r.hand_size
    p = t[PLAYER]
    slots = (1 << held(t, p, r)) - 1
    bits = slots << h  # play any held card
    if t[INFO] < MAX_INFO or r.discard_capped:
        bits |= slots  # discard
    if t[INFO] > 0:
        for k in range(1, 2 if r.hint_next_only else n):
            q = p + k
            if q >= n:
                q -= n
            present = hand_hints(t, q, r)
            bits |= (present & 31) << (r.color_hints + 5 * (k - 1))
            bits |= (present >> 5) << (r.rank_hints + 5 * (k - 1))
    return bits


# ---------------------------------------------------------------- moves


@jit(inline=True)
def _without_field(x, slot, width):
    """Packed fields x with the field at ``slot`` taken out and the later ones moved down."""
    below = (np.int64(1) << (width * slot)) - 1
    return (x & below) | ((x >> width) & ~below)


@jit(inline=True)
def _remove_and_draw(s, i, r, p, slot):
    """Take the card at seat p's slot out, shift the later cards left and draw into the last
    slot (full knowledge) while the deck has cards. Returns the removed card."""
    t = s.table[i]
    card = card_at(t, p, slot)
    hand = _without_field(t[HAND + p], slot, CARD_BITS)
    hints = _without_field(t[HINTS + p], slot, INFO_BITS)
    know = _without_field(t[KNOW + p], slot, INFO_BITS)
    t[REVEALED + p] = _without_field(t[REVEALED + p], slot, INFO_BITS)
    if t[MEMO_ON]:
        memo = s.memo[i, p]
        for k in range(slot, r.hand_size - 1):
            memo[k] = memo[k + 1]
        memo[r.hand_size - 1] = 0
    if t[DEALT] < DECK_SIZE:
        drawn = _draw(s, i)
        last = r.hand_size - 1
        hand |= np.int64(drawn + 1) << (CARD_BITS * last)
        hints |= HINT_BITS[drawn + 1] << (INFO_BITS * last)
        know |= np.int64(ALL_KNOWN) << (INFO_BITS * last)
        if t[DEALT] == DECK_SIZE:  # the last card: every player has one more turn
            # (this turn counts down too); with deck_empty_ends the game ends with this turn
            t[FINAL] = 1 if r.deck_empty_ends else r.num_players + 1
    t[HAND + p] = hand
    t[HINTS + p] = hints
    t[KNOW + p] = know
    return card


@jit(inline=True)
def _to_pile(s, i, card):
    t = s.table[i]
    s.pile[i, t[PILED]] = card
    t[PILED] += 1
    t[DISCARDS + card] += 1


@jit(inline=True)
def _hint(t, r, q, is_color, value):
    """Hint colour/rank ``value`` to seat q; returns the bitmask of slots it touched.

    On the packed fields of all slots at once: a matching card keeps only the hinted
    colour/rank, the others lose it; an empty slot (all fields 0) never matches.
    """
    shift = value + (0 if is_color else 5)
    bit = np.int64(1) << shift
    keep = (ALL_KNOWN & ~(31 if is_color else 31 << 5)) | bit  # for a matching card
    match = (t[HINTS + q] >> shift) & SLOT_LOW_BITS  # bit 0 of each slot's field
    matched = match * ALL_KNOWN  # each field all ones where the card matches
    t[KNOW + q] &= (((keep * SLOT_LOW_BITS) & matched)
                    | (((ALL_KNOWN ^ bit) * SLOT_LOW_BITS) & ~matched))
    t[REVEALED + q] |= (bit * SLOT_LOW_BITS) & matched
    return (match | (match >> 9) | (match >> 18) | (match >> 27) | (match >> 36)) & 31


@jit
def step_one(s, i, a, r):
    """Apply action ``a`` of the player to act in env i.

    Returns (reward, legal): the shared reward (the change in the total firework height; on
    the move that loses the last life, minus the total before it) and whether the action was
    legal. An illegal action changes nothing (the same player acts again).
    """
    t = s.table[i]
    if a < 0 or a >= r.num_actions or not (legal_bits(t, r) >> a) & 1:
        return 0.0, False
    return play_legal(s, i, a, r), True


@jit(inline=True)
def play_legal(s, i, a, r):
    """``step_one`` for an action known to be legal (a policy's pick): no check; returns the
    reward."""
    t = s.table[i]
    n, h = r.num_players, r.hand_size
    p = t[PLAYER]
    reward = 0.0
    t[LAST_ACTOR] = p
    t[LAST_ACTION] = a
    t[LAST_CARD] = -1
    t[LAST_SCORED] = 0
    t[LAST_TOKEN] = 0
    t[LAST_TOUCHED] = 0
    if a < 2 * h:
        slot = a % h
        card = _remove_and_draw(s, i, r, p, slot)
        t[LAST_CARD] = card
        color, rank = card // 5, card % 5
        if a < h:  # discard
            _to_pile(s, i, card)
            if t[INFO] < MAX_INFO:  # at 8 only with discard_capped: the token is lost
                t[INFO] += 1
        elif t[FIRE + color] == rank:  # a successful play
            t[FIRE + color] += 1
            t[SCORE] += 1
            t[LAST_SCORED] = 1
            reward = 1.0
            if rank == NUM_RANKS - 1 and t[INFO] < MAX_INFO:
                t[INFO] += 1
                t[LAST_TOKEN] = 1
        else:  # a failed play: a life lost, the card discarded
            _to_pile(s, i, card)
            t[LIFE] -= 1
            if t[LIFE] == 0:
                reward = -float(t[SCORE])  # the game's return becomes 0
                t[TERMINAL] = 1
    else:
        t[INFO] -= 1
        is_color = a < r.rank_hints
        k = (a - (r.color_hints if is_color else r.rank_hints)) // 5 + 1
        q = p + k
        if q >= n:
            q -= n
        value = (a - (r.color_hints if is_color else r.rank_hints)) % 5
        t[LAST_TOUCHED] = _hint(t, r, q, is_color, value)
    t[TURN] += 1
    if t[SCORE] == NUM_TYPES:
        t[TERMINAL] = 1
    if t[FINAL] >= 0:
        t[FINAL] -= 1
        if t[FINAL] == 0:
            t[TERMINAL] = 1
    nxt = p + 1
    t[PLAYER] = 0 if nxt == n else nxt
    return reward


END_NAMES = ("lives", "perfect", "deck")  # how a game ended
END_LIVES, END_PERFECT, END_DECK = range(3)


@jit
def end_reason(t):
    """How the finished game in table row t ended (an END_* code)."""
    if t[LIFE] == 0:
        return END_LIVES
    if t[SCORE] == NUM_TYPES:
        return END_PERFECT
    return END_DECK


@jit(inline=True)
def random_legal(s, i, r):
    """A uniformly drawn legal action of the player to act (the game must be running)."""
    return pick_set_bit(legal_bits(s.table[i], r), next_u64(s.rng, i))
