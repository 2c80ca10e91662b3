"""Statistics reports over simulated games (``vecgames.simulate`` DataFrames).

>>> import vecgames
>>> from vecgames.analysis import write_report
>>> df = vecgames.simulate("zhajinhua", 100_000, record_actions=True)
>>> paths = write_report(df, "report.md")
"""

from .zhajinhua_report import (
    action_by_round,
    action_by_status,
    action_counts_table,
    category_table,
    distribution_table,
    end_table,
    histogram_table,
    md_table,
    num_seats,
    position_table,
    report_tables,
    seat_table,
    status_table,
    win_shares,
    write_report,
)

__all__ = [
    "action_by_round",
    "action_by_status",
    "action_counts_table",
    "category_table",
    "distribution_table",
    "end_table",
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
