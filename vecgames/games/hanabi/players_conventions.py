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
from .rules import (
    DEALT,
    DECK_SIZE,
    DISCARDS,
    FINAL,
    FIRE,
    HINTS,
    INFO,
    LIFE,
    MAX_INFO,
    PLAYER,
    SLOT_LOW_BITS,
    card_at,
    held,
    know_at,
    revealed_at,
    use_memo,
)

EVEN = sum(1 << (2 * x) for x in range(25))  # every type's bit
RANK5 = sum(1 << (2 * (5 * c + 4)) for c in range(5))  # the 5s
COPIES = np.array([3, 2, 2, 2, 1], np.int64)
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
def _slot_set(know, word, alive):
    """Types a slot may hold: its hint knowledge, its convention mask, the counts."""
    m = KNOW_TYPES[know] & alive
    if word & F_MASKED:
        m &= word
    return m


@jit
def _table_masks(t):
    """Public counts and sets: unseen copies per type (hands + deck, 2 bits each), the types
    playable now, trash (played, or unreachable), critical (one copy left, still needed)."""
    u = np.int64(0)
    playable = np.int64(0)
    trash = np.int64(0)
    critical = np.int64(0)
    for col in range(5):
        f = t[FIRE + col]
        dead = False
        for rank in range(5):
            x = 5 * col + rank
            cp = COPIES[rank]
            d = t[DISCARDS + x]
            b = np.int64(1) << (2 * x)
            if rank < f:
                trash |= b
                u += (cp - d - 1) << (2 * x)
            else:
                if d == cp:
                    dead = True
                if dead:
                    trash |= b
                else:
                    if rank == f:
                        playable |= b
                    if cp - d == 1:
                        critical |= b
                u += (cp - d) << (2 * x)
    return u, playable, trash, critical


@jit
def _queued(t, memo, n, h, alive, playable):
    """The types playable once the cards everyone knows exactly and knows playable are
    played: the next type of each colour, advanced past every such queued card."""
    ext = playable
    for _ in range(5):
        grew = False
        for seat in range(n):
            for k in range(h):
                know = know_at(t, seat, k)
                if know == 0:
                    continue
                sk = _slot_set(know, memo[seat, k], alive)
                if sk != 0 and sk & (sk - 1) == 0 and sk & ext:
                    ext = (ext & ~sk) | ((sk & ~RANK5) << 2)
                    grew = True
        if not grew:
            break
    return ext


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


@jit(inline=True)
def _card_bit(t, q, k, nh):
    """Seat q's card in slot k as a type bit (0 past its cards); q is not the caller."""
    if k >= nh:
        return np.int64(0)
    return np.int64(1) << (2 * card_at(t, q, k))


@jit(inline=True)
def _focus(touched, nh, sbs, clued, chop, good, ext, trash, critical, stall):
    """How the receiver reads a clue touching slots ``touched``: (the newly touched slots, the
    focus slot or -1, the types the focus may then be). A new card on the chop is a save
    (playable soon or critical), else the newest new card is a play; with no new card (and
    ``stall`` false) a re-clue of the newest touched card not yet known good or trash."""
    new = touched & ~clued
    focus = -1
    kmask = ext
    if new != 0:
        if chop >= 0 and (new >> chop) & 1:
            focus = chop
            kmask = ext | critical
        else:
            for k in range(nh - 1, -1, -1):
                if (new >> k) & 1:
                    focus = k
                    break
    elif not stall:  # a re-clue: its newest touched card not yet known good or trash
        for k in range(nh - 1, -1, -1):
            if (touched >> k) & 1:
                sb = sbs[k]
                if sb & ~good != 0 and sb & ~trash != 0:
                    focus = k
                    break
    return new, focus, kmask


@jit
def _eval_clue(touched, ct, nh, sbs, cbs, clued, chop, known, taken, playable, ext, near,
               trash, critical, urgent, stall, prm):
    """Score a clue touching slots ``touched`` (its types ``ct``) as the receiver reads it,
    from the receiver's public sets ``sbs`` and real cards ``cbs`` (``stall``: a clue touching
    no new card means nothing). Returns (score, focus, focus word, new slots); score NEG when
    its reading would exclude the real card."""
    good = playable | ext  # a card known to be one of these will be played in turn
    new, focus, kmask = _focus(touched, nh, sbs, clued, chop, good, ext, trash, critical, stall)
    score = 0.0
    fmask = np.int64(0)
    now = False  # a card the receiver knows it can play now
    for k in range(nh):
        cb = cbs[k]
        sb = sbs[k]
        sa = sb & ct if (touched >> k) & 1 else sb & ~ct
        if k == focus:
            if sa & kmask == 0:  # no type fits the reading: the clue reads as nothing
                focus = -1
            elif sa & kmask & cb == 0:
                return NEG, -1, np.int64(0), 0
            else:
                sa &= kmask
                fmask = sa | (F_SAVE if k == chop and new != 0 else F_PLAY)
        if sa != 0 and sa & ~good == 0 and not (sb != 0 and sb & ~good == 0):
            if known & cb == 0 and cb & ext:
                score += prm[P_PLAY] if cb & playable else prm[P_PLAY] * prm[P_DELAYED]
                known |= cb
        elif (new >> k) & 1:
            if cb & (trash | taken):
                score -= prm[P_TRASH]
            elif cb & near:
                score += prm[P_INFO]
            else:  # two or more ranks above what is playable
                score += prm[P_INFO_FAR]
            taken |= cb
        if sa & ~trash == 0 and sb & ~trash != 0:
            score += prm[P_KTRASH]
        if k == chop and urgent and (new >> k) & 1:
            score += prm[P_SAVE]
        if sa != 0 and sa & ~playable == 0:
            now = True
    if urgent and not now and not (new >> chop) & 1:  # q would discard its chop
        score -= prm[P_SAVE]
    return score, focus, fmask, new


@jit
def _best_clue(t, memo_q, q, nh, alive, playable, ext, trash, critical, urgent, stall, taken,
               prm):
    """The best-scoring truthful clue to seat q: (score, is_color, value, focus, mask, new)."""
    sbs = (_public_set(t, memo_q, q, 0, nh, alive), _public_set(t, memo_q, q, 1, nh, alive),
           _public_set(t, memo_q, q, 2, nh, alive), _public_set(t, memo_q, q, 3, nh, alive),
           _public_set(t, memo_q, q, 4, nh, alive))
    cbs = (_card_bit(t, q, 0, nh), _card_bit(t, q, 1, nh), _card_bit(t, q, 2, nh),
           _card_bit(t, q, 3, nh), _card_bit(t, q, 4, nh))
    clued, chop = _chop(t, memo_q, q, nh)
    good = playable | ext
    known = np.int64(0)  # types q already knows it will play
    for k in range(nh):
        if (clued >> k) & 1:  # a second copy touched would be a bad touch
            taken |= cbs[k]
        if sbs[k] != 0 and sbs[k] & ~good == 0:
            known |= cbs[k]
    near = ext | ((ext & ~RANK5) << 2)
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
            sc, f, m, nw = _eval_clue(touched, ct, nh, sbs, cbs, clued, chop, known, taken,
                                      playable, ext, near, trash, critical, urgent, stall,
                                      prm)
            if sc > best:
                best, bc, bv, bf, bm, bn = sc, is_color, value, f, m, nw
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
    p = t[PLAYER]
    q = p + 1 if p + 1 < n else 0
    memo = s.memo[i]
    memo_p = memo[p]
    memo_q = memo[q]
    u, playable, trash, critical = _table_masks(t)
    alive = _nonzero(u)
    seen = np.int64(0)  # copies in the other players' hands
    qtypes = np.int64(0)  # types in the next player's hand
    for o in range(n):
        if o != p:
            for k in range(r.hand_size):
                c = card_at(t, o, k)
                if c >= 0:
                    seen += np.int64(1) << (2 * c)
                    if o == q:
                        qtypes |= np.int64(1) << (2 * c)
    mine = u - seen  # copies I cannot see: in my hand or the deck
    my_alive = _nonzero(mine)
    nh = held(t, p, r)
    nq = held(t, q, r)
    info = t[INFO]
    lives = t[LIFE]

    # My cards: a known-playable card to play (the one unlocking a card the next player
    # holds first), a known-trash card to discard.
    exact = np.int64(0)  # copies of my cards whose type I know: no other card of mine
    for k in range(nh):
        sk = _slot_set(know_at(t, p, k), memo_p[k], my_alive)
        if sk != 0 and sk & (sk - 1) == 0:
            exact += sk
    rest_alive = _nonzero(mine - exact)
    ext = _queued(t, memo, n, r.hand_size, alive, playable)
    dup = np.int64(0)  # types the next player knows it will play
    for k in range(nq):
        sq = _slot_set(know_at(t, q, k), memo_q[k], alive)
        if sq != 0 and sq & ~(playable | ext) == 0:
            dup |= np.int64(1) << (2 * card_at(t, q, k))
    play_slot = -1
    play_pri = -1
    trash_slot = -1
    for k in range(nh):
        sk = _slot_set(know_at(t, p, k), memo_p[k], my_alive)
        if sk == 0:
            continue
        if sk & (sk - 1) != 0:
            sk = _slot_set(know_at(t, p, k), memo_p[k], rest_alive)
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

    # The next player's view: will it play, or discard a critical chop?
    q_plays = False
    q_trash = False
    for k in range(nq):
        sq = _slot_set(know_at(t, q, k), memo_q[k], alive)
        if sq != 0 and sq & ~playable == 0:
            q_plays = True
        elif sq != 0 and sq & ~trash == 0:
            q_trash = True
    _, qchop = _chop(t, memo_q, q, nq)
    urgent = False
    if qchop >= 0 and not q_plays and not q_trash:
        urgent = ((np.int64(1) << (2 * card_at(t, q, qchop))) & critical) != 0

    if info > 0 and (urgent or not q_plays or play_slot < 0):  # else it plays (below)
        _, my_chop = _chop(t, memo_p, p, nh)
        stall = my_chop < 0 or info == MAX_INFO
        taken = np.int64(0)  # types of my cards that everyone knows exactly
        for k in range(nh):
            sk = _slot_set(know_at(t, p, k), memo_p[k], alive)
            if sk & (sk - 1) == 0:
                taken |= sk
        sc, bc, bv, bf, bm, bn = _best_clue(t, memo_q, q, nq, alive, playable, ext, trash,
                                            critical, urgent, stall, taken, prm)
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
            sk = _slot_set(know_at(t, p, k), memo_p[k], my_alive)
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
        sk = _slot_set(know_at(t, p, k), memo_p[k], my_alive)
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
    new, focus, kmask = _focus(touched, nq, sbs, clued, chop, playable | ext, ext, trash,
                               critical, stall)
    fmask = np.int64(0)
    if focus >= 0:
        sa = sbs[focus] & ct & kmask
        if sa == 0:  # no type fits the reading: the clue reads as nothing
            focus = -1
        else:
            fmask = sa | (F_SAVE if focus == chop and new != 0 else F_PLAY)
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
