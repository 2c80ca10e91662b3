"""``vecgames arena`` and the arena plot (``vecgames.analysis.arena_plot``); run in-process,
tiny matches that reuse the simulate kernels other tests compile."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import pandas as pd
import pytest

import vecgames.cli.arena as cli_arena
import vecgames.cli.simulate as cli_simulate
from vecgames.analysis.arena_plot import plot_arena
from vecgames.arena import ArenaResult
from vecgames.cli import main

pytest.importorskip("matplotlib")


def zero_sum_result() -> ArenaResult:
    pairs = [("a", "b", 1.5), ("b", "a", -1.5), ("a", "c", 0.25), ("c", "a", -0.25),
             ("b", "c", -0.5), ("c", "b", 0.5)]
    pairwise = pd.DataFrame([{"player": p, "opponent": o, "games": 100, "mean": m,
                              "ci_low": m - 0.3, "ci_high": m + 0.3, "unit": "chips"}
                             for p, o, m in pairs])
    ratings = pd.DataFrame({"player": ["a", "c", "b"], "rating": [40.0, 0.0, -40.0],
                            "sd": [5.0, 5.0, 5.0], "ci_low": [30.2, -9.8, -49.8],
                            "ci_high": [49.8, 9.8, -30.2], "games": [200, 200, 200]})
    matches = pd.DataFrame({"assignment": ["a,b"] * 2, "deal": [0, 1],
                            "payoff_a": [1.0, 2.0], "payoff_b": [-1.0, -2.0]})
    return ArenaResult("holdem", ("a", "b", "c"), 2, 100, 0, True, "chips", "deal", matches,
                       pairwise, ratings)


def hanabi_result() -> ArenaResult:
    selfplay = pd.DataFrame({"player": ["x", "y"], "games": [50, 50], "mean": [20.0, 3.0],
                             "ci_low": [19.0, 2.0], "ci_high": [21.0, 4.0],
                             "perfect_rate": [0.1, 0.0]})
    crossplay = pd.DataFrame({"player": ["x", "y"], "partner": ["y", "x"], "games": [50, 50],
                              "mean": [8.0, 8.0], "ci_low": [7.0, 7.0],
                              "ci_high": [9.0, 9.0]})
    matches = pd.DataFrame({"assignment": ["x,x"], "deal": [0], "payoff_x": [20.0]})
    return ArenaResult("hanabi", ("x", "y"), 2, 50, 0, False, "score", "game", matches,
                       selfplay=selfplay, crossplay=crossplay)


# ---------------------------------------------------------------- the plot


@pytest.mark.parametrize("make", [zero_sum_result, hanabi_result])
def test_plot_writes_a_png(tmp_path, make):
    path = plot_arena(make(), tmp_path / "arena.png")
    assert path == tmp_path / "arena.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_heat_map_holds_the_pairwise_means(tmp_path, monkeypatch):
    drawn: dict[str, Any] = {}
    monkeypatch.setattr("vecgames.analysis.arena_plot._heat_map",
                        lambda fig, ax, matrix, *rest: drawn.setdefault("matrix", matrix))
    plot_arena(zero_sum_result(), tmp_path / "arena.svg")
    matrix = drawn["matrix"]
    assert list(matrix.index) == ["a", "b", "c"] == list(matrix.columns)
    assert matrix.loc["a", "b"] == 1.5 and matrix.loc["c", "b"] == 0.5
    assert matrix.isna().to_numpy().diagonal().all()  # nobody plays itself here


def test_plot_hanabi_diagonal_is_self_play(tmp_path, monkeypatch):
    drawn: dict[str, Any] = {}
    monkeypatch.setattr("vecgames.analysis.arena_plot._heat_map",
                        lambda fig, ax, matrix, *rest: drawn.setdefault("matrix", matrix))
    plot_arena(hanabi_result(), tmp_path / "arena.png")
    assert drawn["matrix"].to_numpy().tolist() == [[20.0, 8.0], [8.0, 3.0]]


@pytest.mark.parametrize("change, error, words", [
    ({"ratings": None}, TypeError, "result.ratings"),
    ({"pairwise": pd.DataFrame({"player": ["a"]})}, ValueError, "missing columns"),
])
def test_plot_bad_result_writes_nothing(tmp_path, change, error, words):
    bad = dataclasses.replace(zero_sum_result(), **change)
    with pytest.raises(error, match=words):
        plot_arena(bad, tmp_path / "arena.png")
    assert not list(tmp_path.iterdir())


def test_plot_refuses_other_objects_and_missing_folders(tmp_path):
    with pytest.raises(TypeError, match="vecgames.arena result"):
        plot_arena(pd.DataFrame(), tmp_path / "arena.png")
    with pytest.raises(ValueError, match="does not exist"):
        plot_arena(zero_sum_result(), tmp_path / "nope" / "arena.png")


# ---------------------------------------------------------------- the command


def test_arena_command_prints_tables_and_writes_files(tmp_path, capsys):
    plot, folder = tmp_path / "arena.png", tmp_path / "tables"
    rc = main(["arena", "holdem", "--players", "random,call,strength", "--games", "200",
               "--rule", "num_players=2", "--seed", "3", "--plot", str(plot),
               "--csv", str(folder)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "pairwise" in out and "ratings" in out and "games/s" in out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    pairwise = pd.read_csv(folder / "pairwise.csv")
    assert set(pairwise["player"]) == {"random", "call", "strength"}
    assert (folder / "ratings.csv").exists() and (folder / "matches.csv").exists()


def test_arena_command_hanabi_self_and_cross_play(capsys):
    rc = main(["arena", "hanabi", "--players", "random,rules", "--games", "50"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "self-play" in out and "cross-play" in out


def test_arena_command_hanabi_one_player_self_play_only(tmp_path, capsys):
    plot = tmp_path / "selfplay.png"
    rc = main(["arena", "hanabi", "--players", "rules", "--games", "20", "--plot", str(plot)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "self-play" in out and "cross-play" not in out and plot.exists()


def test_arena_command_markdown(capsys):
    rc = main(["arena", "liars_dice", "--players", "random,heuristic", "--games", "50",
               "--markdown"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "### pairwise" in out and "| player | opponent |" in out and "### ratings" in out


@pytest.mark.parametrize("argv, words", [
    (["--players", "random,nobody"], "nobody"),
    (["--players", "random,call", "--games", "0"], "--games"),
    (["--players", "random,call", "--rule", "colour=red"], "unknown rule option 'colour'"),
    (["--players", "random,call", "--shards", "2"], "--shards: needs --backend ray"),
    (["--players", "random,call", "--plot", "/no/such/folder/a.png"], "--plot"),
])
def test_arena_command_errors_one_line_exit_2(argv, words, capsys, monkeypatch):
    ran = []
    monkeypatch.setattr(cli_arena, "_print_arena", lambda result, markdown: ran.append(result))
    rc = main(["arena", "holdem", *argv])
    err = capsys.readouterr().err
    assert rc == 2 and not ran
    assert err.startswith("vecgames: error: ") and err.count("\n") == 1 and words in err


def test_arena_command_passes_ray_and_rules(monkeypatch, capsys):
    pytest.importorskip("ray")
    seen: dict[str, Any] = {}

    def fake_arena(game, players, num_games=None, seed=0, **kwargs):
        seen.update(game=game, players=players, num_games=num_games, seed=seed, **kwargs)
        raise ValueError("stop here")

    monkeypatch.setattr(sys.modules["vecgames.arena"], "arena", fake_arena)
    rc = main(["arena", "holdem", "--players", "random, call", "--games", "7", "--seed", "5",
               "--no-duplicate", "--rule", "num_players=3", "--backend", "ray", "--shards", "2"])
    assert rc == 2 and "stop here" in capsys.readouterr().err
    assert seen == {"game": "holdem", "players": ["random", "call"], "num_games": None,
                    "total_games": 7, "seed": 5, "duplicate": False, "progress": None,
                    "minutes": None,
                    "num_players": 3, "backend": "ray", "address": None, "num_shards": 2,
                    "cpus_per_shard": 1}


def test_games_is_a_total_and_per_assignment_the_exhaustive_schedule(capsys):
    """``--games N``: about N games in all over a balanced schedule; ``--per-assignment N``:
    every seat assignment N games; both at once is a usage error."""
    assert main(["arena", "zhajinhua", "--players", "random,heuristic,percentile",
                 "--games", "2000"]) == 0
    out = capsys.readouterr().out
    assert "18 seat assignments x 111 games" in out and "played 1,998 games" in out
    assert main(["arena", "zhajinhua", "--players", "random,heuristic", "--num-players", "3",
                 "--per-assignment", "20"]) == 0
    assert "6 seat assignments x 20 games" in capsys.readouterr().out
    assert main(["arena", "zhajinhua", "--players", "random,heuristic", "--games", "10",
                 "--per-assignment", "20"]) == 2
    assert "--per-assignment: not allowed with --games" in capsys.readouterr().err
    assert main(["arena", "zhajinhua", "--players", "random,heuristic", "--num-players", "3",
                 "--per-assignment", "400", "--minutes", "0.000001"]) == 0
    captured = capsys.readouterr()
    assert "note: stopped after --minutes 1e-06: 20 games per seat assignment" in captured.err
    assert "6 seat assignments x 20 games" in captured.out
    assert main(["arena", "zhajinhua", "--players", "random,heuristic", "--minutes", "0"]) == 2
    assert "argument --minutes" in capsys.readouterr().err


def test_arena_csv_folder_checked_before_the_run(tmp_path, capsys):
    afile = tmp_path / "taken"
    afile.write_text("x")
    assert main(["arena", "holdem", "--players", "random,call", "--csv", str(afile)]) == 2
    assert "is a file" in capsys.readouterr().err


# ---------------------------------------------------------------- simulate --policy


@pytest.mark.parametrize("text, spec", [
    ("random,call", ["random", "call"]),
    ("call", "call"),
    ("random,ckpt/model.pt", ["random", "ckpt/model.pt"]),
    ("model.pt", "model.pt"),
])
def test_simulate_policy_goes_to_players(text, spec):
    """Built-in names and checkpoint paths alike are ``players=`` (built-in names only still
    run in the kernels)."""
    assert cli_simulate._policy(text) == spec


def test_checkpoint_players_on_the_command_line(tmp_path, capsys):
    """A checkpoint path plays in `simulate --policy` and in the arena; another game's
    checkpoint is refused before any game (a tiny untrained Liar's Dice network)."""
    torch = pytest.importorskip("torch")
    from dataclasses import asdict

    import vecgames
    from vecgames.games.liars_dice import train as liars_dice
    from vecgames.policies.nets import make_qnet
    from vecgames.training import runs

    cfg = liars_dice.Config(hidden=8, layers=1, head="combined")
    env = vecgames.make("liars_dice", **cfg.env_options())
    net = make_qnet("combined", env.obs_dim, env.num_actions, 8, 1)
    path = tmp_path / "tiny.pt"
    runs.save_checkpoint(path, {  # what the trainer's loop writes
        "model": net.state_dict(),
        "optimizer": torch.optim.SGD(net.parameters(), lr=0.1).state_dict(),
        "config": asdict(cfg), "game": "liars_dice",
        "env_options": liars_dice.TRAINER.env_options(cfg), "iteration": 1,
        "obs_dim": env.obs_dim, "num_actions": env.num_actions})
    assert main(["simulate", "liars_dice", "--games", "20", "--policy", f"random,{path}"]) == 0
    assert "20 matches" in capsys.readouterr().out
    assert main(["arena", "liars_dice", "--players", f"heuristic,{path}", "--games", "10"]) == 0
    assert "heuristic, tiny at 2 seats" in capsys.readouterr().out
    assert main(["arena", "holdem", "--players", f"random,{path}", "--games", "10"]) == 2
    assert "plays liars_dice, not holdem" in capsys.readouterr().err


@pytest.mark.parametrize("game, players, rules", [
    ("hanabi", "rules,random", []),  # the deck is drawn as the game goes
    ("liars_dice", "random,heuristic", ["--rule", "num_rounds=3"]),  # each round's new roll
    ("holdem", "random,call", ["--rule", "num_players=2"])])
def test_arena_replays_play_back_the_arena_games(tmp_path, capsys, game, players, rules):
    """``--replays DIR``: the first game of every seat assignment as a replay file, which
    plays back to the arena's payoffs also where a player drew from the game's stream (a
    ``random`` seat) and the game draws its later cards or dice from it."""
    from vecgames.arena.replay import (
        apply_action,
        draws_of,
        load_replay,
        replay_action,
        replay_env,
        seek,
    )

    assert main(["arena", game, "--players", players, "--games", "3", *rules,
                 "--replays", str(tmp_path / "r")]) == 0
    files = sorted((tmp_path / "r").glob("*.json"))
    assert len(files) == (4 if game == "hanabi" else 2)
    assert f"wrote {len(files)} replays" in capsys.readouterr().out
    drew = 0
    for path in files:
        replay = load_replay(path)
        env = replay_env(game, replay["options"], replay["seed"], replay["deal"])
        draws, total = draws_of(replay), 0.0
        for move, action in enumerate(replay["actions"]):
            seek(env, draws, move)
            total += apply_action(env, replay_action(action))[1][0].sum()
        drew += len(draws)
        assert total == pytest.approx(sum(replay["rewards"]))
    assert drew > 0  # random seats drew: the draws are what makes the play-back exact
