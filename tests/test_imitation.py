"""Imitation of a built-in teacher (DAgger) in the Hanabi trainer: labels are the teacher's own
moves, a teacher's memory survives only where its move is played, the imitation loss learns
the labels, and a run switches from imitation to PPO."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.games.hanabi import train as th  # noqa: E402
from vecgames.policies.builtin import BuiltinPlayer  # noqa: E402
from vecgames.policies.nets import ActorCritic  # noqa: E402
from vecgames.training import core, imitation, ppo  # noqa: E402

CPU = torch.device("cpu")


def _collector(beta_envs: int = 16, steps: int = 40) -> ppo.TeamCollector:
    cfg = th.Config(envs=beta_envs, steps=steps, hidden=16, iterations=1)
    col = ppo.TeamCollector(cfg, CPU, torch.Generator().manual_seed(0))
    col.teacher = imitation.Teacher("hanabi", "conventions")
    return col


def test_with_beta_one_the_rollout_is_the_teachers_own_self_play():
    """beta = 1: every env plays the teacher's label, so the games are the teacher's
    self-play: the same moves as ``conventions`` acting on a twin env, memory included."""
    col = _collector()
    twin = vecgames.make("hanabi", num_envs=16, seed=0, num_players=2, obs="jaxmarl",
                         observers="current")
    twin.reset()
    teacher = BuiltinPlayer("hanabi", "conventions")
    rows = np.arange(16, dtype=np.int64)
    ro, _ = col.collect(ActorCritic(col.obs_dim, col.num_actions, 16), beta=1.0)
    for t in range(ro.action.shape[0]):
        want = teacher.act_env(twin, rows)
        np.testing.assert_array_equal(ro.teacher[t].numpy(), want)
        np.testing.assert_array_equal(ro.action[t].numpy(), want)
        twin.step(want)
    np.testing.assert_array_equal(col.env.state.memo, twin.state.memo)
    np.testing.assert_array_equal(col.env.state.table, twin.state.table)


def test_the_teachers_memory_is_undone_where_its_move_is_not_played():
    env = vecgames.make("hanabi", num_envs=64, seed=3, num_players=2, obs="jaxmarl",
                        observers="current")
    env.reset()
    teacher = imitation.Teacher("hanabi", "conventions")
    before = env.state.memo.copy()
    labels = teacher.label(env)
    written = np.any(env.state.memo != before, axis=(1, 2))
    assert written.any()  # its first clues wrote what they mean
    played = labels.copy()
    other = np.arange(64) % 2 == 1
    played[other] = np.where(labels[other] == 0, 1, 0)
    teacher.settle(env, played)
    np.testing.assert_array_equal(env.state.memo[other], before[other])
    assert np.any(env.state.memo[~other] != before[~other])


def test_imitation_update_learns_the_labels():
    """Updates on one rollout raise the network's agreement with the teacher's labels."""
    col = _collector(steps=64)
    torch.manual_seed(0)
    cfg = th.Config(envs=16, steps=64, hidden=64, epochs=4, minibatches=4, lr=3e-3)
    net = ActorCritic(col.obs_dim, col.num_actions, 64)
    ro, _ = col.collect(net, beta=1.0)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    gen = torch.Generator().manual_seed(1)
    first = imitation.imitation_update(net, opt, ro, cfg, gen)
    for _ in range(10):
        last = imitation.imitation_update(net, opt, ro, cfg, gen)
    assert set(first) == {"loss", "imitation_loss", "value_loss", "entropy", "agreement"}
    assert all(np.isfinite(v) for v in last.values())
    assert last["imitation_loss"] < 0.5 * first["imitation_loss"]
    assert last["agreement"] > 0.8 > first["agreement"]


def test_beta_falls_to_zero_at_half_the_imitation():
    assert imitation.beta_at(1, 10) == 1.0
    assert imitation.beta_at(6, 10) == 0.0 and imitation.beta_at(9, 10) == 0.0
    assert 0.0 < imitation.beta_at(3, 10) < 1.0
    assert imitation.beta_at(1, 0) == 0.0


def test_a_run_imitates_then_trains_with_ppo_and_resumes(tmp_path):
    argv = ["--teacher", "conventions", "--clone-iterations", "2", "--iterations", "3",
            "--envs", "8", "--steps", "8", "--hidden", "16", "--eval-games", "60",
            "--partners", "conventions", "--eval-opponents", "rules", "--no-progress",
            "--checkpoint-every", "1", "--out", str(tmp_path / "run")]
    cfg, command = th.TRAINER.parse(argv, "p"), " ".join(argv)
    result = core.train(th.TRAINER, cfg, command)
    history = json.loads((tmp_path / "run" / "history.json").read_text())
    assert [("agreement" in h, "approx_kl" in h) for h in history] == [
        (True, False), (True, False), (False, True)]
    assert history[0]["beta"] == 1.0
    assert result["train"]["env_steps"] == 3 * 8 * 8
    assert set(result["evals"]) == {"greedy", "sampled", "rules", "greedy with conventions"}
    again = th.TRAINER.parse(argv + ["--iterations", "4", "--resume"], "p")
    resumed = core.train(th.TRAINER, again, command)
    assert resumed["train"]["iterations"] == 4


@pytest.mark.parametrize("argv", [
    ["--teacher", "random"], ["--teacher", "search"], ["--clone-iterations", "3"],
    ["--teacher", "conventions", "--clone-iterations", "-1"],
    ["--teacher", "conventions", "--workers", "2"], ["--partners", "nobody"]])
def test_bad_imitation_options_are_refused(argv):
    with pytest.raises(SystemExit):
        th.TRAINER.parse(argv, "p")
