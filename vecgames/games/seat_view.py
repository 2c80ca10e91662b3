"""What every game's JSON table view shares (``vecgames.games.<game>.table_view``)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ..core.cards import RANKS, SUITS


def poker_card(c: int) -> dict[str, Any]:
    """A poker card as JSON: its id, rank and suit letters."""
    c = int(c)
    return {"card": c, "r": RANKS[c >> 2], "s": SUITS[c & 3]}


def sees(seat: int | None, reveal: bool, shown: Collection[int]) -> Callable[[int], bool]:
    """Whether the viewer sees seat p's hidden cards: its own, all when revealed, and the
    seats the game showed."""
    return lambda p: reveal or p == seat or p in shown
