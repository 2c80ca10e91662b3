"""How each Hold'em player bets: every decision of a sample of hands played through the env
with any mix of players (built-in, callable, checkpoint), and the betting table per player.

>>> log = betting_log(["strength", "call"], 2_000, num_players=2)
>>> betting_table(log)      # action mix, bet sizes, fold-to-raise, bluff rate per player

The hands are played by ``decision_log``, which reads each decision from the table before and
after the step, so the log does not depend on how a player encodes its actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.decision_log import Columns, decision_log
from vecgames.analysis.seat_players import player_seats
from vecgames.games.holdem.rules import BET, CUR_BET, FOLDED, PAID, PLAYER, STREET, STREET_NAMES
from vecgames.poker.seven_card import evaluate, hand_category

ACTIONS = ("fold", "check", "call", "bet", "raise")
BOARD_CARDS = (0, 3, 4, 5)  # board cards dealt on each street
LOG_COLUMNS = ("hand", "street", "seat", "action", "owed", "added", "pot", "made")


def _before(env: Any, rows: np.ndarray, actions: np.ndarray) -> Columns:
    """The acting seat's street, chips to call, chips put in so far, the pot and its made hand
    (category 0 high card .. 8 of its hole cards with the board dealt so far; -1 preflop)."""
    n = env.num_players
    t = env.state.table[rows]
    seat = t[:, PLAYER].astype(np.int64)
    street = t[:, STREET].astype(np.int64)
    paid = t[:, PAID:PAID + n]
    bet = np.take_along_axis(t[:, BET:BET + n], seat[:, None], 1)[:, 0]
    made = np.full(rows.size, -1, np.int64)
    deck = env.state.deck[rows]
    for s in (1, 2, 3):
        sel = np.flatnonzero(street == s)
        if sel.size:
            hole = deck[sel[:, None], 2 * seat[sel, None] + np.arange(2)]
            board = deck[sel, 2 * n:2 * n + BOARD_CARDS[s]]
            cards = np.concatenate([hole, board], axis=1).astype(np.int64)
            made[sel] = hand_category(evaluate(cards, check=False))
    return {"street": street, "owed": t[:, CUR_BET] - bet,
            "paid": np.take_along_axis(paid, seat[:, None], 1)[:, 0], "pot": paid.sum(axis=1),
            "made": made}


def _after(env: Any, rows: np.ndarray, t: np.ndarray, before: Columns) -> Columns:
    """What the action was, from the table after it: fold, check, call (no more than owed),
    bet (first chips of a postflop street) or raise."""
    seat, owed = before["seat"], before["owed"]
    added = np.take_along_axis(t[:, PAID:PAID + env.num_players], seat[:, None], 1)[:, 0]
    added = added - before["paid"]
    folded = (t[:, FOLDED] >> seat) & 1 == 1
    kind = np.where(folded, 0, np.where(added <= 0, 1, np.where(
        added <= owed, 2, np.where((owed == 0) & (before["street"] > 0), 3, 4))))
    return {"kind": kind, "added": added}


def betting_log(players: Any, hands: int, seed: int = 0, **options: Any) -> pd.DataFrame:
    """Every decision (``LOG_COLUMNS``) of ``hands`` hands with ``players`` (one spec for every
    seat or one per seat, as ``simulate(players=...)``) and the rule options; ``made``: the
    acting seat's hand category with the board so far (-1 preflop), ``owed``: chips to call,
    ``pot``: chips in the pot before the action; ``attrs["players"]``: the seat labels."""
    log = decision_log("holdem", players, hands, _before, _after, seed, num_envs=256,
                       **options)
    out = pd.DataFrame({"hand": log["game"], "street": pd.Categorical.from_codes(
        log["street"], STREET_NAMES[:4]), "seat": log["seat"],
        "action": pd.Categorical.from_codes(log["kind"], ACTIONS)})
    out[["owed", "added", "pot", "made"]] = log[["owed", "added", "pot", "made"]]
    out.attrs = {"players": log.attrs["players"], "hands": hands}
    return out


def betting_table(log: pd.DataFrame) -> pd.DataFrame:
    """Per player (seats grouped by ``log.attrs["players"]``): decisions, the share of each
    action, aggression ((bets + raises) / calls), bet size (chips a bet or raise puts in over
    the pot before it: mean and median), fold_to_raise (folds among the decisions that faced
    a bet or raise: chips to call beyond the blinds) and bluff_rate (postflop bets and raises
    with high card: no pair or better with the board dealt so far)."""
    labels = log.attrs["players"]
    aggressive = log["action"].isin(("bet", "raise")).to_numpy()
    facing = _facing_raise(log)
    size = log["added"] / log["pot"].clip(lower=1)
    rows = []
    for name, seats in player_seats(labels).items():
        mine = log["seat"].isin(seats).to_numpy()
        count = log.loc[mine, "action"].value_counts()
        decisions = int(mine.sum())
        bets = int(count["bet"] + count["raise"])
        sizes = size[mine & aggressive]
        air = (log["made"] == 0).to_numpy()[mine & aggressive & (log["made"] >= 0).to_numpy()]
        faced = mine & facing
        rows.append({"player": name, "hands": int(log.attrs.get("hands", 0)) * len(seats),
                     "decisions": decisions,
                     **{k: count[k] / decisions if decisions else np.nan for k in ACTIONS},
                     "aggression": bets / count["call"] if count["call"] else np.nan,
                     "mean_bet_pot": float(sizes.mean()) if len(sizes) else np.nan,
                     "median_bet_pot": float(sizes.median()) if len(sizes) else np.nan,
                     "faced_raise": int(faced.sum()),
                     "fold_to_raise": float((log.loc[faced, "action"] == "fold").mean())
                     if faced.any() else np.nan,
                     "postflop_bets": len(air),
                     "bluff_rate": float(air.mean()) if len(air) else np.nan})
    return pd.DataFrame(rows)


def _facing_raise(log: pd.DataFrame) -> np.ndarray:
    """Decisions made after a bet or raise on the same street by another seat (preflop: a
    raise over the blinds)."""
    aggressive = log["action"].isin(("bet", "raise"))
    key = [log["hand"], log["street"]]
    raiser = pd.Series(np.where(aggressive, log["seat"], np.nan), index=log.index)
    last = raiser.groupby(key, observed=True).shift().groupby(key, observed=True).ffill()
    return (last.notna() & (last != log["seat"])).to_numpy()
