"""Statistics reports over simulated games (``vecgames.simulate`` DataFrames).
``write_report(df, path)`` writes the report of the frame's own game; each game's report, with
one function per table, is its package's ``report`` module (``vecgames.games.<game>.report``).

>>> import vecgames
>>> from vecgames.analysis import write_report
>>> df = vecgames.simulate("zhajinhua", 100_000, record_actions=True)
>>> paths = write_report(df, "report.md")
"""

from .report_kit import histogram_table, md_table
from .reports import frame_game, write_report

__all__ = [
    "frame_game",
    "histogram_table",
    "md_table",
    "write_report",
]
