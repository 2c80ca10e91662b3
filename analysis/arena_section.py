"""The "who beats whom" section of every game's report: an arena result
(``vecgames.arena(...)``) as Markdown lines and CSV tables.

>>> result = vecgames.arena("holdem", ["random", "call"], 2_000)
>>> tables = arena_tables(result)              # arena_pairwise, arena_ratings (+ Hanabi's)
>>> lines = arena_section(result, ["random", "call"])

Zero-sum games: the pairwise matrix (row player's mean payoff per game against the column
player, with its 95% CI) and the ratings. Hanabi, cooperative: the self-play scores and the
cross-play matrix (row player's team score with the column player as partner). Without a
result the section says why there is none: one player at the table has nobody to beat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from vecgames.analysis.report_kit import md_table
from vecgames.analysis.seat_players import distinct_players

HEADING = "## Who beats whom"
# ArenaResult attribute -> CSV table name (``<stem>_arena_<name>.csv``)
TABLES = {"pairwise": "arena_pairwise", "ratings": "arena_ratings",
          "selfplay": "arena_selfplay", "crossplay": "arena_crossplay"}
_CI = ("mean", "ci_low", "ci_high", "rating", "elo")


def arena_tables(result: Any) -> dict[str, pd.DataFrame]:
    """The result's tables by CSV name (none for a missing result or table)."""
    if result is None:
        return {}
    return {name: table for attr, name in TABLES.items()
            if isinstance(table := getattr(result, attr, None), pd.DataFrame)}


def _cell(row: Any) -> str:
    return f"{row.mean:+.3f} [{row.ci_low:+.3f}, {row.ci_high:+.3f}]"


def ci_matrix(long: pd.DataFrame, row: str, column: str, order: Sequence[str]) -> pd.DataFrame:
    """A long table (``row, column, mean, ci_low, ci_high``) as a matrix of "mean [low, high]"
    cells, rows and columns in ``order``; "–" where no games were played."""
    cells = {(str(getattr(r, row)), str(getattr(r, column))): _cell(r)
             for r in long.itertuples(index=False)}
    names = [str(p) for p in order]
    return pd.DataFrame([[cells.get((a, b), "–") for b in names] for a in names],
                        index=pd.Index(names, name=row), columns=names).reset_index()


def _intro(result: Any) -> str:
    duplicate = getattr(result, "duplicate", None)
    deals = {True: "duplicate deals (each deal replayed with the seats swapped)",
             False: "independent deals"}.get(duplicate, "deals")
    unit = getattr(result, "ci_unit", None)
    return (f"Arena of {', '.join(map(str, result.players))}: {int(result.num_games):,} games "
            f"per seat assignment, seats rotated, {deals}, seed {result.seed}; payoff unit: "
            f"{getattr(result, 'unit', '?')}. Intervals are 95% confidence intervals of the "
            "mean" + (f" over independent units ({unit})." if unit else "."))


def arena_section(result: Any, labels: Sequence[str], heading: str = HEADING) -> list[str]:
    """Markdown lines of the section for ``result`` (an ``ArenaResult`` or None); ``labels``:
    the report's seat labels, to say why there is no result."""
    lines = [heading, ""]
    if result is None:
        players = distinct_players(labels)
        if len(players) < 2:
            return lines + [f"One player ({players[0] if players else '?'}) sits in every "
                            "seat: nothing to compare. Give two or more distinct players "
                            "(`--policy a,b`) to add an arena.", ""]
        return lines + [f"No arena was run for {', '.join(players)}: pass "
                        "`arena=vecgames.arena(game, players, num_games)` to `write_report` "
                        "(the CLI does so with `--report`).", ""]
    lines += [_intro(result), ""]
    order = [str(p) for p in result.players]
    pairwise = getattr(result, "pairwise", None)
    if isinstance(pairwise, pd.DataFrame):
        lines += ["Mean payoff per game of the row player against the column player:", "",
                  md_table(ci_matrix(pairwise, "player", "opponent", order)), "",
                  md_table(pairwise, signed=_CI), ""]
    ratings = getattr(result, "ratings", None)
    if isinstance(ratings, pd.DataFrame):
        lines += ["### Ratings", "", "Best first: rating = mean payoff per game against the "
                  "field (each opponent weighted equally) with its sd and 95% interval; elo = "
                  "Bradley-Terry fit of who came out ahead in a game (Elo scale, mean zero), "
                  "elo_sd its standard error.", "", md_table(ratings, signed=_CI), ""]
    selfplay = getattr(result, "selfplay", None)
    if isinstance(selfplay, pd.DataFrame):
        lines += ["### Self-play", "", "Score of a team of one player in every seat.", "",
                  md_table(selfplay, pct=("perfect_rate",)), ""]
    crossplay = getattr(result, "crossplay", None)
    if isinstance(crossplay, pd.DataFrame):
        lines += ["### Cross-play", "", "Team score of the row player with the column player "
                  "as partner (ad-hoc teamwork):", "",
                  md_table(ci_matrix(crossplay, "player", "partner", order)), ""]
    return lines

