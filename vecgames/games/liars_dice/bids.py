"""Liar's Dice bids (RULES.md §3): the action numbering, the seed's comparison rules, and
how a person types a bid (``parse_bid``) and reads why one is refused (``explain_illegal``).

Action ids, for D = dice x players dice on the table:

- ``0``: challenge (开 / 检验) the last bid;
- ``1 .. 5D``: 飞 (wild) bids, ``1 + 5 (count - 1) + (face - 2)`` for count 1..D, face 2..6;
- ``5D + 1 .. 11D``: 斋 (pure) bids, ``1 + 5D + 6 (count - 1) + rank`` with the 斋 face order
  2 < 3 < 4 < 5 < 6 < 1 as rank 0..5.

So within a mode a larger action id is a larger bid, and the bids that beat a given bid are a
suffix of the 飞 block plus a suffix of the 斋 block: the kernels never compare bids one by one.
Bid indices (``action - 1``, 0-based) name the same order.

A bid is a tuple ``(mode, count, face)`` with mode ``"fei"`` or ``"zhai"`` (``"飞"``/``"斋"`` are
accepted too) and face 1..6.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.jit import jit
from ...core.validation import check_int

FEI, ZHAI = 0, 1
MODE_NAMES = ("fei", "zhai")
_MODE_ALIASES = {"fei": FEI, "飞": FEI, "zhai": ZHAI, "斋": ZHAI}
FEI_FACES = 5  # faces 2..6
ZHAI_FACES = 6  # faces 2..6, 1
CHALLENGE = 0
# 斋 face order 2<3<4<5<6<1: rank of face f is (f - 2) mod 6.
ZHAI_FACE_OF_RANK = (2, 3, 4, 5, 6, 1)
DEFAULT_DICE = 5

Bid = tuple[str, int, int]


# ---------------------------------------------------------------- kernel forms (bid indices)


@jit
def bid_mode(index, total_dice):
    return FEI if index < FEI_FACES * total_dice else ZHAI


@jit
def bid_count(index, total_dice):
    fei = FEI_FACES * total_dice
    if index < fei:
        return index // FEI_FACES + 1
    return (index - fei) // ZHAI_FACES + 1


@jit
def bid_face(index, total_dice):
    fei = FEI_FACES * total_dice
    if index < fei:
        return index % FEI_FACES + 2
    rank = (index - fei) % ZHAI_FACES
    return 1 if rank == 5 else rank + 2


@jit
def legal_starts(last, num_players, total_dice):
    """First legal 飞 and 斋 bid indices after the bid with action id ``last`` (0: none yet).

    Legal bids are ``[fei_start, 5D)`` and ``[zhai_start, 11D)`` (less repeats, when they are
    forbidden). First bid: count > players in either mode. After 飞 count c: 斋 from count
    ceil(c/2). After 斋 count c: 飞 from count 2c.
    """
    fei = FEI_FACES * total_dice
    if last == 0:
        return FEI_FACES * num_players, fei + ZHAI_FACES * num_players
    index = last - 1
    if index < fei:
        count = index // FEI_FACES + 1
        return index + 1, fei + ZHAI_FACES * ((count + 1) // 2 - 1)
    count = (index - fei) // ZHAI_FACES + 1
    return min(FEI_FACES * (2 * count - 1), fei), index + 1


# Columns of the per-action table the kernels read instead of dividing (``bid_table``).
B_FEI_START, B_ZHAI_START, B_COUNT, B_FACE, B_MODE = range(5)
# ... and what a uniform pick after bid a needs, so that its chain (last bid -> loads -> draw
# -> next bid) has no arithmetic on the way: the 飞 bids in range, the bids in range, the
# choices (bids + the challenge, if a bid was made) and the step from the k-th bid's 飞 index
# to its 斋 index once k passes the 飞 range.
B_FEI_N, B_BID_N, B_CHOICES, B_ZHAI_STEP = range(5, 9)
BID_TABLE_COLUMNS = 9


def bid_table(num_players: int, total_dice: int, basic: bool = False,
              min_first_count: int | None = None) -> np.ndarray:
    """int64 ``[num_actions, BID_TABLE_COLUMNS]``: for action a, the legal bid starts after bid
    a (row 0: the round's first bid), a's count, face and mode (0 in row 0), and the pick
    columns above (repeats not excluded: they are redrawn). ``basic``: the seed's basic game,
    飞 bids only: every 斋 range starts at its end (empty), so no kernel needs a branch.
    ``min_first_count``: the first bid's least count (default ``num_players + 1``)."""
    actions = 1 + (FEI_FACES + ZHAI_FACES) * total_dice
    fei_end = FEI_FACES * total_dice
    table = np.zeros((actions, BID_TABLE_COLUMNS), np.int64)
    for a in range(actions):
        fei_start, zhai_start = legal_starts(a, num_players, total_dice)
        if a == 0 and min_first_count is not None:
            fei_start = FEI_FACES * (min_first_count - 1)
            zhai_start = fei_end + ZHAI_FACES * (min_first_count - 1)
        if basic:
            zhai_start = actions - 1
        table[a, B_FEI_START], table[a, B_ZHAI_START] = fei_start, zhai_start
        fei_n = fei_end - fei_start
        bid_n = fei_n + actions - 1 - zhai_start
        table[a, B_FEI_N], table[a, B_BID_N] = fei_n, bid_n
        table[a, B_CHOICES] = bid_n + (a > 0)
        table[a, B_ZHAI_STEP] = zhai_start - fei_start - fei_n
        if a:
            table[a, B_COUNT] = bid_count(a - 1, total_dice)
            table[a, B_FACE] = bid_face(a - 1, total_dice)
            table[a, B_MODE] = bid_mode(a - 1, total_dice)
    table.setflags(write=False)
    return table


# ---------------------------------------------------------------- the Python API


def _total_dice(num_players: int, dice: int) -> int:
    check_int(num_players, "num_players", 2)
    check_int(dice, "dice", 1)
    return num_players * dice


def check_bid(bid: Any, total_dice: int | None = None, name: str = "bid") -> tuple[int, int, int]:
    """``(mode, count, face)`` as ints (mode FEI/ZHAI), or a ValueError/TypeError naming what
    is wrong. With ``total_dice`` the count must be at most that."""
    if not isinstance(bid, (tuple, list)) or len(bid) != 3:
        raise TypeError(f"{name} must be a tuple (mode, count, face), got {bid!r}")
    mode_name, count, face = bid
    if mode_name not in _MODE_ALIASES:
        raise ValueError(f"{name}: mode must be 'fei' or 'zhai', got {mode_name!r}")
    mode = _MODE_ALIASES[mode_name]
    count = check_int(count, f"{name} count", 1, total_dice)
    face = check_int(face, f"{name} face", 1, 6)
    if mode == FEI and face == 1:
        raise ValueError(f"{name}: face 1 cannot be bid in 飞 (fei) mode, where ones are wild")
    return mode, count, face


def _rank(mode: int, face: int) -> int:
    return face - 2 if mode == FEI else (face - 2) % 6


def bid_beats(prev_bid: Bid | None, bid: Bid, num_players: int | None = None) -> bool:
    """Whether ``bid`` may follow ``prev_bid`` (the seed's comparison, RULES.md §3).

    Same mode: higher count, or equal count and higher face (飞 2<3<4<5<6; 斋 2<3<4<5<6<1).
    斋 after 飞: count >= ceil(previous count / 2). 飞 after 斋: count >= 2 x previous count.
    ``prev_bid=None`` asks about the first bid of a round: its count must exceed
    ``num_players`` (then required). The no-repeat rule depends on the round's history, not
    on two bids: see ``forbid_repeat_bids``.
    """
    mode, count, face = check_bid(bid)
    if prev_bid is None:
        if num_players is None:
            raise ValueError("num_players is required to judge a first bid (prev_bid=None): "
                             "its count must exceed the number of players")
        return count > check_int(num_players, "num_players", 2)
    prev_mode, prev_count, prev_face = check_bid(prev_bid, name="prev_bid")
    if mode == prev_mode:
        return (count, _rank(mode, face)) > (prev_count, _rank(prev_mode, prev_face))
    if mode == ZHAI:
        return count >= (prev_count + 1) // 2
    return count >= 2 * prev_count


def num_actions(num_players: int, dice: int = DEFAULT_DICE) -> int:
    """1 challenge + 5D 飞 bids + 6D 斋 bids."""
    return 1 + (FEI_FACES + ZHAI_FACES) * _total_dice(num_players, dice)


def bid_to_action(bid: Bid, num_players: int, dice: int = DEFAULT_DICE) -> int:
    """The action id of ``bid`` at a table of ``num_players`` with ``dice`` dice each."""
    total = _total_dice(num_players, dice)
    mode, count, face = check_bid(bid, total)
    if mode == FEI:
        return 1 + FEI_FACES * (count - 1) + face - 2
    return 1 + FEI_FACES * total + ZHAI_FACES * (count - 1) + _rank(ZHAI, face)


def action_to_bid(action: int, num_players: int, dice: int = DEFAULT_DICE) -> Bid | None:
    """The bid ``(mode, count, face)`` of an action id; ``None`` for 0 (challenge)."""
    total = _total_dice(num_players, dice)
    action = check_int(action, "action", 0, (FEI_FACES + ZHAI_FACES) * total)
    if action == CHALLENGE:
        return None
    index = action - 1
    return (MODE_NAMES[bid_mode(index, total)], int(bid_count(index, total)),
            int(bid_face(index, total)))


def format_bid(bid: Bid | None) -> str:
    """``"7 x 4 (fei)"``, or ``"challenge"`` for None."""
    if bid is None:
        return "challenge"
    mode, count, face = bid
    return f"{count} x {face} ({MODE_NAMES[_MODE_ALIASES[mode]]})"


def parse_bid(text: str, default_mode: str | None = None) -> Bid | None:
    """A bid from text as a human types it: ``"fei 7 4"``, ``"zhai 3 1"``, ``"7x4 fei"``,
    ``"斋 3 1"``; ``"c"``/``"challenge"``/``"开"`` for a challenge. With ``default_mode``
    (the basic variant's ``"fei"``) the mode may be left out: ``"7 4"``. Raises ValueError."""
    spaced = re.sub(r"(\d)\s*[x×*]\s*(\d)", r"\1 \2", text.strip().lower())  # 7x4 -> 7 4
    words = spaced.replace(",", " ").split()
    if len(words) == 1 and words[0] in ("c", "challenge", "开", "open", "liar"):
        return None
    modes = [w for w in words if w in _MODE_ALIASES]
    numbers = [w for w in words if w not in _MODE_ALIASES]
    if not modes and default_mode is not None:
        modes = [default_mode]
    if len(modes) != 1 or len(numbers) != 2 or not all(w.isdigit() for w in numbers):
        raise ValueError(f"cannot read a bid from {text!r}: type a mode and two numbers, "
                         "e.g. 'fei 7 4' (seven 4s, ones wild) or 'zhai 3 1', or 'c' to "
                         "challenge")
    mode = MODE_NAMES[_MODE_ALIASES[modes[0]]]
    return mode, int(numbers[0]), int(numbers[1])


def explain_illegal(bid: Bid | None, bids: Sequence[Bid], num_players: int, dice: int,
                    forbid_repeat: bool = True, basic: bool = False,
                    min_first: int | None = None) -> str | None:
    """Why ``bid`` (None: a challenge) may not be made after this round's ``bids`` (oldest
    first), or None when it is legal: the rule it breaks, as a person reads it (RULES.md §3,
    ``bid_beats``). ``basic``: the seed's basic variant, every bid 飞; ``min_first``: the
    least count of a round's first bid (default ``num_players + 1``)."""
    if bid is None:
        return None if bids else ("you cannot challenge before anyone has bid: the round's "
                                  "opener must bid")
    mode, count, face = bid
    mode = {"飞": "fei", "斋": "zhai"}.get(mode, mode)
    bid = (mode, count, face)
    total = num_players * dice
    if basic and mode == "zhai":
        return ("the basic variant has no zhai (斋) bids: every bid is fei, ones wild (type "
                "e.g. '7 4')")
    if mode == "fei" and face == 1:
        return ("face 1 cannot be bid in fei (飞), where ones are wild: bid 'zhai N 1' to count "
                "ones alone")
    low = 2 if mode == "fei" else 1
    if not low <= face <= 6:
        return f"the face must be {low}..6 in {mode}, got {face}"
    if not 1 <= count <= total:
        return (f"the count must be 1..{total} (the dice on the table: {num_players} players "
                f"x {dice}), got {count}")
    if not bids:
        least = num_players + 1 if min_first is None else min_first
        if count >= least:
            return None
        return (f"the round's first bid must have a count above the number of players "
                f"({num_players}): at least {least}" if min_first is None else
                f"the round's first bid must have a count of at least {least}")
    if not bid_beats(bids[-1], bid):
        return _no_beat(bid, bids[-1], total)
    if forbid_repeat and bid in [tuple(b) for b in bids]:
        return f"{format_bid(bid)} was already bid this round: repeated bids are not allowed"
    return None


def _no_beat(bid: Bid, prev: Bid, total: int) -> str:
    """Why ``bid`` does not beat ``prev``, by the rule of their two modes."""
    mode = bid[0]
    prev_mode, prev_count, prev_face = prev
    prev_mode = {"飞": "fei", "斋": "zhai"}.get(prev_mode, prev_mode)
    if mode == prev_mode:
        order = "2<3<4<5<6" if mode == "fei" else "2<3<4<5<6<1"
        return (f"it must beat the last bid {format_bid(prev)}: a higher count, or "
                f"{prev_count} with a face above {prev_face} ({mode} order {order})")
    if mode == "zhai":
        need = (prev_count + 1) // 2
        return (f"zhai (斋) after fei (飞) {format_bid(prev)} needs a count >= "
                f"ceil({prev_count}/2) = {need}")
    need = 2 * prev_count
    beyond = (f" (more than the {total} dice on the table: no fei bid is left)"
              if need > total else "")
    return (f"fei (飞) after zhai (斋) {format_bid(prev)} needs a count >= 2 x {prev_count} "
            f"= {need}{beyond}")


def head_layout(num_actions: int) -> np.ndarray:
    """float32 ``[num_actions, 4 + D + 6]``: the seed's factored Q network (``--head four``),
    which head outputs make up each action's Q (``vecgames.policies.nets.FactoredQNet``).

    Columns: main action (challenge, bid), mode (飞, 斋), count 1..D, face 1..6. The challenge
    reads the main head's first output alone; a bid (mode, count, face) the sum of the main
    head's second output and its mode, count and face outputs.
    """
    total = (num_actions - 1) // (FEI_FACES + ZHAI_FACES)
    layout = np.zeros((num_actions, 4 + total + 6), np.float32)
    layout[0, 0] = 1.0
    for a in range(1, num_actions):
        mode, count, face = (int(f(a - 1, total)) for f in (bid_mode, bid_count, bid_face))
        layout[a, [1, 2 + mode, 4 + count - 1, 4 + total + face - 1]] = 1.0
    return layout
