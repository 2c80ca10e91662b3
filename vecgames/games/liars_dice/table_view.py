"""Liar's Dice: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from ..seat_view import sees


def _faces(packed: int) -> list[int]:
    from .rules import unpack_counts

    return [f + 1 for f, c in enumerate(unpack_counts(packed)) for _ in range(int(c))]


def _bid(env: Any, action: int) -> dict[str, Any] | None:
    from .bids import action_to_bid, format_bid

    bid = action_to_bid(action, env.rules.num_players, env.rules.dice)
    if bid is None:
        return None
    mode, count, face = bid
    return {"mode": str(mode), "count": int(count), "face": int(face), "text": format_bid(bid)}


def table(s: Any, env: Any, seat: int | None, reveal: bool,
                shown: Collection[int]) -> dict[str, Any]:
    from .rules import field

    def f(name: str) -> Any:
        return field(s, name)[0]

    visible = sees(seat, reveal, shown)
    n = env.rules.num_players
    last = int(f("last"))
    seats = [{"penalty": int(f("penalty")[p]),
              "dice": _faces(int(f("dice")[p])) if visible(p) else None,
              "count": len(_faces(int(f("dice")[p])))} for p in range(n)]
    loser = int(f("loser"))
    finished = None
    if loser >= 0:  # the last finished round: every seat saw these dice at the challenge
        finished = {"loser": loser, "challenger": int(f("challenger")),
                    "bid": _bid(env, int(f("challenged"))), "actual": int(f("actual")),
                    "dice": [_faces(int(f("revealed")[p])) for p in range(n)]}
    return {"round": int(f("round")) + 1, "rounds": int(env.rules.num_rounds),
            "last_bid": _bid(env, last) if last else None,
            "bidder": int(f("bidder")) if last else None, "seats": seats,
            "last_round": finished}


def shown(before: Any, env: Any, action: Any) -> list[int]:
    """A challenge shows every seat's dice."""
    return list(range(env.rules.num_players)) if action == 0 else []


def group(env: Any, move: Any) -> str:
    return "challenge" if int(move.action) == 0 else move.short.split()[0]


def final_state(before: Any, after: Any, env: Any, action: Any, info: Any) -> Any:
    """The round a game ended in: the step that ends one rolls the next (``after``); its
    outcome is in ``after``'s table when a challenge ended it, its penalty points in
    ``info``."""
    from .rules import LOSER, PENALTY, REVEALED, ROUND_BIDS

    t = np.array(before.table)
    n = env.rules.num_players
    if action == 0:  # a challenge ended it: its outcome, as the step wrote it
        t[0, LOSER:ROUND_BIDS + 1] = after.table[0, LOSER:ROUND_BIDS + 1]
        t[0, REVEALED:REVEALED + n] = after.table[0, REVEALED:REVEALED + n]
    penalty = info.get("final_penalty_points") if isinstance(info, dict) else None
    if penalty is not None:
        t[0, PENALTY:PENALTY + n] = np.asarray(penalty)[0, :n]
    return before._replace(table=t)
