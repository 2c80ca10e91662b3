"""Rollout workers on a Ray cluster: each actor holds a slice of the envs (global indices
``w * envs_per_worker ..``, together the one-machine batch) and a CPU copy of the policy,
loads the learner's weights every iteration and returns its rollout; the learner joins them
on its device. ``make_collector(worker)`` and ``make_net()`` must be picklable. A worker that
dies fails the iteration (restart from the last checkpoint)."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from vecgames.core.simulation import max_threads
from vecgames.core.validation import check_int
from vecgames.distributed import connect
from vecgames.torch_bridge import import_torch

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402


def concat_rollouts(parts: Sequence[Any], device: torch.device) -> Any:
    """Rollouts of consecutive env slices as one: every tensor field joined on its env axis
    (dim 1 of a time-major ``[T, B, ...]`` field, dim 0 of a ``[B]`` one; an optional field
    that is None stays None)."""
    first = parts[0]
    joined: dict[str, Any] = {}
    for f in dataclasses.fields(first):
        tensors = [getattr(p, f.name) for p in parts]
        if tensors[0] is None:
            joined[f.name] = None
            continue
        axis = 0 if tensors[0].dim() == 1 else 1
        joined[f.name] = torch.cat(tensors, dim=axis).to(device, non_blocking=True)
    return type(first)(**joined)


class RolloutActor:
    """One worker's envs and policy copy (run as a Ray actor; plain class for testing)."""

    def __init__(self, make_collector: Callable[[int], Any], make_net: Callable[[], Any],
                 worker: int, threads: int = 1):
        import numba

        numba.set_num_threads(min(threads, max_threads()))
        torch.set_num_threads(threads)
        self.collector = make_collector(worker)
        self.net = make_net()

    def collect(self, weights: dict[str, Any]) -> tuple[Any, list[Any]]:
        self.net.load_state_dict(weights)
        return self.collector.collect(self.net)


class RolloutWorkers:
    """``num_workers`` Ray actors collecting rollouts for one learner."""

    def __init__(self, make_collector: Callable[[int], Any], make_net: Callable[[], Any],
                 num_workers: int, address: str | None = None, cpus_per_worker: int = 1):
        check_int(num_workers, "num_workers", 1)
        check_int(cpus_per_worker, "cpus_per_worker", 1)
        self.ray = connect(address)
        actor = self.ray.remote(num_cpus=cpus_per_worker)(RolloutActor)
        self.actors = [actor.remote(make_collector, make_net, w, cpus_per_worker)
                       for w in range(num_workers)]

    def collect(self, net: Any, device: torch.device) -> tuple[Any, list[Any]]:
        """Every worker's rollout under ``net``'s current weights, joined on ``device``, and
        each worker's extras (e.g. its finished games' returns), in worker order."""
        weights = self.ray.put({k: v.detach().cpu() for k, v in net.state_dict().items()})
        results = self.ray.get([a.collect.remote(weights) for a in self.actors])
        rollouts = [rollout for rollout, _ in results]
        return concat_rollouts(rollouts, device), [extras for _, extras in results]

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []


def worker_generator(seed: int, worker: int) -> torch.Generator:
    """Rollout worker ``worker``'s own sampling stream (the same for the same seed)."""
    return torch.Generator().manual_seed(seed * 1_000_003 + worker + 1)


class RayCollector:
    """A trainer's ``cfg.workers`` Ray actors: worker w runs
    ``make_collector(cfg, cfg.envs // cfg.workers, w)`` with a CPU copy of
    ``make_net(obs_dim, num_actions, cfg.hidden)`` (sizes read off ``probe``, a one-env env of
    the run). Trainers subclass it with the ``collect`` that merges their workers' extras."""

    def __init__(self, cfg: Any, device: torch.device, probe: Any,
                 make_collector: Callable[..., Any], make_net: Callable[..., Any]):
        if cfg.envs % cfg.workers:
            raise ValueError(f"envs ({cfg.envs}) must be a multiple of workers ({cfg.workers})")
        self.cfg = cfg
        self.device = device
        self.obs_dim, self.num_actions = probe.obs_dim, probe.num_actions
        self.workers = RolloutWorkers(
            partial(make_collector, cfg, cfg.envs // cfg.workers),
            partial(make_net, self.obs_dim, self.num_actions, cfg.hidden), cfg.workers,
            address=cfg.ray_address)

    def close(self) -> None:
        self.workers.close()


def add_worker_arguments(p: argparse.ArgumentParser, default_workers: int) -> None:
    """The ``--workers`` / ``--address`` flags of every trainer."""
    p.add_argument("--workers", type=int, default=default_workers,
                   help="Ray rollout workers, each stepping envs/workers of the envs "
                        "(0: step them here; needs the ray extra)")
    p.add_argument("--address", default=None,
                   help="Ray cluster of the workers: auto, host:port (default: a local Ray)")


def check_worker_arguments(a: argparse.Namespace) -> None:
    """``--workers`` must be >= 0 and divide ``--envs``."""
    if a.workers < 0 or (a.workers and a.envs % a.workers):
        raise SystemExit(f"--workers must be >= 0 and divide --envs ({a.envs}), got {a.workers}")
