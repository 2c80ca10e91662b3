"""`vecgames simulate --rule KEY=VALUE` and the game's own default player."""

from __future__ import annotations

import pytest

import vecgames
from vecgames.api import default_policy
from vecgames.cli import main
from vecgames.cli_args import CLIError, parse_rule

DEFAULTS = {"flag": False, "count": 3, "ratio": 0.5, "mode": "a", "seat": None}


@pytest.mark.parametrize("text, expected", [
    ("flag=yes", ("flag", True)), ("flag=False", ("flag", False)), ("count=7", ("count", 7)),
    ("ratio=0.25", ("ratio", 0.25)), ("mode=b", ("mode", "b")), ("seat=2", ("seat", 2)),
    ("seat=none", ("seat", None)), ("seat=random", ("seat", "random")),
    (" count = 4 ", ("count", 4)),
])
def test_parse_rule_reads_the_defaults_type(text, expected):
    assert parse_rule(text, DEFAULTS) == expected


@pytest.mark.parametrize("text, match", [
    ("count", "KEY=VALUE"), ("=3", "KEY=VALUE"), ("count=", "KEY=VALUE"),
    ("colour=red", "unknown rule option 'colour'"), ("count=x", "count takes int"),
    ("flag=maybe", "flag takes true or false"), ("ratio=half", "ratio takes float"),
])
def test_parse_rule_errors_name_the_problem(text, match):
    with pytest.raises(CLIError, match=match):
        parse_rule(text, DEFAULTS)


def test_rule_reaches_the_game(tmp_path, capsys):
    """--rule max_rounds=2 gives the library's games with max_rounds=2, not the default's."""
    path = tmp_path / "rows.csv"
    assert main(["simulate", "zhajinhua", "--games", "50", "--rule", "max_rounds=2",
                 "--csv", str(path)]) == 0
    import pandas as pd

    rows = pd.read_csv(path)
    ref = vecgames.simulate("zhajinhua", 50, max_rounds=2)
    assert rows["rounds"].tolist() == ref["rounds"].tolist()
    assert rows["rounds"].max() <= 2 < vecgames.simulate("zhajinhua", 50)["rounds"].max()


@pytest.mark.parametrize("args, match", [
    (["--rule", "nope=1"], "unknown rule option 'nope'"),
    (["--rule", "max_rounds=3", "--max-rounds", "4"], "max_rounds given twice"),
    (["--rule", "max_rounds"], "KEY=VALUE"),
    (["--rule", "max_rounds=0"], "max_rounds"),  # the library's own check
])
def test_bad_rule_exits_2(args, match, capsys):
    assert main(["simulate", "zhajinhua", "--games", "10", *args]) == 2
    err = capsys.readouterr().err
    assert match in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["zhajinhua", "liars_dice"])
def test_policy_defaults_to_the_games_own(name, capsys):
    player = default_policy(name)
    assert vecgames.simulate(name, 20, seed=3).equals(
        vecgames.simulate(name, 20, policy=player, seed=3))
    assert main(["simulate", name, "--games", "20"]) == 0
    assert f"policy {player}" in capsys.readouterr().out


def test_default_policy_is_listed():
    for info in vecgames.list_games():
        assert info.default_policy in info.policies
        assert info.default_policy == default_policy(info.name)


def test_dayaoguai_report_with_xiyouji_seat_names(tmp_path, capsys):
    report = tmp_path / "dyg.md"
    assert main(["simulate", "dayaoguai", "--games", "200", "--report", str(report),
                 "--seat-names", "xiyouji"]) == 0
    text = report.read_text(encoding="utf-8")
    assert "孙悟空" in text and "唐僧" in text
    plain = tmp_path / "plain.md"
    assert main(["simulate", "dayaoguai", "--games", "200", "--report", str(plain)]) == 0
    assert "孙悟空" not in plain.read_text(encoding="utf-8")
    capsys.readouterr()
    for args, match in ((["zhajinhua", "--report", str(tmp_path / "z.md")], "only for dayaoguai"),
                        (["dayaoguai"], "give --report")):
        assert main(["simulate", *args, "--games", "10", "--seat-names", "xiyouji"]) == 2
        assert match in capsys.readouterr().err
