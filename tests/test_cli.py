"""The ``vecgames`` command, run in-process (kernels compile once per test session)."""

from __future__ import annotations

import re
import sys
import types

import numba
import pandas as pd
import pytest

import vecgames
from vecgames.cli import main
from vecgames.cli_args import TRAIN_HINT


def test_version(capsys):
    assert main(["--version"]) == 0
    assert vecgames.__version__ in capsys.readouterr().out


def test_simulate_report_and_csv(tmp_path, capsys):
    report, games_csv = tmp_path / "report.md", tmp_path / "games.csv"
    rc = main(["simulate", "zhajinhua", "--games", "5000", "--num-players", "4", "--seed", "3",
               "--report", str(report), "--csv", str(games_csv)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "games/s" in out and "win_share" in out and "mean_chips" in out
    assert report.stat().st_size > 0
    text = report.read_text(encoding="utf-8")
    assert "players: 4" in text and "games: 5,000" in text and "## Actions by round" in text
    assert list(tmp_path.glob("report_*.png")) and list(tmp_path.glob("report_*.csv"))
    games = pd.read_csv(games_csv)
    assert len(games) == 5000 and "chips_3" in games.columns and "chips_4" not in games.columns


def test_simulate_says_what_its_rate_counts_and_times_the_report_apart(tmp_path, capsys):
    report = tmp_path / "report.md"
    assert main(["simulate", "zhajinhua", "--games", "2000", "--num-players", "3",
                 "--report", str(report)]) == 0
    out = capsys.readouterr().out
    rate = re.search(r"^simulated 2,000 games in [\d.]+ s: [\d.,]+ (M |k )?games/s in the "
                     r"kernels incl\. building the DataFrame \(kernel load/compile [\d.]+ s "
                     r"and any report not counted\)$", out, re.M)
    assert rate, out
    assert re.search(r"^wrote .*report\.md \(\+ \d+ csv/png files beside it\) in [\d.]+ s ",
                     out, re.M), out


def test_simulate_summary_with_rules(capsys):
    rc = main(["simulate", "zhajinhua", "--games", "3000", "--summary", "--num-players", "3",
               "--policy", "random,heuristic,random", "--max-rounds", "5", "--a23", "second",
               "--special-235", "--ante", "2", "--no-compare-rounds", "2"])
    out = capsys.readouterr().out
    assert rc == 0
    lines = [ln.split() for ln in out.splitlines()]
    seat_rows = [ln for ln in lines if len(ln) == 4 and ln[0] in ("0", "1", "2")]
    assert len(seat_rows) == 3
    assert sum(float(r[3]) for r in seat_rows) == pytest.approx(1.0, abs=1e-3)  # win shares


def test_rule_flags_come_from_every_game_spec(capsys):
    """Every rule option of every game (its rules' DEFAULT_OPTIONS) is a flag of simulate,
    with the help its guide gives; a flag the game lacks is a usage error naming it."""
    from vecgames.games.catalog import specs

    assert main(["simulate", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    for name, spec in specs().items():
        docs = spec.load("guide").OPTION_DOCS
        for key in spec.load("rules").DEFAULT_OPTIONS:
            flag = "--" + key.replace("_", "-")
            assert flag in help_text, (name, flag)
            if key != "num_players":
                assert f"{name}: {' '.join(docs[key].help.split())}" in help_text
        assert name in help_text.split("built-in players (")[1]  # the players of every game
    assert main(["simulate", "zhajinhua", "--games", "10", "--stack", "50"]) == 2
    err = capsys.readouterr().err
    assert "argument --stack: zhajinhua has no rule option stack" in err


def test_a_rule_flag_plays_as_its_rule_option(capsys):
    """``--must-beat`` and ``--rule must_beat=true`` play the same games; ``--rounds`` is the
    old spelling of ``--num-rounds``."""
    outs = []
    for flags in (["--must-beat"], ["--rule", "must_beat=true"], []):
        assert main(["simulate", "dayaoguai", "--games", "200", "--seed", "5", "--players",
                     "random", *flags]) == 0
        outs.append(capsys.readouterr().out.split("simulated")[0])
    assert outs[0] == outs[1] != outs[2]
    for flag in ("--rounds", "--num-rounds"):
        assert main(["simulate", "liars_dice", "--games", "100", flag, "2", "--csv",
                     "/dev/null"]) == 0
        assert "rounds" in capsys.readouterr().out
    assert main(["simulate", "dayaoguai", "--games", "10", "--must-beat", "--rule",
                 "must_beat=false"]) == 2
    assert "must_beat given twice (--must-beat" in capsys.readouterr().err


def test_threads_restored(capsys):
    before = numba.get_num_threads()
    assert main(["simulate", "zhajinhua", "--games", "1000", "--threads", "1"]) == 0
    assert numba.get_num_threads() == before


@pytest.mark.parametrize("args, flag", [
    (["--players", "9"], "--players"),
    (["--policy", "foo"], "--policy"),
    (["--policy", "random,random"], "--policy"),
    (["--games", "0"], "--games"),
    (["--games", "abc"], "--games"),
    (["--ante", "-1"], "--ante"),
    (["--max-rounds", "0"], "--max-rounds"),
    (["--a23", "third"], "--a23"),
    (["--threads", "100000"], "--threads"),
    (["--summary", "--report", "x.md"], "--report"),
])
def test_bad_options_exit_2(args, flag, capsys):
    assert main(["simulate", "zhajinhua", *args]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and flag in err and "Traceback" not in err


def test_unknown_game_exit_2(capsys):
    assert main(["simulate", "poker9"]) == 2
    assert "poker9" in capsys.readouterr().err


def test_train_forwards_args(monkeypatch):
    seen: list[tuple[list[str], str]] = []
    fake = types.ModuleType("vecgames.games.zhajinhua.train")
    fake.main = lambda argv=None, prog="": seen.append((argv, prog)) and 0
    monkeypatch.setitem(sys.modules, "vecgames.games.zhajinhua.train", fake)
    assert main(["train", "zhajinhua", "--minutes", "1", "--out", "run1"]) == 0
    assert seen == [(["--minutes", "1", "--out", "run1"], "vecgames train zhajinhua")]


def test_train_without_extra(monkeypatch, capsys):
    # None in sys.modules: the import raises ImportError
    monkeypatch.setitem(sys.modules, "vecgames.games.zhajinhua.train", None)
    assert main(["train", "zhajinhua"]) == 1
    assert TRAIN_HINT in capsys.readouterr().err


def test_equity_exact_and_sampled(capsys):
    assert main(["equity", "AhKh", "QsQd", "--board", "2c7d9h"]) == 0
    out = capsys.readouterr().out
    assert "exact: 990 deals" in out and "28.283%" in out
    assert main(["equity", "QQ+,AKs", "random", "--samples", "1e5", "--seed", "4"]) == 0
    assert "monte carlo: 100,000 deals" in capsys.readouterr().out


@pytest.mark.parametrize("args, match", [
    (["AhKh", "AhQd"], "sharing a card"),
    (["AhKh", "QsQx"], "hand 1"),
    (["AhKh", "QQ", "--samples", "0.5"], "--samples"),
    (["AhKh", "QQ", "--threads", "0"], "--threads"),
])
def test_equity_errors_exit_2(args, match, capsys):
    assert main(["equity", *args]) == 2
    assert match in capsys.readouterr().err


# ---------------------------------------------------------------- --help everywhere


def _help_argvs() -> list[list[str]]:
    from vecgames.cli import play_names, subcommands
    from vecgames.games.catalog import specs

    argvs = [["--help"]] + [[name, "--help"] for name in subcommands()]
    argvs += [["train", name, "--help"] for name, spec in specs().items() if spec.has("trainer")]
    argvs += [["play", game, "--help"] for game in play_names()]
    return argvs


@pytest.mark.parametrize("argv", _help_argvs(), ids=" ".join)
def test_every_help_exits_0(argv, capsys):
    if argv[0] == "train":
        pytest.importorskip("torch")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "usage:" in out and "--help" in out


def test_subcommands_are_all_walked():
    from vecgames.cli import subcommands

    assert set(subcommands()) == {"list", "players", "simulate", "equity", "preflop-matrix",
                                  "train", "exploit", "play", "arena", "serve"}


def test_play_forwards_args(monkeypatch):
    """Every game, Liar's Dice included, runs the shared terminal loop over its view."""
    from vecgames.games.liars_dice.view import VIEW
    from vecgames.play import terminal

    seen: list[tuple] = []
    monkeypatch.setattr(terminal, "main", lambda view, argv=None: seen.append((view, argv)) or 0)
    assert main(["play", "liars-dice", "--num-players", "3", "--help"]) == 0
    assert seen == [(VIEW, ["--num-players", "3", "--help"])]


# ---------------------------------------------------------------- list


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for g in vecgames.list_games():
        assert g.name in out and g.gym_id in out and ", ".join(g.policies) in out
    assert "obs 'full' 232" in out and "actions 111" in out
    assert "sizes: obs = floats in one seat's observation" in out  # the legend of the sizes


def test_list_says_original_not_seed_for_the_original_rules(capsys):
    """'seed' is a random seed; the original documents are 'the original'. The only 'seed'
    left is the name of the original's observation layout (an option value users type)."""
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "the original's challenger" in out
    assert re.findall(r"seed\S*", out.replace("'seed'", "").replace("'seed1680'", "")) == []


def test_list_json(capsys):
    import json

    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in data] == [g.name for g in vecgames.list_games()]
    holdem = next(d for d in data if d["name"] == "holdem")
    assert holdem["rule_options"]["stack"] == 100 and "strength" in holdem["policies"]


def test_simulate_liars_dice_report(tmp_path, capsys):
    report = tmp_path / "ld.md"
    assert main(["simulate", "liars_dice", "--games", "500", "--report", str(report)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert "## Seats" in report.read_text(encoding="utf-8")
    assert (tmp_path / "ld_seats.csv").exists()


def test_every_game_with_a_report_writes_it():
    from vecgames.games.catalog import specs

    reports = {name for name, spec in specs().items() if spec.has("report")}
    assert reports >= {"zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai"}
    for name in reports:
        assert callable(specs()[name].load("report").write_report)


# ---------------------------------------------------------------- progress bars


def test_simulate_bar_only_on_a_terminal(monkeypatch, capsys):
    from test_registry import FakeTTY

    from vecgames.core import simulation

    monkeypatch.setattr(simulation, "PROGRESS_MIN_CHUNK", 100)
    monkeypatch.setattr(simulation, "PROGRESS_DELAY", 0.0)
    for tty in (True, False):
        err = FakeTTY(tty)
        monkeypatch.setattr("sys.stderr", err)
        assert main(["simulate", "hanabi", "--games", "1000", "--summary"]) == 0
        assert ("games/s" in err.text) == tty
        assert "mean" in capsys.readouterr().out


def test_progress_slices(monkeypatch):
    from test_registry import FakeTTY

    from vecgames.core import simulation

    monkeypatch.setattr(simulation, "PROGRESS_DELAY", 0.0)
    assert list(simulation.progress_slices(10, "pairs", False)) == [slice(0, 10)]
    err = FakeTTY(True)
    monkeypatch.setattr("sys.stderr", err)
    parts = list(simulation.progress_slices(10, "pairs", True, chunks=4))
    assert [(s.start, s.stop) for s in parts] == [(0, 2), (2, 5), (5, 7), (7, 10)]
    assert "pairs" in err.text


def test_simulate_help_points_to_the_players_command_which_lists_every_player(capsys):
    assert main(["simulate", "--help"]) == 0
    assert "vecgamesplayersGAME" in "".join(capsys.readouterr().out.split())
    for g in vecgames.list_games():
        assert main(["players", g.name]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert [line.split()[0] for line in lines] == list(g.policies)
        assert sum(line.endswith("(default)") for line in lines) == 1


def test_list_shows_one_game_when_asked(capsys):
    assert main(["list", "kuhn_poker"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kuhn_poker") and "leduc_poker" not in out


def test_preflop_counts_in_chunks_are_the_whole(monkeypatch):
    """What `preflop-matrix` does under its bar: count the hand pairs in slices."""
    import numpy as np
    from test_registry import FakeTTY

    from vecgames.core import simulation
    from vecgames.poker.preflop import count_boards

    pairs = np.array([[[51, 47], [50, 46]], [[0, 4], [8, 12]], [[51, 50], [3, 2]],
                      [[20, 24], [21, 25]], [[44, 40], [1, 5]]], np.int64)
    monkeypatch.setattr("sys.stderr", FakeTTY(True))
    chunks = [count_boards(pairs[s]) for s in simulation.progress_slices(5, "pairs", True, 3)]
    assert len(chunks) == 3
    np.testing.assert_array_equal(np.concatenate(chunks), count_boards(pairs))


def test_players_n_is_the_old_spelling_of_num_players(capsys):
    """`--players` names players in every subcommand; `--players N` (a number) still sets the
    seat count, with a note, for one release."""
    assert main(["simulate", "kuhn_poker", "--games", "50", "--players", "2"]) == 0
    captured = capsys.readouterr()
    assert "deprecated: use --num-players 2" in captured.err and "policy random" in captured.out
    assert main(["simulate", "leduc_poker", "--games", "50", "--players", "rule,random"]) == 0
    assert "policy rule,random" in capsys.readouterr().out
    assert main(["simulate", "leduc_poker", "--players", "rule", "--policy", "rule"]) == 2
    assert main(["simulate", "kuhn_poker", "--num-players", "2", "--players", "2"]) == 2
    assert "given twice" in capsys.readouterr().err
