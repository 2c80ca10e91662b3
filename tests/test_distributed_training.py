"""Ray workers that compile and train: fresh workers sharing one Numba cache, and the
trainers' rollout workers (their slices of the envs joined equal the one-machine envs). Apart
from tests/test_distributed.py so that the two files run on two test workers side by side."""

from __future__ import annotations

import pytest

from vecgames.api import simulation_module
from vecgames.core.simulation import merge_outputs

ray = pytest.importorskip("ray")
from test_distributed import assert_same  # noqa: E402

from vecgames.distributed import run_sharded  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_workers_compile_into_one_shared_cache_dir(cluster, tmp_path):
    """Fresh workers with an empty shared NUMBA_CACHE_DIR compile side by side and agree."""
    module = simulation_module("kuhn_poker")  # the smallest kernels: compiled in seconds
    job = module.plan(2_000, seed=1, summary=True)
    shards = job.split(2)
    outputs = run_sharded(module.run, shards, sizes=[1_000, 1_000], progress=False,
                          env_vars={"NUMBA_CACHE_DIR": str(tmp_path)})
    assert any(p.suffix == ".nbi" for p in tmp_path.rglob("*"))
    assert_same(module.frame(job, module.run(job)), module.frame(job, merge_outputs(outputs)))


def test_rollout_workers_hold_the_one_machine_envs(cluster, tmp_path):
    """Two rollout workers' slices, joined, start from the one-machine envs, seats and
    opponents; a short training run through them checkpoints and evaluates."""
    torch = pytest.importorskip("torch")
    from vecgames.games.zhajinhua import train as tz
    from vecgames.policies.nets import PolicyNet
    from vecgames.training import core, pg

    cfg = tz.Config(players=3, envs=8, steps=6, iterations=2, seed=4, out=str(tmp_path),
                    eval_games=40, mix="random=1,self=1", progress=False, checkpoint_every=0,
                    workers=2, hidden=16)
    cpu = torch.device("cpu")
    local = pg.Collector(cfg, cpu, torch.Generator().manual_seed(0))
    net = PolicyNet(local.obs_dim, local.num_actions, cfg.hidden)
    remote = pg.RayCollector(cfg, cpu)
    try:
        ro_local, _ = local.collect(net)
        ro_remote, _ = remote.collect(net)
    finally:
        remote.close()
    assert ro_remote.obs.shape == ro_local.obs.shape
    for name in ("obs", "mask", "player", "learner"):
        torch.testing.assert_close(getattr(ro_remote, name)[0], getattr(ro_local, name)[0])
    result = core.train(tz.TRAINER, cfg)
    assert result["train"]["iterations"] == 2 and (tmp_path / "final.pt").exists()


def test_dayaoguai_rollout_workers(cluster, tmp_path):
    """Da Yaoguai's kernel-played tables through two workers: the same tables of each kind,
    the same first step; a short run trains through them."""
    torch = pytest.importorskip("torch")
    from vecgames.games.dayaoguai import train as dy
    from vecgames.policies.nets import PolicyNet
    from vecgames.training import core, pg

    cfg = dy.Config(players=4, envs=8, steps=5, iterations=2, seed=2, out=str(tmp_path),
                    eval_games=8, progress=False, checkpoint_every=0, hidden=16,
                    max_steps=200, mix="self=1,random=1,weakest=1,pickup=1", workers=2)
    cpu = torch.device("cpu")
    local = pg.Collector(cfg, cpu, torch.Generator().manual_seed(0))
    net = PolicyNet(local.obs_dim, local.num_actions, cfg.hidden)
    remote = pg.RayCollector(cfg, cpu)
    try:
        ro_local, curve = local.collect(net)
        ro_remote, curve_r = remote.collect(net)
    finally:
        remote.close()
    assert curve_r.shape == curve.shape == (2, 4)
    for name in ("obs", "mask", "player", "learner"):
        torch.testing.assert_close(getattr(ro_remote, name)[0], getattr(ro_local, name)[0])
    result = core.train(dy.TRAINER, cfg)
    assert result["train"]["iterations"] == 2 and (tmp_path / "final.pt").exists()


def test_hanabi_rollout_workers(cluster, tmp_path):
    """Hanabi's team collector through two workers: the same first step, the bootstrap value
    of every env, the finished games' figures; a short run trains through them."""
    torch = pytest.importorskip("torch")
    from vecgames.games.hanabi import train as th
    from vecgames.policies.nets import ActorCritic
    from vecgames.training import core, ppo

    cfg = th.Config(players=2, envs=8, steps=6, iterations=2, seed=3, out=str(tmp_path),
                    hidden=32, eval_games=8, progress=False, checkpoint_every=0,
                    minibatches=2, workers=2)
    cpu = torch.device("cpu")
    local = ppo.TeamCollector(cfg, cpu, torch.Generator().manual_seed(0))
    net = ActorCritic(local.obs_dim, local.num_actions, cfg.hidden)
    remote = ppo.RayCollector(cfg, cpu)
    try:
        ro_local, _ = local.collect(net)
        ro_remote, figures = remote.collect(net)
    finally:
        remote.close()
    assert ro_remote.last_value.shape == (8,) and figures.shape[0] == 2
    assert figures.shape[1] == int(ro_remote.done.sum())
    for name in ("obs", "mask"):
        torch.testing.assert_close(getattr(ro_remote, name)[0], getattr(ro_local, name)[0])
    result = core.train(th.TRAINER, cfg)
    assert result["train"]["iterations"] == 2 and (tmp_path / "final.pt").exists()
