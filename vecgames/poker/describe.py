"""Plain-English names of 5/6/7-card strengths: ``describe(s)`` -> "two pair, kings and fives"."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .seven_card import ROYAL_FLUSH, _check_strength
from .seven_card_build import strength_order_keys

_SINGULAR = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
             "queen", "king", "ace")
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")


def _text(key: tuple) -> str:
    category, ranks = key[0], key[1:]
    one, many = _SINGULAR, _PLURAL
    if category == 0:
        return f"high card, {one[ranks[0]]}"
    if category == 1:
        return f"one pair, {many[ranks[0]]}"
    if category == 2:
        return f"two pair, {many[ranks[0]]} and {many[ranks[1]]}"
    if category == 3:
        return f"three of a kind, {many[ranks[0]]}"
    if category == 4:
        return f"straight, {one[ranks[0]]} high"
    if category == 5:
        return f"flush, {one[ranks[0]]} high"
    if category == 6:
        return f"full house, {many[ranks[0]]} full of {many[ranks[1]]}"
    if category == 7:
        return f"four of a kind, {many[ranks[0]]}"
    return f"straight flush, {one[ranks[0]]} high"


@lru_cache(maxsize=1)
def _names() -> tuple[str, ...]:
    names = [_text(key) for key in strength_order_keys()]
    names[ROYAL_FLUSH - 1] = "royal flush"
    return ("",) + tuple(names)


def describe(strength):
    """Name of a strength (``str``), or an object array of names for an array of strengths."""
    arr = _check_strength(strength)
    names = _names()
    if arr.ndim == 0:
        return names[int(arr)]
    return np.array(names, dtype=object)[arr]
