"""What every game's report shares: Markdown tables, CSV files, histograms, plots and 95%
confidence intervals.

Also a report's input: frames by player label (``as_frames``) and the frames of several
players' games (``simulate_policies``). The reports (``vecgames.games.<game>.report``) import
these; none imports another game's report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import is_numeric_dtype

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
Z95 = 1.959963984540054  # two-sided 95% normal quantile

# a report's input: frames by label, a list of frames or one frame (see as_frames)
Frames = Mapping[str, pd.DataFrame] | Sequence[pd.DataFrame] | pd.DataFrame


def policy_label(df: pd.DataFrame) -> str:
    """The policy of a frame as one label: ``rules``, or ``rules,random`` (one per seat)."""
    names = df.attrs.get("players", df.attrs.get("policy", "?"))
    if isinstance(names, str):
        return names
    names = [str(p) for p in names]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def as_frames(data: Frames) -> dict[str, pd.DataFrame]:
    """Frames by policy label from a dict, a list of frames, a frame with a ``policy`` column
    (one group per value) or a single frame (labelled by ``attrs["policy"]``)."""
    if isinstance(data, pd.DataFrame):
        if "policy" in data.columns:
            out = {}
            for name, group in data.groupby("policy", sort=False, observed=True):
                out[str(name)] = group
                group.attrs = {**data.attrs, "policy": str(name)}
            return out
        return {policy_label(data): data}
    if isinstance(data, Mapping):
        return {str(k): v for k, v in data.items()}
    out: dict[str, pd.DataFrame] = {}
    for df in data:
        label, k = policy_label(df), 2
        while label in out:
            label, k = f"{policy_label(df)} #{k}", k + 1
        out[label] = df
    if not out:
        raise ValueError("expected at least one frame")
    return out


def simulate_policies(game: str, num_games: int, policies: Sequence[str | Sequence[str]],
                      num_players: int, seed: int = 0, **options: Any
                      ) -> dict[str, pd.DataFrame]:
    """``vecgames.simulate(game, num_games, policy=p, ...)`` for each policy (a name for every
    seat or a list with one per seat), same seed and so the same deals; frames by label
    (``"rules"``, ``"weakest,random,random,random"``). ``options``: more simulate keywords."""
    import vecgames

    frames: dict[str, pd.DataFrame] = {}
    for policy in policies:
        df = vecgames.simulate(game, num_games, policy=policy, seed=seed,
                               num_players=num_players, **options)
        frames[policy if isinstance(policy, str) else ",".join(policy)] = df
    return frames


def histogram_table(values: Iterable[int] | np.ndarray, max_bins: int = 40) -> pd.DataFrame:
    """Histogram of integer values: one bin per value if they span <= max_bins values, else
    max_bins-ish bins of equal integer width. Bins are [low, high] inclusive."""
    v = np.asarray(values, dtype=np.int64)
    if v.size == 0:
        return pd.DataFrame(columns=["low", "high", "games", "share", "cumulative"])
    lo, hi = int(v.min()), int(v.max())
    width = max(1, -(-(hi - lo + 1) // max_bins))
    counts = np.bincount((v - lo) // width)
    low = lo + width * np.arange(len(counts))
    share = counts / v.size
    return pd.DataFrame({"low": low, "high": low + width - 1, "games": counts, "share": share,
                         "cumulative": np.cumsum(share)})


def _fmt(value: Any, kind: str) -> str:
    if isinstance(value, float) and np.isnan(value):
        return "–"
    if kind == "pct":
        return f"{100 * value:.2f}%"
    if kind == "signed":
        return f"{value:+.3f}"
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    if isinstance(value, (float, np.floating)):
        return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.1f}"
    return str(value)


def md_table(df: pd.DataFrame, pct: Iterable[str] = (), signed: Iterable[str] = ()) -> str:
    """A DataFrame as a Markdown table; ``pct`` columns as percentages, ``signed`` with a sign."""
    kinds = {c: "pct" for c in pct} | {c: "signed" for c in signed}
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "|".join("---:" if is_numeric_dtype(df[c]) else "---" for c in df.columns) + "|"]
    for row in df.itertuples(index=False):  # table rows, never games
        cells = [_fmt(v, kinds.get(c, "")) for c, v in zip(cols, row, strict=True)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def policy_text(policy: Any) -> str:
    if isinstance(policy, str):
        return policy
    names = [str(p) for p in policy]
    if len(set(names)) == 1:
        return f"{names[0]} (all seats)"
    return ", ".join(f"seat {p}: {name}" for p, name in enumerate(names))


def figure_class():
    """matplotlib's Figure class (no pyplot: no global backend state), or None if missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    return Figure


def plot_section(draw: Any, png: Path, alt: str, paths: list[Path]) -> list[str]:
    """Markdown lines of one figure: ``draw(Figure, png)`` writes it and ``png`` joins
    ``paths``; without matplotlib, a note saying the plot was skipped."""
    Figure = figure_class()
    if Figure is None:
        return ["_Plot skipped: matplotlib is not installed (`pip install -e \".[report]\"`)._",
                ""]
    draw(Figure, png)
    paths.append(png)
    return [f"![{alt}]({png.name})", ""]


def plot_hist(Figure, hist: pd.DataFrame, xlabel: str, path: Path) -> None:
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    ax.bar(hist["low"], hist["share"], width=hist["high"] - hist["low"] + 1, align="edge",
           edgecolor="white", linewidth=0.5)
    ax.set_title(f"{xlabel}: share of games (log scale)")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.set_yscale("log")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def write_tables(tables: Mapping[str, pd.DataFrame], path_md: Path
                 ) -> tuple[Path, dict[str, Path]]:
    """Write each table as ``<stem>_<name>.csv`` beside ``path_md`` (its folder is made);
    returns the stem and the written paths by table name."""
    path_md.parent.mkdir(parents=True, exist_ok=True)
    stem = path_md.with_suffix("")
    written: dict[str, Path] = {}
    for name, table in tables.items():
        written[name] = Path(f"{stem}_{name}.csv")
        table.to_csv(written[name], index=False)
    return stem, written


def time_lines(elapsed: float | None, count: int, unit: str = "games") -> list[str]:
    """The report's line on how long the simulation took and its rate (none without a time)."""
    if elapsed is None:
        return []
    rate = f" ({count / elapsed:,.0f} {unit}/s)" if elapsed > 0 else ""
    return [f"- simulation time: {elapsed:.2f} s{rate}"]


def frame_line(label: str, df: pd.DataFrame, games: int) -> str:
    """One run of a report over several: its games, policy, seed and rules."""
    a = df.attrs
    text = (f"- **{label}**: {games:,} games, policy {policy_text(a.get('policy', label))}, "
            f"seed {a.get('seed', '?')}")
    if "rules" in a:
        text += ", rules " + ", ".join(f"{k}={v}" for k, v in a["rules"].items())
    return text


def finish_report(lines: list[str], path_md: Path, t0: float, csv_stem: str | None = None
                  ) -> None:
    """Write the report's Markdown ``lines`` to ``path_md``, closed by the time it took since
    ``t0`` (``time.perf_counter``) and, with ``csv_stem``, where its tables are as CSV."""
    import time

    csv = f"; tables as CSV: `{csv_stem}_<table>.csv`" if csv_stem is not None else ""
    lines += [f"_Report written in {time.perf_counter() - t0:.2f} s{csv}._", ""]
    path_md.write_text("\n".join(lines), encoding="utf-8")


def mean_ci(x: np.ndarray, z: float = Z95) -> dict[str, float]:
    """Count, mean, sample std (ddof=1) and the 95% CI half-width and bounds of the mean."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return {"n": 0, "mean": np.nan, "std": np.nan, "ci95": np.nan, "ci_low": np.nan,
                "ci_high": np.nan}
    mean = float(x.mean())
    std = float(x.std(ddof=1)) if n > 1 else np.nan
    half = z * std / np.sqrt(n) if n > 1 else np.nan
    return {"n": n, "mean": mean, "std": std, "ci95": half, "ci_low": mean - half,
            "ci_high": mean + half}


def rate_ci(hits: np.ndarray, n: np.ndarray) -> dict[str, np.ndarray]:
    """Rates ``hits / n`` with their 95% normal-approximation CI half-widths and bounds (nan
    where n is 0)."""
    n = np.asarray(n, np.float64)
    p = np.divide(hits, n, out=np.full(n.shape, np.nan), where=n > 0)
    half = Z95 * np.sqrt(np.divide(p * (1 - p), n, out=np.full(n.shape, np.nan), where=n > 0))
    return {"rate": p, "ci95": half, "ci_low": p - half, "ci_high": p + half}
