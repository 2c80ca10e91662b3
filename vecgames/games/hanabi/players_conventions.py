"""Hanabi ``conventions`` player: play clues, chop saves and card counting (2 players).

Card types are kept as sets in a "spaced" bitmask: type x = 5 colour + rank is bit 2x, so the
same layout also packs a 2-bit count per type (at most 3 copies) and counting the cards still
unseen is one subtraction. What a clue means by convention is written into ``State.memo`` by
the player who gives it, from public information and the clue only (the receiver would compute
the same): the clued card's new set of possible types, and flags. The conventions, in full, are
in docs/hanabi.md ("Players and results").
"""

from __future__ import annotations

import numpy as np

from ...core.bits import popcount
from ...core.jit import jit
from ...core.stack import stack_array
from .rules import (
    COPIES,
    DEALT,
    DECK_SIZE,
    FINAL,
    HINTS,
    INFO,
    LIFE,
    MAX_INFO,
    PLAYER,
    SLOT_LOW_BITS,
    card_at,
    colour_state,
    colour_table,
    held,
    know_at,
    revealed_at,
    use_memo,
)

EVEN = sum(1 << (2 * x) for x in range(25))  # every type's bit
RANK5 = sum(1 << (2 * (5 * c + 4)) for c in range(5))  # the 5s
TYPES_MASK = (1 << 50) - 1
# Flags of a slot's memo word, above its set of possible types (bits 0..49).
F_MASKED = 1 << 50  # the type bits hold what a clue's convention allows
F_CLUED = 1 << 51  # touched by a clue
F_SAVE = 1 << 52  # a chop clue: playable or critical when clued
F_PLAY = 1 << 53  # a play clue: playable when clued
# The focus set was read into a clue another player chose (``read_clue``), which need not
# hold the card; the conventions never read this flag (a searcher's belief does).
F_READ = 1 << 54
NEG = -1e9

# Tunables (docs: "Players and results"): weights of a clue's effects and thresholds.
(P_PLAY, P_INFO, P_TRASH, P_SAVE, P_KTRASH, P_CLUE_MIN, P_STALL_MIN, P_GAMBLE, P_RICH,
 P_RICH_MIN, P_END_DECK, P_END_MIN, P_RISK, P_RISK_LIVES, P_LOCK_USEFUL, P_CLUE_FIRST,
 P_INFO_FAR, P_DELAYED) = range(18)
DEFAULT_PARAMS = np.array([10.0, 3.5, 3.0, 8.0, 0.5, 7.0, -100.0, 0.0, 7.0, 0.5, 2.0, 0.0,
                           2.0, 2.0, 0.1, 9.0, 0.5, 0.75])


def _know_types() -> np.ndarray:
    """Knowledge (5 colour bits, 5 rank bits) -> spaced set of the types it allows."""
    out = np.zeros(1024, np.int64)
    for k in range(1024):
        m = 0
        for c in range(5):
            for r in range(5):
                if (k >> c) & 1 and (k >> (5 + r)) & 1:
                    m |= 1 << (2 * (5 * c + r))
        out[k] = m
    return out


KNOW_TYPES = _know_types()
COLOR_TYPES = np.array([sum(1 << (2 * (5 * c + r)) for r in range(5)) for c in range(5)],
                       np.int64)
RANK_TYPES = np.array([sum(1 << (2 * (5 * c + r)) for c in range(5)) for r in range(5)],
                      np.int64)


@jit(inline=True)
def _nonzero(u):
    """Spaced set of the types whose 2-bit count in u is not zero."""
    return (u | (u >> 1)) & EVEN


@jit(inline=True)
def _weight(u, s):
    """Copies counted in u of the types in set s."""
    return popcount(u & s) + 2 * popcount(u & (s << 1))


@jit(inline=True)
def _slot_mask(know, word):
    """Types a slot may hold by its hint knowledge and its convention mask."""
    m = KNOW_TYPES[know]
    if word & F_MASKED:
        m &= word
    return m


@jit(inline=True)
def _slot_set(know, word, alive):
    """Types a slot may hold: its hint knowledge, its convention mask, the counts."""
    return _slot_mask(know, word) & alive


def _colour_masks(f: int, d: tuple[int, ...]) -> int:
    """A colour's board (height f, discards d by rank) as four 10-bit fields of its ranks in
    the spaced layout: unseen copies (hands + deck, 2 bits each), playable, trash (played,
    or unreachable), critical (one copy left, still needed)."""
    u = playable = trash = critical = 0
    dead = False
    for rank in range(5):
        cp = COPIES[rank]
        b = 1 << (2 * rank)
        if rank < f:
            trash |= b
            u |= max(cp - d[rank] - 1, 0) << (2 * rank)  # (< 0: a board no game reaches)
        else:
            dead |= d[rank] == cp
            if dead:
                trash |= b
            else:
                if rank == f:
                    playable |= b
                if cp - d[rank] == 1:
                    critical |= b
            u |= (cp - d[rank]) << (2 * rank)
    return u | playable << 10 | trash << 20 | critical << 30


COLOUR_MASKS = colour_table(_colour_masks)


@jit
def _table_masks(t):
    """Public counts and sets: unseen copies per type (hands + deck, 2 bits each), the types
    playable now, trash (played, or unreachable), critical (one copy left, still needed)."""
    u = np.int64(0)
    playable = np.int64(0)
    trash = np.int64(0)
    critical = np.int64(0)
    for col in range(5):
        e = COLOUR_MASKS[colour_state(t, col)]
        u |= (e & 1023) << (10 * col)
        playable |= ((e >> 10) & 1023) << (10 * col)
        trash |= ((e >> 20) & 1023) << (10 * col)
        critical |= ((e >> 30) & 1023) << (10 * col)
    return u, playable, trash, critical


@jit(inline=True)
def _advance(playable, singles):
    """The types playable once the cards of types ``singles`` (each known exactly by
    everyone) are played: each colour's next type, advanced while it is one of them."""
    ext = playable
    b = ext & singles
    while b != 0:
        ext = (ext & ~b) | ((b & ~RANK5) << 2)
        b = ext & singles
    return ext


@jit
def _queued(t, memo, n, h, alive, playable):
    """The types playable once the cards everyone knows exactly and knows playable are
    played (``_advance`` over every seat's exactly known cards)."""
    singles = np.int64(0)
    for seat in range(n):
        for k in range(h):
            sk = _slot_set(know_at(t, seat, k), memo[seat, k], alive)
            if sk & (sk - 1) == 0:
                singles |= sk
    return _advance(playable, singles)


@jit
def _chop(t, memo_q, q, nh):
    """(clued slots bitmask, chop slot or -1): the chop is the oldest unclued card."""
    clued = 0
    chop = -1
    for k in range(nh):
        if revealed_at(t, q, k) != 0 or memo_q[k] != 0:
            clued |= 1 << k
        elif chop < 0:
            chop = k
    return clued, chop


@jit(inline=True)
def _public_set(t, memo_q, q, k, nh, alive):
    """Public set of seat q's slot k (0 past its cards)."""
    if k >= nh:
        return np.int64(0)
    return _slot_set(know_at(t, q, k), memo_q[k], alive)


HIGHEST = np.array([-1] + [int(k).bit_length() - 1 for k in range(1, 32)], np.int64)


@jit(inline=True)
def _recue(sbs, nh, good, trash):
    """Bitmask of the slots a re-clue may focus: the card not yet known good or trash."""
    out = 0
    for k in range(nh):
        if sbs[k] & ~good != 0 and sbs[k] & ~trash != 0:
            out |= 1 << k
    return out


@jit(inline=True)
def _focus(touched, new, chop, recue, stall):
    """How the receiver reads a clue touching slots ``touched``, ``new`` of them not clued
    before: (the focus slot or -1, whether it is a save). A new card on the chop is a save
    (playable soon or critical), else the newest new card is a play; with no new card (and
    ``stall`` false) a re-clue of the newest touched card among ``recue``."""
    if new != 0:
        if chop >= 0 and (new >> chop) & 1:
            return chop, True
        return HIGHEST[new], False
    if not stall and touched & recue != 0:
        return HIGHEST[touched & recue], False
    return -1, False


@jit
def _best_clue(t, q, nh, sbs, clued, chop, playable, ext, trash, critical, urgent, stall,
               taken, prm):
    """The best-scoring truthful clue to seat q, whose slots' public sets are ``sbs`` (its
    clued slots and chop: ``_chop``): (score, is_color, value, focus, mask, new). A clue
    scores what it makes q know: a card known good it did not know, new cards touched (trash
    or a second copy costs), cards known trash, a save of a critical chop (``urgent``); a
    clue whose reading would exclude the real card is not given."""
    good = playable | ext  # a card known to be one of these will be played in turn
    near = ext | ((ext & ~RANK5) << 2)
    recue = _recue(sbs, nh, good, trash)
    # What each slot is worth, whichever clue: its card, gains, and what q knows already.
    cbs = stack_array(5, np.int64)
    play_gain = stack_array(5, np.float64)  # the card becomes known good
    new_gain = stack_array(5, np.float64)  # the card is newly touched
    known = np.int64(0)  # types q already knows it will play
    was_good = 0  # slots already known good
    not_trash = 0  # slots not known trash
    for k in range(5):  # (all 5: an empty slot's sets and card bit are 0, it scores 0)
        cb = np.int64(1) << (2 * card_at(t, q, k)) if k < nh else np.int64(0)
        cbs[k] = cb
        sb = sbs[k]
        if (clued >> k) & 1:  # a second copy touched would be a bad touch
            taken |= cb
        if sb != 0 and sb & ~good == 0:
            known |= cb
            was_good |= 1 << k
        if sb & ~trash != 0:
            not_trash |= 1 << k
        play_gain[k] = prm[P_PLAY] if cb & playable else prm[P_PLAY] * prm[P_DELAYED]
        if cb & trash:
            new_gain[k] = -prm[P_TRASH]
        elif cb & near:
            new_gain[k] = prm[P_INFO]
        else:  # two or more ranks above what is playable
            new_gain[k] = prm[P_INFO_FAR]
    hints = t[HINTS + q]
    best = NEG
    bc = 0
    bv = 0
    bf = -1
    bm = np.int64(0)
    bn = 0
    for is_color in (1, 0):
        for value in range(5):
            match = (hints >> (value + (0 if is_color else 5))) & SLOT_LOW_BITS
            if match == 0:
                continue
            touched = (match | (match >> 9) | (match >> 18) | (match >> 27)
                       | (match >> 36)) & 31
            ct = COLOR_TYPES[value] if is_color else RANK_TYPES[value]
            new = touched & ~clued
            focus, save = _focus(touched, new, chop, recue, stall)
            fmask = np.int64(0)
            fset = np.int64(0)  # the focus card's set as read
            if focus >= 0:
                kmask = ext | critical if save else ext
                fset = sbs[focus] & ct
                if fset & kmask == 0:  # no type fits the reading: the clue reads as nothing
                    focus = -1
                elif fset & kmask & cbs[focus] == 0:  # the reading excludes the real card
                    continue
                else:
                    fset &= kmask
                    fmask = fset | (F_SAVE if save else F_PLAY)
            score = 0.0
            kn = known
            tk = taken
            now = False  # a card q knows it can play now
            for k in range(5):
                bit = (touched >> k) & 1
                sa = sbs[k] & (ct ^ (bit - 1))  # touched: the clue's types, else the rest
                if k == focus:
                    sa = fset
                cb = cbs[k]
                if sa != 0 and sa & ~good == 0 and not (was_good >> k) & 1:
                    if kn & cb == 0 and cb & ext:
                        score += play_gain[k]
                        kn |= cb
                elif (new >> k) & 1:
                    score += -prm[P_TRASH] if cb & tk else new_gain[k]
                    tk |= cb
                if sa & ~trash == 0 and (not_trash >> k) & 1:
                    score += prm[P_KTRASH]
                if k == chop and urgent and (new >> k) & 1:
                    score += prm[P_SAVE]
                now |= sa != 0 and sa & ~playable == 0
            if urgent and not now and not (new >> chop) & 1:  # q would discard its chop
                score -= prm[P_SAVE]
            if score > best:
                best, bc, bv, bf, bm, bn = score, is_color, value, focus, fmask, new
    return best, bc, bv, bf, bm, bn


@jit
def _give(memo_q, r, is_color, value, focus, fmask, new):
    """Write the clue's conventional meaning into the receiver's memo; the action id."""
    for k in range(5):
        if (new >> k) & 1:
            memo_q[k] |= F_CLUED
    if focus >= 0:
        memo_q[focus] = (memo_q[focus] & ~TYPES_MASK & ~F_READ) | F_MASKED | F_CLUED | fmask
    return (r.color_hints if is_color else r.rank_hints) + value


@jit
def decide(s, i, r, prm):
    """The conventions player's action for the player to act in env i (tunables ``prm``)."""
    use_memo(s, i)
    t = s.table[i]
    n = r.num_players
    h = r.hand_size
    p = t[PLAYER]
    q = p + 1 if p + 1 < n else 0
    memo = s.memo[i]
    memo_p = memo[p]
    memo_q = memo[q]
    u, playable, trash, critical = _table_masks(t)
    alive = _nonzero(u)
    # Every slot's public set (``sets[5 seat + slot]``, 0 when empty), read once: the queue,
    # the next player's view and the clues all read them. My own slots keep their hint and
    # convention mask (``mask``) to be narrowed by what I see.
    sets = stack_array(25, np.int64)
    mask = stack_array(5, np.int64)
    singles = np.int64(0)  # the types of cards everyone knows exactly
    seen = np.int64(0)  # copies in the other players' hands
    qtypes = np.int64(0)  # types in the next player's hand
    for o in range(n):
        for k in range(h):
            m = _slot_mask(know_at(t, o, k), memo[o, k])
            if o == p:
                mask[k] = m
            x = m & alive
            sets[5 * o + k] = x
            if x & (x - 1) == 0:
                singles |= x
            if o != p:
                c = card_at(t, o, k)
                if c >= 0:
                    seen += np.int64(1) << (2 * c)
                    if o == q:
                        qtypes |= np.int64(1) << (2 * c)
        for k in range(h, 5):
            sets[5 * o + k] = 0
    mine = u - seen  # copies I cannot see: in my hand or the deck
    my_alive = _nonzero(mine)
    nh = held(t, p, r)
    nq = held(t, q, r)
    info = t[INFO]
    lives = t[LIFE]

    # My cards: a known-playable card to play (the one unlocking a card the next player
    # holds first), a known-trash card to discard.
    my = stack_array(5, np.int64)  # my slots' sets, narrowed by the copies I see
    exact = np.int64(0)  # copies of my cards whose type I know: no other card of mine
    for k in range(nh):
        sk = mask[k] & my_alive
        my[k] = sk
        if sk != 0 and sk & (sk - 1) == 0:
            exact += sk
    rest_alive = _nonzero(mine - exact)
    ext = _advance(playable, singles)
    good = playable | ext
    dup = np.int64(0)  # types the next player knows it will play
    q_plays = False
    q_trash = False
    for k in range(nq):
        sq = sets[5 * q + k]
        if sq != 0 and sq & ~good == 0:
            dup |= np.int64(1) << (2 * card_at(t, q, k))
        if sq != 0 and sq & ~playable == 0:
            q_plays = True
        elif sq != 0 and sq & ~trash == 0:
            q_trash = True
    play_slot = -1
    play_pri = -1
    trash_slot = -1
    for k in range(nh):
        sk = my[k]
        if sk == 0:
            continue
        if sk & (sk - 1) != 0:
            sk = mask[k] & rest_alive
        if sk & ~playable == 0:
            pri = 1
            if ((sk & ~RANK5) << 2) & qtypes:
                pri = 3
            elif sk & ~RANK5 == 0 and info < MAX_INFO:
                pri = 2
            if pri > play_pri:
                play_pri = pri
                play_slot = k
        elif sk & ~(trash | dup) == 0 and trash_slot < 0:
            trash_slot = k

    # The next player's view: will it play (above), or discard a critical chop?
    qclued, qchop = _chop(t, memo_q, q, nq)
    urgent = False
    if qchop >= 0 and not q_plays and not q_trash:
        urgent = ((np.int64(1) << (2 * card_at(t, q, qchop))) & critical) != 0

    if info > 0 and (urgent or not q_plays or play_slot < 0):  # else it plays (below)
        _, my_chop = _chop(t, memo_p, p, nh)
        stall = my_chop < 0 or info == MAX_INFO
        taken = np.int64(0)  # types of my cards that everyone knows exactly
        for k in range(nh):
            sk = sets[5 * p + k]
            if sk & (sk - 1) == 0:
                taken |= sk
        sc, bc, bv, bf, bm, bn = _best_clue(t, q, nq, sets[5 * q:5 * q + 5], qclued, qchop,
                                            playable, ext, trash, critical, urgent, stall,
                                            taken, prm)
    else:
        sc, bc, bv, bf, bm, bn = NEG, 0, 0, -1, np.int64(0), 0
    if urgent and sc >= prm[P_SAVE]:
        return _give(memo_q, r, bc, bv, bf, bm, bn)
    if not q_plays and sc >= prm[P_CLUE_FIRST]:  # a play for the next player first
        return _give(memo_q, r, bc, bv, bf, bm, bn)
    if play_slot >= 0:
        return r.hand_size + play_slot
    if (sc >= prm[P_CLUE_MIN] or (info >= prm[P_RICH] and sc >= prm[P_RICH_MIN])
            or (DECK_SIZE - t[DEALT] <= prm[P_END_DECK] and sc >= prm[P_END_MIN])):
        return _give(memo_q, r, bc, bv, bf, bm, bn)
    # Last turn of the game (the deck is out): a possible play risks a life, not the game;
    # earlier, a likely play with lives to spare.
    last = t[DEALT] == DECK_SIZE and t[FINAL] > 0
    if (last and lives > 1) or lives >= prm[P_RISK_LIVES]:
        best_p = prm[P_GAMBLE] if last else prm[P_RISK]
        slot = -1
        for k in range(nh):
            sk = my[k]
            w = _weight(mine, sk)
            if w > 0:
                pr = _weight(mine, sk & playable) / w
                if pr > best_p:
                    best_p = pr
                    slot = k
        if slot >= 0:
            return r.hand_size + slot
    if info == MAX_INFO and not r.discard_capped:
        if sc > NEG:
            return _give(memo_q, r, bc, bv, bf, bm, bn)
        for is_color in (1, 0):  # no truthful clue: the first legal one, read as nothing
            for value in range(5):
                shift = value + (0 if is_color else 5)
                if (t[HINTS + q] >> shift) & SLOT_LOW_BITS:
                    return (r.color_hints if is_color else r.rank_hints) + value
    if trash_slot >= 0:
        return trash_slot
    _, chop = _chop(t, memo_p, p, nh)
    if chop >= 0:
        return chop
    if info > 0 and sc >= prm[P_STALL_MIN]:
        return _give(memo_q, r, bc, bv, bf, bm, bn)
    # Every card is clued: drop the one least likely to be critical.
    slot = 0
    best_risk = 2.0
    for k in range(nh):
        sk = my[k]
        w = _weight(mine, sk)
        risk = ((_weight(mine, sk & critical) + prm[P_LOCK_USEFUL]
                 * _weight(mine, sk & ~critical & ~(trash | dup))) / w if w > 0 else 1.0)
        if risk < best_risk:
            best_risk = risk
            slot = k
    return slot


@jit
def clue_context(t, memo, r, p):
    """What reading a clue by seat p needs from the table: (the unseen copies per type,
    their alive types, playable, queued playable, trash, critical, stall: whether a clue
    touching no new card reads as nothing)."""
    u, playable, trash, critical = _table_masks(t)
    alive = _nonzero(u)
    ext = _queued(t, memo, r.num_players, r.hand_size, alive, playable)
    _, my_chop = _chop(t, memo[p], p, held(t, p, r))
    stall = my_chop < 0 or t[INFO] == MAX_INFO
    return u, alive, playable, ext, trash, critical, stall


@jit
def reading(t, memo, r, q, is_color, value, alive, playable, ext, trash, critical, stall):
    """How seat q reads a colour (``is_color``) or rank clue ``value`` by these conventions:
    (the slots it touches, the new ones among them, the focus slot or -1, the focus word:
    the types it may be then and F_SAVE or F_PLAY)."""
    memo_q = memo[q]
    nq = held(t, q, r)
    sbs = (_public_set(t, memo_q, q, 0, nq, alive), _public_set(t, memo_q, q, 1, nq, alive),
           _public_set(t, memo_q, q, 2, nq, alive), _public_set(t, memo_q, q, 3, nq, alive),
           _public_set(t, memo_q, q, 4, nq, alive))
    clued, chop = _chop(t, memo_q, q, nq)
    match = (t[HINTS + q] >> (value + (0 if is_color else 5))) & SLOT_LOW_BITS
    touched = (match | (match >> 9) | (match >> 18) | (match >> 27) | (match >> 36)) & 31
    ct = COLOR_TYPES[value] if is_color else RANK_TYPES[value]
    new = touched & ~clued
    focus, save = _focus(touched, new, chop, _recue(sbs, nq, playable | ext, trash), stall)
    fmask = np.int64(0)
    if focus >= 0:
        sa = sbs[focus] & ct & (ext | critical if save else ext)
        if sa == 0:  # no type fits the reading: the clue reads as nothing
            focus = -1
        else:
            fmask = sa | (F_SAVE if save else F_PLAY)
    return touched, new, focus, fmask


@jit
def read_clue(s, i, r, action):
    """Write what ``action`` means by these conventions into the receiver's memo, when it is
    a clue by the player to act in env i to the next player (any other action: nothing): the
    words ``decide`` writes when it chooses that clue itself, read from public information
    and the clue only, for a clue that another player (a learned one) chose."""
    n = r.num_players
    if action < r.color_hints or action >= r.rank_hints + 5 * (n - 1):
        return
    is_color = action < r.rank_hints
    value = action - (r.color_hints if is_color else r.rank_hints)
    if value >= 5:  # a clue to a later player: these conventions give it no meaning
        return
    use_memo(s, i)
    t = s.table[i]
    p = t[PLAYER]
    q = p + 1 if p + 1 < n else 0
    memo = s.memo[i]
    _, alive, playable, ext, trash, critical, stall = clue_context(t, memo, r, p)
    _, new, focus, fmask = reading(t, memo, r, q, is_color, value, alive, playable, ext,
                                   trash, critical, stall)
    _give(memo[q], r, is_color, value, focus, fmask, new)
    if focus >= 0:
        memo[q, focus] |= F_READ


@jit
def conventions(s, i, r):
    """The built-in ``conventions`` player (``DEFAULT_PARAMS``)."""
    return decide(s, i, r, DEFAULT_PARAMS)
