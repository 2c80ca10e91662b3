"""Seat labels for renders and reports: numbers, or the seed's 西游记 (Journey to the West)
characters. A label only: it changes nothing in play.

The seed names its four players after the pilgrims: seat 0 is 唐僧 (the master), seats 1..3
his disciples 孙悟空, 猪八戒 and 沙僧. For 5 and 6 players (a vecgames extension) the fifth
pilgrim 白龙马 and then 观音菩萨, who sent them, take seats 4 and 5.
"""

from __future__ import annotations

from ...core.validation import check_choice

XIYOUJI = ("唐僧", "孙悟空", "猪八戒", "沙僧", "白龙马", "观音菩萨")
SEAT_NAMES = ("numbers", "xiyouji")


def check_seat_names(style: str) -> str:
    """``style`` if it is one of ``SEAT_NAMES``, else a ValueError naming them."""
    return str(check_choice(style, "seat_names", SEAT_NAMES))


def seat_label(seat: int, style: str = "numbers") -> str:
    """``"seat 2"``, or with ``style="xiyouji"`` ``"seat 2 猪八戒"``."""
    label = f"seat {seat}"
    return f"{label} {XIYOUJI[seat]}" if check_seat_names(style) == "xiyouji" else label


def seat_name(seat: int, style: str = "numbers") -> str:
    """The seat's name alone: ``"2"`` or ``"猪八戒"``."""
    return XIYOUJI[seat] if check_seat_names(style) == "xiyouji" else str(seat)
