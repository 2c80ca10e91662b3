"""Zha Jin Hua 扎金花 strategy statistics from ``vecgames.simulate`` per-game DataFrames.

Every table function takes the DataFrame (or its ``attrs["action_counts"]``) and returns a
DataFrame; ``write_report`` writes them as Markdown plus CSV files and PNG plots beside it.
All work is vectorized over games (numpy/pandas), so a million games report in seconds.
Win rate = the share of the pot won (a split pot counts 1/k for each of the k winners), so the
win rates of all seats sum to 1 per game; "seen" = the seat had looked at its cards by the end.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.report_kit import (
    QUANTILES,
    figure_class,
    finish_report,
    histogram_table,
    md_table,
    plot_hist,
    policy_text,
    time_lines,
    write_tables,
)
from vecgames.analysis.seat_players import mean_ci95, player_seats, ratio, seat_labels
from vecgames.cli_args import print_throughput
from vecgames.games.zhajinhua import ACTION_NAMES
from vecgames.poker import CATEGORY_NAMES, CATEGORY_NAMES_ZH

PHASES = ("look", "action")
STATUSES = ("blind", "seen")
# Actions grouped for the frequency tables: the six "compare with seat j" become one column.
ACTION_GROUPS = ("no-op", "look", "fold", "compare") + tuple(ACTION_NAMES[9:])
_GROUP_OF_ACTION = np.array([0, 1, 2] + [3] * 6 + list(range(4, 10)))


# ---------------------------------------------------------------- per-game tables


def num_seats(df: pd.DataFrame) -> int:
    """Number of seats in a per-game DataFrame (its ``chips_p`` columns)."""
    n = sum(1 for c in df.columns if re.fullmatch(r"chips_\d+", str(c)))
    if n == 0 or "winners" not in df.columns:
        raise ValueError("expected a per-game DataFrame from vecgames.simulate (summary=False) "
                         "with winners and chips_p columns")
    return n


def _seat_matrix(df: pd.DataFrame, name: str) -> np.ndarray:
    """Columns ``name_0 .. name_{n-1}`` as a (games, seats) array."""
    return np.column_stack([df[f"{name}_{p}"].to_numpy() for p in range(num_seats(df))])


def win_shares(df: pd.DataFrame) -> np.ndarray:
    """(games, seats) share of the pot each seat won: 1/k for each of k winners, else 0."""
    n = num_seats(df)
    bits = (df["winners"].to_numpy().astype(np.int32)[:, None] >> np.arange(n, dtype=np.int32)) & 1
    return bits * (1.0 / np.maximum(bits.sum(axis=1), 1))[:, None]


def _outcome_stats(keys: np.ndarray, size: int, share: np.ndarray,
                   chips: np.ndarray) -> dict[str, np.ndarray]:
    """Count, win rate and mean/std/95% CI of chips per integer key in [0, size)."""
    count = np.bincount(keys, minlength=size).astype(np.float64)
    chips = chips.astype(np.float64)

    def mean(w: np.ndarray) -> np.ndarray:
        total = np.bincount(keys, weights=w, minlength=size)
        return np.divide(total, count, out=np.full(size, np.nan), where=count > 0)

    m = mean(chips)
    std = np.sqrt(np.maximum(mean(chips * chips) - m * m, 0.0))
    ci = np.divide(1.96 * std, np.sqrt(count), out=np.full(size, np.nan), where=count > 0)
    return {"count": count.astype(np.int64), "win_rate": mean(share), "mean_chips": m,
            "std_chips": std, "mean_chips_ci95": ci}


def seat_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per seat: games, win rate (pot share), chips (mean, std, 95% CI), seen and opener rates."""
    n = num_seats(df)
    games = len(df)
    chips = _seat_matrix(df, "chips").astype(np.float64)
    std = chips.std(axis=0)
    return pd.DataFrame({
        "seat": np.arange(n),
        "games": games,
        "win_rate": win_shares(df).mean(axis=0),
        "mean_chips": chips.mean(axis=0),
        "std_chips": std,
        "mean_chips_ci95": 1.96 * std / np.sqrt(max(games, 1)),
        "seen_rate": _seat_matrix(df, "looked").mean(axis=0),
        "opener_rate": np.bincount(df["opener"].to_numpy(), minlength=n)[:n] / max(games, 1),
    })


def position_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per turn-order position (0 = the opener, who acts first): win rate, chips, seen rate."""
    n = num_seats(df)
    opener = df["opener"].to_numpy().astype(np.int64)[:, None]
    pos = ((np.arange(n) - opener) % n).ravel()
    stats = _outcome_stats(pos, n, win_shares(df).ravel(), _seat_matrix(df, "chips").ravel())
    seen = np.bincount(pos, weights=_seat_matrix(df, "looked").ravel(), minlength=n)
    out = pd.DataFrame({"position": np.arange(n), "hands": stats.pop("count"), **stats})
    out["seen_rate"] = seen / np.maximum(out["hands"].to_numpy(), 1)
    return out


def category_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per hand category (all seats pooled): frequency, win rate overall / blind / seen, chips."""
    k = len(CATEGORY_NAMES)
    cat = _seat_matrix(df, "category").ravel().astype(np.int64)
    seen = _seat_matrix(df, "looked").ravel().astype(np.int64)
    share = win_shares(df).ravel()
    chips = _seat_matrix(df, "chips").ravel()
    stats = _outcome_stats(cat, k, share, chips)
    split = _outcome_stats(cat * 2 + seen, 2 * k, share, chips)
    hands = stats.pop("count")
    out = pd.DataFrame({"category": np.arange(k), "name": CATEGORY_NAMES,
                        "name_zh": CATEGORY_NAMES_ZH, "hands": hands,
                        "hand_share": hands / max(hands.sum(), 1), **stats})
    out["seen_rate"] = split["count"][1::2] / np.maximum(hands, 1)
    out["win_rate_blind"] = split["win_rate"][0::2]
    out["win_rate_seen"] = split["win_rate"][1::2]
    return out


def status_table(df: pd.DataFrame) -> pd.DataFrame:
    """Outcomes of hands played blind vs seen (all seats pooled)."""
    seen = _seat_matrix(df, "looked").ravel().astype(np.int64)
    stats = _outcome_stats(seen, 2, win_shares(df).ravel(), _seat_matrix(df, "chips").ravel())
    hands = stats.pop("count")
    return pd.DataFrame({"status": STATUSES, "hands": hands,
                         "hand_share": hands / max(hands.sum(), 1), **stats})


def _end_codes(df: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    end = df["end"]
    if not isinstance(end.dtype, pd.CategoricalDtype):
        end = end.astype("category")
    return end.cat.codes.to_numpy().astype(np.int64), [str(c) for c in end.cat.categories]


def end_table(df: pd.DataFrame) -> pd.DataFrame:
    """How games were decided (fold, compare, showdown, illegal): games, share, mean pot/length."""
    codes, names = _end_codes(df)
    k = len(names)
    games = np.bincount(codes, minlength=k)

    def mean(col: str) -> np.ndarray:
        total = np.bincount(codes, weights=df[col].to_numpy().astype(np.float64), minlength=k)
        return np.divide(total, games, out=np.full(k, np.nan), where=games > 0)

    out = pd.DataFrame({"end": names, "games": games, "share": games / max(len(df), 1),
                        "mean_pot": mean("pot"), "mean_rounds": mean("rounds"),
                        "mean_decisions": mean("decisions")})
    return out


def distribution_table(df: pd.DataFrame,
                       columns: Sequence[str] = ("pot", "rounds", "decisions")) -> pd.DataFrame:
    """Mean, std, min, quantiles and max of per-game columns (one row per column)."""
    rows = []
    for col in columns:
        v = df[col].to_numpy()
        q = np.quantile(v, QUANTILES, method="inverted_cdf")  # observed values
        rows.append({"measure": col, "mean": v.mean(), "std": v.std(), "min": v.min(),
                     **{f"p{round(100 * p)}": x for p, x in zip(QUANTILES, q, strict=True)},
                     "max": v.max()})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- action tables


def action_counts_table(action_counts: np.ndarray) -> pd.DataFrame:
    """``action_counts[round, phase, seen, action]`` in long form, nonzero cells only."""
    ac = np.asarray(action_counts)
    idx = np.nonzero(ac)
    return pd.DataFrame({
        "round": idx[0] + 1,
        "phase": np.array(PHASES)[idx[1]],
        "status": np.array(STATUSES)[idx[2]],
        "action": idx[3],
        "action_name": np.array(ACTION_NAMES)[idx[3]],
        "count": ac[idx],
        "share": ac[idx] / max(int(ac.sum()), 1),
    })


def _grouped(counts: np.ndarray) -> np.ndarray:
    """Sum the last axis (15 actions) into ACTION_GROUPS."""
    out = np.zeros(counts.shape[:-1] + (len(ACTION_GROUPS),), np.int64)
    for a, g in enumerate(_GROUP_OF_ACTION):
        out[..., g] += counts[..., a]
    return out


def _share_frame(index: pd.DataFrame, counts: np.ndarray) -> pd.DataFrame:
    """index columns + decisions + share of each action group (all-zero groups dropped)."""
    total = counts.sum(axis=1)
    shares = np.divide(counts, total[:, None], out=np.zeros(counts.shape),
                       where=total[:, None] > 0)
    out = index.assign(decisions=total)
    for g, name in enumerate(ACTION_GROUPS):
        if counts[:, g].any():
            out[name] = shares[:, g]
    return out[total > 0].reset_index(drop=True)


def action_by_round(action_counts: np.ndarray, phase: str | None = None,
                    status: str | None = None) -> pd.DataFrame:
    """Per round (1-based): decisions and the share of each action group.

    ``phase`` ("look"/"action") and ``status`` ("blind"/"seen", before the decision) filter;
    None pools both.
    """
    ac = np.asarray(action_counts)
    if phase is not None:
        ac = ac[:, [PHASES.index(phase)]]
    if status is not None:
        ac = ac[:, :, [STATUSES.index(status)]]
    counts = _grouped(ac.sum(axis=(1, 2)))
    return _share_frame(pd.DataFrame({"round": np.arange(1, len(counts) + 1)}), counts)


def action_by_status(action_counts: np.ndarray) -> pd.DataFrame:
    """Per (phase, blind/seen status): decisions and the share of each action group."""
    ac = np.asarray(action_counts).sum(axis=0)  # [phase, seen, action]
    index = pd.DataFrame({"phase": np.repeat(PHASES, 2), "status": np.tile(STATUSES, 2)})
    return _share_frame(index, _grouped(ac.reshape(4, -1)))


# ---------------------------------------------------------------- per player


def _seat_counts(df: pd.DataFrame, labels: list[str]) -> np.ndarray | None:
    """``[seat, phase, seen, action]`` decision counts: the frame's per-seat counts, or the
    pooled ones when one player sits everywhere; None when neither applies."""
    sc = df.attrs.get("seat_action_counts")
    if sc is not None:
        return np.asarray(sc)
    ac = df.attrs.get("action_counts")
    if ac is None or len(set(labels)) > 1:
        return None
    pooled = np.asarray(ac).sum(axis=0)  # every seat's decisions, credited to seat 0
    return np.concatenate([pooled[None], np.zeros((len(labels) - 1,) + pooled.shape,
                                                  pooled.dtype)])


def player_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per player (its seats pooled): seat-games, win rate, chips per seat (mean, 95% CI over
    games), blind_rate
    (games it never looked), win rates blind / seen, and from the decision counts
    (``record_actions=True``): look_rate (look-phase decisions of a blind seat that looked),
    the fold / compare / bet shares of its action-phase decisions, blind_bet_share (bets made
    before looking) and mean_bet (blind units of a bet)."""
    n = num_seats(df)
    labels = seat_labels(df, n)
    share, chips = win_shares(df), _seat_matrix(df, "chips").astype(np.float64)
    looked = _seat_matrix(df, "looked").astype(bool)
    counts = _seat_counts(df, labels)
    units = np.array([0.0] * 9 + [float(name.split()[1]) for name in ACTION_NAMES[9:]])
    rows = []
    for name, seats in player_seats(labels).items():
        blind = ~looked[:, seats]
        mean, ci = mean_ci95(chips[:, seats].mean(axis=1))  # a game is the unit of the CI
        row: dict[str, Any] = {
            "player": name, "seats": len(seats), "games": blind.size,
            "win_rate": share[:, seats].mean(), "mean_chips": mean, "mean_chips_ci95": ci,
            "blind_rate": blind.mean(),
            "win_rate_blind": share[:, seats][blind].mean() if blind.any() else np.nan,
            "win_rate_seen": share[:, seats][~blind].mean() if (~blind).any() else np.nan}
        if counts is not None:
            c = counts[seats].sum(axis=0)  # [phase, seen, action]
            look, act = c[0, 0], c[1].sum(axis=0)
            bets = act[9:]
            row.update({"decisions": int(c.sum()), "look_rate": ratio(look[1], look.sum()),
                        "fold": ratio(act[2], act.sum()),
                        "compare": ratio(act[3:9].sum(), act.sum()),
                        "bet": ratio(bets.sum(), act.sum()),
                        "blind_bet_share": ratio(c[1, 0, 9:].sum(), bets.sum()),
                        "mean_bet": ratio(act @ units, bets.sum())})
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- Markdown


def _rules_text(rules: Mapping[str, Any]) -> str:
    """Rule options as the user passes them (``first_player=None`` shown as random)."""
    r = dict(rules)
    if r.get("first_player") is None:
        r["first_player"] = "random"
    return ", ".join(f"{k}={v}" for k, v in r.items())


def _intro(df: pd.DataFrame, elapsed: float | None, title: str) -> list[str]:
    a = df.attrs
    n = num_seats(df)
    games = a.get("num_games", len(df))
    lines = [f"# {title}", "",
             "Statistics of simulated Zha Jin Hua 扎金花 games "
             "(`vecgames.simulate`), one game per row of the raw data.", "",
             f"- games: {games:,}", f"- players: {n}",
             f"- policy: {policy_text(a.get('policy', 'unknown'))}",
             f"- seed: {a.get('seed', 'unknown')}"]
    if "rules" in a:
        lines.append(f"- rules: {_rules_text(a['rules'])}")
    lines += time_lines(elapsed, games)
    lines += ["", "Win rate = share of the pot won (a split pot counts 1/k for each of k "
              f"winners); a seat with no edge wins 1/{n} = {100 / n:.2f}%. Chips = chip change "
              "per game (antes and bets included; chips sum to 0 over the seats of a game). "
              "Seen = the seat looked at its cards (played 看牌 seen) before the game ended; "
              "blind = it never looked. CI95 = half-width of the 95% confidence interval.", ""]
    return lines


# ---------------------------------------------------------------- plots


def _plot_categories(Figure, cats: pd.DataFrame, n: int, path: Path) -> None:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    x = np.arange(len(cats))
    for k, (col, label) in enumerate([("win_rate", "all"), ("win_rate_blind", "blind"),
                                      ("win_rate_seen", "seen")]):
        ax.bar(x + (k - 1) * 0.27, cats[col].fillna(0), width=0.27, label=label)
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"1/{n}")
    ax.set_xticks(x, cats["name"], rotation=15)
    ax.set_title("win rate by hand category")
    ax.set_ylabel("win rate (pot share)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _plot_actions(Figure, by_round: pd.DataFrame, path: Path) -> None:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    groups = [g for g in ACTION_GROUPS if g in by_round.columns]
    bottom = np.zeros(len(by_round))
    for g in groups:
        ax.bar(by_round["round"], by_round[g], bottom=bottom, label=g)
        bottom += by_round[g].to_numpy()
    ax.set_title("action frequencies by round (action phase)")
    ax.set_xlabel("round")
    ax.set_ylabel("share of action-phase decisions")
    ax.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=100)


# ---------------------------------------------------------------- the report


def report_tables(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Every table of the report by name (the CSV suffix)."""
    tables = {
        "players": player_table(df),
        "seats": seat_table(df),
        "positions": position_table(df),
        "categories": category_table(df),
        "status": status_table(df),
        "ends": end_table(df),
        "distributions": distribution_table(df),
        "pot_hist": histogram_table(df["pot"].to_numpy()),
        "rounds_hist": histogram_table(df["rounds"].to_numpy()),
        "decisions_hist": histogram_table(df["decisions"].to_numpy()),
    }
    ac = df.attrs.get("action_counts")
    if ac is not None:
        tables["actions"] = action_counts_table(ac)
        tables["actions_by_status"] = action_by_status(ac)
        tables["looks_by_round"] = action_by_round(ac, "look", "blind")
        tables["actions_by_round"] = action_by_round(ac, "action")
    return tables


_PCT = ("win_rate", "win_rate_blind", "win_rate_seen", "seen_rate", "opener_rate", "share",
        "hand_share", "cumulative", "blind_rate", "look_rate", "bet",
        "blind_bet_share") + ACTION_GROUPS
_SIGNED = ("mean_chips",)


def _section(heading: str, text: str, table: pd.DataFrame) -> list[str]:
    return [f"## {heading}", ""] + ([text, ""] if text else []) + [
        md_table(table, _PCT, _SIGNED), ""]


def _sections(t: dict[str, pd.DataFrame], images: Mapping[str, str],
              arena_lines: Sequence[str] = ()) -> list[str]:
    def image(key: str, alt: str) -> list[str]:
        return [f"![{alt}]({images[key]})", ""] if key in images else []

    players = ("" if "look_rate" in t["players"] else " Decision shares need "
               "`record_actions=True` and, with different players, per-seat counts.")
    lines = _section("By player", "Seats grouped by the player sitting there. blind_rate: "
                     "games it never looked; look_rate: look-phase decisions (while blind) "
                     "that looked; fold/compare/bet: shares of its action-phase decisions; "
                     "blind_bet_share: its bets made blind; mean_bet: blind units per bet."
                     + players, t["players"])
    lines += list(arena_lines)
    lines += _section("How games are decided", "fold: the last seat left after a fold; compare: "
                     "after a compare (比牌); showdown: all remaining seats show at max_rounds; "
                     "illegal: after an illegal action put a seat out.", t["ends"])
    lines += _section("Win rate by seat", "Seat = fixed seat number; the opener is drawn at "
                      "random unless first_player is set.", t["seats"])
    lines += _section("Win rate by position", "Position = place in turn order counted from "
                      "the opener (0 acts first).", t["positions"])
    lines += _section("Win rate by hand category", "All seats pooled; hand_share = how often "
                      "the category is dealt; blind/seen split by whether the seat looked.",
                      t["categories"])
    lines += image("categories", "win rate by hand category")
    lines += _section("Blind vs seen", "Hands played without looking vs after looking.",
                      t["status"])
    lines += _section("Pot size and game length", "Pot in chips; rounds = betting rounds "
                      "played; decisions = look and action decisions of all seats.",
                      t["distributions"])
    lines += _section("Game length histogram (rounds)", "", t["rounds_hist"])
    lines += image("pot", "pot size histogram")
    lines += ["Full histograms (pot, rounds, decisions) are in the `*_hist.csv` files.", ""]
    if "actions" not in t:
        return lines + ["## Actions", "", "No action counts: simulate with "
                        "`record_actions=True` (the CLI does so with `--report`).", ""]
    lines += _section("Actions by blind/seen status", "Share of decisions per phase and "
                      "status before the decision (look phase: 看牌 or not; action phase: "
                      "fold, compare, bet k blind units; a seen seat pays double).",
                      t["actions_by_status"])
    lines += _section("Looking by round", "Look-phase decisions of seats still blind.",
                      t["looks_by_round"])
    lines += _section("Actions by round", "Action-phase decisions, all seats.",
                      t["actions_by_round"])
    lines += image("actions", "action frequencies by round")
    return lines


def write_report(df: pd.DataFrame, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Zha Jin Hua simulation report", plots: bool = True,
                 arena: Any = None) -> dict[str, Path]:
    """Write the Markdown report at ``path_md``, its tables as ``<stem>_<table>.csv`` and plots
    as ``<stem>_<plot>.png`` beside it. ``elapsed`` = simulation seconds for the intro;
    ``arena``: a ``vecgames.arena`` result for the who-beats-whom section.
    Returns the written paths by name ("report", table names, "plot_<name>")."""
    # imported here: arena_section itself imports md_table from this module
    from vecgames.analysis.arena_section import arena_section, arena_tables

    t0 = time.perf_counter()
    path_md = Path(path_md)
    tables = report_tables(df) | arena_tables(arena)
    stem, written = write_tables(tables, path_md)
    images, note = _write_plots(df, tables, stem, plots)
    written.update({f"plot_{k}": Path(f"{stem}_{k}.png") for k in images})
    lines = _intro(df, elapsed, title) + ([note, ""] if note else []) + _sections(
        tables, images, arena_section(arena, seat_labels(df, num_seats(df))))
    finish_report(lines, path_md, t0, stem.name)
    written["report"] = path_md
    return written


def _write_plots(df: pd.DataFrame, tables: dict[str, pd.DataFrame], stem: Path,
                 plots: bool) -> tuple[dict[str, str], str]:
    """PNG plots; returns {plot name: file name} and a note for the report ('' if none)."""
    if not plots:
        return {}, ""
    Figure = figure_class()
    if Figure is None:
        return {}, ("_Plots skipped: matplotlib is not installed "
                    "(`pip install -e \".[report]\"`)._")
    names = {k: f"{stem.name}_{k}.png" for k in ("pot", "categories", "actions")}
    plot_hist(Figure, tables["pot_hist"], "pot (chips)", stem.parent / names["pot"])
    _plot_categories(Figure, tables["categories"], num_seats(df),
                     stem.parent / names["categories"])
    if "actions_by_round" in tables:
        _plot_actions(Figure, tables["actions_by_round"], stem.parent / names["actions"])
    else:
        del names["actions"]
    return names, ""


# -- `vecgames simulate --summary` -------------------------------------------------------
def print_summary(args: Any, df: Any, startup: float, elapsed: float) -> None:
    a = df.attrs
    n = int(a.get("rules", {}).get("num_players", 0)) or "?"
    print(f"{args.game}: {args.games:,} games, {n} players, policy {args.policy}, "
          f"seed {args.seed}")
    table = _summary_seats(df, args.summary)
    print(table.to_string(index=False, formatters={
        "mean_chips": "{:+.4f}".format, "std_chips": "{:.3f}".format,
        "win_share": "{:.4f}".format}))
    ends = _summary_ends(df, args.summary)
    total = max(sum(ends.values()), 1)
    print("decided by: " + ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in ends.items()))
    print_throughput(args.games, elapsed, startup, "games")


def _summary_seats(df: Any, summary: bool) -> Any:
    """Per-seat mean chips, std and win share, from a summary or a per-game frame."""
    if summary:
        return df[["seat", "mean_chips", "std_chips", "win_share"]]
    t = seat_table(df)
    return t.rename(columns={"win_rate": "win_share"})[
        ["seat", "mean_chips", "std_chips", "win_share"]]


def _summary_ends(df: Any, summary: bool) -> dict[str, int]:
    if summary:
        return dict(df.attrs.get("end_counts", {}))
    return {str(k): int(v) for k, v in df["end"].value_counts(sort=False).items()}
