"""The Hold'em report: tables add up, files are written, the CLI writes it."""

import numpy as np

import vecgames
from vecgames.games.holdem.report import position_names, report_tables, write_report


def test_tables_add_up(tmp_path):
    df = vecgames.simulate("holdem", 4000, policy=["random", "call", "raise", "check"],
                           num_players=4, seed=2)
    tables = report_tables(df)
    assert tables["positions"]["position"].tolist() == ["BTN", "SB", "BB", "UTG"]
    assert (tables["positions"]["hands"] == 4000).all()
    assert tables["policies"]["policy"].tolist() == ["random", "call", "raise", "check"]
    assert tables["policies"].loc[3, "vpip"] == 0 and tables["policies"].loc[1, "pfr"] == 0
    # chips sum to zero over the seats of every hand, so the seat means do too
    seats = tables["seats"]
    assert abs((seats["mean_chips"] * seats["hands"]).sum()) < 1e-6
    assert tables["streets"]["hands"].sum() == 4000
    shown = df.filter(like="category_").to_numpy()
    assert tables["showdown_categories"]["hands_shown"].sum() == (shown >= 0).sum()
    written = write_report(df, tmp_path / "r.md", elapsed=0.5)
    text = written["report"].read_text()
    assert "## By position (from the button)" in text and "VPIP" in text
    assert all(path.exists() for path in written.values())
    assert position_names(2) == ["BTN/SB", "BB"]


def test_heads_up_positions():
    df = vecgames.simulate("holdem", 1000, num_players=2, seed=1)
    positions = report_tables(df)["positions"]
    assert positions["position"].tolist() == ["BTN/SB", "BB"]
    assert np.isclose(positions["mean_chips"].sum(), 0)


def test_cli_report(tmp_path, capsys):
    from vecgames.cli import main

    path = tmp_path / "holdem.md"
    assert main(["simulate", "holdem", "--games", "2000", "--report", str(path)]) == 0
    assert path.exists() and "wrote" in capsys.readouterr().out


def test_report_names_the_seed_rules_when_chosen(tmp_path):
    seed_rules = vecgames.simulate("holdem", 300, seed=1, min_raise="call", short_stack="fold")
    text = write_report(seed_rules, tmp_path / "s.md", plots=False)["report"].read_text()
    assert "short_stack=fold, min_raise=call" in text
    default = vecgames.simulate("holdem", 300, seed=1)
    text = write_report(default, tmp_path / "d.md", plots=False)["report"].read_text()
    assert "min_raise" not in text and "short_stack" not in text
