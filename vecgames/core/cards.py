"""Card encoding shared by the poker games.

A card id is ``4 * rank + suit`` with rank 0..12 meaning 2..A and suit 0..3 meaning c, d, h, s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .validation import check_int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52

_TOKEN = re.compile(r"\s*(10|[2-9TJQKAtjqka])([cdhsCDHS])\s*,?")


def card_id(rank: int, suit: int) -> int:
    return 4 * rank + suit


def rank_of(card):
    return card >> 2


def suit_of(card):
    return card & 3


def parse_cards(text: str, name: str = "cards") -> np.ndarray:
    """Parse ``"AhKh 10d"`` (spaces/commas optional, ``T`` or ``10`` for ten) to card ids.

    Raises ``ValueError`` naming the offending text on malformed input or a repeated card
    (``name``: what the text is, for the messages).
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, got {type(text).__name__}")
    ids: list[int] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if m is None:
            bad = stripped[pos:].strip()[:6]
            raise ValueError(f"{name}: malformed card {bad!r} at position {pos} in {text!r}")
        rank_text, suit_text = m.group(1).upper(), m.group(2).lower()
        rank = RANKS.index("T" if rank_text == "10" else rank_text)
        card = card_id(rank, SUITS.index(suit_text))
        if card in ids:
            raise ValueError(f"{name}: duplicate card {format_card(card)!r} in {text!r}")
        ids.append(card)
        pos = m.end()
    return np.array(ids, dtype=np.int8)


def format_card(card: int) -> str:
    card = check_int(card, "card id", 0, NUM_CARDS - 1)
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[int]) -> str:
    """Card ids to ``"Ah Kh Td"``."""
    if isinstance(cards, (str, bytes)):
        raise TypeError("cards must be card ids (ints); parse_cards reads text")
    return " ".join(format_card(c) for c in np.asarray(cards).ravel())


def check_cards(cards, name: str = "cards", hand_size: int | None = None) -> np.ndarray:
    """Validate an integer array of card ids (any leading shape); return it as int64.

    With ``hand_size`` the last axis must have that length and hold distinct cards.
    """
    arr = np.asarray(cards)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must be an integer array of card ids, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= NUM_CARDS):
        raise ValueError(f"{name} holds card ids outside [0, 52)")
    if hand_size is not None:
        if arr.ndim == 0 or arr.shape[-1] != hand_size:
            raise ValueError(f"{name} must have a last axis of {hand_size} cards, got {arr.shape}")
        flat = np.sort(arr.reshape(-1, hand_size), axis=1)
        if hand_size > 1 and np.any(flat[:, 1:] == flat[:, :-1]):
            raise ValueError(f"{name} holds a hand with a repeated card")
    return arr.astype(np.int64)
