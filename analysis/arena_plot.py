"""The arena's figure: a heat map of the pairwise means and the ratings with error bars.

>>> import vecgames
>>> from vecgames.analysis.arena_plot import plot_arena
>>> result = vecgames.arena("holdem", ["random", "call", "strength"], 20_000, num_players=2)
>>> plot_arena(result, "arena.png")

Hanabi is cooperative: its figure shows the cross-play matrix (mean score of a player with a
partner) and the self-play scores with their 95% confidence intervals instead.
Needs matplotlib (the report extra); only its ``Figure`` class is used, no pyplot state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

PAIRWISE_COLUMNS = ("player", "opponent", "mean", "ci_low", "ci_high")
RATING_COLUMNS = ("player", "rating", "ci_low", "ci_high")
CROSSPLAY_COLUMNS = ("player", "partner", "mean", "ci_low", "ci_high")
SELFPLAY_COLUMNS = ("player", "mean", "ci_low", "ci_high")


def plot_arena(result: Any, path: str | Path, *, dpi: int = 100) -> Path:
    """Draw ``result`` (a ``vecgames.arena`` ArenaResult) into ``path`` (the format follows
    its suffix, e.g. .png, .svg, .pdf) and return the path. Left: the pairwise means as a
    heat map (row player's mean payoff per game against the column player, in the result's
    unit); right: the ratings with their 95% intervals. For Hanabi: cross-play scores and
    self-play scores."""
    path = Path(path)
    panels = _panels(result)  # checks the result before anything is drawn or written
    if not path.parent.is_dir():
        raise ValueError(f"path: the folder {str(path.parent)!r} does not exist")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError('plot_arena needs matplotlib: pip install -e ".[report]"') from None
    labels = list(result.players)
    size = max(4.0, 0.6 * len(labels) + 2.5)
    fig = Figure(figsize=(2 * size + 1.0, size))
    heat_ax, bar_ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.15, 1]})
    (matrix, heat_title, cmap, centre), (points, bar_title, xlabel) = panels
    _heat_map(fig, heat_ax, matrix, heat_title, cmap, centre)
    _error_bars(bar_ax, points, bar_title, xlabel)
    fig.suptitle(f"{result.game}: {result.num_games:,} games per seat assignment, "
                 f"seed {result.seed}"
                 + (", duplicate deals" if getattr(result, "duplicate", False) else ""))
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    return path


def _panels(result: Any) -> tuple[tuple[pd.DataFrame, str, str, float | None],
                                  tuple[pd.DataFrame, str, str]]:
    """(heat-map matrix, title, colour map, centre or None) and (error-bar rows, title,
    x label) of ``result``; TypeError/ValueError when it lacks what the figure needs."""
    for attr in ("game", "players", "num_games", "seed", "unit"):
        if not hasattr(result, attr):
            raise TypeError(f"result: expected a vecgames.arena result, got "
                            f"{type(result).__name__} (no {attr!r})")
    labels = [str(p) for p in result.players]
    unit = str(result.unit)
    crossplay = getattr(result, "crossplay", None)
    if crossplay is not None:  # Hanabi: cooperative, no winner or loser
        selfplay = _checked(getattr(result, "selfplay", None), SELFPLAY_COLUMNS, "selfplay")
        cross = _checked(crossplay, CROSSPLAY_COLUMNS, "crossplay", empty_ok=True)  # 1 player
        matrix = _square(cross, "partner", labels)
        own = selfplay.set_index("player")["mean"].reindex(labels).to_numpy(dtype=float)
        values = matrix.to_numpy(copy=True)  # a player's own team is its self-play score
        np.fill_diagonal(values, np.where(np.isnan(np.diag(values)), own, np.diag(values)))
        matrix = pd.DataFrame(values, index=matrix.index, columns=matrix.columns)
        return ((matrix, f"cross-play: mean {unit} (row with column partner)", "viridis",
                 None),
                (_ordered(selfplay, labels), "self-play: mean with 95% CI", unit))
    pairwise = _checked(getattr(result, "pairwise", None), PAIRWISE_COLUMNS, "pairwise")
    ratings = _checked(getattr(result, "ratings", None), RATING_COLUMNS, "ratings")
    return ((_square(pairwise, "opponent", labels),
             f"row vs column: mean {unit} per game", "RdBu", 0.0),
            (ratings.sort_values("rating"), "ratings with 95% CI", "rating"))


def _checked(frame: Any, columns: tuple[str, ...], name: str,
             empty_ok: bool = False) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"result.{name}: expected a DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"result.{name}: missing columns {missing}")
    if frame.empty and not empty_ok:
        raise ValueError(f"result.{name}: no rows to plot")
    return frame


def _square(long: pd.DataFrame, other: str, labels: list[str]) -> pd.DataFrame:
    """The long table's means as a labels x labels matrix (NaN where no games were played)."""
    wide = long.pivot_table(index="player", columns=other, values="mean", aggfunc="first")
    return wide.reindex(index=labels, columns=labels).astype(float)


def _ordered(frame: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    order = {label: k for k, label in enumerate(labels)}
    return frame.sort_values("player", key=lambda s: s.map(order), ascending=False)


def _heat_map(fig: Any, ax: Any, matrix: pd.DataFrame, title: str, cmap: str,
              centre: float | None) -> None:
    values = matrix.to_numpy()
    finite = values[np.isfinite(values)]
    if centre is None:  # sequential scale over the observed range
        low, high = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    else:  # diverging, symmetric about the centre, so white means "even"
        reach = float(np.abs(finite - centre).max()) if finite.size else 1.0
        low, high = centre - (reach or 1.0), centre + (reach or 1.0)
    ax.set_facecolor("0.85")  # grey where no games were played (e.g. a player vs itself)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=low, vmax=high)
    fig.colorbar(image, ax=ax, shrink=0.8)
    ticks = np.arange(len(matrix))
    ax.set_xticks(ticks, [str(c) for c in matrix.columns], rotation=30, ha="right")
    ax.set_yticks(ticks, [str(r) for r in matrix.index])
    ax.set_title(title)
    middle = (low + high) / 2
    for (i, j), value in np.ndenumerate(values):
        if np.isfinite(value):
            dark = abs(value - middle) > 0.3 * (high - low) if centre is not None else (
                value < middle)
            sign = "+" if centre is not None else ""
            text = f"{value:{sign}.0f}" if abs(value) >= 100 else f"{value:{sign}.3g}"
            ax.text(j, i, text,
                    ha="center", va="center", fontsize=8, color="white" if dark else "black")


def _error_bars(ax: Any, points: pd.DataFrame, title: str, xlabel: str) -> None:
    y = np.arange(len(points))
    centre = points["rating"] if "rating" in points else points["mean"]
    low = (centre - points["ci_low"]).clip(lower=0)
    high = (points["ci_high"] - centre).clip(lower=0)
    ax.errorbar(centre, y, xerr=[low, high], fmt="o", capsize=4)
    ax.set_yticks(y, [str(p) for p in points["player"]])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
