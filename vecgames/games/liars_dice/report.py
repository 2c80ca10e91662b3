"""The Liar's Dice (斋/飞) simulation report: who loses, how long rounds last, how challenges
end and which bids get challenged.

>>> import vecgames
>>> from vecgames.games.liars_dice.report import write_report
>>> df = vecgames.simulate("liars_dice", 100_000, num_players=3, num_rounds=2)
>>> paths = write_report(df, "liars_dice.md")

Input: the per-round frame of ``vecgames.simulate("liars_dice", ...)`` (one row per round:
``game, round, opener, bids, challenger, mode, count, face, actual, loser, end``; rounds cut by
``max_round_steps`` are ``truncated`` and the rest of their match ``unplayed``). Only the
``challenge`` rows (rounds played to the end) enter the statistics; the other ends are counted.
A challenged bid is false when fewer dice than its count showed its face (``actual < count``):
then its bidder lost the round, otherwise the challenger did. Confidence intervals are the
normal approximation, p ± 1.96·√(p(1-p)/n) for a rate and mean ± 1.96·s/√n for a mean (s the
sample std). Everything is vectorized (``np.bincount``): a million rounds report in about a
second.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.arena_section import arena_section, arena_tables
from vecgames.analysis.decision_log import kind_table, log_like, no_log_note
from vecgames.analysis.report_kit import (
    finish_report,
    md_table,
    mean_ci,
    plot_section,
    policy_text,
    rate_ci,
    time_lines,
    write_tables,
)
from vecgames.analysis.seat_players import player_seats, ratio, seat_labels
from vecgames.cli_args import print_throughput

MODE_NAMES = ("fei", "zhai")  # vecgames.games.liars_dice.bids.MODE_NAMES
MODE_TEXT = {"fei": "飞 fei (ones wild)", "zhai": "斋 zhai (face only)"}
BID_KINDS = ("challenge", "fei", "zhai")  # decision kinds of the bids table
DECISION_GAMES = 1_000  # matches the CLI plays through the env for the bids table
COLUMNS = ("game", "round", "opener", "bids", "challenger", "mode", "count", "face", "actual",
           "loser", "end")


# ---------------------------------------------------------------- inputs


def _check(df: pd.DataFrame) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a DataFrame, got {type(df).__name__}")
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"df must be the per-round frame of vecgames.simulate('liars_dice', "
                         f"...) (summary=False); missing columns {missing}")


def num_seats(df: pd.DataFrame) -> int:
    """Players per match (``attrs["rules"]``, else from the seat columns)."""
    rules = df.attrs.get("rules", {})
    if "num_players" in rules:
        return int(rules["num_players"])
    played = _played(df)
    return int(max(played["loser"].max(), played["challenger"].max(), played["opener"].max())
               + 1) if len(played) else 1


def _played(df: pd.DataFrame) -> pd.DataFrame:
    return df[(df["end"] == "challenge").to_numpy()]


# ---------------------------------------------------------------- tables


def seat_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per seat over the rounds played: rounds lost and the loss rate with its 95% CI (a fair
    seat loses 1/players of them), rounds opened, challenges made and the share of those that
    caught a false bid, and penalty points (rounds lost) per match."""
    _check(df)
    n = num_seats(df)
    played = _played(df)
    rounds = len(played)
    lost = np.bincount(played["loser"].to_numpy(np.int64), minlength=n)[:n]
    opened = np.bincount(played["opener"].to_numpy(np.int64), minlength=n)[:n]
    challenger = played["challenger"].to_numpy(np.int64)
    caught = (played["actual"] < played["count"]).to_numpy()
    challenges = np.bincount(challenger, minlength=n)[:n]
    caught_by = np.bincount(challenger, weights=caught, minlength=n)[:n]
    loss = rate_ci(lost, np.full(n, rounds))
    matches = int(df["game"].nunique())
    return pd.DataFrame({
        "seat": np.arange(n),
        "policy": seat_labels(df, n),
        "rounds": rounds,
        "rounds_lost": lost,
        "loss_rate": loss["rate"],
        "ci95": loss["ci95"],
        "ci_low": loss["ci_low"],
        "ci_high": loss["ci_high"],
        "opened": opened,
        "challenges": challenges,
        "challenge_success": rate_ci(caught_by, challenges)["rate"],
        "penalty_per_match": lost / max(matches, 1),
    })


def _turns(opener: np.ndarray, bids: np.ndarray, seat: int, n: int) -> np.ndarray:
    """Decisions of ``seat`` per round: the bids (opener first, then in seat order) and the
    challenge are turns 0..bids at seats (opener + k) % n."""
    d = (seat - opener) % n
    return np.where(d <= bids, (bids - d) // n + 1, 0)


def player_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per player (its seats pooled) over the rounds played: seat-rounds, rounds lost and the
    loss rate with its 95% CI, decisions (bids + challenges, from each round's opener and bid
    count), challenge_rate (challenges per decision) and challenge_success (those that caught
    a false bid); of its own bids that were challenged: their number, caught (the share that
    were false: bluffs called) and zhai_share (斋 among them). The frame keeps only the
    challenged bid of a round, so the bid types of the other bids are not in it."""
    _check(df)
    n = num_seats(df)
    played = _played(df)
    opener, bids = played["opener"].to_numpy(np.int64), played["bids"].to_numpy(np.int64)
    challenger, loser = played["challenger"].to_numpy(np.int64), played["loser"].to_numpy()
    bidder = (challenger - 1) % n  # the last bid came from the seat before the challenger
    false = (played["actual"] < played["count"]).to_numpy()
    zhai = (played["mode"].astype(str) == "zhai").to_numpy()
    rows = []
    for name, seats in player_seats(seat_labels(df, n)).items():
        turns = sum(int(_turns(opener, bids, int(p), n).sum()) for p in seats)
        mine_c, mine_b = np.isin(challenger, seats), np.isin(bidder, seats)
        lost = int(np.isin(loser, seats).sum())
        loss = rate_ci(np.array([lost]), np.array([len(played) * len(seats)]))
        rows.append({"player": name, "seats": len(seats), "rounds": len(played) * len(seats),
                     "rounds_lost": lost, "loss_rate": loss["rate"][0], "ci95": loss["ci95"][0],
                     "decisions": turns, "challenges": int(mine_c.sum()),
                     "challenge_rate": ratio(mine_c.sum(), turns),
                     "challenge_success": ratio(false[mine_c].sum(), mine_c.sum()),
                     "challenged_bids": int(mine_b.sum()),
                     "caught": ratio(false[mine_b].sum(), mine_b.sum()),
                     "zhai_share": np.nan if is_basic(df) else ratio(zhai[mine_b].sum(),
                                                                     mine_b.sum())})
    return pd.DataFrame(rows)


def _bid_kinds(env: Any, rows: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    """Each decision's kind (0 challenge, 1 飞, 2 斋) and its bid's count (0 for a challenge),
    from the action ids (``vecgames.games.liars_dice.bids``: 5 飞 faces then 6 斋 faces per
    count of the D dice on the table)."""
    total = (env.num_actions - 1) // 11
    fei = actions <= 5 * total
    kind = np.where(actions == 0, 0, np.where(fei, 1, 2))
    count = np.where(actions == 0, 0, np.where(fei, (actions - 1) // 5 + 1,
                                               (actions - 1 - 5 * total) // 6 + 1))
    return {"kind": kind, "count": count}


def bid_table(log: pd.DataFrame) -> pd.DataFrame:
    """Per player over a ``decision_log``: matches (seat-matches), decisions, the share of
    challenges and of 飞 / 斋 bids among them, zhai_share (斋 among its bids) and mean_count
    (dice named by its bids)."""
    out = kind_table(log, "kind", BID_KINDS)
    bids = [log[log["seat"].isin(seats).to_numpy() & (log["kind"] > 0).to_numpy()]
            for seats in player_seats(log.attrs["players"]).values()]
    out["zhai_share"] = [ratio((b["kind"] == 2).sum(), len(b)) for b in bids]
    out["mean_count"] = [float(b["count"].mean()) if len(b) else np.nan for b in bids]
    return out.rename(columns={"games": "matches"})


def round_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row: matches, rounds played / truncated / unplayed, bids per round (mean with its
    95% CI, std, median, max), the share of challenges that caught a false bid and the
    opener's loss rate."""
    _check(df)
    played = _played(df)
    bids = mean_ci(played["bids"].to_numpy())
    ends = df["end"].value_counts(sort=False)
    caught = (played["actual"] < played["count"]).to_numpy()
    return pd.DataFrame([{
        "players": num_seats(df),
        "matches": int(df["game"].nunique()),
        "rounds": len(played),
        "truncated": int(ends.get("truncated", 0)),
        "unplayed": int(ends.get("unplayed", 0)),
        "mean_bids": bids["mean"],
        "bids_ci95": bids["ci95"],
        "std_bids": bids["std"],
        "median_bids": float(played["bids"].median()) if len(played) else float("nan"),
        "max_bids": int(played["bids"].max()) if len(played) else 0,
        "bid_false_rate": float(caught.mean()) if len(played) else float("nan"),
        "opener_loss_rate": float((played["loser"] == played["opener"]).mean())
        if len(played) else float("nan"),
    }])


def bids_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Rounds by the number of bids made before the challenge, and their share."""
    _check(df)
    counts = np.bincount(_played(df)["bids"].to_numpy(np.int64))
    out = pd.DataFrame({"bids": np.arange(len(counts)), "rounds": counts})
    out = out[out["rounds"] > 0].reset_index(drop=True)
    out["share"] = out["rounds"] / max(int(counts.sum()), 1)
    return out


def challenge_table(df: pd.DataFrame) -> pd.DataFrame:
    """How challenges end, by the challenged bid's margin ``actual - count`` (negative: the bid
    was false and its bidder lost; zero or more: it held and the challenger lost)."""
    _check(df)
    played = _played(df)
    margin = (played["actual"].to_numpy(np.int64) - played["count"].to_numpy(np.int64))
    if not len(margin):
        return pd.DataFrame(columns=["margin", "outcome", "rounds", "share"])
    lo = int(margin.min())
    counts = np.bincount(margin - lo)
    out = pd.DataFrame({"margin": np.arange(lo, lo + len(counts)), "rounds": counts})
    out = out[out["rounds"] > 0].reset_index(drop=True)
    out.insert(1, "outcome", np.where(out["margin"] < 0, "bid false: bidder lost",
                                      "bid held: challenger lost"))
    out["share"] = out["rounds"] / len(margin)
    return out


def is_basic(df: pd.DataFrame) -> bool:
    """Whether the frame is of the seed's basic variant (飞 bids only)."""
    return df.attrs.get("rules", {}).get("variant") == "basic"


def _modes(df: pd.DataFrame) -> tuple[str, ...]:
    return ("fei",) if is_basic(df) else MODE_NAMES


def mode_table(df: pd.DataFrame) -> pd.DataFrame:
    """Challenged bids per mode (斋 zhai / 飞 fei; the basic variant: 飞 alone): rounds, share,
    mean count and actual, and the share that were false, with its 95% CI."""
    _check(df)
    played = _played(df)
    mode = played["mode"].astype(str).to_numpy()
    rows = []
    for name in _modes(df):
        sel = mode == name
        k = int(sel.sum())
        false = int((played["actual"].to_numpy()[sel] < played["count"].to_numpy()[sel]).sum())
        ci = rate_ci(np.array([false]), np.array([k]))
        rows.append({"mode": MODE_TEXT[name], "rounds": k, "share": k / max(len(played), 1),
                     "mean_count": played["count"].to_numpy()[sel].mean() if k else np.nan,
                     "mean_actual": played["actual"].to_numpy()[sel].mean() if k else np.nan,
                     "bid_false_rate": ci["rate"][0], "ci95": ci["ci95"][0]})
    return pd.DataFrame(rows)


def face_table(df: pd.DataFrame) -> pd.DataFrame:
    """Challenged bids per face (1..6) and mode: rounds and the share that were false."""
    _check(df)
    played = _played(df)
    rows = []
    for name in _modes(df):
        sub = played[(played["mode"].astype(str) == name).to_numpy()]
        face = sub["face"].to_numpy(np.int64)
        rounds = np.bincount(face, minlength=7)[1:7]
        false = np.bincount(face, weights=(sub["actual"] < sub["count"]).to_numpy(),
                            minlength=7)[1:7]
        for f in range(6):
            if rounds[f]:
                rows.append({"mode": name, "face": f + 1, "rounds": int(rounds[f]),
                             "bid_false_rate": false[f] / rounds[f]})
    return pd.DataFrame(rows, columns=["mode", "face", "rounds", "bid_false_rate"])


def report_tables(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Every table of the report by name (the CSV files are ``<stem>_<name>.csv``)."""
    return {"rounds": round_table(df), "players": player_table(df), "seats": seat_table(df),
            "bids": bids_distribution(df), "challenges": challenge_table(df),
            "modes": mode_table(df), "faces": face_table(df)}


# ---------------------------------------------------------------- report


def _plot_bids(Figure, dist: pd.DataFrame, path: Path) -> None:
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    ax.bar(dist["bids"], dist["share"], width=0.9)
    ax.set_title("Liar's Dice: bids per round before the challenge")
    ax.set_xlabel("bids in the round")
    ax.set_ylabel("share of rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _intro(df: pd.DataFrame, elapsed: float | None, title: str) -> list[str]:
    a = df.attrs
    matches = int(a.get("num_games", df["game"].nunique()))
    game = ("basic-variant (飞 only, ones always wild)" if is_basic(df) else "斋/飞")
    lines = [f"# {title}", "",
             f"Statistics of simulated Liar's Dice {game} matches "
             "(`vecgames.simulate(\"liars_dice\", ...)`), one round per row of the raw data.",
             "", f"- matches: {matches:,}", f"- players: {num_seats(df)}",
             f"- policy: {policy_text(a.get('policy', 'unknown'))}"
             + (f" (challenge threshold {a['threshold']})" if "threshold" in a else ""),
             f"- seed: {a.get('seed', 'unknown')}"]
    if "rules" in a:
        lines.append("- rules: " + ", ".join(f"{k}={v}" for k, v in a["rules"].items()))
    lines += time_lines(elapsed, matches, "matches")
    counting = ("its face plus the wild ones" if is_basic(df) else
                "飞 fei: its face plus the wild ones; 斋 zhai: the face alone")
    lines += ["", "A round ends with a challenge: all dice are shown and `actual` counts the "
              f"dice for the challenged bid ({counting}). The bid is false when "
              "`actual < count` (its bidder loses the round), otherwise the challenger loses. "
              "CI95 = half-width of the 95% confidence "
              "interval (normal approximation); ci_low..ci_high its bounds.", ""]
    return lines


def write_report(df: pd.DataFrame, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Liar's Dice simulation report", plots: bool = True,
                 arena: Any = None, players: Any = None,
                 decision_games: int = 0) -> list[Path]:
    """Write the Markdown report at ``path_md``, its tables as ``<stem>_<table>.csv`` and the
    bids-per-round histogram as ``<stem>_bids.png`` beside it (needs matplotlib; skipped with a
    note otherwise). ``elapsed`` = simulation seconds for the intro; ``arena``: a
    ``vecgames.arena`` result for the who-beats-whom section; ``players``: the seat specs
    (as ``simulate(players=...)``) for the bids table, needed when a seat holds other than a
    built-in player; ``decision_games``: matches the bids table plays through the env (0, the
    default: no table; the CLI plays ``DECISION_GAMES``). Returns the written paths, the
    Markdown file first."""
    t0 = time.perf_counter()
    _check(df)
    path_md = Path(path_md)
    tables = report_tables(df) | arena_tables(arena)
    heuristic = {k: df.attrs[k] for k in ("threshold",) if k in df.attrs}  # its challenges
    log = log_like("liars_dice", df, players, min(decision_games, int(df["game"].nunique())),
                   _bid_kinds, **heuristic)
    if log is not None:
        tables["bids_by_player"] = bid_table(log)
    stem, written = write_tables(tables, path_md)
    paths = [path_md, *written.values()]
    pct = ("loss_rate", "ci95", "ci_low", "ci_high", "challenge_success", "share",
           "bid_false_rate", "opener_loss_rate")
    lines = _intro(df, elapsed, title)
    lines += ["## Rounds", "", "Rounds played to a challenge (truncated: cut by "
              "`max_round_steps`; unplayed: the rest of a truncated match), bids per round "
              "(mean ± bids_ci95) and how often the challenged bid was false.", "",
              md_table(tables["rounds"], ("bid_false_rate", "opener_loss_rate")), ""]
    lines += ["## By player", "", "Seats grouped by the player sitting there, over the "
              "rounds played. decisions: its bids and challenges; challenge_rate: challenges "
              "per decision; challenge_success: its challenges that caught a false bid; "
              "challenged_bids: its bids that the next seat challenged, caught: the share of "
              "those that were false, zhai_share: 斋 among them (the frame keeps only the "
              "challenged bid of a round).", "",
              md_table(tables["players"], (*pct, "challenge_rate", "caught", "zhai_share")),
              ""]
    lines += ["### Bids", ""] + ([
        f"Every decision of {log.attrs['games']:,} more matches with the same players and rules "
        "(`vecgames.analysis.decision_log`, seed 0): the share of challenges, 飞 and 斋 bids; "
        "zhai_share: 斋 among its bids; mean_count: dice named by its bids.", "",
        md_table(tables["bids_by_player"], ("challenge", "fei", "zhai", "zhai_share")), ""]
        if log is not None else [no_log_note(decision_games), ""])
    lines += arena_section(arena, seat_labels(df, num_seats(df)))
    lines += ["## Seats", "", "Loss rate per seat over the rounds played, with its 95% CI; "
              "opened: rounds the seat bid first; challenge_success: share of the seat's "
              "challenges that caught a false bid; penalty_per_match: rounds lost per match.",
              "", md_table(tables["seats"], pct), ""]
    lines += ["## Bids per round", "", md_table(tables["bids"], ("share",)), ""]
    if plots:
        lines += plot_section(lambda Figure, png: _plot_bids(Figure, tables["bids"], png),
                              Path(f"{stem}_bids.png"), "bids per round", paths)
    lines += ["## Challenges", "", "Rounds by the challenged bid's margin, actual - count.", "",
              md_table(tables["challenges"], ("share",)), ""]
    lines += ["## Modes (飞 only: the basic variant)" if is_basic(df) else "## Modes (斋/飞)",
              "", "The challenged bids by mode.", "",
              md_table(tables["modes"], ("share", "bid_false_rate", "ci95")), ""]
    lines += ["## Faces", "", "The challenged bids by mode and face.", "",
              md_table(tables["faces"], ("bid_false_rate",)), ""]
    finish_report(lines, path_md, t0, stem.name)
    return paths


# -- `vecgames simulate --summary` -------------------------------------------------------
def print_summary(args: Any, df: Any, startup: float, elapsed: float) -> None:
    if args.summary:
        seats = df[["seat", "rounds_lost", "loss_rate", "mean_penalty"]]
        rounds, mean_bids = df.attrs["rounds"], df.attrs["mean_bids"]
        caught = df.attrs["bid_false_rate"]
    else:
        played = df[df["end"] == "challenge"]
        rounds, mean_bids = len(played), played["bids"].mean()
        caught = (played["loser"] != played["challenger"]).mean()
        lost = played["loser"].value_counts().reindex(range(df.attrs["rules"]["num_players"]),
                                                      fill_value=0)
        seats = lost.rename("rounds_lost").rename_axis("seat").reset_index()
        seats["loss_rate"] = seats["rounds_lost"] / max(rounds, 1)
        seats["mean_penalty"] = seats["rounds_lost"] / args.games
    print(f"{args.game}: {args.games:,} matches, {len(seats)} players, policy {args.policy}, "
          f"seed {args.seed}")
    print(seats.to_string(index=False, formatters={
        "loss_rate": "{:.4f}".format, "mean_penalty": "{:.4f}".format}))
    print(f"{rounds:,} rounds, {mean_bids:.2f} bids per round, challenges that caught a false "
          f"bid {100 * caught:.1f}%")
    print_throughput(args.games, elapsed, startup, "matches")
