"""The Hanabi simulation report: scores, how games end and action frequencies per policy.

>>> from vecgames.games.hanabi.report import compare_policies, write_report
>>> frames = compare_policies(100_000, ("random", "rules"), num_players=2)
>>> paths = write_report(frames, "hanabi.md")

Every table function takes one frame or several: a dict ``label -> DataFrame``, a list of
frames, a single frame (labelled by ``df.attrs["policy"]``) or a concatenation with a
``policy`` column. Frames are the per-game rows of ``vecgames.simulate("hanabi", ...)``; the
score, end and action tables also accept ``summary=True`` frames (the score histogram in
``attrs["score_counts"]`` gives the exact mean, std and median). Per policy: mean score with a
95% confidence interval (normal approximation, mean ± 1.96·s/√n with the sample std s), std,
median, share of perfect 25s; the score distribution 0..25; the share of games ending with the
lives gone (score 0), a perfect 25 or the deck run out; hint/play/discard shares and per-game
means. All work is vectorized (``np.bincount``), so a million games report in well under a
second.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.arena_section import arena_section, arena_tables
from vecgames.analysis.decision_log import kind_table, log_like, no_log_note
from vecgames.analysis.report_kit import (
    Z95,
    Frames,
    as_frames,
    finish_report,
    frame_line,
    md_table,
    plot_section,
    simulate_policies,
    time_lines,
    write_tables,
)
from vecgames.analysis.seat_players import player_seats, ratio, seat_labels
from vecgames.cli_args import print_throughput
from vecgames.games.hanabi.rules import LIFE, MAX_LIFE

MAX_SCORE = 25
END_NAMES = ("lives", "perfect", "deck")
KINDS = ("hint", "play", "discard")  # per-game columns hints, plays, discards
DECISION_GAMES = 500  # games per team the CLI plays for the decision table


# ---------------------------------------------------------------- inputs


def _is_summary(df: pd.DataFrame) -> bool:
    return "score" not in df.columns and "mean_score" in df.columns


def score_counts(df: pd.DataFrame) -> np.ndarray:
    """Games per score 0..25 (int64, length 26) of a per-game or summary frame."""
    if _is_summary(df):
        if "score_counts" not in df.attrs:
            raise ValueError("a summary frame needs attrs['score_counts']")
        return np.asarray(df.attrs["score_counts"], dtype=np.int64)
    if "score" not in df.columns:
        raise ValueError("expected a frame from vecgames.simulate('hanabi', ...) with a "
                         "score column (or a summary=True frame)")
    return np.bincount(df["score"].to_numpy().astype(np.int64), minlength=MAX_SCORE + 1)


def _players(df: pd.DataFrame) -> Any:
    return df.attrs.get("rules", {}).get("num_players", np.nan)


def _seat_count(df: pd.DataFrame) -> int:
    n = _players(df)
    return 1 if np.isnan(n) else int(n)


# ---------------------------------------------------------------- statistics


def mean_ci(counts: np.ndarray, z: float = Z95) -> dict[str, float]:
    """Mean, sample std (ddof=1), 95% CI half-width and bounds, and median of a score
    histogram ``counts[s]`` = games with score s."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    values = np.arange(len(counts), dtype=np.float64)
    if n == 0:
        return {"mean": np.nan, "std": np.nan, "ci95": np.nan, "ci_low": np.nan,
                "ci_high": np.nan, "median": np.nan}
    mean = float(counts @ values) / n
    ss = float(counts @ (values - mean) ** 2)
    std = np.sqrt(ss / (n - 1)) if n > 1 else np.nan
    half = z * std / np.sqrt(n) if n > 1 else np.nan
    cum = np.cumsum(counts)  # the median as np.median: the middle value or the two middles
    median = 0.5 * (np.searchsorted(cum, (n - 1) // 2, side="right")
                    + np.searchsorted(cum, n // 2, side="right"))
    return {"mean": mean, "std": float(std), "ci95": float(half), "ci_low": mean - half,
            "ci_high": mean + half, "median": float(median)}


def score_table(data: Frames) -> pd.DataFrame:
    """Per policy: players, games, mean score with its 95% CI (half-width and bounds), std,
    median, share of perfect 25s, mean fireworks (firework total at the end, also when the
    lives ran out; NaN for summary frames) and mean turns."""
    rows = []
    for label, df in as_frames(data).items():
        counts = score_counts(df)
        s = mean_ci(counts)
        n = int(counts.sum())
        summary = _is_summary(df)
        rows.append({
            "policy": label, "players": _players(df), "games": n,
            "mean_score": s["mean"], "ci95": s["ci95"], "ci_low": s["ci_low"],
            "ci_high": s["ci_high"], "std_score": s["std"], "median_score": s["median"],
            "perfect_share": counts[MAX_SCORE] / max(n, 1),
            "mean_fireworks": np.nan if summary else float(df["fireworks"].mean()),
            "mean_turns": float(df["mean_turns"].iloc[0] if summary else df["turns"].mean()),
        })
    return pd.DataFrame(rows)


def score_distribution(data: Frames) -> pd.DataFrame:
    """Games and share per score 0..25, two columns per policy: ``<policy>_games``,
    ``<policy>_share``."""
    out = pd.DataFrame({"score": np.arange(MAX_SCORE + 1)})
    for label, df in as_frames(data).items():
        counts = score_counts(df)
        out[f"{label}_games"] = counts
        out[f"{label}_share"] = counts / max(int(counts.sum()), 1)
    return out


def end_table(data: Frames) -> pd.DataFrame:
    """Per policy: the share of games ending with the lives gone (score 0), a perfect 25 or the
    deck run out (the final round played), with mean lives and information tokens left (NaN
    for summary frames)."""
    rows = []
    for label, df in as_frames(data).items():
        row: dict[str, Any] = {"policy": label}
        if _is_summary(df):
            row["games"] = int(df["games"].iloc[0])
            row.update({name: float(df[f"end_{name}"].iloc[0]) for name in END_NAMES})
            row.update(mean_lives_left=np.nan, mean_info_left=np.nan)
        else:
            shares = df["end"].value_counts(normalize=True)
            row["games"] = len(df)
            row.update({name: float(shares.get(name, 0.0)) for name in END_NAMES})
            row.update(mean_lives_left=float(df["lives"].mean()),
                       mean_info_left=float(df["info"].mean()))
        rows.append(row)
    return pd.DataFrame(rows)


def action_table(data: Frames) -> pd.DataFrame:
    """Per policy: actions taken, the share of hints, plays and discards among them and their
    means per game (every turn is one action)."""
    rows = []
    for label, df in as_frames(data).items():
        if _is_summary(df):
            games = int(df["games"].iloc[0])
            turns = float(df["mean_turns"].iloc[0])
            share = {k: float(df[f"{k}_share"].iloc[0]) for k in KINDS}
            per_game = {k: share[k] * turns for k in KINDS}
        else:
            games = len(df)
            per_game = {k: float(df[f"{k}s"].mean()) for k in KINDS}
            turns = sum(per_game.values())
            share = {k: per_game[k] / turns if turns else np.nan for k in KINDS}
        row: dict[str, Any] = {"policy": label, "games": games,
                               "actions": int(round(turns * games))}
        row.update({f"{k}_share": share[k] for k in KINDS})
        row.update({f"{k}s_per_game": per_game[k] for k in KINDS})
        rows.append(row)
    return pd.DataFrame(rows)


def play_table(data: Frames) -> pd.DataFrame:
    """Per team (a frame; self-play when one player sits in every seat): its players, games,
    plays per game, misplays per game (a play that was not playable costs a life; a game
    that lost all lives had 3), misplay_share (misplays among its plays) and bomb_out (games
    that lost all lives). Per-game frames only: the frame counts a team's actions, not each
    seat's."""
    rows = []
    for label, df in as_frames(data).items():
        if _is_summary(df):
            continue
        n = _seat_count(df)
        misplays = MAX_LIFE - df["lives"].to_numpy(np.int64)
        plays = int(df["plays"].sum())
        rows.append({"team": label, "players": ", ".join(player_seats(seat_labels(df, n))),
                     "games": len(df), "plays_per_game": float(df["plays"].mean()),
                     "misplays_per_game": float(misplays.mean()),
                     "misplay_share": ratio(misplays.sum(), plays),
                     "bomb_out": float((df["end"] == "lives").mean())})
    return pd.DataFrame(rows, columns=["team", "players", "games", "plays_per_game",
                                       "misplays_per_game", "misplay_share", "bomb_out"])


def _kinds(env: Any, rows: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    """Each decision's kind (0 hint, 1 play, 2 discard; the env's actions are h discards, h
    plays, then the hints, for hand size h) and the lives before it."""
    h = env.rules.hand_size
    kind = np.where(actions < h, 2, np.where(actions < 2 * h, 1, 0))
    return {"kind": kind, "lives": env.state.table[rows, LIFE]}


def _misplays(env: Any, rows: np.ndarray, table: np.ndarray,
              before: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {"misplay": table[:, LIFE] < before["lives"]}


def decision_table(logs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per team (a ``decision_log`` by label) and player: seat-games, decisions, the share of
    hints, plays and discards, misplays per game (its plays that cost a life) and
    misplay_share (misplays among its plays)."""
    out = []
    for label, log in logs.items():
        t = kind_table(log, "kind", KINDS)
        seats = player_seats(log.attrs["players"]).values()
        mis = [log.loc[log["seat"].isin(s).to_numpy(), "misplay"].sum() for s in seats]
        plays = [(log["seat"].isin(s) & (log["kind"] == 1)).sum() for s in seats]
        t["misplays_per_game"] = np.array(mis) / t["games"].clip(lower=1)
        t["misplay_share"] = [ratio(m, p) for m, p in zip(mis, plays, strict=True)]
        t.insert(0, "team", label)
        out.append(t)
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def report_tables(data: Frames, arena: Any = None) -> dict[str, pd.DataFrame]:
    """Every table of the report by name (the CSV suffix); ``arena``: an arena result for the
    who-beats-whom tables."""
    frames = as_frames(data)
    return {"scores": score_table(frames), "score_distribution": score_distribution(frames),
            "ends": end_table(frames), "actions": action_table(frames),
            "plays": play_table(frames)} | arena_tables(arena)


def compare_policies(num_games: int, policies: Sequence[str | Sequence[str]] = ("random",
                                                                                "rules"),
                     num_players: int = 2, seed: int = 0, **options: Any
                     ) -> dict[str, pd.DataFrame]:
    """Hanabi games of each policy (``simulate_policies``); ``options``: ``num_threads``,
    ``summary``, rule options."""
    return simulate_policies("hanabi", num_games, policies, num_players, seed, **options)


# ---------------------------------------------------------------- the report


def _plot_scores(Figure, dist: pd.DataFrame, labels: list[str], path: Path) -> None:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    width = 0.8 / len(labels)
    x = dist["score"].to_numpy()
    for k, label in enumerate(labels):
        ax.bar(x + (k - (len(labels) - 1) / 2) * width, dist[f"{label}_share"], width=width,
               label=label)
    ax.set_xticks(np.arange(0, MAX_SCORE + 1, 5))
    ax.set_xlim(-0.8, MAX_SCORE + 0.8)
    ax.set_title("Hanabi score distribution (0 = lives ran out)")
    ax.set_xlabel("score")
    ax.set_ylabel("share of games")
    ax.legend(title="policy")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _intro(frames: dict[str, pd.DataFrame], elapsed: float | None, title: str) -> list[str]:
    lines = [f"# {title}", "",
             "Statistics of simulated Hanabi games (`vecgames.simulate(\"hanabi\", ...)`), "
             "one row per game in the raw data.", ""]
    games = {label: int(score_counts(df).sum()) for label, df in frames.items()}
    lines += [frame_line(label, df, games[label]) for label, df in frames.items()]
    lines += time_lines(elapsed, sum(games.values()))
    lines += ["", "Score = the game's return: the firework total, or 0 when the lives ran out "
              "(a perfect game scores 25). CI95 = half-width of the 95% confidence interval of "
              "the mean (mean ± 1.96·s/√n, s the sample std); ci_low..ci_high its bounds. "
              "Fireworks = the firework total at the end, also when the lives ran out.", ""]
    return lines


def write_report(data: Frames, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Hanabi simulation report", plots: bool = True,
                 arena: Any = None, players: Any = None,
                 decision_games: int = 0) -> list[Path]:
    """Write the Markdown report at ``path_md``, its tables as ``<stem>_<table>.csv`` and the
    score histogram as ``<stem>_scores.png`` beside it (needs matplotlib; skipped with a note
    otherwise). ``data``: per-game frames (see the module doc); ``elapsed`` = simulation
    seconds for the intro; ``arena``: a ``vecgames.arena`` result (self-play and cross-play)
    for the who-beats-whom section; ``players``: the seat specs of a single team (as
    ``simulate(players=...)``) for the decision table, needed when a seat holds other than a
    built-in player; ``decision_games``: games per team the decision table plays through the
    env, at most the frame's (0, the default: no table; the CLI plays ``DECISION_GAMES``).
    Returns the written paths, the Markdown file first."""
    t0 = time.perf_counter()
    path_md = Path(path_md)
    frames = as_frames(data)
    tables = report_tables(frames, arena)
    logs = {label: log for label, df in frames.items() if not _is_summary(df) and (
        log := log_like("hanabi", df, players if len(frames) == 1 else None,
                        min(len(df), decision_games), _kinds, _misplays)) is not None}
    if logs:
        tables["decisions"] = decision_table(logs)
    stem, written = write_tables(tables, path_md)
    paths = [path_md, *written.values()]
    pct = ("perfect_share", *END_NAMES, *(f"{k}_share" for k in KINDS),
           *(f"{label}_share" for label in frames))
    lines = _intro(frames, elapsed, title)
    lines += ["## Scores", "", md_table(tables["scores"], pct), ""]
    lines += ["## Score distribution", "", "Games per score (0..25) and their share.", "",
              md_table(tables["score_distribution"], pct), ""]
    if plots:
        lines += plot_section(
            lambda Figure, png: _plot_scores(Figure, tables["score_distribution"],
                                             list(frames), png),
            Path(f"{stem}_scores.png"), "score distribution", paths)
    lines += ["## How games end", "", "lives: the third misplay took the last life (score 0); "
              "perfect: all five fireworks reached 5; deck: the deck ran out and everyone "
              "played one last turn.", "", md_table(tables["ends"], pct), ""]
    lines += ["## Actions", "", "Share of all actions taken and mean per game: hint (a colour "
              "or rank to another player; costs an information token), play, discard (gives a "
              "token back).", "", md_table(tables["actions"], pct), ""]
    lines += ["## Plays and misplays", "", "Per team (self-play: one player in every seat): "
              "plays and misplays (a play of an unplayable card costs a life) per game, "
              "misplay_share among the plays, bomb_out = games that lost all lives. The frame "
              "counts a team's actions, not each seat's.", "",
              md_table(tables["plays"], ("misplay_share", "bomb_out")), ""]
    lines += ["### Decisions by player", ""] + ([
        f"Every decision of up to {decision_games:,} more games of each team "
        "(`vecgames.analysis.decision_log`, seed 0): the share of hints, plays and "
        "discards of each player, its misplays per game and among its plays.", "",
        md_table(tables["decisions"], (*KINDS, "misplay_share")), ""]
        if logs else [no_log_note(decision_games), ""])
    labels = [p for df in frames.values() for p in seat_labels(df, _seat_count(df))]
    lines += arena_section(arena, labels)
    finish_report(lines, path_md, t0, stem.name)
    return paths


# -- `vecgames simulate --summary` -------------------------------------------------------
def print_summary(args: Any, df: Any, startup: float, elapsed: float) -> None:
    s = score_table(df).iloc[0]
    ends, actions = end_table(df).iloc[0], action_table(df).iloc[0]
    print(f"{args.game}: {args.games:,} games, {s['players']} players, policy {args.policy}, "
          f"seed {args.seed}")
    print(f"score: mean {s['mean_score']:.3f} ± {s['ci95']:.3f} (95% CI), std "
          f"{s['std_score']:.3f}, median {s['median_score']:g}, perfect 25s "
          f"{100 * s['perfect_share']:.2f}%"
          + ("" if args.summary else f", mean fireworks {s['mean_fireworks']:.3f}"))
    print("ended by: " + ", ".join(f"{k} {100 * ends[k]:.1f}%"
                                   for k in ("lives", "perfect", "deck")))
    print("actions: " + ", ".join(f"{k} {100 * actions[k + '_share']:.1f}%"
                                  for k in ("hint", "play", "discard"))
          + " (per game: " + ", ".join(f"{actions[k + 's_per_game']:.2f} {k}s"
                                       for k in ("hint", "play", "discard"))
          + f"; {s['mean_turns']:.1f} turns)")
    print_throughput(args.games, elapsed, startup, "games")
