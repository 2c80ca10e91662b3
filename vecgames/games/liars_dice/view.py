"""Liar's Dice for a person: ``vecgames play liars-dice`` (the shared terminal loop,
``vecgames.play.terminal``) and a :class:`~vecgames.policies.human.HumanPlayer` (``"human"`` in
a seat of ``vecgames.simulate(players=...)`` or the arena).

A seat sees its own dice and the round's last bid, and types a bid as ``fei 7 4`` / ``zhai 3 1``
(also ``飞 7 4``, ``7x4 fei``, and ``7 4`` in the basic variant) or ``c`` to challenge; a
refused bid is answered with the rule it breaks (``bids.explain_illegal``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..view import Move, View
from .bids import (
    FEI_FACES,
    Bid,
    action_to_bid,
    bid_to_action,
    explain_illegal,
    format_bid,
    parse_bid,
)
from .rules import field, rules_to_options, unpack_counts


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _dice(packed: int) -> str:
    return " ".join(str(f + 1) for f, c in enumerate(unpack_counts(packed)) for _ in range(c))


def _default_mode(env: Any) -> str | None:
    """The mode a typed bid may leave out: the basic variant has only 飞."""
    return "fei" if env.rules.basic else None


def rules_text(num_players: int, dice: int, num_rounds: int, forbid_repeat: bool,
               basic: bool = False) -> str:
    """The rules in brief, as printed once at the start (and on '?'); ``basic``: the seed's
    basic variant (飞 only)."""
    repeat = ("\n  - a bid already made this round may not be made again." if forbid_repeat
              and not basic else "")  # basic bids strictly rise: a repeat is never legal
    first = (f"  - the round's first bid needs a count above the number of players (at least "
             f"{num_players + 1});")
    if basic:
        head = f"""\
Liar's Dice, basic rules (飞 fei only): {num_players} players, {dice} dice each, \
{num_rounds} round(s).
Everyone rolls their dice and sees only their own. In turn, bid how many dice on the WHOLE
table show a face, or challenge the previous bid.
  Ones are wild and count for any face; faces 2..6.  '7 4' (or 'fei 7 4'): at least seven 4s
  (ones included)
{first}
  - a later bid must beat the last one: a higher count, or the same count with a higher face
    (2<3<4<5<6)."""
    else:
        head = f"""\
Liar's Dice with 斋/飞 (zhai/fei): {num_players} players, {dice} dice each, \
{num_rounds} round(s).
Everyone rolls their dice and sees only their own. In turn, bid how many dice on the WHOLE
table show a face, or challenge the previous bid.
  fei  (飞): ones are wild and count for any face; faces 2..6.  'fei 7 4': at least seven 4s
             (ones included)
  zhai (斋): ones are not wild; faces 1..6, and 1 ranks highest.  'zhai 3 1': at least three 1s
{first}
  - a later bid must beat the last one: in the same mode a higher count, or the same count
    with a higher face (fei 2<3<4<5<6, zhai 2<3<4<5<6<1); zhai after fei needs
    count >= ceil(fei count / 2); fei after zhai needs count >= 2 x zhai count;{repeat}"""
    return head + """
Challenge ('c'): all dice are shown. If the bid holds (enough dice), the challenger loses the
round, otherwise the bidder does. The loser gets a penalty point and opens the next round;
fewest penalty points at the end wins."""


def lowest_legal(mask: np.ndarray, num_players: int, dice: int) -> str:
    """The cheapest legal bid of each mode (as typed) and whether a challenge is allowed."""
    fei_end = 1 + FEI_FACES * num_players * dice
    options = []
    for lo, hi in ((1, fei_end), (fei_end, len(mask))):
        legal = np.flatnonzero(mask[lo:hi])
        if legal.size:
            mode, count, face = _bid(int(legal[0]) + lo, num_players, dice)
            options.append(f"'{mode} {count} {face}'")
    if mask[0]:
        options.append("'c' (challenge)")
    return "lowest legal moves now: " + ", ".join(options) if options else "no legal move"


def _bid(action: int, num_players: int, dice: int) -> Bid:
    bid = action_to_bid(action, num_players, dice)
    assert bid is not None
    return bid


class LiarsDiceView(View):
    game = "liars_dice"
    title = "Liar's Dice"
    default_agent = "heuristic"
    example = "fei 7 4"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        text = rules_text(r.num_players, r.dice, r.num_rounds, bool(r.forbid_repeat),
                          bool(r.basic))
        return text + " Type '?' for these rules, 'q' to quit."

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        r = env.rules
        last = int(_f(s, "last"))
        opener = (f"last bid {format_bid(self._bid(env, last))} by seat {int(_f(s, 'bidder'))}"
                  if last else f"no bids yet (the first needs a count above {r.num_players})")
        lines = [f"Round {int(_f(s, 'round')) + 1}/{r.num_rounds}, seat "
                 f"{int(_f(s, 'player'))} to act; {opener}."]
        for p in range(r.num_players):
            line = (f"  seat {p}{' (you)' if p == seat else ''}: penalty points "
                    f"{int(_f(s, 'penalty')[p])}")
            if seat is None or p == seat:
                line += f"; dice {_dice(int(_f(s, 'dice')[p]))}"
            lines.append(line)
        return "\n".join(lines)

    @staticmethod
    def _bid(env: Any, action: int) -> Any:
        return action_to_bid(action, env.rules.num_players, env.rules.dice)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        out = [Move(0, "c", "challenge the last bid", bool(mask[0]))]
        for a in range(1, env.num_actions):
            mode, count, face = self._bid(env, a)
            out.append(Move(a, f"{mode} {count} {face}", format_bid((mode, count, face)),
                            bool(mask[a])))
        return out

    def menu(self, moves: list[Move], s: Any, env: Any, mask: np.ndarray) -> str:
        """Too many bids to list: how to type one, and the cheapest of each mode."""
        bids = ("COUNT FACE (fei, ones wild)" if env.rules.basic
                else "fei COUNT FACE | zhai COUNT FACE")
        return (f"Moves: c challenge | {bids}  "
                f"({lowest_legal(mask, env.rules.num_players, env.rules.dice)})")

    def parse(self, text: str, s: Any, env: Any) -> int | None:
        """A bid in any spelling ``parse_bid`` reads (``飞 7 4``, ``7x4 fei``; ``7 4`` in the
        basic variant), or a challenge; None for text that names no action of this table."""
        try:
            bid = parse_bid(text, _default_mode(env))
            return 0 if bid is None else bid_to_action(bid, env.rules.num_players,
                                                       env.rules.dice)
        except (ValueError, TypeError):  # not a bid, or none at this table: explain says why
            return None

    def explain(self, text: str, s: Any, env: Any, mask: np.ndarray) -> str | None:
        """The rule a typed bid breaks, judged against the round's last bid (the state keeps
        it); a bid that beats it but that the mask refuses was made earlier this round."""
        try:
            bid = parse_bid(text, _default_mode(env))
        except ValueError:  # not a bid: the prompt's own answer
            return None
        r = env.rules
        last = int(_f(s, "last"))
        history = [self._bid(env, last)] if last else []
        reason = explain_illegal(bid, history, r.num_players, r.dice, bool(r.forbid_repeat),
                                 bool(r.basic), rules_to_options(r)["min_first_count"])
        if reason is None and bid is not None and r.forbid_repeat:
            return f"{format_bid(bid)} was already bid this round: repeated bids are not allowed"
        return reason

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:
        p = int(_f(before, "player"))
        if action:
            return [f"seat {p} bids {format_bid(self._bid(env, action))}"]
        bidder = int(_f(before, "bidder"))
        bid = self._bid(env, int(_f(before, "last")))
        lines = [f"seat {p} challenges seat {bidder}'s bid {format_bid(bid)}"]
        revealed = _f(after, "revealed")  # the round just finished, kept into the next
        lines += [f"  seat {q} dice: {_dice(int(revealed[q]))}"
                  for q in range(env.rules.num_players)]
        lines.append(f"  {int(_f(after, 'actual'))} dice count for it: seat "
                     f"{int(_f(after, 'loser'))} loses the round")
        return lines

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        rounds = env.rules.num_rounds
        why = ("The round hit the step limit." if truncated else
               f"Game over after {rounds} round{'s' if rounds > 1 else ''}.")
        return why + " Points this game: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}"
            for q in range(env.rules.num_players))


VIEW = LiarsDiceView()
