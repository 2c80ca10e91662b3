"""The Hold'em trainer: a tiny run writes both evaluations; the baselines are fair."""

import json

import pytest

torch = pytest.importorskip("torch")

from vecgames.training import holdem as th  # noqa: E402
from vecgames.training import zhajinhua as tz  # noqa: E402

CPU = torch.device("cpu")


def test_tiny_run_evaluates_against_both_baselines(tmp_path, capsys):
    out = tmp_path / "run"
    assert th.main(["--envs", "32", "--steps", "16", "--iterations", "2", "--eval-games", "96",
                    "--out", str(out), "--no-progress", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert "vs random" in printed and "vs call" in printed
    record = json.loads((out / "eval.json").read_text())
    assert set(record["evals"]) == {"random", "call"}
    assert record["config"]["game"] == "holdem" and record["config"]["random_opponents"] == 0.5
    assert "'call' baseline" in (out / "eval.md").read_text()


def test_a_random_player_breaks_even_against_random_players(tmp_path):
    cfg = tz.Config(game="holdem", players=6, eval_games=3000, eval_envs=500,
                    out=str(tmp_path / "r"), progress=False)
    net = tz.PolicyNet(222, 7, 16)
    rec = tz.evaluate(net, cfg, CPU, policy="random", opponents="random")
    assert rec["games"] == 3000
    assert rec["ci95_low"] - 3 * rec["std_err"] < 0.0 < rec["ci95_high"] + 3 * rec["std_err"]


def test_call_baseline_only_folds_or_calls():
    mask = torch.tensor([[True, True, True], [False, True, True]])
    logits = tz.baseline_logits("call", mask)
    assert torch.isinf(logits[:, 2]).all() and torch.isinf(logits[1, 0])
    assert logits[0, 0] == 0 and logits[0, 1] == 0
    with pytest.raises(ValueError, match="unknown baseline"):
        tz.baseline_logits("shark", mask)
