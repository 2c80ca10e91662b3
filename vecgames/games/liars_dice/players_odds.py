"""The Liar's Dice ``odds`` player: exact bid odds conditioned on the bidding history.

It reads only its own dice and the public round (the bids made, the last two in order, who
bid last). The model, per decision:

1. **Whose dice are modelled.** The last bidder o (heads-up: the opponent) holds one of the
   C(d + 5, 5) hands of d dice (252 for 5), a priori with its exact multinomial probability.
   Every other unknown die (with 3+ players) stays Binomial as in the odds module.
2. **The history.** The round's bids are put in order: the last two are known; the others are
   sorted by value (a 斋 count is worth two 飞 counts, which is the order every legal raise
   follows, cycles of equal value aside). Counting back from the last bid, every P-th bid is
   o's, and the bid just before each of o's bids is one o saw and did not challenge.
3. **Evidence.** Each of o's bids (mode, count c, face f) multiplies the weight of hand h by
   ``softmax_f(beta * m_h)`` (o names a face it holds: m_h its dice that count for f, against
   the other faces of the mode) times ``floor + (1 - floor) * sigmoid(kappa_b * (P_h - theta_b))``
   (o believes the count: P_h is o's own exact odds of the bid with hand h, the odds
   module's Binomial over the dice o cannot see). Each bid o let pass multiplies it by the
   same kind of factor with ``theta_r, kappa_r``. The posterior is normalised over the hands.
4. **Odds.** P(bid holds) = sum over hands of posterior x the odds module's exact tail for the
   remaining unknown dice (heads-up: 0 unknown, so the bid holds or not). With no evidence it
   equals the odds module's Binomial tail exactly.
5. **Decision.** A bid b is worth its chance of not losing the round: the next player
   challenges it with probability ``C = sigmoid(kappa_c * (theta_c - P_n(b)))``, P_n(b) being
   that player's own exact odds of b (then b holding decides), and otherwise raises, which is
   worth V. Heads-up (and at a round's first bid) the next player is the modelled seat, so C
   and [b holds] are taken jointly over its posterior hands; with 3+ players its matches are
   Binomial among the unknown dice. Challenging is worth 1 - P(last bid holds). It takes the
   best (ties: the lowest bid, 飞 first; challenging on a tie); it is deterministic.

``PARAMS`` holds the shipped parameters: a coordinate search over duplicate-deal matches
against ``heuristic`` (heads-up, 30,000 deals per point), checked against two DQN
checkpoints in the arena (docs/liars_dice.md). ``decide(s, i, r, params)`` takes any
parameter vector (for tuning and tests); ``bid_odds(s, i, r, params, out)`` writes P(holds)
of every bid.
"""

from __future__ import annotations

import numpy as np

from ...core.jit import jit
from ...core.stack import stack_array
from .bids import FEI, FEI_FACES, ZHAI, ZHAI_FACES, bid_count
from .odds import MAX_TOTAL_DICE, TAIL
from .players_odds_tables import COLUMNS, HAND_MATCHES, HAND_PRIOR, HAND_START
from .rules import (
    BIDS,
    DICE,
    LAST,
    MAX_BIDS,
    MAX_DICE,
    PLAYER,
    PREV,
    bid_made,
)

# Parameter vector indices.
BETA, THETA_BID, KAPPA_BID, THETA_RAISE, KAPPA_RAISE, THETA_CALL, KAPPA_CALL, CONTINUE, FLOOR = (
    range(9))
NUM_PARAMS = 9
PARAM_NAMES = ("beta", "theta_bid", "kappa_bid", "theta_raise", "kappa_raise", "theta_call",
               "kappa_call", "continue", "floor")
# beta 2: bids name held faces strongly; theta_b 0.5 / kappa_b 3: a soft belief in the count;
# theta_r 0.5 / kappa_r 30: a bid let pass held with P >= 0.5 for o (the heuristic's rule,
# nearly hard); theta_c 0.55 / kappa_c 4: challenges are a smooth function of the odds; V 0.8:
# a raise by o mostly ends in o's loss; floor 0.02: no hand is ruled out by one bid.
PARAMS = np.array([2.0, 0.5, 3.0, 0.5, 30.0, 0.55, 4.0, 0.8, 0.02], np.float64)
PARAMS.setflags(write=False)

_NEEDS = MAX_TOTAL_DICE + 2  # need = 0 .. unknown + 1 (clipped)
_MS = MAX_DICE + 1  # a hand's matches in a column: 0 .. dice
_DIST = COLUMNS * _MS  # the posterior marginals: column x matches
_BY_NEED = 2 * _NEEDS  # a table by mode x need
_FEI_RUN = FEI_FACES * MAX_TOTAL_DICE
_ZHAI_RUN = ZHAI_FACES * MAX_TOTAL_DICE


@jit
def _column(index, total_dice):
    """Bid column 0..10 of a bid index: 飞 face 2..6, then 斋 rank 0..5 (face 2..6, 1)."""
    fei = FEI_FACES * total_dice
    if index < fei:
        return index % FEI_FACES
    return FEI_FACES + (index - fei) % ZHAI_FACES


@jit
def _sort_key(index, total_dice):
    """Order of bids within a round: value (飞 count, 2 x 斋 count), then 飞 before 斋, face."""
    fei = FEI_FACES * total_dice
    if index < fei:
        return (index // FEI_FACES + 1) * 32 + index % FEI_FACES
    return 2 * ((index - fei) // ZHAI_FACES + 1) * 32 + 16 + (index - fei) % ZHAI_FACES


@jit
def _clip(need, unknown):
    return min(max(need, 0), unknown + 1)


@jit
def _own_columns(packed, out):
    """out[col] = own dice counting for bid column col (packed: 4 bits per face 1..6)."""
    ones = packed & 15
    for k in range(FEI_FACES):
        out[k] = ((packed >> (4 * (k + 1))) & 15) + ones
    for k in range(ZHAI_FACES):
        face = 1 if k == 5 else k + 2
        out[FEI_FACES + k] = (packed >> (4 * (face - 1))) & 15


@jit
def _history(t, r, seq):
    """The round's bid indices in (reconstructed) order into seq; returns how many.

    The bids made are read from the made-bid bits: 飞 ones come out in rising order, 斋 ones
    too, and the two runs are merged by ``_sort_key``; the last two bids (known) go last."""
    total = r.total_dice
    last = t[LAST] - 1
    prev = t[PREV] - 1
    fei_end = FEI_FACES * total
    fei_run = stack_array(_FEI_RUN, np.int64)
    zhai_run = stack_array(_ZHAI_RUN, np.int64)
    nf = 0
    nz = 0
    for index in range(r.num_actions - 1):
        if index != last and index != prev and bid_made(t, index):
            if index < fei_end:
                fei_run[nf] = index
                nf += 1
            else:
                zhai_run[nz] = index
                nz += 1
    a = 0
    b = 0
    for k in range(nf + nz):
        if b < nz and (a == nf or _sort_key(zhai_run[b], total) < _sort_key(fei_run[a], total)):
            seq[k] = zhai_run[b]
            b += 1
        else:
            seq[k] = fei_run[a]
            a += 1
    n = nf + nz
    if prev >= 0:
        seq[n] = prev
        n += 1
    if last >= 0:
        seq[n] = last
        n += 1
    return n


@jit
def _posterior(t, r, prm, dist):
    """dist[col * _MS + m] = posterior P(the modelled seat holds m dice counting for column
    col). The modelled seat is the last bidder (none yet: every hand weighs its prior)."""
    d = r.dice
    players = r.num_players
    total = r.total_dice
    seen = total - d  # the dice the modelled seat cannot see
    seq = stack_array(MAX_BIDS, np.int64)
    n = _history(t, r, seq) if t[BIDS] > 0 else 0
    # Evidence list: (column, count, kind) with kind 0 = its bid, 1 = a bid it let pass.
    ev_col = stack_array(MAX_BIDS, np.int64)
    ev_need = stack_array(MAX_BIDS, np.int64)
    ev_kind = stack_array(MAX_BIDS, np.int64)
    ne = 0
    for k in range(n):  # k-th bid from the end
        if k % players > 1:
            continue
        index = seq[n - 1 - k]
        ev_col[ne] = _column(index, total)
        ev_need[ne] = bid_count(index, total)
        ev_kind[ne] = k % players
        ne += 1
    # factor tables by o's need (count - its matches, clipped): its bid believed / let pass
    believe = stack_array(_BY_NEED, np.float64)
    passed = stack_array(_BY_NEED, np.float64)
    floor = prm[FLOOR]
    for mode in (FEI, ZHAI):
        for need in range(seen + 2):
            p = TAIL[mode, seen, need]
            believe[mode * _NEEDS + need] = floor + (1.0 - floor) / (
                1.0 + np.exp(-prm[KAPPA_BID] * (p - prm[THETA_BID])))
            passed[mode * _NEEDS + need] = floor + (1.0 - floor) / (
                1.0 + np.exp(-prm[KAPPA_RAISE] * (p - prm[THETA_RAISE])))
    face_weight = stack_array(_MS, np.float64)
    for m in range(d + 1):
        face_weight[m] = np.exp(prm[BETA] * m)
    for k in range(COLUMNS * _MS):
        dist[k] = 0.0
    weight_sum = 0.0
    for h in range(HAND_START[d], HAND_START[d + 1]):
        hm = HAND_MATCHES[h]
        w = HAND_PRIOR[h]
        if ne > 0:
            z_fei = 0.0
            for col in range(FEI_FACES):
                z_fei += face_weight[hm[col]]
            z_zhai = 0.0
            for col in range(FEI_FACES, COLUMNS):
                z_zhai += face_weight[hm[col]]
            for e in range(ne):
                col = ev_col[e]
                m = hm[col]
                mode = FEI if col < FEI_FACES else ZHAI
                need = _clip(ev_need[e] - m, seen)
                if ev_kind[e] == 0:
                    w *= face_weight[m] / (z_fei if mode == FEI else z_zhai)
                    w *= believe[mode * _NEEDS + need]
                else:
                    w *= passed[mode * _NEEDS + need]
        weight_sum += w
        for col in range(COLUMNS):
            dist[col * _MS + hm[col]] += w
    for k in range(COLUMNS * _MS):
        dist[k] /= weight_sum


@jit
def _holds(dist, own, index, d, unknown, total):
    """P(bid index holds) given the posterior marginals, own matches and unknown other dice."""
    col = _column(index, total)
    mode = FEI if col < FEI_FACES else ZHAI
    need = bid_count(index, total) - own[col]
    q = 0.0
    for m in range(d + 1):
        q += dist[col * _MS + m] * TAIL[mode, unknown, _clip(need - m, unknown)]
    return q


@jit
def bid_odds(s, i, r, prm, out):
    """out[index] = P(bid index holds | own dice, history) under the model, for every bid."""
    t = s.table[i]
    d = r.dice
    dist = stack_array(_DIST, np.float64)
    own = stack_array(COLUMNS, np.int64)
    _own_columns(t[DICE + t[PLAYER]], own)
    _posterior(t, r, prm, dist)
    unknown = r.total_dice - 2 * d
    for index in range(r.num_actions - 1):
        out[index] = _holds(dist, own, index, d, unknown, r.total_dice)


@jit
def decide(s, i, r, prm):
    """The action of the ``odds`` player with parameters ``prm`` for the seat to act in env i."""
    t = s.table[i]
    d = r.dice
    total = r.total_dice
    seen = total - d  # dice the next player cannot see
    dist = stack_array(_DIST, np.float64)
    own = stack_array(COLUMNS, np.int64)
    _own_columns(t[DICE + t[PLAYER]], own)
    _posterior(t, r, prm, dist)
    unknown = total - 2 * d
    # The next player is the modelled seat heads-up, or before any bid (its posterior is then
    # the prior); otherwise its dice are among the unknown ones: their matches k weigh
    # Binomial(d, p) (``pmf``), and the rest of the unknown dice stay Binomial.
    modelled = r.num_players == 2 or t[BIDS] == 0
    call = stack_array(_BY_NEED, np.float64)  # its chance of challenging, by its need
    pmf = stack_array(_BY_NEED, np.float64)
    for mode in (FEI, ZHAI):
        for need in range(seen + 2):
            call[mode * _NEEDS + need] = 1.0 / (1.0 + np.exp(
                -prm[KAPPA_CALL] * (prm[THETA_CALL] - TAIL[mode, seen, need])))
        for k in range(d + 1):
            pmf[mode * _NEEDS + k] = TAIL[mode, d, k] - TAIL[mode, d, k + 1]
    v = prm[CONTINUE]
    last = t[LAST]
    fei_start = r.bids[last, 0]
    zhai_start = r.bids[last, 1]
    fei_end = FEI_FACES * total
    best = -1.0
    action = 0
    for index in range(fei_start, r.num_actions - 1):
        if index == fei_end:
            break
        if not (r.forbid_repeat and bid_made(t, index)):
            value = _bid_value(dist, own, index, d, unknown, total, modelled, call, pmf, v)
            if value > best:
                best, action = value, index + 1
    for index in range(zhai_start, r.num_actions - 1):
        if not (r.forbid_repeat and bid_made(t, index)):
            value = _bid_value(dist, own, index, d, unknown, total, modelled, call, pmf, v)
            if value > best:
                best, action = value, index + 1
    if t[BIDS] > 0 and 1.0 - _holds(dist, own, last - 1, d, unknown, total) >= best:
        return 0
    return action  # 0 (challenge) only when no bid is left


@jit
def _bid_value(dist, own, index, d, unknown, total, modelled, call, pmf, v):
    """Chance of not losing the round by bid ``index``: the next player challenges it with
    ``call`` by its need (then the bid decides), or raises (worth v)."""
    col = _column(index, total)
    mode = FEI if col < FEI_FACES else ZHAI
    count = bid_count(index, total)
    need = count - own[col]
    seen = total - d
    value = 0.0
    for m in range(d + 1):
        p = dist[col * _MS + m]
        if p == 0.0:
            continue
        if modelled:  # m is the next player's matches
            holds = TAIL[mode, unknown, _clip(need - m, unknown)]
            c = call[mode * _NEEDS + _clip(count - m, seen)]
            value += p * (c * holds + (1.0 - c) * v)
        else:  # m is the last bidder's; the next player's k among the unknown dice
            rest = unknown - d
            for k in range(d + 1):
                holds = TAIL[mode, rest, _clip(need - m - k, rest)]
                c = call[mode * _NEEDS + _clip(count - k, seen)]
                value += p * pmf[mode * _NEEDS + k] * (c * holds + (1.0 - c) * v)
    return value


@jit
def odds(s, i, r):
    """The shipped ``odds`` player (``PARAMS``)."""
    return decide(s, i, r, PARAMS)


__all__ = ["PARAMS", "PARAM_NAMES", "NUM_PARAMS", "bid_odds", "decide", "odds"]
