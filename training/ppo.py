"""PPO with action masks for a team that shares its reward (Hanabi), as JaxMARL's
``ippo_ff_hanabi``: one actor-critic at every seat; the env is one single-agent MDP seen
through the acting seat's eyes, so GAE runs over env steps, cut where a game ends.
:func:`ppo_update` is every trainer's PPO step loop: ``pg``'s ``--algo ppo`` runs it too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from vecgames.policies.nets import ActorCritic
from vecgames.torch_bridge import TorchBridge, import_torch

from . import core, ray_rollouts, runs

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402
from torch import nn  # noqa: E402


def clipped_surrogate(log_ratio: torch.Tensor, adv: torch.Tensor, clip: float) -> torch.Tensor:
    """PPO's loss: -mean(min(r A, clip(r, 1 - eps, 1 + eps) A)), r = exp(log_ratio)."""
    ratio = log_ratio.exp()
    return -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()


def masked_entropy(logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy per row over the legal actions (log-probabilities -inf elsewhere; nan-safe)."""
    lp = logp.masked_fill(~mask, 0.0)
    return -(lp.exp() * lp).sum(-1)


def gae(reward: torch.Tensor, value: torch.Tensor, done: torch.Tensor, last_value: torch.Tensor,
        gamma: float = 0.99, lam: float = 0.95) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimates and value targets, time-major ``[T, B]``.

    ``done[t]``: the game ended with step t (the env already dealt the next game): step t's
    TD error has no bootstrap term and the advantage does not run on into later steps.
    ``last_value`` [B] is the value after the last step (an unfinished game's bootstrap).
    """
    adv = torch.empty_like(reward)
    running = torch.zeros_like(last_value)
    next_value = last_value
    for t in range(reward.shape[0] - 1, -1, -1):
        live = 1.0 - done[t].to(reward.dtype)
        delta = reward[t] + gamma * next_value * live - value[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
        next_value = value[t]
    return adv, adv + value


@dataclass
class Rollout:
    """T steps of B envs, time-major; one transition of the seat to act per env step."""

    obs: torch.Tensor  # float32 [T, B, D]
    mask: torch.Tensor  # bool [T, B, A]
    action: torch.Tensor  # int64 [T, B]
    logp: torch.Tensor  # float32 [T, B]: log pi_old(action)
    value: torch.Tensor  # float32 [T, B]
    reward: torch.Tensor  # float32 [T, B]: the team's reward of that step
    done: torch.Tensor  # bool [T, B]
    last_value: torch.Tensor  # float32 [B]
    teacher: torch.Tensor | None = None  # int64 [T, B]: a teacher's labels (imitation)


class TeamCollector:
    """Steps the envs with the current policy at every seat. ``env_offset``/``num_envs``:
    this collector holds envs ``env_offset ..`` of the run's ``cfg.envs``. ``track(env,
    action, reward, done)`` (a game's own bookkeeping) is called before every step with the
    step's action and after it returns per-env figures of the games that ended. A
    ``teacher`` (``imitation.Teacher``) labels every step; with probability ``beta`` an env
    plays its label instead of the policy's action."""

    teacher: Any = None

    def __init__(self, cfg: Any, device: torch.device, generator: torch.Generator,
                 env_offset: int = 0, num_envs: int | None = None):
        self.cfg, self.device, self.gen = cfg, device, generator
        self.num_envs = cfg.envs if num_envs is None else num_envs
        self.env = cfg.make_env(self.num_envs, env_offset)
        self.view = cfg.view()  # an observation of its own (a ConventionView), or None
        self.obs_dim = self.env.obs_dim if self.view is None else self.view.dim
        self.num_actions = self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)

    def restart(self, streams: torch.Tensor | None) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.obs = self._viewed(self.obs)
        self.mask = info["action_mask"]
        self.tracker = self.cfg.tracker(self.env, self.device)

    @torch.no_grad()
    def collect(self, net: ActorCritic, beta: float = 0.0) -> tuple[Rollout, torch.Tensor]:
        """One rollout; also the tracker's figures [k, games] of the games it finished."""
        t_max, b, env, dev = self.cfg.steps, self.num_envs, self.env, self.device
        ro = Rollout(
            obs=torch.empty((t_max, b, self.obs_dim), device=dev),
            mask=torch.empty((t_max, b, env.num_actions), dtype=torch.bool, device=dev),
            action=torch.empty((t_max, b), dtype=torch.int64, device=dev),
            logp=torch.empty((t_max, b), device=dev), value=torch.empty((t_max, b), device=dev),
            reward=torch.empty((t_max, b), device=dev),
            done=torch.empty((t_max, b), dtype=torch.bool, device=dev),
            last_value=torch.empty(b, device=dev))
        if self.teacher is not None:
            ro.teacher = torch.empty((t_max, b), dtype=torch.int64, device=dev)
        figures = []
        for t in range(t_max):
            logits, value = net(self.obs, self.mask)
            probs = torch.softmax(logits, -1)
            action = torch.multinomial(probs, 1, generator=self.gen).squeeze(-1)
            if ro.teacher is not None:
                ro.teacher[t] = torch.from_numpy(self.teacher.label(env)).to(dev)
                if beta > 0.0:
                    taught = torch.rand(b, generator=self.gen, device=self.gen.device) < beta
                    action = torch.where(taught.to(dev), ro.teacher[t], action)
            if ro.teacher is not None or self.view is not None:
                chosen = action.cpu().numpy()
                if ro.teacher is not None:
                    self.teacher.settle(env, chosen)
                if self.view is not None:  # the learner's own clues: what they mean
                    own = (np.flatnonzero(chosen != ro.teacher[t].cpu().numpy())
                           if ro.teacher is not None else np.arange(b))
                    self.view.record(env, own, chosen[own])
            ro.obs[t].copy_(self.obs)  # the bridge's tensors are overwritten by the next step
            ro.mask[t].copy_(self.mask)
            ro.action[t] = action
            ro.logp[t] = torch.log_softmax(logits, -1).gather(1, action[:, None]).squeeze(1)
            ro.value[t] = value
            self.tracker.before(action)
            self.obs, reward, terminated, truncated, info = self.bridge.step(action)
            self.obs = self._viewed(self.obs)
            self.mask = info["action_mask"]
            ro.reward[t] = reward[:, 0]  # shared: every seat gets the same
            ro.done[t] = terminated | truncated
            figures.append(self.tracker.after(ro.reward[t], ro.done[t])[:, ro.done[t]])
        ro.last_value.copy_(net(self.obs, self.mask)[1])
        return ro, torch.cat(figures, 1)


    def _viewed(self, obs: torch.Tensor) -> torch.Tensor:
        """The env's observation, or the view's of the same envs."""
        if self.view is None:
            return obs
        return torch.from_numpy(self.view.observe(self.env)).to(self.device)


def worker_collector(cfg: Any, envs_per_worker: int, worker: int) -> TeamCollector:
    return TeamCollector(cfg, torch.device("cpu"),
                         ray_rollouts.worker_generator(cfg.seed, worker),
                         env_offset=worker * envs_per_worker, num_envs=envs_per_worker)


class RayCollector(ray_rollouts.RayCollector):
    """``cfg.workers`` Ray actors, each stepping ``cfg.envs / cfg.workers`` of the envs."""

    def __init__(self, cfg: Any, device: torch.device):
        super().__init__(cfg, device, cfg.make_env(1, 0), worker_collector, ActorCritic)

    def collect(self, net: ActorCritic) -> tuple[Rollout, torch.Tensor]:
        ro, parts = self.workers.collect(net, self.device)
        return ro, torch.cat([p.to(self.device) for p in parts], 1)


def minibatches(n: int, cfg: Any, generator: torch.Generator, device: torch.device
                ) -> Iterator[torch.Tensor]:
    """Row indices of ``cfg.minibatches`` minibatches (at most ``n``: none is empty), for
    each of ``cfg.epochs`` passes over ``n`` samples in a new random order."""
    for _ in range(cfg.epochs):
        perm = torch.randperm(n, generator=generator, device=generator.device).to(device)
        yield from perm.tensor_split(min(cfg.minibatches, n))


@dataclass
class PPOBatch:
    """Flat samples of one PPO update, ``[N, ...]``; values and returns in the value head's
    units."""

    obs: torch.Tensor  # float32 [N, D]
    mask: torch.Tensor  # bool [N, A]
    action: torch.Tensor  # int64 [N]
    logp_old: torch.Tensor  # float32 [N]: log pi_old(action)
    value_old: torch.Tensor  # float32 [N]: pi_old's value (the centre of the value clip)
    adv: torch.Tensor  # float32 [N]: advantages, normalised per minibatch by the update
    ret: torch.Tensor  # float32 [N]: the value targets

    def __len__(self) -> int:
        return int(self.action.shape[0])


def rollout_batch(ro: Rollout, cfg: Any) -> PPOBatch:
    """A team rollout's samples with GAE advantages and targets (``cfg.gamma``,
    ``cfg.gae_lambda``)."""
    adv, ret = gae(ro.reward, ro.value, ro.done, ro.last_value, cfg.gamma, cfg.gae_lambda)
    return PPOBatch(ro.obs.flatten(0, 1), ro.mask.flatten(0, 1), ro.action.flatten(),
                    ro.logp.flatten(), ro.value.flatten(), adv.flatten(), ret.flatten())


def normalised(adv: torch.Tensor) -> torch.Tensor:
    """Zero mean, unit std; a lone sample has no spread to scale by, so it teaches nothing."""
    if adv.numel() < 2:
        return torch.zeros_like(adv)
    return (adv - adv.mean()) / (adv.std() + 1e-8)


def explained_variance(value: torch.Tensor, ret: torch.Tensor) -> float:
    """1 - Var(ret - value) / Var(ret); nan where the targets do not vary."""
    var = ret.var() if ret.numel() > 1 else ret.new_zeros(())
    return float(1 - (ret - value).var() / var) if var > 0 else float("nan")


PPO_STATS = ("loss", "pg_loss", "value_loss", "entropy", "approx_kl", "clip_frac")


def ppo_update(net: nn.Module, opt: torch.optim.Optimizer, batch: PPOBatch, cfg: Any,
               generator: torch.Generator) -> dict[str, float]:
    """``cfg.epochs`` passes of ``cfg.minibatches`` steps over ``batch``: the clipped surrogate
    of the advantages normalised per minibatch, the clipped value loss (``cfg.clip``) and the
    entropy bonus, each step's gradient norm clipped to ``cfg.max_grad_norm``; the mean
    losses, approx_kl, clip_frac and explained_var (of ``value_old``). Both trainers' PPO:
    Hanabi's ``PPO`` and the competitive games' ``--algo ppo``."""
    b = batch
    totals = dict.fromkeys(PPO_STATS, 0.0)
    count = 0
    for idx in minibatches(len(b), cfg, generator, b.obs.device):
        logits, v = net(b.obs[idx], b.mask[idx])
        logp_all = torch.log_softmax(logits, -1)
        logp = logp_all.gather(1, b.action[idx, None]).squeeze(1)
        log_ratio = logp - b.logp_old[idx]
        pg = clipped_surrogate(log_ratio, normalised(b.adv[idx]), cfg.clip)
        v_old, ret = b.value_old[idx], b.ret[idx]
        v_clip = v_old + (v - v_old).clamp(-cfg.clip, cfg.clip)
        vloss = 0.5 * torch.max((v - ret).square(), (v_clip - ret).square()).mean()
        ent = masked_entropy(logp_all, b.mask[idx]).mean()
        loss = pg + cfg.value_coef * vloss - cfg.entropy_coef * ent
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        opt.step()
        with torch.no_grad():
            ratio = log_ratio.exp()
            kl = ((ratio - 1) - log_ratio).mean()  # the k3 estimator of KL(old || new)
            frac = ((ratio - 1).abs() > cfg.clip).float().mean()
        for key, val in zip(PPO_STATS, (loss, pg, vloss, ent, kl, frac), strict=True):
            totals[key] += float(val.detach())
        count += 1
    stats = {k: v / count for k, v in totals.items()}
    stats["explained_var"] = explained_variance(b.value_old, b.ret)
    return stats


class PPO(core.RolloutAlgorithm):
    """The algorithm object of ``core.train`` for a team game; ``cfg.summary(figures)``
    turns the finished games' figures into history entries."""
    network = "actor_critic"  # its checkpoints' network kind (policies.checkpoint.NETWORKS)

    counter = "env_steps"

    def __init__(self, cfg: Any, device: torch.device, generator: torch.Generator):
        self.cfg, self.gen = cfg, generator
        self.collector: Any = (RayCollector(cfg, device) if cfg.workers
                               else TeamCollector(cfg, device, generator))
        self.obs_dim, self.num_actions = self.collector.obs_dim, self.collector.num_actions
        self.net = ActorCritic(self.obs_dim, self.num_actions, cfg.hidden).to(device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        self.env_steps = 0

    def set_lr(self, frac: float) -> float:
        """``--lr``, decayed linearly to 0 over the budget with ``--anneal-lr``."""
        lr = self.cfg.lr * (1.0 - frac) if self.cfg.anneal_lr else self.cfg.lr
        for group in self.opt.param_groups:
            group["lr"] = lr
        return lr

    def iteration(self, it: int, frac: float) -> dict[str, Any]:
        lr = self.set_lr(frac)
        rollout, figures = self.collector.collect(self.net)
        stats = ppo_update(self.net, self.opt, rollout_batch(rollout, self.cfg),
                           self.cfg, self.gen)
        self.env_steps += self.cfg.envs * self.cfg.steps
        stats.update(self.cfg.summary(figures), env_steps=self.env_steps, lr=lr)
        return stats

