"""Hanabi ``hat`` player: the hat-guessing "information" strategy (Cox et al., "How to make
the perfect fireworks display"; the variant of hanabi.rs's ``info`` strategy), for 3-5 players.

Public knowledge. Every card in every hand has a public set of possible types (25 bits):
the types its hints allow, minus those whose copies are all in the discard pile or on the
fireworks, minus what earlier hat answers excluded. The last part lives in ``State.memo``
(slot words: the complement of the set, so a drawn card's word 0 means "nothing excluded");
the acting player writes it, and only what every player can compute from public information
and the move. A type's public weight is its copies not yet discarded or played.

Questions. From a player's public sets alone anyone can tell which "question" about that
player's hand comes next, with how many possible answers (``_ask``): if the player knows no
playable card, "which of these cards is the first playable (or dead) one?" over the cards
whose status is uncertain; else "is this card (probability of playable near 0.7) playable?";
else "which block of its possible types holds this card?" (the types split round-robin into
blocks, the dead ones in a block of their own). Questions follow one another, each asked
about the sets as the previous answers left them, while the hint's range has room
(a mixed radix with hanabi.rs's truncation, ``_encode`` / ``_decode``).

Hints. A hint can take T = sum over the other players of 3 or 4 distinct readings: per
player, a rank hint touching a public "focus" card (the card whose type is least known), a
colour hint touching it, and a hint missing it (4 readings when it is public that the hand
holds two colours and two ranks: a rank and a colour hint missing it). The hinter adds up
every other player's answer mod T and gives the hint whose reading is that sum; each player
sees all the other answers, subtracts them and learns its own. So one hint answers a
question for every other player at once, and public knowledge of all hands shrinks fast.

Moves (hanabi.rs's info strategy). Play the card known to be playable (from the public set
narrowed by the cards this player sees; the lowest rank, preferring cards no one else
holds); with two lives and few discards, play a card that is playable or dead with
probability > 0.75 of playable. Hint at 8 tokens, or when another player has a playable
card without knowing one; else discard a card known useless while few cards are discarded;
else hint if someone can play; else hint with more than 4 tokens. A discard while a token
was left tells everyone that each other player knowing no playable card holds none. With
several public useless cards, which one is discarded is itself a hat answer (mod their
number). Otherwise discard the card most likely seen in another hand, dispensable, high.

With 2 players it plays legally but hints reach one player only (about 22 points).
The player never reads its own cards (only whether a slot holds one) or the deck.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.jit import jit
from ...core.stack import stack_array
from .rules import (
    COPIES,
    DEALT,
    DECK_SIZE,
    INFO,
    LIFE,
    MAX_INFO,
    PILED,
    PLAYER,
    card_at,
    colour_state,
    colour_table,
    know_at,
    use_memo,
)

ALL_TYPES = (1 << 25) - 1
COLOR_SET = np.array([31 << (5 * c) for c in range(5)], np.int64)  # the 5 types of colour c
RANK_SET = np.array([0x108421 << r for r in range(5)], np.int64)  # the 5 types of rank r
# A KNOW field's 5 colour bits / 5 rank bits as the set of types they allow.
COLOR_EXP = np.array([sum(31 << (5 * c) for c in range(5) if (m >> c) & 1) for m in range(32)],
                     np.int64)
RANK_EXP = np.array([sum(0x108421 << r for r in range(5) if (m >> r) & 1) for m in range(32)],
                    np.int64)


def _colour_sets(f: int, d: tuple[int, ...]) -> int:
    """A colour's board (height f, discards d by rank) as five 5-bit sets of its ranks:
    bits 0-4 and 5-9 the copies left (not discarded or played) bit by bit, 10-14 playable,
    15-19 dead (played, or above a rank whose copies are all discarded), 20-24 dispensable
    (not the last copy, or dead)."""
    left0 = left1 = playable = disp = 0
    dead = (1 << f) - 1
    gone = False
    for rk in range(5):
        left = max(COPIES[rk] - d[rk] - (rk < f), 0)  # (< 0: a board no game reaches)
        left0 |= (left & 1) << rk
        left1 |= (left >> 1) << rk
        disp |= (d[rk] != COPIES[rk] - 1) << rk
        if rk >= f:
            if gone:
                dead |= 1 << rk
            gone |= d[rk] == COPIES[rk]
    if f < 5:
        playable = 1 << f
    disp |= dead
    return left0 | left1 << 5 | playable << 10 | dead << 15 | disp << 20


BOARD = colour_table(_colour_sets)
MAX_Q = 16  # entries of a question: at most T - 1 <= 15 sub-questions, or T <= 16 blocks
RISKY_PLAY = 0.75


# ---------------------------------------------------------------- sets and weights


@jit(inline=True)
def _weight(x, g2, g3):
    """Copies left of the types in x (x within the types with a copy left): the types with
    at least 1, 2 and 3 copies left counted once each."""
    return popcount(x) + popcount(x & g2) + popcount(x & g3)


@jit(inline=True)
def _determined(x):
    return x != 0 and (x & (x - 1)) == 0


@jit(inline=True)
def _colors(x):
    """The colours present among the types in x, as bit 5c for colour c."""
    return (x | (x >> 1) | (x >> 2) | (x >> 3) | (x >> 4)) & 0x108421


@jit(inline=True)
def _ranks(x):
    y = x | (x >> 5) | (x >> 10) | (x >> 15) | (x >> 20)
    return y & 31


@jit(inline=True)
def _public_set(s, i, t, q, k, g1):
    """Public possible types of seat q's slot k (0 for an empty slot): hints, copies left and
    the hat answers in the slot's memo word."""
    kn = know_at(t, q, k)
    if kn == 0:
        return np.int64(0)
    base = COLOR_EXP[kn & 31] & RANK_EXP[kn >> 5] & g1
    x = base & ~s.memo[i, q, k]
    return x if x != 0 else base  # (only after a hint that could not be given as meant)


# ---------------------------------------------------------------- questions


@jit(inline=True)  # (called in a chain per target: inline, 5% of a hat clue)
def _ask(hs, base, n, total, playable, dead, g2, g3, qi, qm):
    """The next question about the hand ``hs[base:base + n]`` (public sets) with at most
    ``total`` answers. Returns (kind, answers): kind 0 none; 1 "the first of the cards
    ``qi[e]`` whose type is in ``qm[e]`` (e < answers - 1), 0 if none"; 2 "which of the blocks
    ``qm[:answers]`` holds card ``qi[0]``"."""
    know_playable = False
    know_dead = False
    ww = stack_array(5, np.int64)  # weights: the card's, its playable and dead types'
    wp = stack_array(5, np.int64)
    wd = stack_array(5, np.int64)
    live = 0  # cards worth asking about: not surely dead, not determined
    for k in range(n):
        x = hs[base + k]
        alive = x & ~dead
        know_playable |= (x & ~playable) == 0
        know_dead |= alive == 0
        if alive != 0 and (x & (x - 1)) != 0:
            ww[k] = _weight(x, g2, g3)
            wp[k] = _weight(x & playable, g2, g3)
            wd[k] = _weight(x & dead, g2, g3)
            live |= 1 << k
    if not know_playable:
        keys = stack_array(10, np.float64)  # ask-dead flag * 2 + probability of "yes"
        m = 0
        for k in range(n):
            if (live >> k) & 1 and wp[k] > 0:
                qi[m] = k
                qm[m] = playable
                keys[m] = wp[k] / ww[k]
                m += 1
        if not know_dead:
            for k in range(n):
                if (live >> k) & 1 and wd[k] > 0:
                    qi[m] = k
                    qm[m] = dead
                    keys[m] = 2.0 + wd[k] / ww[k]
                    m += 1
        if m > 0:
            cap = total - 1
            if m > cap:  # keep the playable questions first, then the likelier yes
                for a in range(1, m):  # stable insertion sort by (flag, -p)
                    b = a
                    while b > 0 and _before_desc(keys[b], keys[b - 1]):
                        _swap(qi, qm, keys, b)
                        b -= 1
                m = cap
            for a in range(1, m):  # then by (flag, p): unlikely yes first, stable
                b = a
                while b > 0 and _before_asc(keys[b], keys[b - 1]):
                    _swap(qi, qm, keys, b)
                    b -= 1
            return 1, m + 1
    best = -1
    best_d = 0.2
    for k in range(n):
        if (live >> k) & 1:
            d = abs(wp[k] / ww[k] - 0.7)
            if d < best_d:
                best_d = d
                best = k
    if best >= 0:
        qi[0] = best
        qm[0] = playable
        return 1, 2
    best = -1
    best_d = 2.0
    for k in range(n):
        if (live >> k) & 1:
            d = wd[k] / ww[k]
            if d < best_d:
                best_d = d
                best = k
    if best < 0:
        return 0, 1
    x = hs[base + best]
    has_dead = (x & dead) != 0
    blocks = total - 1 if has_dead else total
    for e in range(blocks):
        qm[e] = 0
    y = x & ~dead
    cur = 0
    used = 0
    while y:
        b = y & -y
        y ^= b
        qm[cur] |= b
        cur += 1
        if cur == blocks:
            cur = 0
        if used < blocks:
            used += 1
    if has_dead:
        qm[used] = x & dead
        used += 1
    qi[0] = best
    return 2, used


@jit(inline=True)
def _before_desc(a, b):
    """Key a sorts before key b in (flag ascending, probability descending) order."""
    fa, fb = a >= 2.0, b >= 2.0
    if fa != fb:
        return fb
    return a > b


@jit(inline=True)
def _before_asc(a, b):
    return a < b  # the flag adds 2, so plain order is (flag, probability) order


@jit(inline=True)
def _swap(qi, qm, keys, b):
    qi[b], qi[b - 1] = qi[b - 1], qi[b]
    qm[b], qm[b - 1] = qm[b - 1], qm[b]
    keys[b], keys[b - 1] = keys[b - 1], keys[b]


@jit(inline=True)
def _answer(kind, answers, qi, qm, t, q):
    """The answer of seat q's real hand (read by another seat) to the question."""
    if kind == 1:
        for e in range(answers - 1):
            if (qm[e] >> card_at(t, q, qi[e])) & 1:
                return e + 1
        return 0
    bit = np.int64(1) << card_at(t, q, qi[0])
    for e in range(answers):
        if qm[e] & bit:
            return e
    return 0


@jit(inline=True)
def _acknowledge(kind, answers, qi, qm, hs, base, a):
    """Narrow the sets ``hs[base:]`` to answer ``a``."""
    if kind == 1:
        stop = answers - 1 if a == 0 else a - 1
        for e in range(stop):
            hs[base + qi[e]] &= ~qm[e]
        if a > 0:
            hs[base + qi[a - 1]] &= qm[a - 1]
    else:
        hs[base + qi[0]] &= qm[a]


@jit
def _encode(hs, base, n, total, t, q, playable, dead, g2, g3, qi, qm):
    """Seat q's answer (mod ``total``) to its chain of questions, read from its real cards;
    narrows ``hs`` as every player will once the answer is known. The chain ends when the
    range left for more answers is 1 (hanabi.rs's mixed radix: the range left depends on
    the answers so far)."""
    m = 1
    v = 0
    while True:
        room = (total - v - 1) // m + 1
        if room <= 1:
            break
        kind, answers = _ask(hs, base, n, room, playable, dead, g2, g3, qi, qm)
        if kind == 0:
            break
        a = _answer(kind, answers, qi, qm, t, q)
        _acknowledge(kind, answers, qi, qm, hs, base, a)
        v += m * a
        m = min(total, m * answers)
    return v


@jit
def _decode(hs, base, n, total, value, playable, dead, g2, g3, qi, qm):
    """What the holder learns from ``value``, its share of a hat sum: ``_encode``'s chain read
    backwards; narrows ``hs``."""
    rng = total
    while rng > 1:
        kind, answers = _ask(hs, base, n, rng, playable, dead, g2, g3, qi, qm)
        if kind == 0:
            break
        a = value % answers
        value //= answers
        rng = (rng - a - 1) // answers + 1
        _acknowledge(kind, answers, qi, qm, hs, base, a)


@jit
def _hat_sum(hs, ncards, t, p, targets, total, playable, dead, g2, g3, qi, qm):
    """Sum mod ``total`` of the answers of the seats in bitmask ``targets`` (all but p);
    leaves their narrowed sets in ``hs``."""
    acc = 0
    for q in range(5):
        if (targets >> q) & 1:
            acc += _encode(hs, 5 * q, ncards[q], total, t, q, playable, dead, g2, g3, qi, qm)
    return acc % total


# ---------------------------------------------------------------- hints


@jit(inline=True)
def _readings(hs, base, n):
    """Readings of a hint to this hand: 4 when it is public that it holds two colours and
    two ranks, else 3."""
    one_color = 0x108421
    one_rank = 31
    for k in range(n):
        one_color &= _colors(hs[base + k])
        one_rank &= _ranks(hs[base + k])
    return 4 if one_color == 0 and one_rank == 0 else 3


@jit(inline=True)
def _focus(hs, base, n, dead):
    """The card a hint's reading turns on: the least known card (colour and rank both open
    first), the oldest of equals."""
    best = 0
    best_score = -1
    for k in range(n):
        x = hs[base + k]
        score = 0
        if (x & ~dead) != 0 and not _determined(x):
            score = 1 + (popcount(_colors(x)) > 1) + (popcount(_ranks(x)) > 1)
        if score > best_score:
            best_score = score
            best = k
    return best


@jit
def _goodness(hs, base, n, t, q, is_color, value, dead, g2, g3):
    """How much a hint narrows the target's public sets (hanabi.rs's hint goodness: the
    product over the cards of old weight / new weight, doubled for a card the hint makes
    determined or surely dead), as (numerator, denominator)."""
    num = 1.0
    den = 1.0
    mask = COLOR_SET[value] if is_color else RANK_SET[value]
    for k in range(n):
        x = hs[base + k]
        if (x & ~dead) == 0 or _determined(x):
            continue
        c = card_at(t, q, k)
        hit = (c // 5 if is_color else c % 5) == value
        y = x & mask if hit else x & ~mask
        if y == x:
            continue
        bonus = 2.0 if _determined(y) or (y & ~dead) == 0 else 1.0
        num *= bonus * _weight(x, g2, g3)
        den *= _weight(y, g2, g3)
    return num, den


@jit
def _hint(s, i, r, t, p, sets, post, ncards, playable, dead, g2, g3, qi, qm):
    """The hat hint, and the public sets it leaves written to the memo."""
    n = r.num_players
    targets = 0
    total = 0
    last = 2 if r.hint_next_only else n
    readings = stack_array(5, np.int64)
    focus = stack_array(5, np.int64)
    for k in range(1, last):
        q = (p + k) % n
        targets |= 1 << q
        readings[k] = _readings(sets, 5 * q, ncards[q])
        focus[k] = _focus(sets, 5 * q, ncards[q], dead)
        total += readings[k]
    for j in range(5 * n):
        post[j] = sets[j]
    value = _hat_sum(post, ncards, t, p, targets, total, playable, dead, g2, g3, qi, qm)
    # the target and the reading wanted
    k = 1
    kind = value
    while kind >= readings[k]:
        kind -= readings[k]
        k += 1
    q = (p + k) % n
    fc = card_at(t, q, focus[k])
    if kind < 2:  # the focus card's rank or colour
        best_a = (r.rank_hints + fc % 5 if kind == 0 else r.color_hints + fc // 5) + 5 * (k - 1)
    else:  # a hint missing the focus card: the one that narrows the hand most
        options = 0  # candidate hints, bits 0-4 colours, 5-9 ranks
        for slot in range(ncards[q]):
            c = card_at(t, q, slot)
            if c // 5 != fc // 5 and (readings[k] == 3 or kind == 3):
                options |= 1 << (c // 5)
            if c % 5 != fc % 5 and (readings[k] == 3 or kind == 2):
                options |= 1 << (5 + c % 5)
        best_a = r.rank_hints + 5 * (k - 1) + fc % 5  # (none: 3 equal cards, misread)
        if options & (options - 1):
            best_num = -1.0
            best_den = 1.0
            while options:
                b = lowest_bit(options)
                options &= options - 1
                is_color = b < 5
                v = b % 5
                num, den = _goodness(post, 5 * q, ncards[q], t, q, is_color, v, dead, g2, g3)
                if num * best_den > best_num * den:
                    best_num = num
                    best_den = den
                    best_a = (r.color_hints if is_color else r.rank_hints) + 5 * (k - 1) + v
        elif options:
            b = lowest_bit(options)
            best_a = (r.color_hints + b if b < 5 else r.rank_hints + b - 5) + 5 * (k - 1)
    # how every player reads the hint given (the sum unless it could not be given)
    is_color = best_a < r.rank_hints
    v = (best_a - (r.color_hints if is_color else r.rank_hints)) % 5
    touched = (fc // 5 if is_color else fc % 5) == v
    if touched:
        got = 1 if is_color else 0
    elif readings[k] == 3:
        got = 2
    else:
        got = 3 if is_color else 2
    for j in range(1, k):
        got += readings[j]
    if got != value:  # each target reads its answer shifted by got - value
        for j in range(5 * n):
            post[j] = sets[j]
        for kk in range(1, last):
            qq = (p + kk) % n
            mine = _encode(post, 5 * qq, ncards[qq], total, t, qq, playable, dead, g2, g3,
                           qi, qm)
            for j in range(5 * qq, 5 * qq + 5):
                post[j] = sets[j]
            _decode(post, 5 * qq, ncards[qq], total, (mine + got - value) % total, playable,
                    dead, g2, g3, qi, qm)
    _write(s, i, post, ncards, targets)
    return best_a


@jit(inline=True)
def _write(s, i, post, ncards, seats):
    for q in range(5):
        if (seats >> q) & 1:
            for k in range(ncards[q]):
                s.memo[i, q, k] = ALL_TYPES & ~post[5 * q + k]


# ---------------------------------------------------------------- the player


@jit(inline=True)
def _useless(hs, base, n, dead):
    """Bitmask of the cards known useless from these sets: surely dead, or of a determined
    type that another card of the hand is determined to share."""
    out = 0
    for k in range(n):
        x = hs[base + k]
        if (x & ~dead) == 0:
            out |= 1 << k
        elif _determined(x):
            for j in range(k):
                if hs[base + j] == x:
                    out |= (1 << k) | (1 << j)
    return out


@jit
def hat_action(s, i, r):
    """The hat player's move for the player to act in env i; writes what the move makes
    public to ``s.memo[i]``."""
    use_memo(s, i)
    t = s.table[i]
    n, h = r.num_players, r.hand_size
    p = t[PLAYER]
    # the board: copies left (publicly; and less those seen, privately), playable / dead /
    # dispensable types. Counts up to 3 are kept bit-sliced, one 25-bit set per bit.
    left0 = left1 = playable = dead = disp = np.int64(0)
    for c in range(5):
        e = BOARD[colour_state(t, c)]
        left0 |= (e & 31) << (5 * c)
        left1 |= ((e >> 5) & 31) << (5 * c)
        playable |= ((e >> 10) & 31) << (5 * c)
        dead |= ((e >> 15) & 31) << (5 * c)
        disp |= ((e >> 20) & 31) << (5 * c)
    seen0 = seen1 = np.int64(0)  # copies of each type in the other hands
    for q in range(n):
        if q != p:
            for k in range(h):
                c = card_at(t, q, k)
                if c >= 0:
                    b = np.int64(1) << c
                    seen1 |= seen0 & b
                    seen0 ^= b
    g1, g2, g3 = left0 | left1, left1, left0 & left1
    unseen0 = left0 ^ seen0  # left - seen (never below 0: the seen cards are left)
    unseen1 = left1 ^ seen1 ^ (~left0 & seen0)
    v1, v2, v3 = unseen0 | unseen1, unseen1, unseen0 & unseen1
    seen_any = seen0 | seen1
    sets = stack_array(25, np.int64)
    post = stack_array(25, np.int64)
    ncards = stack_array(5, np.int64)
    qi = stack_array(MAX_Q, np.int64)
    qm = stack_array(MAX_Q, np.int64)
    for q in range(5):
        ncards[q] = 0
    mine = 5 * p
    priv = stack_array(5, np.int64)
    for k in range(h):  # own cards first: the others' sets are not needed for a play
        x = _public_set(s, i, t, p, k, g1)
        sets[mine + k] = x
        if x != 0:
            ncards[p] = k + 1
        y = x & v1
        priv[k] = y if y != 0 else x
    nme = ncards[p]
    # play a card known to be playable: low ranks, and cards no one else holds, first
    best = -1
    best_score = -1.0
    for k in range(nme):
        x = priv[k]
        if (x & ~playable) == 0:
            total = 0.0
            weight = 0.0
            y = x
            while y:
                ty = lowest_bit(y)
                y &= y - 1
                w = 1.0 + ((v2 >> ty) & 1) + ((v3 >> ty) & 1)
                holders = 1
                if t[DEALT] < DECK_SIZE:
                    for q in range(n):
                        if q != p:
                            for kk in range(h):
                                if card_at(t, q, kk) == ty:
                                    holders += 1
                                    break
                total += w * (9.0 - ty % 5) / holders
                weight += w
            score = total / weight
            if score > best_score:
                best_score = score
                best = k
    if best >= 0:
        return h + best
    threshold = DECK_SIZE - 25 - n * h
    if t[LIFE] > 1 and t[PILED] <= threshold:
        best_p = RISKY_PLAY
        for k in range(nme):
            x = priv[k]
            if (x & ~(playable | dead)) == 0:
                pr = _weight(x & playable, v2, v3) / _weight(x, v2, v3)
                if pr > best_p:
                    best_p = pr
                    best = k
        if best >= 0:
            return h + best
    # hint or discard
    for q in range(n):
        if q != p:
            for k in range(h):
                x = _public_set(s, i, t, q, k, g1)
                sets[5 * q + k] = x
                if x != 0:
                    ncards[q] = k + 1
    info = t[INFO]
    needs = False  # another player holds a playable card and knows none
    can_play = False
    for q in range(n):
        if q == p:
            continue
        has = False
        for k in range(ncards[q]):
            has |= (playable >> card_at(t, q, k)) & 1
        knows = False
        for k in range(ncards[q]):
            knows |= (sets[5 * q + k] & ~playable) == 0
        can_play |= has
        needs |= has and not knows
    useless = _useless(priv, 0, nme, dead)
    if info == MAX_INFO or (info > 0 and needs):
        hint = True
    elif t[PILED] <= threshold and useless != 0:
        hint = False
    elif info > 0 and can_play:
        hint = True
    else:
        hint = info > 4
    if hint:
        return _hint(s, i, r, t, p, sets, post, ncards, playable, dead, g2, g3, qi, qm)
    # a discard: with a token left it says no one else needs a hint
    others = 0
    for q in range(n):
        if q != p:
            others |= 1 << q
    for j in range(5 * n):
        post[j] = sets[j]
    public_useless = _useless(sets, mine, nme, dead)
    if info > 0:
        for q in range(n):
            if q == p:
                continue
            knows = False
            for k in range(ncards[q]):
                knows |= (sets[5 * q + k] & ~playable) == 0
            if not knows:
                for k in range(ncards[q]):
                    post[5 * q + k] &= ~playable
    count = popcount(public_useless)
    if count > 1:  # which public useless card goes is a hat answer mod their number
        pick = _hat_sum(post, ncards, t, p, others, count, playable, dead, g2, g3, qi, qm)
        _write(s, i, post, ncards, others)
        y = public_useless
        for _ in range(pick):
            y &= y - 1
        return lowest_bit(y)
    _write(s, i, post, ncards, others)
    if useless != 0:
        return lowest_bit(useless)
    best = 0
    best_score = -1.0
    for k in range(nme):
        x = priv[k]
        w = _weight(x, v2, v3)
        y = x
        avg = 0.0
        while y:
            ty = lowest_bit(y)
            y &= y - 1
            avg += (1.0 + ((v2 >> ty) & 1) + ((v3 >> ty) & 1)) * (ty % 5 + 1)
        score = (20.0 * _weight(x & seen_any, v2, v3) + 10.0 * _weight(x & disp, v2, v3)
                 + avg) / w
        if score > best_score:
            best_score = score
            best = k
    return best
