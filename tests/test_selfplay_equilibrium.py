"""The tabular self-play learners (``vecgames.solve.sampled``: external- and outcome-sampling
MCCFR): they approach the known equilibrium of Kuhn poker and a Liar's Dice variant, a seed
gives the same strategy again, bad input is refused; the strategy files they write load as
players of the env; the training command writes its runs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import vecgames
from vecgames.games.kuhn_poker.tree import public_tree as kuhn_tree
from vecgames.games.liars_dice.solver_strategy import (
    StrategyPlayer,
    load_strategy,
    load_strategy_player,
    save_strategy,
)
from vecgames.games.liars_dice.tree import build_tree, deal_matrix, make_variant
from vecgames.solve import exploitability, solve
from vecgames.solve.sampled import learn

KUHN_VALUE = -1.0 / 18.0


@pytest.mark.parametrize("method, steps, bound", [("external", 400_000, 0.01),
                                                  ("outcome", 1_000_000, 0.03)])
def test_kuhn_poker_is_learned_to_its_known_value(method, steps, bound):
    tree = kuhn_tree()
    r = learn(tree, tree.matrices[0], steps, method=method, checks=4)
    assert r.exploitability < bound
    assert r.exploitability == pytest.approx(exploitability(tree, r.strategy))
    assert abs(r.value - KUHN_VALUE) < 2 * bound
    assert r.env_steps >= steps and r.episodes > 0 and r.trace[-1] == (r.env_steps,
                                                                       r.exploitability)
    assert [s for s, _ in r.trace] == sorted({s for s, _ in r.trace})  # one check per step


def test_liars_dice_one_die_each_falls_below_its_target_and_repeats_by_seed():
    v = make_variant(1)
    tree = build_tree(v)
    a = learn(tree, deal_matrix(v), 3_000_000, seed=4, checks=3)
    again = learn(tree, deal_matrix(v), 3_000_000, seed=4, checks=3)
    other = learn(tree, deal_matrix(v), 3_000_000, seed=5, checks=3)
    assert np.array_equal(a.strategy, again.strategy) and a.trace == again.trace
    assert not np.array_equal(a.strategy, other.strategy)
    assert a.trace[0][1] > a.trace[-1][1] and a.exploitability < 0.1
    exact = solve(tree, iterations=500, target=1e-3, check_every=25)
    assert abs(a.value - exact.value) < a.exploitability + 1e-3  # within the gap


def test_bad_input_is_refused():
    tree = kuhn_tree()
    deal = tree.matrices[0]
    with pytest.raises(ValueError, match="method"):
        learn(tree, deal, 10, method="full")
    with pytest.raises(ValueError, match="epsilon"):
        learn(tree, deal, 10, method="outcome", epsilon=0.0)
    with pytest.raises(ValueError, match="shape"):
        learn(tree, np.ones((2, 2)) / 4, 10)
    with pytest.raises(ValueError, match="summing to 1"):
        learn(tree, deal * 2, 10)
    with pytest.raises(TypeError, match="deal"):
        learn(tree, deal.tolist(), 10)
    with pytest.raises(ValueError, match="env_steps"):
        learn(tree, deal, 0)


def test_a_saved_strategy_loads_as_a_player_of_the_env(tmp_path):
    v = make_variant(1)
    tree = build_tree(v)
    sol = solve(tree, iterations=200, target=2e-3, check_every=25)
    path = save_strategy(tmp_path / "eq.npz", v, sol.strategy)
    v2, tree2, strategy = load_strategy(path)
    assert v2 == v and tree2.num_nodes == tree.num_nodes
    assert np.abs(strategy - sol.strategy).max() < 1e-3  # float16 on disk
    assert exploitability(tree, strategy) < sol.exploitability + 1e-3
    player = vecgames.load_player(path)  # a strategy file is a player like a checkpoint
    assert isinstance(player, StrategyPlayer) and not player.greedy
    df = vecgames.simulate("liars_dice", 200, players=[player, "heuristic"], seed=3,
                           **{k: x for k, x in player.env_options.items()
                              if k != "observation"})
    assert len(df) == 200
    judged = vecgames.exploitability("liars_dice", player, dice=1)
    assert judged.exploitability == pytest.approx(exploitability(tree, strategy), abs=1e-9)
    greedy = load_strategy_player(path, greedy=True)
    obs, mask = np.zeros((0, player.obs_dim), np.float32), np.zeros((0, player.num_actions), bool)
    assert greedy(obs, mask).shape == (0,)
    (tmp_path / "other.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="strategy"):
        load_strategy(tmp_path / "other.npz")
    np.savez(tmp_path / "plain.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="not a vecgames strategy"):
        load_strategy(tmp_path / "plain.npz")


def test_the_training_command_writes_strategies_trace_plot_and_summary(tmp_path, capsys):
    from vecgames.cli import main

    out = tmp_path / "run"
    assert main(["train", "liars_dice", "--algo", "es-mccfr", "--dice", "2,1",
                 "--env-steps", "2e5", "--seeds", "0,1", "--checks", "3",
                 "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seeds"] == [0, 1] and len(summary["runs"]) == 2
    assert summary["command"].startswith("vecgames train liars_dice --algo es-mccfr")
    assert summary["variant"].startswith("2 vs 1 dice")
    for seed in (0, 1):
        v, _, _ = load_strategy(out / f"seed{seed}.npz")
        assert v.dice == (2, 1)
    lines = (out / "trace.csv").read_text().splitlines()
    assert lines[0] == "seed,env_steps,exploitability" and len(lines) >= 3
    assert "exploitability" in capsys.readouterr().out
    for bad in (["--dice", "1,2,3"], ["--env-steps", "1.5"], ["--seeds", "0,0"],
                ["--dice", "5,5"], ["--epsilon", "0"], ["--min-first-count", "0"]):
        assert main(["train", "liars_dice", "--algo", "es-mccfr", *bad, "--out",
                     str(tmp_path / "bad")]) == 2  # a usage error, said, nothing written
        assert "error" in capsys.readouterr().err and not (tmp_path / "bad").exists()
