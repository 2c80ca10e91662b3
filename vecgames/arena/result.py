"""``ArenaResult``: what ``vecgames.arena`` returns, as pandas tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .stats import MIN_UNITS


@dataclass(frozen=True, eq=False)
class ArenaResult:
    """The tables of one arena run.

    - ``game``, ``players`` (labels, in the order given), ``seats`` (players per table),
      ``num_games`` (games per seat assignment), ``seed``, ``duplicate`` (whether seat
      assignments shared deals), ``unit`` (of the payoffs: chips, bb/100, points, score,
      beans) and ``ci_unit`` (what one independent unit of the confidence intervals is).
    - ``pairwise``: ``player, opponent, games, units, mean, ci_low, ci_high, unit``: the mean
      payoff per game of ``player`` against ``opponent`` (half the difference of their payoffs
      in the games where both sat: the player's own payoff heads-up in a zero-sum game), 95% CI.
    - ``ratings``: ``player, rating, sd, ci_low, ci_high, games, elo, elo_sd``, best first:
      ``rating`` is the mean payoff per game against the field (in ``unit``: the mean of the
      player's pairwise means) with its sd and 95% interval; ``elo``/``elo_sd`` a
      Bradley-Terry fit on the Elo scale, mean zero, of how often it came out ahead in a game.
    - ``matches``: one row per game: ``assignment`` (seat labels joined by " | "), ``deal``
      (global game index: equal deals had equal cards), ``payoff_<label>`` (the player's mean
      payoff over its seats; NaN when it did not sit).
    - Hanabi: ``selfplay`` (``player, games, mean, ci_low, ci_high, perfect_rate``) and
      ``crossplay`` (``player, partner, games, mean, ci_low, ci_high``: the player in one seat,
      the partner in all others; empty with one player); ``pairwise`` and ``ratings`` are
      None.
    - ``min_units``: the fewest independent units behind any of the intervals (Student's t
      intervals, ``stats``); ``few_units``: whether that is under ``stats.MIN_UNITS`` (30),
      where an interval rests on an assumption few units cannot check (the arena warns).
    """

    game: str
    players: tuple[str, ...]
    seats: int
    num_games: int
    seed: int
    duplicate: bool
    unit: str
    ci_unit: str
    matches: pd.DataFrame = field(repr=False)  # (tables: ``to_markdown()``)
    pairwise: pd.DataFrame | None = field(default=None, repr=False)
    ratings: pd.DataFrame | None = field(default=None, repr=False)
    selfplay: pd.DataFrame | None = field(default=None, repr=False)
    crossplay: pd.DataFrame | None = field(default=None, repr=False)
    options: dict[str, Any] | None = None
    stopped: bool = False  # ``minutes`` ran out: fewer games per assignment than asked

    @property
    def min_units(self) -> int:
        """The fewest units behind an interval of the tables (pairwise ``units``; Hanabi:
        ``games``, one unit each). A rating's interval rests on at least as many units as
        each of its pairwise means."""
        counts = [t["units"] if "units" in t else t["games"] for name, t in self.tables().items()
                  if name != "ratings" and len(t)]
        return int(min(c.min() for c in counts)) if counts else 0

    @property
    def few_units(self) -> bool:
        """Whether an interval comes from fewer than ``stats.MIN_UNITS`` units."""
        return self.min_units < MIN_UNITS

    def matrix(self) -> pd.DataFrame:
        """Pairwise means as a player x opponent table (NaN on the diagonal)."""
        if self.pairwise is None:
            raise ValueError(f"{self.game} is cooperative: it has no pairwise table; see "
                             f"selfplay and cross_matrix()")
        return _square(self.pairwise, "player", "opponent", self.players)

    def cross_matrix(self) -> pd.DataFrame:
        """Hanabi cross-play mean scores as a player x partner table, self-play on the
        diagonal."""
        if self.crossplay is None or self.selfplay is None:
            raise ValueError(f"{self.game} is not cooperative: it has no cross-play table; "
                             f"see matrix()")
        table = _square(self.crossplay, "player", "partner", self.players)
        for row in self.selfplay.itertuples():
            table.loc[row.player, row.player] = row.mean
        return table

    def tables(self) -> dict[str, pd.DataFrame]:
        """The result's tables by name (those the game has), for printing or csv files."""
        names = ("pairwise", "ratings", "selfplay", "crossplay")
        return {name: getattr(self, name) for name in names if getattr(self, name) is not None}

    def to_markdown(self) -> str:
        """The tables as markdown, with a line on what was played."""
        format_ = "duplicate deals" if self.duplicate else "a deal per game"
        lines = [f"{self.game}: {', '.join(self.players)} at {self.seats} seats, "
                 f"{self.num_games:,} games per seat assignment ({format_}), seed {self.seed}; "
                 f"payoffs in {self.unit}, 95% CIs over independent {self.ci_unit}s."]
        if self.few_units:
            lines.append(f"Some intervals rest on only {self.min_units} {self.ci_unit}s (fewer "
                         f"than {MIN_UNITS}): read them as rough.")
        for name, table in self.tables().items():
            lines += ["", f"### {name}", "", _markdown(table)]
        return "\n".join(lines) + "\n"


def _square(long: pd.DataFrame, row: str, column: str, labels: tuple[str, ...]) -> pd.DataFrame:
    table = long.pivot(index=row, columns=column, values="mean")
    return table.reindex(index=list(labels), columns=list(labels)).rename_axis(
        index=row, columns=column)


def _markdown(table: pd.DataFrame) -> str:
    """A pipe table, numbers to 4 significant digits (no tabulate dependency)."""
    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.4g}"
        return str(value)

    header = "| " + " | ".join(map(str, table.columns)) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *rows])
