"""``vecgames.analysis.write_report``: the report of the frame's own game, read from the
frame's ``attrs["game"]``, which every simulate frame carries (Hold'em's too)."""

from __future__ import annotations

import pandas as pd
import pytest

import vecgames
from vecgames.analysis import frame_game, write_report


@pytest.mark.parametrize("summary", [False, True])
def test_every_frame_says_its_game_seed_and_count(summary):
    for info in vecgames.list_games():
        df = vecgames.simulate(info.name, 20, seed=3, summary=summary)
        frames = df.values() if isinstance(df, dict) else [df]
        for frame in frames:
            assert frame.attrs["game"] == info.name, info.name
            assert frame.attrs["seed"] == 3 and frame.attrs["num_games"] == 20, info.name


def test_write_report_dispatches_on_the_frames_game(tmp_path):
    df = vecgames.simulate("holdem", 300, seed=1, num_players=3)
    assert frame_game(df) == "holdem"
    written = write_report(df, tmp_path / "holdem.md")
    assert (tmp_path / "holdem.md").is_file() and written
    assert "Hold" in (tmp_path / "holdem.md").read_text()


def test_a_frame_without_a_game_or_a_game_without_a_report_is_refused(tmp_path):
    with pytest.raises(ValueError, match="does not say its game"):
        write_report(pd.DataFrame({"chips_0": [1]}), tmp_path / "r.md")
    with pytest.raises(ValueError, match="no report for Kuhn poker"):
        write_report(vecgames.simulate("kuhn_poker", 10), tmp_path / "r.md")
