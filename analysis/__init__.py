"""Statistics reports over simulated games (``vecgames.simulate`` DataFrames).
``write_report(df, path)`` writes the report of the frame's own game.

>>> import vecgames
>>> from vecgames.analysis import write_report
>>> df = vecgames.simulate("zhajinhua", 100_000, record_actions=True)
>>> paths = write_report(df, "report.md")
"""

from .report_kit import histogram_table, md_table
from .reports import frame_game, write_report
from .zhajinhua_report import (
    action_by_round,
    action_by_status,
    action_counts_table,
    category_table,
    distribution_table,
    end_table,
    num_seats,
    position_table,
    report_tables,
    seat_table,
    status_table,
    win_shares,
)

__all__ = [
    "action_by_round",
    "action_by_status",
    "action_counts_table",
    "category_table",
    "distribution_table",
    "end_table",
    "frame_game",
    "histogram_table",
    "md_table",
    "num_seats",
    "position_table",
    "report_tables",
    "seat_table",
    "status_table",
    "win_shares",
    "write_report",
]
