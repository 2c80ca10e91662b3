"""The Hold'em trainer: a tiny run scored by the arena against both default opponents; a
random player breaks even against random players; the mix seats exact-amount players."""

import json

import pytest
from usage_errors import usage_error

torch = pytest.importorskip("torch")


from vecgames.games.holdem import train as th  # noqa: E402
from vecgames.training import evaluation  # noqa: E402


def test_tiny_run_evaluates_against_both_opponents(tmp_path, capsys):
    out = tmp_path / "run"
    assert th.main(["--envs", "32", "--steps", "16", "--iterations", "2", "--eval-games", "96",
                    "--hidden", "16", "--out", str(out), "--no-progress", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert "random:" in printed and "call:" in printed
    record = json.loads((out / "eval.json").read_text())
    assert set(record["evals"]) == {"random", "call"}
    assert record["config"]["game"] == "holdem" and record["config"]["mix"] == "random=1,self=1"
    for r in record["evals"].values():
        assert r["games"] == 96 and r["ci95_low"] <= r["mean"] <= r["ci95_high"]
    assert "| call |" in (out / "eval.md").read_text()
    history = json.loads((out / "history.json").read_text())
    assert "vs_random" in history[0] and "vs_self" not in history[0]
    ckpt = torch.load(out / "final.pt", weights_only=True)
    assert ckpt["game"] == "holdem" and ckpt["env_options"] == {"num_players": 6}


def test_a_random_player_breaks_even_against_random_players():
    rec = evaluation.field_score("holdem", "random", "random", 3000, 5, {"num_players": 6})
    assert rec["games"] == 3000
    assert rec["ci95_low"] <= 0.0 <= rec["ci95_high"]


def test_mix_seats_players_that_bet_exact_amounts(tmp_path):
    """Hold'em's built-ins answer (kind, amount) pairs: their tables step by step_amounts, and
    the learner's discrete actions are converted beside them."""
    out = tmp_path / "run"
    assert th.main(["--players", "2", "--envs", "24", "--steps", "24", "--iterations", "2",
                    "--mix", "equity=1,raise=1,self=1", "--eval-games", "48",
                    "--eval-opponents", "equity", "--hidden", "16", "--out", str(out),
                    "--no-progress", "--seed", "1"]) == 0
    history = json.loads((out / "history.json").read_text())
    # raise never folds, so the learner's games against it end by showdown or its own fold
    assert {"vs_equity", "vs_raise"} <= set(history[-1])
    assert all(h["samples"] > 0 for h in history)
    with usage_error("shark"):
        th.TRAINER.parse(["--mix", "shark=1"], "p")
