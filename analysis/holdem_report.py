"""The Hold'em simulation report: ``write_report(vecgames.simulate("holdem", ...), "r.md")``.

Tables (each also written as CSV): chips and win rate by seat, by position relative to the
button and by policy, with VPIP/PFR per policy; how hands end (street, showdown); the pot-size
distribution; hand categories at showdown. A plot of pot sizes (with matplotlib).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from vecgames.analysis.zhajinhua_report import (
    _load_pyplot_free_figure,
    _plot_hist,
    histogram_table,
    md_table,
    write_tables,
)
from vecgames.poker.seven_card_build import CATEGORY_NAMES


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
            row[name] = values[sel].mean() if count else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def position_names(n: int) -> list[str]:
    """Seats counted from the button: BTN, SB, BB, UTG, UTG+1, ... (heads-up: BTN/SB, BB)."""
    if n == 2:
        return ["BTN/SB", "BB"]
    return ["BTN", "SB", "BB"] + ["UTG" if k == 0 else f"UTG+{k}" for k in range(n - 3)]


def report_tables(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    chips = _seat_matrix(df, "chips")
    hands, n = chips.shape
    vpip = _seat_matrix(df, "vpip").astype(np.float64)
    pfr = _seat_matrix(df, "pfr").astype(np.float64)
    seats = np.broadcast_to(np.arange(n), chips.shape)
    position = (seats - df["button"].to_numpy()[:, None]) % n
    policies = list(df.attrs.get("policies", ["?"] * n))
    names = sorted(set(policies), key=policies.index)
    policy_of_seat = np.array([names.index(p) for p in policies])
    extra = {"vpip": vpip.ravel(), "pfr": pfr.ravel()}
    tables = {
        "seats": _stats(seats.ravel(), chips.ravel(), [str(p) for p in range(n)], "seat",
                        extra),
        "positions": _stats(position.ravel(), chips.ravel(), position_names(n), "position",
                            extra),
        "policies": _stats(np.broadcast_to(policy_of_seat, chips.shape).ravel(),
                           chips.ravel(), names, "policy", extra),
    }
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
    return tables


def write_report(df: pd.DataFrame, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Hold'em simulation report", plots: bool = True
                 ) -> dict[str, Path]:
    """Write the Markdown report, its tables as ``<stem>_<table>.csv`` and plots as
    ``<stem>_<plot>.png`` beside it; returns the written paths by name."""
    t0 = time.perf_counter()
    path_md = Path(path_md)
    tables = report_tables(df)
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
                ("By policy", "policies"), ("How hands end", "streets"),
                ("Pot size", "pot_quantiles"), ("Hands shown at showdown", "showdown_categories")]
    pct = ("win_rate", "vpip", "pfr", "share", "showdown_share")
    for heading, name in sections:
        lines += [f"## {heading}", "", md_table(tables[name], pct=pct, signed=("mean_chips",)),
                  ""]
    figure = _load_pyplot_free_figure() if plots else None
    if figure is not None:
        png = Path(f"{stem}_pot.png")
        _plot_hist(figure, tables["pot_hist"], "pot (chips)", png)
        written["plot_pot"] = png
        lines += [f"![pot sizes]({png.name})", ""]
    elif plots:
        lines += ["_Plots skipped: matplotlib is not installed._", ""]
    lines += [f"_Report written in {time.perf_counter() - t0:.2f} s._", ""]
    path_md.write_text("\n".join(lines), encoding="utf-8")
    written["report"] = path_md
    return written
