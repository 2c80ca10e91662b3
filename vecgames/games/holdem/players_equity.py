"""The Hold'em ``equity`` player: preflop from the 169-class tables, postflop from Monte Carlo
equity against ranges narrowed by the betting; pot odds for calls, pot-fraction bet sizes.

Range model (public information only: the seats' chips and preflop VPIP/PFR bits). An
opponent still in holds a hand from the top ``x`` of the 1,326 combos, ranked by their class's
exact heads-up equity against a random hand (``CLASS_TOP``). ``x`` starts at 1 (any hand) and
narrows with what the opponent did:

- raised preflop: ``x <= X_RAISE``; called (chips in voluntarily, no raise): ``x <= X_CALL``;
- chips put in this hand: ``x <= INVEST_BB / (chips / big blind)``, never below ``X_MIN``
  (the more an opponent invested, the stronger its range).

Betting is believed with probability ``CREDIBLE`` only: otherwise the opponent holds any hand
(a mixture: weak players bet without regard to their cards, and trusting every bet folds too
much against them).

Preflop, ``w`` is the own class's share of the pot against k random hands (heads-up: exact,
from the shipped 169 x 169 matrix; 2..9 hands: ``holdem_equity_table.MULTIWAY``), times, for
each opponent, the class's exact equity against that opponent's range over its equity against
a random hand (card removal included; ``PREFLOP_EQUITY``). Postflop, ``w`` is its share of the
pot over ``SAMPLES`` deals of the opponents' hands (each from its range, by rejection) and the
rest of the board, drawn from the env's own random stream.

With k opponents still in (fair share ``1 / (k + 1)``) it raises preflop when
``w >= PRE_RAISE_W / (k + 1)``, bets postflop when nobody bet and ``w >= BET_W / (k + 1)``,
raises a postflop bet when ``w >= RAISE_W / (k + 1)`` (each threshold at most ``W_CAP``),
else calls when ``w`` beats the pot odds (``w * (pot + to call) >= to call``) and otherwise
checks or folds. A raise goes to ``current bet + fraction x (pot + to call)`` (preflop
``PREFLOP_FRACTION``, postflop ``BET_FRACTION``), clamped to the legal bounds, and all-in
when less than ``SHOVE_MARGIN`` of the resulting pot would stay behind.

The thresholds and fractions were tuned on duplicate-deal matches against ``random``,
``call`` and ``strength`` (heads-up and 6-max); docs/holdem.md has the results.
"""

from __future__ import annotations

import numpy as np

from ...core.jit import jit
from ...core.rng import next_u64
from ...poker.preflop import MATRIX_FILE
from ...poker.ranges import ALL_COMBOS, CLASS_SIZES, COMBO_CLASS, NUM_COMBOS
from ...poker.seven_card import CARD_BIT, CARD_KEY, strength_of
from .hand_equity import deal_board, draw_unseen, visible_cards
from .players_equity_table import MULTIWAY
from .rules import (
    CALL,
    CUR_BET,
    FOLD,
    FOLDED,
    PAID,
    PFR,
    PLAYER,
    RAISE,
    STREET,
    VPIP,
    raise_bounds,
)

SAMPLES = 64  # Monte Carlo deals per postflop decision
X_RAISE = 0.3  # range of an opponent who raised preflop (top share of combos)
X_CALL = 0.6  # ... who called preflop
INVEST_BB = 4.0  # x <= INVEST_BB / big blinds put in
X_MIN = 0.06
CREDIBLE = 0.3  # chance that an opponent's betting reflects its cards (else any hand)
PRE_RAISE_W = 0.8  # preflop: raise when w >= PRE_RAISE_W / (k + 1) (at most W_CAP)
BET_W = 1.0  # postflop: bet when w >= BET_W / (k + 1) (at most W_CAP)
RAISE_W = 1.6  # postflop: raise a bet when w >= RAISE_W / (k + 1) (at most W_CAP)
W_CAP = 0.8
BET_FRACTION = 1.0  # of (pot + to call), postflop
PREFLOP_FRACTION = 1.5  # preflop raises: 1.5 pot
SHOVE_MARGIN = 0.25  # all-in when the raise leaves less than this share of the pot behind
GRID = 50  # PREFLOP_EQUITY columns: ranges top 1/GRID, 2/GRID, ..., 1


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(CLASS_TOP [169], CARD_CLASS [52, 52], PREFLOP_EQUITY [169, GRID]) from the exact
    heads-up matrix."""
    with np.load(MATRIX_FILE) as data:
        wins, ties, losses = data["wins"], data["ties"], data["losses"]
    boards = (wins + ties + losses).astype(np.float64)
    won = wins + 0.5 * ties
    vs_random = won.sum(1) / boards.sum(1)
    order = np.argsort(-vs_random, kind="stable")
    share = CLASS_SIZES[order] / NUM_COMBOS
    class_top = np.empty(len(order))
    class_top[order] = np.cumsum(share) - share  # share of combos in better classes
    card_class = np.full((52, 52), -1, np.int64)
    hi, lo = ALL_COMBOS[:, 0].astype(np.int64), ALL_COMBOS[:, 1].astype(np.int64)
    card_class[hi, lo] = COMBO_CLASS
    card_class[lo, hi] = COMBO_CLASS
    # a class is in the range "top x" when its first combo is: class_top < x
    tops = np.arange(1, GRID + 1) / GRID
    member = (class_top[:, None] < tops[None, :]).astype(np.float64)
    equity = (won @ member) / (boards @ member)
    for table in (class_top, card_class, equity):
        table.flags.writeable = False
    return class_top, card_class, equity


CLASS_TOP, CARD_CLASS, PREFLOP_EQUITY = _tables()

# The constants above as one array, the form the kernels take (a tuning run passes others).
(P_SAMPLES, P_X_RAISE, P_X_CALL, P_INVEST_BB, P_X_MIN, P_BET_W, P_RAISE_W, P_W_CAP,
 P_BET_FRACTION, P_PREFLOP_FRACTION, P_SHOVE_MARGIN, P_PRE_RAISE_W, P_CREDIBLE) = range(13)
PARAMS = np.array([SAMPLES, X_RAISE, X_CALL, INVEST_BB, X_MIN, BET_W, RAISE_W, W_CAP,
                   BET_FRACTION, PREFLOP_FRACTION, SHOVE_MARGIN, PRE_RAISE_W,
                   CREDIBLE])
PARAMS.flags.writeable = False

@jit
def range_top(t, q, big_blind, prm):
    """The share of combos (best first) that seat q's range holds, from its betting."""
    x = 1.0
    if (t[PFR] >> q) & 1:
        x = prm[P_X_RAISE]
    elif (t[VPIP] >> q) & 1:
        x = prm[P_X_CALL]
    invested = t[PAID + q] / big_blind
    if invested > 0:
        x = min(x, max(prm[P_X_MIN], prm[P_INVEST_BB] / invested))
    return x


@jit
def _uniform(s, i):
    # A uniform float in [0, 1) from env i's stream.
    return (next_u64(s.rng, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def _draw_in_range(s, i, used, x):
    """Two cards not in ``used`` whose class lies in the top ``x`` (by rejection; after 64
    tries the last pair is kept, which only a nearly exhausted range needs)."""
    a = b = 0
    for _ in range(64):
        a = draw_unseen(s, i, used)
        b = draw_unseen(s, i, used | (np.int64(1) << a))
        if CLASS_TOP[CARD_CLASS[a, b]] < x:
            break
    return a, b


@jit
def postflop_equity(s, i, r, samples, prm):
    """Share of the pot for the player to act against the others still in, each holding a
    hand from its range, over ``samples`` deals; from its own cards and the board only."""
    t = s.table[i]
    d = s.deck[i]
    n = r.num_players
    p = t[PLAYER]
    h0, h1 = np.int64(d[2 * p]), np.int64(d[2 * p + 1])
    base_used, base_key, base_bits, seen = visible_cards(s, i, r)
    total = 0.0
    for _ in range(samples):
        used = base_used
        # opponents' hands first (their ranges constrain them), then the rest of the board
        firsts = seconds = 0  # the opponents' cards, 6 bits each (at most 9 opponents)
        m = 0
        for q in range(n):
            if q != p and not (t[FOLDED] >> q) & 1:
                x = 1.0
                if _uniform(s, i) < prm[P_CREDIBLE]:
                    x = range_top(t, q, r.big_blind, prm)
                a, b = _draw_in_range(s, i, used, x)
                used |= (np.int64(1) << a) | (np.int64(1) << b)
                firsts |= a << (6 * m)
                seconds |= b << (6 * m)
                m += 1
        used, key, bits = deal_board(s, i, used, base_key, base_bits, seen)
        mine = strength_of(key + CARD_KEY[h0] + CARD_KEY[h1], bits | CARD_BIT[h0] | CARD_BIT[h1])
        best_other = 0
        ties = 1
        for j in range(m):
            a = (firsts >> (6 * j)) & 63
            b = (seconds >> (6 * j)) & 63
            other = strength_of(key + CARD_KEY[a] + CARD_KEY[b], bits | CARD_BIT[a] | CARD_BIT[b])
            best_other = max(best_other, other)
            ties += np.int64(other == mine)
        if mine > best_other:
            total += 1.0
        elif mine == best_other:
            total += 1.0 / ties
    return total / samples


@jit
def preflop_win(t, d, r, p, prm):
    """(w, k): the own class's share of the pot against the k opponents still in, from its
    equity against k random hands times, per opponent, its heads-up equity against that
    opponent's range over its equity against a random hand."""
    c = CARD_CLASS[np.int64(d[2 * p]), np.int64(d[2 * p + 1])]
    w = 1.0
    k = 0
    for q in range(r.num_players):
        if q != p and not (t[FOLDED] >> q) & 1:
            x = range_top(t, q, r.big_blind, prm)
            col = min(GRID - 1, max(0, int(np.ceil(x * GRID)) - 1))
            rho = prm[P_CREDIBLE]
            w *= rho * PREFLOP_EQUITY[c, col] / PREFLOP_EQUITY[c, GRID - 1] + 1.0 - rho
            k += 1
    w *= PREFLOP_EQUITY[c, GRID - 1] if k == 1 else MULTIWAY[c, min(k, 9) - 2]
    return min(w, 1.0), k


@jit
def _raise_to(t, fraction, pot, to_call, lo, hi, margin):
    """A raise to current bet + fraction x (pot + to call), within [lo, hi]; all-in when
    less than SHOVE_MARGIN of the pot would stay behind."""
    amount = t[CUR_BET] + np.int64(fraction * (pot + to_call) + 0.5)
    amount = min(max(amount, lo), hi)
    if hi - amount < margin * (pot + amount - t[CUR_BET]):
        amount = hi
    return amount


@jit
def decide(s, i, r, prm):
    """(kind, raise_to) of the equity player with parameters ``prm`` (``PARAMS``)."""
    t = s.table[i]
    p = t[PLAYER]
    to_call, lo, hi = raise_bounds(s, i, r)
    can_raise = lo <= hi
    pot = 0
    for q in range(r.num_players):
        pot += t[PAID + q]
    margin = prm[P_SHOVE_MARGIN]
    if t[STREET] == 0:
        w, k = preflop_win(t, s.deck[i], r, p, prm)
        if can_raise and w >= min(prm[P_W_CAP], prm[P_PRE_RAISE_W] / (k + 1)):
            return RAISE, _raise_to(t, prm[P_PREFLOP_FRACTION], pot, to_call, lo, hi, margin)
    else:
        w = postflop_equity(s, i, r, np.int64(prm[P_SAMPLES]), prm)
        k = 0
        for q in range(r.num_players):
            k += np.int64(q != p and not (t[FOLDED] >> q) & 1)
        factor = prm[P_RAISE_W] if to_call > 0 else prm[P_BET_W]
        if can_raise and w >= min(prm[P_W_CAP], factor / (k + 1)):
            return RAISE, _raise_to(t, prm[P_BET_FRACTION], pot, to_call, lo, hi, margin)
    if to_call == 0 or w * (pot + to_call) >= to_call:
        return CALL, 0
    return FOLD, 0


@jit
def equity_action(s, i, r):
    """(kind, raise_to) of the equity player (see the module doc)."""
    return decide(s, i, r, PARAMS)
