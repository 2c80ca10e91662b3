"""Hold'em equity of 2..10 hands or ranges: exact enumeration when feasible, else Monte Carlo."""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np
import pandas as pd

from ..core.cards import format_cards, parse_cards
from ..core.rng import check_seed
from ..core.validation import check_int
from . import equity_kernels as K
from .ranges import parse_range, remove_cards
from .seven_card import CARD_BIT, CARD_KEY, KEY_BASE

# Exact enumeration when (hand assignments) x (boards) x (players) is at most this many
# evaluations (a few seconds on 2 cores); beyond it, Monte Carlo.
EXACT_WORK = 3_000_000_000
DEFAULT_SAMPLES = 1_000_000
MAX_REJECTIONS = 100_000


def _parse_hand(text: str, player: int) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(text, str):
        raise TypeError(f"hand {player} must be a str, got {type(text).__name__}")
    try:
        cards = parse_cards(text)
    except ValueError:
        cards = None
    if cards is not None and len(cards) == 2:
        return np.array([sorted(cards.tolist(), reverse=True)], np.int8), np.ones(1)
    try:
        return parse_range(text)
    except ValueError as err:
        raise ValueError(f"hand {player}: {err}") from None


def _parse_cards_arg(text, name: str, max_cards: int) -> np.ndarray:
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str of cards like '2c7d9h', got {type(text).__name__}")
    cards = parse_cards(text, name)
    if len(cards) > max_cards:
        raise ValueError(f"{name} has {len(cards)} cards, at most {max_cards} allowed")
    return cards.astype(np.int64)


def equity(hands: Sequence[str], board: str = "", dead: str = "",
           samples: int | float | None = None, seed: int = 0) -> pd.DataFrame:
    """Win, tie and equity of each hand (exact cards ``"AhKh"`` or a range ``"QQ+, AKs"``,
    ``"random"``; see :mod:`vecgames.poker.ranges`).

    With ``samples=None`` every remaining board (and every clash-free combination of the
    ranges' hands) is enumerated when that is at most ``EXACT_WORK`` evaluations, otherwise
    ``DEFAULT_SAMPLES`` deals are sampled; an int forces that many Monte Carlo deals. Ranges
    are dealt jointly: combinations where two players would hold the same card are excluded.

    Returns one row per player: ``win``/``tie``/``lose`` fractions, ``equity`` (ties split
    evenly), ``std_error`` of the equity (0 when exact), the deal counts behind them
    (``wins``, ``ties``, ``losses``; weighted when ranges carry weights) and ``combos``.
    ``attrs`` holds ``method`` ("exact" or "monte carlo") and ``deals``.
    """
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise TypeError(f"hands must be a list of 2..10 hand or range strings, got "
                        f"{type(hands).__name__}")
    if not 2 <= len(hands) <= 10:
        raise ValueError(f"equity needs 2..10 hands, got {len(hands)}")
    board_cards = _parse_cards_arg(board, "board", 5)
    dead_cards = _parse_cards_arg(dead, "dead", 52)
    clash = set(board_cards.tolist()) & set(dead_cards.tolist())
    if clash:
        raise ValueError(f"card {format_cards(sorted(clash))} is both on the board and dead")
    seed_u64 = check_seed(seed)
    if samples is not None:
        samples = check_int(int(samples) if isinstance(samples, float) and samples.is_integer()
                            else samples, "samples", 1, 10**12)
    left = 52 - len(board_cards) - len(dead_cards)
    needed = 2 * len(hands) + 5 - len(board_cards)
    if left < needed:  # else the deal could never finish
        raise ValueError(f"{len(hands)} hands and {5 - len(board_cards)} more board cards need "
                         f"{needed} cards, but the board and dead cards leave {left}")

    fixed = np.concatenate([board_cards, dead_cards])
    players = []
    for p, text in enumerate(hands):
        combos, weights = _parse_hand(text, p)
        combos, weights = remove_cards(combos, weights, fixed.astype(np.int8))
        if len(combos) == 0:
            raise ValueError(f"hand {p} ({text!r}) has no combo left beside the board and "
                             f"dead cards")
        players.append((combos, weights))
    num_players = len(players)
    max_size = max(len(c) for c, _ in players)
    combos = np.zeros((num_players, max_size, 2), np.int64)
    weights = np.zeros((num_players, max_size))
    sizes = np.array([len(c) for c, _ in players], np.int64)
    for p, (c, w) in enumerate(players):
        combos[p, :len(c)] = c
        weights[p, :len(c)] = w

    base_deck = np.array(sorted(set(range(52)) - set(fixed.tolist())), np.int64)
    k = 5 - len(board_cards)
    board_key = np.int64(KEY_BASE + CARD_KEY[board_cards].sum())
    board_bits = np.int64(np.bitwise_or.reduce(CARD_BIT[board_cards]))  # 0 for no board
    boards = comb(len(base_deck) - 2 * num_players, k)
    idx = np.zeros(num_players, np.int64)
    none = np.zeros((0, num_players, 2), np.int64)
    limit = 0 if samples is not None else EXACT_WORK // max(1, boards * num_players)
    count = K.list_assignments(combos, sizes, weights, limit, idx, none, np.zeros(0))
    if count == 0:
        raise ValueError("these hands cannot be dealt together without sharing a card")

    scratch_keys = np.zeros((K.LANES, 3, num_players), np.int64)
    if samples is None and count <= limit:
        method = "exact"
        counts, weighted = _exact(combos, sizes, weights, count, base_deck, board_key,
                                  board_bits, k, scratch_keys)
    else:
        method = "monte carlo"
        counts = _monte_carlo(combos, sizes, weights, base_deck, board_key, board_bits, k,
                              samples or DEFAULT_SAMPLES, seed_u64, scratch_keys)
        weighted = counts.astype(np.float64)
    return _frame(hands, sizes, counts, weighted, method)


def _exact(combos, sizes, weights, count, base_deck, board_key, board_bits, k, scratch_keys):
    num_players = combos.shape[0]
    assignments = np.zeros((count, num_players, 2), np.int64)
    assignment_weights = np.zeros(count)
    K.list_assignments(combos, sizes, weights, count, np.zeros(num_players, np.int64),
                       assignments, assignment_weights)
    n_deck = len(base_deck) - 2 * num_players
    first_choices = n_deck if k == 1 else comb(n_deck - k + 2, 2)  # what parts split on
    parts = 1 if k == 0 else max(1, min(first_choices, -(-4 * K.LANES // count)))
    lane_counts = np.zeros((K.LANES, num_players, num_players + 1), np.int64)
    lane_weighted = np.zeros((K.LANES, num_players, num_players + 1))
    scratch_deck = K.new_deck_scratch()
    scratch_counts = np.zeros((K.LANES, num_players, num_players + 1), np.int64)
    K.exact_counts(assignments, assignment_weights, base_deck, board_key, board_bits, k, parts,
                   lane_counts, lane_weighted, scratch_deck, scratch_keys, scratch_counts)
    return lane_counts.sum(axis=0), lane_weighted.sum(axis=0)


def _monte_carlo(combos, sizes, weights, base_deck, board_key, board_bits, k, samples, seed,
                 scratch_keys):
    num_players = combos.shape[0]
    cumulative = np.cumsum(weights, axis=1)
    every_combo = comb(len(base_deck), 2)
    uniform = np.array([sizes[p] == every_combo and np.ptp(weights[p, :sizes[p]]) == 0
                        for p in range(num_players)])
    lane_counts = np.zeros((K.LANES, num_players, num_players + 1), np.int64)
    rng = np.zeros(K.LANES, np.uint64)
    failed = np.zeros(K.LANES, np.bool_)
    K.monte_carlo_counts(combos, cumulative, sizes, uniform, base_deck, board_key, board_bits, k,
                         samples, seed, MAX_REJECTIONS, lane_counts, scratch_keys, rng, failed)
    if failed.any():
        raise ValueError(f"these ranges almost never deal without sharing a card "
                         f"({MAX_REJECTIONS} clashes in a row); narrow them")
    return lane_counts.sum(axis=0)


def _frame(hands, sizes, counts, weighted, method) -> pd.DataFrame:
    num_players = len(hands)
    total = weighted[0, 0]
    share = 1.0 / np.arange(1, num_players + 1)
    wins = weighted[:, 1]
    ties = weighted[:, 2:].sum(axis=1)
    equity = (weighted[:, 1:] * share).sum(axis=1) / total
    if method == "exact":
        std_error = np.zeros(num_players)
    else:
        second_moment = (counts[:, 1:] * share**2).sum(axis=1) / total
        std_error = np.sqrt(np.maximum(second_moment - equity**2, 0.0) / total)
    integral = method != "exact" or np.array_equal(weighted, counts)
    as_counts = (lambda x: np.rint(x).astype(np.int64)) if integral else (lambda x: x)
    frame = pd.DataFrame({
        "hand": list(hands),
        "combos": sizes,
        "win": wins / total,
        "tie": ties / total,
        "lose": 1.0 - (wins + ties) / total,
        "equity": equity,
        "std_error": std_error,
        "wins": as_counts(wins),
        "ties": as_counts(ties),
        "losses": as_counts(total - wins - ties),
    })
    frame.index.name = "player"
    frame.attrs["method"] = method
    frame.attrs["deals"] = int(counts[0, 0]) if integral else float(total)
    return frame
