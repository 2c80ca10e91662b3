"""Hold'em hand ranges in the notation of PokerStove / Equilab / PioSolver.

A range is comma-separated tokens (whitespace around tokens is ignored; ranks and suits are
case-insensitive, ``T`` or ``10`` for ten):

* ``random``, ``any`` or ``XxXx``: all 1326 combos.
* pairs: ``QQ``; ``QQ+`` (QQ, KK, AA); ``22-55`` (same as ``55-22``).
* non-pairs: ``AKs`` (4 suited combos), ``AKo`` (12 offsuit), ``AK`` (all 16). The two ranks
  may come in either order (``KAs`` == ``AKs``). ``A2s+`` raises the kicker up to one below
  the top card (A2s..AKs); ``K9+`` is K9..KQ both suited and offsuit. ``ATs-A7s`` (either
  order) is a dash range: both ends must share the top rank and the suitedness.
* exact combos: ``AhKh``, ``AsKd`` (no ``+`` or dash range).
* weights: ``:w`` after any token (``76s:0.5``, ``QQ+:0.25``), a decimal number in (0, 1];
  default 1.

A combo named by several tokens takes the weight of its **last** mention
(``"AK, AKs:0.5"`` gives the suited AK combos weight 0.5 and the offsuit ones 1).

Malformed input raises ``ValueError`` quoting the token and its 1-based number, e.g.
``bad range token 'AKx' (token 2 of "QQ+, AKx"): ...``. Rejected: unknown ranks/suits, a pair
with ``s``/``o`` (``AAs``), dash ranges whose ends differ in top card, suitedness or
pair-ness (``A2s-K5s``, ``ATs-A7o``, ``22-AKs``), ``+``/dash on exact combos, the same card
twice (``AhAh``), weights that are not a plain decimal in (0, 1], and empty text or empty
tokens (``"QQ,,AK"``, a trailing comma).

Combos are pairs of card ids (``4 * rank + suit``, see :mod:`vecgames.core.cards`) stored
higher id first. Each of the 1326 combos has the canonical index ``hi * (hi - 1) // 2 + lo``
(``hi > lo``); :data:`ALL_COMBOS` lists them in that order and :func:`parse_range` returns
combos sorted by it.

The 169 starting-hand classes (:data:`CLASS_NAMES`) follow the usual 13x13 grid read row by
row, ranks descending from A: pairs on the diagonal, suited hands above it (row A, column K
is ``AKs``), offsuit below (row K, column A is ``AKo``).
"""

from __future__ import annotations

import json
import math
import re

import numpy as np

from ..core.cards import NUM_CARDS, RANKS, SUITS, check_cards, parse_cards
from ..core.validation import check_int

__all__ = [
    "ALL_COMBOS",
    "CLASS_NAMES",
    "CLASS_SIZES",
    "COMBO_CLASS",
    "NUM_COMBOS",
    "class_combos",
    "combo_index",
    "hand_class",
    "parse_range",
    "remove_cards",
]

NUM_COMBOS = NUM_CARDS * (NUM_CARDS - 1) // 2  # 1326


def _build_all_combos() -> np.ndarray:
    out = np.empty((NUM_COMBOS, 2), dtype=np.int8)
    k = 0
    for hi in range(1, NUM_CARDS):
        for lo in range(hi):
            out[k] = hi, lo
            k += 1
    out.flags.writeable = False
    return out


ALL_COMBOS: np.ndarray = _build_all_combos()
"""int8 [1326, 2]: every two-card combo, higher card id first, in :func:`combo_index` order."""


def combo_index(c1: int, c2: int) -> int:
    """Canonical index 0..1325 of the combo of two distinct card ids (either order)."""
    c1 = check_int(c1, "card id", 0, NUM_CARDS - 1)
    c2 = check_int(c2, "card id", 0, NUM_CARDS - 1)
    if c1 == c2:
        raise ValueError(f"a combo needs two distinct cards, got {c1} twice")
    hi, lo = max(c1, c2), min(c1, c2)
    return hi * (hi - 1) // 2 + lo


def _class_name(hi_rank: int, lo_rank: int, suited: bool) -> str:
    if hi_rank == lo_rank:
        return RANKS[hi_rank] * 2
    return RANKS[hi_rank] + RANKS[lo_rank] + ("s" if suited else "o")


def hand_class(c1: int, c2: int) -> str:
    """Starting-hand class of two distinct cards: ``"AKs"``, ``"AKo"`` or ``"QQ"``."""
    combo_index(c1, c2)  # validates
    r1, r2 = int(c1) >> 2, int(c2) >> 2
    return _class_name(max(r1, r2), min(r1, r2), (int(c1) & 3) == (int(c2) & 3))


def _build_classes() -> tuple[list[str], np.ndarray]:
    names = []
    for i in range(13):
        for j in range(13):
            ri, rj = 12 - i, 12 - j
            if i == j:
                names.append(RANKS[ri] * 2)
            elif i < j:
                names.append(RANKS[ri] + RANKS[rj] + "s")
            else:
                names.append(RANKS[rj] + RANKS[ri] + "o")
    index = {name: k for k, name in enumerate(names)}
    combo_class = np.empty(NUM_COMBOS, dtype=np.int16)
    for k, (hi, lo) in enumerate(ALL_COMBOS.tolist()):
        combo_class[k] = index[_class_name(hi >> 2, lo >> 2, (hi & 3) == (lo & 3))]
    combo_class.flags.writeable = False
    return names, combo_class


CLASS_NAMES: list[str]
COMBO_CLASS: np.ndarray
CLASS_NAMES, COMBO_CLASS = _build_classes()
"""CLASS_NAMES: the 169 class names in grid order; COMBO_CLASS: int16 [1326] class of each combo."""

_CLASS_INDEX = {name: k for k, name in enumerate(CLASS_NAMES)}
_CLASS_MEMBERS = [np.flatnonzero(COMBO_CLASS == k) for k in range(len(CLASS_NAMES))]

CLASS_SIZES: np.ndarray = np.array([len(m) for m in _CLASS_MEMBERS], dtype=np.int64)
"""int64 [169]: combos per class (6 pairs, 4 suited, 12 offsuit), aligned with CLASS_NAMES."""
CLASS_SIZES.flags.writeable = False


# --- parsing -------------------------------------------------------------------------------

_R = r"(10|[2-9TJQKA])"
_S = r"([CDHS])"
_HAND = rf"{_R}{_R}([SO]?)"
_RANDOM = re.compile(r"random|any|xxxx", re.IGNORECASE)
_COMBO_RE = re.compile(rf"{_R}{_S}{_R}{_S}", re.IGNORECASE)
_SINGLE_RE = re.compile(rf"{_HAND}(\+?)", re.IGNORECASE)
_DASH_RE = re.compile(rf"{_HAND}\s*-\s*{_HAND}", re.IGNORECASE)
_WEIGHT_RE = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _rank(text: str) -> int:
    return RANKS.index("T" if text == "10" else text.upper())


def _hand(r1: str, r2: str, kind: str) -> tuple[int, int, str]:
    """(high rank, low rank, kind) with kind in 'p' (pair), 's', 'o', '' (both)."""
    a, b = _rank(r1), _rank(r2)
    kind = kind.lower()
    if a == b:
        if kind:
            raise ValueError("a pair cannot be suited or offsuit")
        return a, a, "p"
    return max(a, b), min(a, b), kind


def _members(hi: int, lo: int, kind: str) -> list[np.ndarray]:
    if kind == "p":
        return [_CLASS_MEMBERS[_CLASS_INDEX[RANKS[hi] * 2]]]
    kinds = "so" if kind == "" else kind
    return [_CLASS_MEMBERS[_CLASS_INDEX[RANKS[hi] + RANKS[lo] + k]] for k in kinds]


def _parse_body(body: str) -> np.ndarray:
    """Combo indices named by one token (weight already stripped); ValueError(reason)."""
    if _RANDOM.fullmatch(body):
        return np.arange(NUM_COMBOS)
    m = _COMBO_RE.fullmatch(body)
    if m:
        c1 = 4 * _rank(m.group(1)) + SUITS.index(m.group(2).lower())
        c2 = 4 * _rank(m.group(3)) + SUITS.index(m.group(4).lower())
        if c1 == c2:
            raise ValueError("the same card twice")
        return np.array([combo_index(c1, c2)])
    m = _SINGLE_RE.fullmatch(body)
    if m:
        hi, lo, kind = _hand(m.group(1), m.group(2), m.group(3))
        if not m.group(4):
            parts = _members(hi, lo, kind)
        elif kind == "p":
            parts = [p for r in range(hi, 13) for p in _members(r, r, kind)]
        else:
            parts = [p for r in range(lo, hi) for p in _members(hi, r, kind)]
        return np.concatenate(parts)
    m = _DASH_RE.fullmatch(body)
    if m:
        hi1, lo1, kind1 = _hand(m.group(1), m.group(2), m.group(3))
        hi2, lo2, kind2 = _hand(m.group(4), m.group(5), m.group(6))
        if (kind1 == "p") != (kind2 == "p"):
            raise ValueError("a dash range cannot mix pairs and non-pairs")
        if kind1 == "p":
            a, b = sorted((hi1, hi2))
            return np.concatenate([p for r in range(a, b + 1) for p in _members(r, r, "p")])
        if hi1 != hi2:
            raise ValueError("both ends of a dash range must share the top card")
        if kind1 != kind2:
            raise ValueError("both ends of a dash range must share the suitedness")
        a, b = sorted((lo1, lo2))
        return np.concatenate([p for r in range(a, b + 1) for p in _members(hi1, r, kind1)])
    m = _COMBO_RE.match(body)
    if m and body[m.end():].lstrip()[:1] in ("+", "-"):
        raise ValueError("exact combos take no '+' or dash range")
    raise ValueError("not a hand, range or combo")


def _parse_weight(text: str) -> float:
    text = text.strip()
    if not _WEIGHT_RE.fullmatch(text):
        raise ValueError(f"weight {text!r} is not a number")
    w = float(text)
    if not (0.0 < w <= 1.0) or not math.isfinite(w):
        raise ValueError(f"weight {text} is outside (0, 1]")
    return w


def parse_range(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse a range such as ``"QQ+, AKs, A5s-A2s, 76s:0.5"``.

    Returns ``(combos, weights)``: int8 [n, 2] card ids (higher first) sorted by
    :func:`combo_index`, and float64 [n] weights in (0, 1]. Raises ``ValueError`` quoting the
    bad token and its 1-based position on malformed input.
    """
    if not isinstance(text, str):
        raise TypeError(f"range must be a str, got {type(text).__name__}")
    if not text.strip():
        raise ValueError("empty range text")
    weights = np.zeros(NUM_COMBOS)
    tokens = text.split(",")
    for k, raw in enumerate(tokens, start=1):
        token = raw.strip()
        try:
            if not token:
                raise ValueError("empty token")
            body, sep, weight_text = token.partition(":")
            weight = _parse_weight(weight_text) if sep else 1.0
            indices = _parse_body(body.strip())
        except ValueError as exc:
            raise ValueError(  # json quoting keeps a newline in the text on one line
                f"bad range token {token!r} (token {k} of {json.dumps(text, ensure_ascii=False)}):"
                f" {exc}"
            ) from None
        weights[indices] = weight
    chosen = np.flatnonzero(weights)
    return ALL_COMBOS[chosen].copy(), weights[chosen]


def class_combos(name: str) -> np.ndarray:
    """int8 [6|4|12, 2] combos of one class such as ``"AKs"``, ``"AKo"`` or ``"QQ"``."""
    if not isinstance(name, str):
        raise TypeError(f"class name must be a str, got {type(name).__name__}")
    m = re.fullmatch(_HAND, name.strip(), re.IGNORECASE)
    try:
        if not m:
            raise ValueError("expected e.g. 'AKs', 'AKo' or 'QQ'")
        hi, lo, kind = _hand(m.group(1), m.group(2), m.group(3))
        if kind == "":
            raise ValueError("a non-pair class needs 's' or 'o'")
    except ValueError as exc:
        raise ValueError(f"bad hand class {name!r}: {exc}") from None
    (members,) = _members(hi, lo, kind)
    return ALL_COMBOS[members].copy()


def remove_cards(
    combos: np.ndarray, weights: np.ndarray, dead: np.ndarray | str
) -> tuple[np.ndarray, np.ndarray]:
    """Drop the combos holding any dead card (ids, or text like ``"AhKd7c"``)."""
    combos = np.asarray(combos)
    check_cards(combos, "combos", hand_size=2)
    if combos.ndim != 2:
        raise ValueError(f"combos must have shape (n, 2), got {combos.shape}")
    weights = np.asarray(weights)
    if weights.shape != combos.shape[:1]:
        raise ValueError(f"weights must have shape ({len(combos)},), got {weights.shape}")
    dead_ids = parse_cards(dead) if isinstance(dead, str) else np.asarray(dead).ravel()
    dead_ids = check_cards(dead_ids, "dead cards")
    is_dead = np.zeros(NUM_CARDS, dtype=bool)
    is_dead[dead_ids] = True
    keep = ~is_dead[combos].any(axis=1)
    return combos[keep], weights[keep]
