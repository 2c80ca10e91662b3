"""Single-agent search for Hanabi, in the spirit of SPARTA (Lerer et al. 2020).

Every other seat plays a known blueprint (the ``search`` built-in: ``conventions`` with 2
players, ``hat`` with 3-5, the strongest for the table); the searcher, at each of its
decisions:

1. counts the cards it cannot see (the 50 minus the fireworks, the discard pile and the other
   seats' hands) and samples ``DEALS`` hands for itself consistent with what is public about
   them (``slot_beliefs``: its hint knowledge, and what the blueprint's convention made common
   knowledge in ``State.memo``: a clued card's convention set, the types hat answers
   excluded) and those counts (slot by slot, each type weighted by its copies left; a dead
   end restarts the deal), the rest of the unseen cards forming the deck, drawn in random
   order;
2. for every legal move, in each sampled world, plays the move and then the blueprint for
   every seat (the searcher's own later moves too) to the end of the game, in the kernels;
3. rolls the blueprint's move and the ``FINALISTS`` best others out in ``MORE_DEALS`` worlds
   more, and plays the best of them, unless it beats the blueprint's own move by less than
   ``MARGIN`` points: then the blueprint's move (a small lead over few worlds is mostly
   the luck of those worlds).

A move is played in a world as in the real game: the blueprint's own move through the
blueprint (which writes what it means), any other clue over ``conventions`` with the meaning
its conventions read into it (``read_clue``). The moves are compared on the same worlds and
the same random draws (common random numbers),
so small differences between moves are real differences in those worlds. Only legal
information is read: the searcher's own cards are never looked at (the worlds replace them),
and the blueprint players read, in each world, only what their seats may see there.

The belief is that public knowledge and the card counts; unlike SPARTA it does not weigh
worlds by how likely the partner's past moves were in them. Each decision's worlds come from one
draw of the env's own stream, so games stay reproducible at any thread count.
"""

from __future__ import annotations

import numpy as np

from ...core.jit import jit
from ...core.rng import below, keyed_start, next_u64

# modules, not names: see vecgames.games.hanabi.players
from . import players_conventions as hanabi_conventions
from . import players_hat as hanabi_hat
from . import players_rules as hanabi_rules_player
from .rules import (
    CARD_BITS,
    DEALT,
    DECK_SIZE,
    DISCARDS,
    END_LIVES,
    FIRE,
    HAND,
    HINT_BITS,
    HINTS,
    INFO_BITS,
    LAZY,
    MAX_PLAYERS,
    MEMO_WORDS,
    NUM_COLORS,
    NUM_FIELDS,
    NUM_RANKS,
    NUM_TYPES,
    PLAYER,
    SCORE,
    TERMINAL,
    TYPE_COPIES,
    State,
    card_at,
    end_reason,
    know_at,
    legal_bits,
    play_legal,
)

DEALS = 8  # sampled worlds in which every legal move is rolled out
FINALISTS = 2  # moves besides the blueprint's rolled out in more worlds
MORE_DEALS = 40  # the finalists' further worlds
MARGIN = 0.5  # mean points a move must gain over the blueprint's move to replace it
BLUEPRINT_NAMES = ("rules", "conventions", "hat")  # the players search rolls out, by id
RULES_BP, CONVENTIONS_BP, HAT_BP = range(3)
_TRIES = 64  # restarts of a world's sampling before the searcher falls back on its blueprint


@jit
def blueprint_action(blueprint, s, i, r):
    """The move of blueprint player ``blueprint`` (``BLUEPRINT_NAMES``) in env i (a
    convention blueprint writes what its move means into ``s.memo[i]``)."""
    if blueprint == CONVENTIONS_BP:
        return hanabi_conventions.conventions(s, i, r)
    if blueprint == HAT_BP:
        return hanabi_hat.hat_action(s, i, r)
    return hanabi_rules_player.rule_based(s, i, r)


@jit
def slot_beliefs(s, i, p, r, blueprint, counts, allowed):
    """``allowed[slot]``: the types (bit c) seat p's card in that slot may be, by what is
    public: its hint knowledge, and what the blueprint's convention made common knowledge
    in ``s.memo[i, p]`` (``conventions``: a clued card's convention set, unless it was read
    into a clue another player chose; ``hat``: the types its answers excluded). A memo word
    another kind of player wrote, or a set with no unseen copy left (``counts``), is not
    read: the hints alone. 0 for an empty slot."""
    t = s.table[i]
    for slot in range(r.hand_size):
        know = know_at(t, p, slot)
        types = hanabi_hat.COLOR_EXP[know & 31] & hanabi_hat.RANK_EXP[know >> 5]
        word = s.memo[i, p, slot]
        narrowed = types
        if blueprint == CONVENTIONS_BP:
            if word & hanabi_conventions.F_MASKED and not word & hanabi_conventions.F_READ:
                narrowed = np.int64(0)
                for c in range(NUM_TYPES):
                    if (types >> c) & 1 and (word >> (2 * c)) & 1:
                        narrowed |= np.int64(1) << c
        elif blueprint == HAT_BP and word >> NUM_TYPES == 0:  # a hat word: 25 bits
            narrowed = types & ~word
        live = False
        for c in range(NUM_TYPES):
            live |= (narrowed >> c) & 1 and counts[c] > 0
        allowed[slot] = narrowed if live else types


@jit(alloc=True)
def _scratch():
    """A one-env state for the worlds."""
    return State(np.zeros((1, NUM_FIELDS), np.int64), np.zeros((1, DECK_SIZE), np.int8),
                 np.zeros((1, DECK_SIZE), np.int8), np.zeros(1, np.uint64),
                 np.zeros((1, MAX_PLAYERS, MEMO_WORDS), np.int64))


@jit
def _copy_row(s, i, w):
    """Env i of ``s`` into the one-env state ``w`` (the deck is set per world)."""
    for k in range(NUM_FIELDS):
        w.table[0, k] = s.table[i, k]
    for k in range(DECK_SIZE):
        w.pile[0, k] = s.pile[i, k]
    for q in range(MAX_PLAYERS):
        for k in range(MEMO_WORDS):
            w.memo[0, q, k] = s.memo[i, q, k]


@jit
def unseen_counts(t, p, r, counts):
    """``counts[c]``: copies of type c seat p cannot see (in its own hand or the deck)."""
    for c in range(NUM_TYPES):
        counts[c] = TYPE_COPIES[c] - t[DISCARDS + c]
    for color in range(NUM_COLORS):
        for rank in range(t[FIRE + color]):
            counts[NUM_RANKS * color + rank] -= 1
    for q in range(r.num_players):
        if q != p:
            for slot in range(r.hand_size):
                c = card_at(t, q, slot)
                if c >= 0:
                    counts[c] -= 1


@jit
def sample_hand(allowed, r, counts, rng, hand, left):
    """Draw a seat's cards (``hand[slot]``, -1 for an empty slot) of the types ``allowed``
    per slot (``slot_beliefs``), weighted by ``counts``, from stream ``rng[0]``; ``left``
    gets the counts that remain (the deck). Returns False after ``_TRIES`` dead ends."""
    for _ in range(_TRIES):
        for c in range(NUM_TYPES):
            left[c] = counts[c]
        ok = True
        for slot in range(r.hand_size):
            types = allowed[slot]
            hand[slot] = -1
            if types == 0:  # an empty slot
                continue
            total = 0
            for c in range(NUM_TYPES):
                if left[c] > 0 and (types >> c) & 1:
                    total += left[c]
            if total == 0:
                ok = False
                break
            k = below(next_u64(rng, 0), total)
            for c in range(NUM_TYPES):
                if left[c] > 0 and (types >> c) & 1:
                    k -= left[c]
                    if k < 0:
                        hand[slot] = c
                        left[c] -= 1
                        break
        if ok:
            return True
    return False


@jit
def _enter_world(w, p, r, hand, left):
    """Put the sampled ``hand`` in seat p of ``w`` and the ``left`` cards in its deck."""
    t = w.table[0]
    cards = hints = np.int64(0)
    for slot in range(r.hand_size):
        c = hand[slot]
        if c >= 0:
            cards |= np.int64(c + 1) << (CARD_BITS * slot)
            hints |= HINT_BITS[c + 1] << (INFO_BITS * slot)
    t[HAND + p] = cards
    t[HINTS + p] = hints
    k = t[DEALT]
    for c in range(NUM_TYPES):
        for _ in range(left[c]):
            if k < DECK_SIZE:
                w.deck[0, k] = c
            k += 1
    t[LAZY] = 1  # each draw picks uniformly among the deck's cards


@jit
def rollout(w, r, blueprint):
    """Play blueprint moves in ``w`` to the end; the game's return (0 once the lives ran
    out)."""
    t = w.table[0]
    while t[TERMINAL] == 0:
        play_legal(w, 0, blueprint_action(blueprint, w, 0, r), r)
    return 0 if end_reason(t) == END_LIVES else t[SCORE]


@jit
def searcher_move(w, r, blueprint, a, default):
    """Play the searcher's move ``a`` in env 0 of ``w`` as the real game would: the
    blueprint's own move through the blueprint (which writes its meaning), another clue with
    the meaning ``conventions`` gives it (``read_clue``: a partner reads any clue so)."""
    if blueprint != RULES_BP and a == default:
        a = blueprint_action(blueprint, w, 0, r)
    elif blueprint == CONVENTIONS_BP:
        hanabi_conventions.read_clue(w, 0, r, a)
    play_legal(w, 0, a, r)


@jit
def _evaluate(s, i, r, blueprint, w, p, base, first, last, moves, default, hand, allowed,
              counts, left, totals):
    """Add, for worlds ``first .. last - 1``, each move's rollout score to ``totals``
    (``moves``: a bitmask). False when a world cannot be sampled."""
    for k in range(first, last):
        w.rng[0] = keyed_start(base, k)
        if not sample_hand(allowed, r, counts, w.rng, hand, left):
            return False
        start = w.rng[0]
        for a in range(r.num_actions):
            if (moves >> a) & 1:
                _copy_row(s, i, w)
                _enter_world(w, p, r, hand, left)
                w.rng[0] = start
                searcher_move(w, r, blueprint, a, default)
                totals[a] += rollout(w, r, blueprint)
    return True


@jit(alloc=True)
def search_move(s, i, r, blueprint, deals, finalists, more, margin, totals):
    """The searcher's move in env i over ``blueprint``.

    Every legal move is rolled out in ``deals`` worlds; the blueprint's move and the
    ``finalists`` best others in ``more`` worlds besides. The best of those replaces the
    blueprint's move when its mean over all its worlds is ``margin`` points higher.
    ``totals[a]`` gets move a's summed rollout score (-1: illegal, or not a finalist)."""
    t = s.table[i]
    p = t[PLAYER]
    base = next_u64(s.rng, i)
    w = _scratch()
    _copy_row(s, i, w)
    default = blueprint_action(blueprint, w, 0, r)  # on a copy: players may write memo
    legal = legal_bits(t, r)
    counts = np.zeros(NUM_TYPES, np.int64)
    left = np.zeros(NUM_TYPES, np.int64)
    hand = np.zeros(r.hand_size, np.int64)
    allowed = np.zeros(r.hand_size, np.int64)
    unseen_counts(t, p, r, counts)
    slot_beliefs(s, i, p, r, blueprint, counts, allowed)
    for a in range(r.num_actions):
        totals[a] = 0
    if not _evaluate(s, i, r, blueprint, w, p, base, 0, deals, legal, default, hand, allowed,
                     counts, left, totals):
        return blueprint_action(blueprint, s, i, r)
    chosen = np.int64(1) << default  # the finalists: the blueprint's move and the best others
    for _ in range(finalists):
        best = -1
        for a in range(r.num_actions):
            if (legal >> a) & 1 and not (chosen >> a) & 1 and (
                    best < 0 or totals[a] > totals[best]):
                best = a
        if best >= 0:
            chosen |= np.int64(1) << best
    if not _evaluate(s, i, r, blueprint, w, p, base, deals, deals + more, chosen, default,
                     hand, allowed, counts, left, totals):
        return blueprint_action(blueprint, s, i, r)
    best = default
    for a in range(r.num_actions):
        if not (chosen >> a) & 1:
            totals[a] = -1
        elif totals[a] > totals[best]:
            best = a
    if totals[best] - totals[default] <= margin * (deals + more):
        return blueprint_action(blueprint, s, i, r)
    if blueprint == CONVENTIONS_BP:  # the partner reads the clue by the conventions
        hanabi_conventions.read_clue(s, i, r, best)
    return best


def blueprint_name(num_players: int) -> str:
    """The blueprint the ``search`` built-in plays over at a table of ``num_players``."""
    return BLUEPRINT_NAMES[CONVENTIONS_BP if num_players == 2 else HAT_BP]


@jit
def best_blueprint(r):
    """The strongest blueprint for the table (``blueprint_name``): ``conventions`` with 2
    players, ``hat`` with 3-5."""
    return CONVENTIONS_BP if r.num_players == 2 else HAT_BP


@jit(alloc=True)
def search_player(s, i, r):
    """The ``search`` built-in: ``search_move`` over ``best_blueprint`` with the module's
    settings."""
    totals = np.zeros(r.num_actions, np.int64)
    return search_move(s, i, r, best_blueprint(r), DEALS, FINALISTS, MORE_DEALS, MARGIN,
                       totals)
