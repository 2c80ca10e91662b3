"""Issue 34 item 9: small things a newcomer meets."""
import warnings

import pandas as pd
import pytest

import vecgames


def test_simulate_policy_is_a_deprecated_alias_of_players():
    with pytest.warns(DeprecationWarning, match="players="):
        old = vecgames.simulate("liars_dice", 200, policy=["heuristic", "random"], seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = vecgames.simulate("liars_dice", 200, players=["heuristic", "random"], seed=3)
    pd.testing.assert_frame_equal(old, new.drop(columns=[], errors="ignore"), check_like=True)


def test_zhajinhua_render_counts_rounds_from_one():
    env = vecgames.make("zhajinhua", num_envs=1, seed=0)
    env.reset()
    assert "round 1," in env.render(0).splitlines()[0]


def test_zhajinhua_watch_default_line_up_mixes_players():
    from vecgames.games.zhajinhua.view import ZhaJinHuaView
    from vecgames.play.terminal import Match

    watch = Match(ZhaJinHuaView(), watch=True, seed=1, print_fn=lambda s: None)
    assert watch.labels == ["percentile", "heuristic", "random"] * 2
    seated = Match(ZhaJinHuaView(), seed=1, print_fn=lambda s: None)  # playing: as before
    assert seated.labels == ["you"] + ["heuristic"] * 5


def test_simulate_report_into_a_missing_folder_creates_it(tmp_path):
    from vecgames.cli import main

    report = tmp_path / "new" / "deeper" / "r.md"
    assert main(["simulate", "liars_dice", "--games", "200", "--report", str(report)]) == 0
    assert report.is_file() and report.stat().st_size > 0
