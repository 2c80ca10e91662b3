"""The Hold'em simulation report: ``write_report(vecgames.simulate("holdem", ...), "r.md")``.

Tables (each also written as CSV): chips and win rate by seat, by position relative to the
button and by player (the seats grouped by who sits there), with VPIP/PFR, bb/100 and showdown
rates per player; each player's betting (action mix, bet sizes, fold-to-raise, bluff rate)
from more hands played through the env (``report_betting``); who beats whom (an arena result);
how hands end (street, showdown); the pot-size distribution; hand categories at showdown. A
plot of pot sizes (with matplotlib).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.arena_section import arena_section, arena_tables
from vecgames.analysis.decision_log import frame_players, no_log_note
from vecgames.analysis.report_kit import (
    figure_class,
    finish_report,
    histogram_table,
    md_table,
    plot_hist,
    write_tables,
)
from vecgames.analysis.seat_players import player_seats, seat_labels
from vecgames.cli_args import print_throughput
from vecgames.games.holdem.report_betting import ACTIONS, betting_log, betting_table
from vecgames.poker.seven_card_build import CATEGORY_NAMES

DECISION_GAMES = 2_000  # hands the CLI plays through the env for the betting table


def _seat_matrix(df: pd.DataFrame, name: str) -> np.ndarray:
    n = len(df.filter(regex=r"^chips_\d+$").columns)
    return df[[f"{name}_{p}" for p in range(n)]].to_numpy()


def _stats(keys: np.ndarray, chips: np.ndarray, labels: list[str], key_name: str,
           extra: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """Per key: seat-hands, mean chips with a 95% CI, win rate (chips > 0), extra rates."""
    rows = []
    for k, label in enumerate(labels):
        sel = keys == k
        c = chips[sel].astype(np.float64)
        count = int(sel.sum())
        row = {key_name: label, "hands": count,
               "mean_chips": c.mean() if count else np.nan,
               "ci95": 1.96 * c.std() / np.sqrt(count) if count > 1 else np.nan,
               "win_rate": (c > 0).mean() if count else np.nan}
        for name, values in (extra or {}).items():
            v = values[sel]
            v = v[~np.isnan(v)]  # wsd counts the shown hands only
            row[name] = v.mean() if v.size else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def position_names(n: int) -> list[str]:
    """Seats counted from the button: BTN, SB, BB, UTG, UTG+1, ... (heads-up: BTN/SB, BB)."""
    if n == 2:
        return ["BTN/SB", "BB"]
    return ["BTN", "SB", "BB"] + ["UTG" if k == 0 else f"UTG+{k}" for k in range(n - 3)]


def _showdown(df: pd.DataFrame, chips: np.ndarray) -> dict[str, np.ndarray]:
    """Per seat-hand: went to showdown (wtsd) and won there (wsd: NaN when not shown, so a
    player's mean over its shown hands is the share of showdowns it won)."""
    shown = _seat_matrix(df, "category") >= 0
    return {"wtsd": shown.ravel().astype(np.float64),
            "wsd": np.where(shown, chips > 0, np.nan).ravel()}


def report_tables(df: pd.DataFrame, log: pd.DataFrame | None = None,
                  arena: Any = None) -> dict[str, pd.DataFrame]:
    """Every table of the report by name (the CSV suffix); ``log``: a ``betting_log`` for the
    betting table, ``arena``: an arena result for the who-beats-whom tables."""
    chips = _seat_matrix(df, "chips")
    hands, n = chips.shape
    vpip = _seat_matrix(df, "vpip").astype(np.float64)
    pfr = _seat_matrix(df, "pfr").astype(np.float64)
    seats = np.broadcast_to(np.arange(n), chips.shape)
    position = (seats - df["button"].to_numpy()[:, None]) % n
    names = list(player_seats(seat_labels(df, n)))
    policy_of_seat = np.array([names.index(p) for p in seat_labels(df, n)])
    extra = {"vpip": vpip.ravel(), "pfr": pfr.ravel()}
    tables = {
        "seats": _stats(seats.ravel(), chips.ravel(), [str(p) for p in range(n)], "seat",
                        extra),
        "positions": _stats(position.ravel(), chips.ravel(), position_names(n), "position",
                            extra),
        "policies": _stats(np.broadcast_to(policy_of_seat, chips.shape).ravel(),
                           chips.ravel(), names, "policy", extra | _showdown(df, chips)),
    }
    big_blind = df.attrs.get("rules", {}).get("big_blind", np.nan)
    tables["policies"].insert(4, "bb_per_100", 100 * tables["policies"]["mean_chips"]
                              / big_blind)
    ends = df["end_street"].value_counts(sort=False)
    tables["streets"] = pd.DataFrame({
        "ended_on": ends.index.astype(str), "hands": ends.to_numpy(),
        "share": ends.to_numpy() / hands,
        "showdown_share": [df.loc[df["end_street"] == s, "showdown"].mean() if c else np.nan
                           for s, c in zip(ends.index, ends.to_numpy(), strict=True)]})
    pot = df["pot"].to_numpy()
    quantiles = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99]
    tables["pot_quantiles"] = pd.DataFrame({"quantile": quantiles,
                                            "pot": np.quantile(pot, quantiles)})
    tables["pot_hist"] = histogram_table(pot)
    shown = _seat_matrix(df, "category").ravel()
    shown = shown[shown >= 0]
    counts = np.bincount(shown, minlength=9)
    tables["showdown_categories"] = pd.DataFrame({
        "category": list(CATEGORY_NAMES), "hands_shown": counts,
        "share": counts / max(counts.sum(), 1)})
    if log is not None:
        tables["betting"] = betting_table(log)
    return tables | arena_tables(arena)


def _log(df: pd.DataFrame, players: Any, hands: int) -> pd.DataFrame | None:
    if hands <= 0 or players is None:
        return None
    rules = df.attrs.get("rules", {})
    options = {k: rules[k] for k in ("num_players", "small_blind", "big_blind", "short_stack",
                                     "min_raise") if k in rules}
    if "stacks" in rules:
        options["stack"] = list(rules["stacks"])
    return betting_log(players, hands, **options)


def _betting_lines(tables: dict[str, pd.DataFrame], hands: int) -> list[str]:
    if "betting" not in tables:
        return ["### Betting", "", no_log_note(hands), ""]
    return ["### Betting", "", f"From {hands:,} more hands with the same players and rules, "
            "played through the env (`vecgames.games.holdem.report_betting`, seed 0): the share "
            "of each action, aggression = (bets + raises) / calls, bet size = chips a bet or "
            "raise puts in over the pot before it, fold_to_raise = folds when facing a bet or "
            "raise by another seat on the street, bluff_rate = postflop bets and raises with "
            "no pair or better (hole cards and the board so far).", "",
            md_table(tables["betting"], pct=(*ACTIONS, "fold_to_raise", "bluff_rate")), ""]


def write_report(df: pd.DataFrame, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Hold'em simulation report", plots: bool = True,
                 arena: Any = None, players: Any = None,
                 decision_games: int = 0) -> dict[str, Path]:
    """Write the Markdown report, its tables as ``<stem>_<table>.csv`` and plots as
    ``<stem>_<plot>.png`` beside it; returns the written paths by name. ``arena``: a
    ``vecgames.arena`` result for the who-beats-whom section; ``players``: the seat specs
    (as ``simulate(players=...)``) for the betting table, needed when a seat holds other than
    a built-in player; ``decision_games``: hands the betting table plays through the env (0,
    the default: no table; the CLI plays ``DECISION_GAMES``)."""
    t0 = time.perf_counter()
    path_md = Path(path_md)
    log = _log(df, frame_players("holdem", df, players), decision_games)
    tables = report_tables(df, log, arena)
    stem, written = write_tables(tables, path_md)
    rules = df.attrs.get("rules", {})
    # the seed's betting rules, named when chosen (the defaults go unsaid)
    variants = "".join(f", {key}={rules[key]}" for key, default in
                       (("short_stack", "all-in"), ("min_raise", "standard"))
                       if rules.get(key, default) != default)
    lines = [f"# {title}", "",
             f"{len(df):,} independent hands, {rules.get('num_players', '?')} players, "
             f"blinds {rules.get('small_blind', '?')}/{rules.get('big_blind', '?')}, stacks "
             f"{rules.get('stacks', '?')}{variants}, policies {df.attrs.get('policies', '?')}"
             + (f"; simulated in {elapsed:.2f} s." if elapsed is not None else "."), "",
             "Chips are each seat's chip change per hand; the CI is a 95% interval of the mean. "
             "Win rate: share of hands with a gain. VPIP: put chips in voluntarily preflop; "
             "PFR: raised preflop.", ""]
    sections = [("By seat", "seats"), ("By position (from the button)", "positions"),
                ("By player", "policies"), ("How hands end", "streets"),
                ("Pot size", "pot_quantiles"), ("Hands shown at showdown", "showdown_categories")]
    pct = ("win_rate", "vpip", "pfr", "wtsd", "wsd", "share", "showdown_share", *ACTIONS,
           "fold_to_raise", "bluff_rate")
    labels = seat_labels(df, len(df.filter(regex=r"^chips_\d+$").columns))
    for heading, name in sections:
        lines += [f"## {heading}", "", md_table(tables[name], pct=pct,
                                                 signed=("mean_chips", "bb_per_100")), ""]
        if name == "policies":
            lines += ["Seats grouped by the player sitting there. bb_per_100: mean chips per "
                      "100 hands in big blinds; wtsd: went to showdown; wsd: won at showdown "
                      "(share of the shown hands).", ""] + _betting_lines(tables, decision_games)
            lines += arena_section(arena, labels)
    figure = figure_class() if plots else None
    if figure is not None:
        png = Path(f"{stem}_pot.png")
        plot_hist(figure, tables["pot_hist"], "pot (chips)", png)
        written["plot_pot"] = png
        lines += [f"![pot sizes]({png.name})", ""]
    elif plots:
        lines += ["_Plots skipped: matplotlib is not installed._", ""]
    finish_report(lines, path_md, t0)
    written["report"] = path_md
    return written


# -- `vecgames simulate --summary` -------------------------------------------------------
def print_summary(args: Any, df: Any, startup: float, elapsed: float) -> None:
    import pandas as pd

    if args.summary:
        seats = df[["seat", "policy", "mean_chips", "std_chips", "win_share", "vpip", "pfr"]]
        ends = pd.Series(df.attrs["end_counts"]) / args.games
        showdown = df.attrs["showdowns"] / args.games
    else:
        chips = df.filter(like="chips_")
        seats = chips.agg(["mean", "std"]).T.rename_axis("seat").reset_index()
        seats["seat"] = seats["seat"].str.removeprefix("chips_")
        seats = seats.rename(columns={"mean": "mean_chips", "std": "std_chips"})
        ends = df["end_street"].value_counts(normalize=True, sort=False)
        showdown = df["showdown"].mean()
    print(f"{args.game}: {args.games:,} games, {len(seats)} players, policy {args.policy}, "
          f"seed {args.seed}")
    print(seats.to_string(index=False, formatters={
        "mean_chips": "{:+.4f}".format, "std_chips": "{:.3f}".format,
        "win_share": "{:.4f}".format, "vpip": "{:.3f}".format, "pfr": "{:.3f}".format}))
    print("ended on: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in ends.items())
          + f"; showdown {100 * showdown:.1f}%")
    print_throughput(args.games, elapsed, startup, "games")
