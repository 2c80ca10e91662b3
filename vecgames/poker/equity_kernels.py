"""Kernels of the equity calculator: exact board enumeration and Monte Carlo sampling.

Both count, per player p, ``counts[p, j]`` = boards (or samples) where p shares the best hand
with j - 1 others (j = 1: an outright win); ``counts[p, 0]`` is unused except
``counts[0, 0]``, the number of boards. Work is split into ``LANES`` fixed lanes, each with
its own counters, and the lanes are summed in order afterwards, so the result is the same on
any thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..core.jit import jit
from ..core.rng import below, high32, next_u64, stream_start
from .seven_card import CARD_BIT, CARD_KEY, ROYAL_FLUSH, category_of, strength_of

LANES = 16
MC_CHUNK = 4096  # samples per random stream
# A lane's scratch row (keys in row 0, bits in row 1): the deck's cards, then every pair of
# them (heads-up enumerations of 4+ cards score the last two cards as one loop over pairs),
# then in the keys row the index of the first pair of each first card.
PAIRS_AT = 52
STARTS_AT = PAIRS_AT + 52 * 51 // 2
SCRATCH_COLUMNS = STARTS_AT + 53


def new_deck_scratch() -> np.ndarray:
    """Scratch rows for the enumeration kernels, one per lane."""
    return np.zeros((LANES, 2, SCRATCH_COLUMNS), np.int64)


@jit(inline=True)
def _score(key, bits, hole_keys, hole_bits, num_players, counts, strengths):
    # Branch-free: who wins a board is a coin flip a predictor cannot learn.
    best = 0
    for p in range(num_players):
        s = strength_of(key + hole_keys[p], bits | hole_bits[p])
        strengths[p] = s
        best = max(best, s)
    ties = 0
    for p in range(num_players):
        ties += strengths[p] == best
    for p in range(num_players):
        counts[p, ties] += strengths[p] == best
    counts[0, 0] += 1


@jit(inline=True)
def _last_card(deck_keys, deck_bits, lo, n, key, bits, hole, num_players, counts):
    # The innermost loop: every last card deck[lo:n]. Heads-up returns its tallies (wins of
    # player 0, ties) instead of storing them: a store into ``counts`` in the loop nest would
    # force reloading the hole keys every board (measured 1.3x slower).
    if num_players != 2:
        for i in range(lo, n):
            _score(key + deck_keys[i], bits | deck_bits[i], hole[0], hole[1], num_players,
                   counts, hole[2])
        return 0, 0
    key0, bits0 = key + hole[0, 0], bits | hole[1, 0]
    key1, bits1 = key + hole[0, 1], bits | hole[1, 1]
    wins0 = ties = 0
    last_keys, last_bits = deck_keys[lo:n], deck_bits[lo:n]  # from 0: no wrap-around checks
    for i in range(last_keys.shape[0]):
        card_key, card_bit = last_keys[i], last_bits[i]
        s0 = strength_of(key0 + card_key, bits0 | card_bit)
        s1 = strength_of(key1 + card_key, bits1 | card_bit)
        wins0 += s0 > s1
        ties += s0 == s1
    return wins0, ties


@jit
def _pairs(deck_keys, deck_bits, n):
    """Write every pair a < b of the row's n cards (by a, then b) and the first pair of each a
    into the scratch row (see ``PAIRS_AT``); returns how many pairs."""
    m = 0
    for a in range(n):
        deck_keys[STARTS_AT + a] = m
        for b in range(a + 1, n):
            deck_keys[PAIRS_AT + m] = deck_keys[a] + deck_keys[b]
            deck_bits[PAIRS_AT + m] = deck_bits[a] | deck_bits[b]
            m += 1
    deck_keys[STARTS_AT + n] = m
    return m


@jit
def enumerate_boards(deck_keys, deck_bits, n, k, part, parts, key, bits, hole, num_players,
                     counts):
    """Score every way to add ``k`` of the ``n`` cards whose keys and bits are ``deck_keys``
    and ``deck_bits`` to a board with ``key``/``bits`` (``hole``: the players' hole keys, bits
    and strength scratch). This call takes the share ``part`` of ``parts``: the choices of the
    first two added cards (the first one when k = 1) whose running index is ``part`` modulo
    ``parts``."""
    if k == 0:
        if part == 0:
            _score(key, bits, hole[0], hole[1], num_players, counts, hole[2])
        return
    wins0 = ties = boards = 0
    # Heads-up, the last two cards run as one loop over the pairs after the prefix: a loop
    # of hundreds of boards that LLVM vectorises, where the last card alone gave 1 to 44.
    pairs = _pairs(deck_keys, deck_bits, n) if num_players == 2 and k >= 4 else 0
    pair_keys, pair_bits = deck_keys[PAIRS_AT:STARTS_AT], deck_bits[PAIRS_AT:STARTS_AT]
    if k == 1:
        for i0 in range(part, n, parts):
            w, t = _last_card(deck_keys, deck_bits, i0, i0 + 1, key, bits, hole, num_players,
                              counts)
            wins0, ties, boards = wins0 + w, ties + t, boards + 1
    prefix = -1
    for i0 in range(n - k + 1 if k >= 2 else 0):
        k1, b1 = key + deck_keys[i0], bits | deck_bits[i0]
        for i1 in range(i0 + 1, n - k + 2):
            prefix += 1
            if prefix % parts != part:
                continue
            if k == 2:
                w, t = _last_card(deck_keys, deck_bits, i1, i1 + 1, k1, b1, hole, num_players,
                                  counts)
                wins0, ties, boards = wins0 + w, ties + t, boards + 1
                continue
            k2, b2 = k1 + deck_keys[i1], b1 | deck_bits[i1]
            if k == 4 and pairs:
                lo = deck_keys[STARTS_AT + i1 + 1]
                w, t = _last_card(pair_keys, pair_bits, lo, pairs, k2, b2, hole, num_players,
                                  counts)
                wins0, ties, boards = wins0 + w, ties + t, boards + pairs - lo
                continue
            if k == 3:
                w, t = _last_card(deck_keys, deck_bits, i1 + 1, n, k2, b2, hole, num_players,
                                  counts)
                wins0, ties, boards = wins0 + w, ties + t, boards + n - i1 - 1
                continue
            for i2 in range(i1 + 1, n - k + 3):
                k3, b3 = k2 + deck_keys[i2], b2 | deck_bits[i2]
                if k == 4:
                    w, t = _last_card(deck_keys, deck_bits, i2 + 1, n, k3, b3, hole,
                                      num_players, counts)
                    wins0, ties, boards = wins0 + w, ties + t, boards + n - i2 - 1
                    continue
                if pairs:  # k == 5
                    lo = deck_keys[STARTS_AT + i2 + 1]
                    w, t = _last_card(pair_keys, pair_bits, lo, pairs, k3, b3, hole,
                                      num_players, counts)
                    wins0, ties, boards = wins0 + w, ties + t, boards + pairs - lo
                    continue
                for i3 in range(i2 + 1, n - k + 4):
                    k4, b4 = k3 + deck_keys[i3], b3 | deck_bits[i3]
                    w, t = _last_card(deck_keys, deck_bits, i3 + 1, n, k4, b4, hole,
                                      num_players, counts)
                    wins0, ties, boards = wins0 + w, ties + t, boards + n - i3 - 1
    if num_players == 2:
        counts[0, 1] += wins0
        counts[1, 1] += boards - wins0 - ties
        counts[0, 2] += ties
        counts[1, 2] += ties
        counts[0, 0] += boards


@jit
def _hole(assignment, num_players, hole_keys, hole_bits):
    # Hole keys/bits of one assignment; returns the mask of the cards it uses.
    used = np.int64(0)
    for p in range(num_players):
        a, b = assignment[p, 0], assignment[p, 1]
        hole_keys[p] = CARD_KEY[a] + CARD_KEY[b]
        hole_bits[p] = CARD_BIT[a] | CARD_BIT[b]
        used |= (np.int64(1) << a) | (np.int64(1) << b)
    return used


@jit
def _remaining(base_deck, used, deck_keys, deck_bits):
    # Keys and bits of the cards of base_deck not in the ``used`` mask; returns how many.
    n = 0
    for c in base_deck:
        if not (used >> c) & 1:
            deck_keys[n] = CARD_KEY[c]
            deck_bits[n] = CARD_BIT[c]
            n += 1
    return n


@jit(parallel=True)
def exact_counts(assignments, weights, base_deck, board_key, board_bits, k, parts,
                 lane_counts, lane_weighted, scratch_deck, scratch_keys, scratch_counts):
    """Exact enumeration over every assignment ``assignments[a]`` ([P, 2] cards) and board.

    Task t = (assignment t // parts, share t % parts); lane j runs tasks j, j + LANES, ...
    ``lane_counts`` [LANES, P, P+1] gets integer counts, ``lane_weighted`` the same times the
    assignment's weight.
    """
    num_players = assignments.shape[1]
    num_tasks = assignments.shape[0] * parts
    for lane in prange(LANES):
        deck_keys = scratch_deck[lane, 0]
        deck_bits = scratch_deck[lane, 1]
        hole_keys = scratch_keys[lane, 0]
        hole_bits = scratch_keys[lane, 1]
        local = scratch_counts[lane]
        for t in range(lane, num_tasks, LANES):
            a, part = t // parts, t % parts
            used = _hole(assignments[a], num_players, hole_keys, hole_bits)
            n = _remaining(base_deck, used, deck_keys, deck_bits)
            local[:, :] = 0
            enumerate_boards(deck_keys, deck_bits, n, k, part, parts, board_key, board_bits,
                             scratch_keys[lane], num_players, local)
            for p in range(num_players):
                for j in range(num_players + 1):
                    lane_counts[lane, p, j] += local[p, j]
                    lane_weighted[lane, p, j] += weights[a] * local[p, j]


@jit
def _pick(cumulative, u):
    # Index of the first cumulative weight above u (binary search).
    lo, hi = 0, cumulative.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cumulative[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@jit
def _deal_holes(combos, cumulative, sizes, uniform, base_deck, max_rejections, rng, lane,
                hole_keys, hole_bits):
    # Draw the players' combos by weight, all again on a clash (rejection keeps each clash-free
    # assignment's probability proportional to its weight product). Players whose range is
    # every remaining combo at one weight (``uniform``) are then dealt two unused cards: the
    # number of ways to deal them is the same after any assignment of the others, so this is
    # the same distribution without the rejections. Returns the used-card mask, or -1 after
    # ``max_rejections`` clashes in a row.
    num_players = combos.shape[0]
    used = np.int64(0)
    rejections = 0
    p = 0
    while p < num_players:
        if uniform[p]:
            p += 1
            continue
        u = (next_u64(rng, lane) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        i = _pick(cumulative[p, :sizes[p]], u * cumulative[p, sizes[p] - 1])
        a, b = combos[p, i, 0], combos[p, i, 1]
        mask = (np.int64(1) << a) | (np.int64(1) << b)
        if used & mask:
            rejections += 1
            if rejections >= max_rejections:
                return np.int64(-1)
            used = np.int64(0)
            p = 0
            continue
        used |= mask
        hole_keys[p] = CARD_KEY[a] + CARD_KEY[b]
        hole_bits[p] = CARD_BIT[a] | CARD_BIT[b]
        p += 1
    for p in range(num_players):
        if uniform[p]:
            hole_keys[p], hole_bits[p], used = _draw_board(base_deck, 2, used, np.int64(0),
                                                           np.int64(0), rng, lane)
    return used


@jit
def _draw_board(base_deck, k, used, key, bits, rng, lane):
    # Add k cards drawn uniformly from base_deck minus ``used`` (two draws per 64 bits);
    # returns the new key, bits and used-card mask.
    n = base_deck.shape[0]
    drawn = 0
    r = np.uint64(0)
    half = 0
    while drawn < k:
        if half == 0:
            r = next_u64(rng, lane)
            c = base_deck[below(r, n)]
        else:
            c = base_deck[below(high32(r), n)]
        half ^= 1
        if not (used >> c) & 1:
            used |= np.int64(1) << c
            key += CARD_KEY[c]
            bits |= CARD_BIT[c]
            drawn += 1
    return key, bits, used


@jit(parallel=True)
def monte_carlo_counts(combos, cumulative, sizes, uniform, base_deck, board_key, board_bits, k,
                       samples, seed, max_rejections, lane_counts, scratch_keys, rng, failed):
    """``samples`` random deals: each player's combo drawn by weight (``combos[p, :sizes[p]]``,
    ``cumulative[p]`` its running weight total; see ``_deal_holes``), then ``k`` board cards
    uniform from ``base_deck`` minus the hole cards. Sample s comes from stream
    ``s // MC_CHUNK`` of ``seed``. ``failed[lane]`` is set when a chunk hit
    ``max_rejections`` clashes in a row."""
    num_players = combos.shape[0]
    num_chunks = (samples + MC_CHUNK - 1) // MC_CHUNK
    for lane in prange(LANES):
        hole_keys = scratch_keys[lane, 0]
        hole_bits = scratch_keys[lane, 1]
        strengths = scratch_keys[lane, 2]
        counts = lane_counts[lane]
        for chunk in range(lane, num_chunks, LANES):
            rng[lane] = stream_start(seed, chunk)
            end = min(samples, (chunk + 1) * MC_CHUNK)
            for _ in range(chunk * MC_CHUNK, end):
                used = _deal_holes(combos, cumulative, sizes, uniform, base_deck,
                                   max_rejections, rng, lane, hole_keys, hole_bits)
                if used < 0:
                    failed[lane] = True
                    break
                key, bits, used = _draw_board(base_deck, k, used, board_key, board_bits, rng,
                                              lane)
                _score(key, bits, hole_keys, hole_bits, num_players, counts, strengths)


@jit
def _combos_clash(x, y):
    return x[0] == y[0] or x[0] == y[1] or x[1] == y[0] or x[1] == y[1]


@jit
def list_assignments(combos, sizes, weights, limit, idx, out, out_weights):
    """Walk every clash-free choice of one combo per player (``combos[p, :sizes[p]]``) in
    odometer order, writing the first ``len(out)`` to ``out`` ([A, P, 2]) with the product of
    the players' weights. Returns the count, stopping once it passes ``limit``. ``idx`` is
    scratch of length P."""
    num_players = combos.shape[0]
    count = 0
    p = 0
    idx[0] = -1
    while p >= 0:
        idx[p] += 1
        if idx[p] >= sizes[p]:
            p -= 1
            continue
        clash = False
        for q in range(p):
            if _combos_clash(combos[q, idx[q]], combos[p, idx[p]]):
                clash = True
                break
        if clash:
            continue
        if p < num_players - 1:
            p += 1
            idx[p] = -1
            continue
        if count < out.shape[0]:
            w = 1.0
            for q in range(num_players):
                out[count, q, 0] = combos[q, idx[q], 0]
                out[count, q, 1] = combos[q, idx[q], 1]
                w *= weights[q, idx[q]]
            out_weights[count] = w
        count += 1
        if count > limit:
            return count
    return count


@jit(parallel=True)
def exact_counts_each(assignments, base_deck, board_key, board_bits, k, out, scratch_deck,
                      scratch_keys):
    """Like :func:`exact_counts` but one whole enumeration per assignment, its counts in
    ``out[a]`` (for many assignments: lane j takes assignments j, j + LANES, ...)."""
    num_players = assignments.shape[1]
    for lane in prange(LANES):
        deck_keys = scratch_deck[lane, 0]
        deck_bits = scratch_deck[lane, 1]
        for a in range(lane, assignments.shape[0], LANES):
            used = _hole(assignments[a], num_players, scratch_keys[lane, 0],
                         scratch_keys[lane, 1])
            n = _remaining(base_deck, used, deck_keys, deck_bits)
            enumerate_boards(deck_keys, deck_bits, n, k, 0, 1, board_key, board_bits,
                             scratch_keys[lane], num_players, out[a])


@jit
def category_histogram(fixed_key, fixed_bits, deck_keys, deck_bits, n, k, idx, hist):
    """``hist[c]`` += boards where adding ``k`` of the ``n`` deck cards to the fixed cards
    makes category c (0..8; 9 counts royal flushes apart). ``idx``: scratch of length k."""
    for i in range(k):
        idx[i] = i
    while True:
        key, bits = fixed_key, fixed_bits
        for i in range(k):
            key += deck_keys[idx[i]]
            bits |= deck_bits[idx[i]]
        s = strength_of(key, bits)
        hist[9 if s == ROYAL_FLUSH else category_of(s)] += 1
        # next combination in lexicographic order
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
