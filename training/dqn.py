"""DQN with the seed's ingredients (docs/training.md): masked Double DQN on n-step returns of
the learner's own decisions, potential-based shaping, Polyak targets, epsilon-greedy, replay,
and a curriculum: ``cfg.opponent_actions`` (which may follow the budget), then a frozen copy
at ``selfplay_fraction`` of the tables. A game supplies ``cfg.make_env(num_envs)``,
``cfg.potential(env)`` (float64 [B]: Phi / ``shaping``), ``cfg.opponent_actions(env, obs,
mask, rows, frac)`` and ``cfg.schedules(frac)``."""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

from vecgames.policies.nets import QNetwork, greedy_actions, make_qnet
from vecgames.torch_bridge import TorchBridge, import_torch

from . import runs

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402


def random_legal(mask: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One uniformly drawn legal action per row (every row must have one)."""
    u = torch.rand(mask.shape, generator=generator, device=mask.device)
    return u.masked_fill(~mask, -1.0).argmax(-1)


def linear(frac: float, start: float, end: float, span: float) -> float:
    """``start`` -> ``end`` linearly over progress [0, span], then ``end``."""
    if span <= 0:
        return end
    return start + (end - start) * min(1.0, max(0.0, frac) / span)


@torch.no_grad()
def double_dqn_target(online: nn.Module, target: nn.Module, ret: torch.Tensor,
                      next_obs: torch.Tensor, next_mask: torch.Tensor, discount: torch.Tensor,
                      done: torch.Tensor) -> torch.Tensor:
    """``ret + discount * Q_target(s', argmax_{legal a'} Q_online(s', a'))``, ``ret`` where
    ``done``."""
    pick = greedy_actions(online, next_obs, next_mask)
    value = target(next_obs).gather(1, pick.unsqueeze(1)).squeeze(1)
    return ret + torch.where(done, torch.zeros_like(value), discount * value)


@torch.no_grad()
def polyak(target: nn.Module, online: nn.Module, tau: float) -> None:
    """target <- (1 - tau) target + tau online."""
    for t, o in zip(target.parameters(), online.parameters(), strict=True):
        t.lerp_(o, tau)


class Transitions(NamedTuple):
    """A batch of n-step transitions of the learner (``env``: where each came from)."""

    obs: torch.Tensor  # float32 [N, D]
    action: torch.Tensor  # int64 [N]
    ret: torch.Tensor  # float32 [N]: sum_i gamma^i (r_i + F_i) over up to n decisions
    next_obs: torch.Tensor  # float32 [N, D] (zeros where done)
    next_mask: torch.Tensor  # bool [N, A] (all False where done)
    done: torch.Tensor  # bool [N]: the round ended within the n decisions
    discount: torch.Tensor  # float32 [N]: gamma^k, k = reward terms summed (n unless done)
    env: torch.Tensor  # int64 [N]

    def __len__(self) -> int:
        return int(self.action.shape[0])


class NStepTracker:
    """Builds the learner's n-step transitions while B envs step in lock-step.

    The learner's decisions in a match, d_0, d_1, ..., are its MDP's steps. Decision k's reward
    R_k is the learner's reward over every env step from d_k up to d_{k+1} (or to the end: a
    match ended by another seat pays the learner's last decision), plus the shaping
    F_k = gamma Phi_{k+1} - Phi_k, Phi = 0 once the match is over. Its transition is
    ``(o_k, a_k, sum_{i<n} gamma^i R_{k+i}, o_{k+n}, mask_{k+n})``, cut at the end (``done``),
    emitted when d_{k+n} is made or the match ends.

    Call :meth:`decide` before each env step (``rows``: envs where the learner acts now) and
    :meth:`after_step` after it with the learner's reward and ``done``. ``done`` closes every
    open decision of that env at once, so with the same-step auto-reset nothing of the next
    match is mixed in; rewards before the learner's first decision are dropped.
    """

    def __init__(self, num_envs: int, obs_dim: int, num_actions: int, n: int = 3,
                 gamma: float = 0.99, device: Any = "cpu"):
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        dev = torch.device(device)
        self.n, self.gamma, self.num_actions = n, float(gamma), num_actions
        self.obs = torch.zeros((num_envs, n, obs_dim), device=dev)
        self.action = torch.zeros((num_envs, n), dtype=torch.int64, device=dev)
        self.ret = torch.zeros((num_envs, n), device=dev)
        self.terms = torch.zeros((num_envs, n), dtype=torch.int64, device=dev)
        self.live = torch.zeros((num_envs, n), dtype=torch.bool, device=dev)
        self.count = torch.zeros(num_envs, dtype=torch.int64, device=dev)  # decisions so far
        self.reward = torch.zeros(num_envs, device=dev)  # learner reward since its last one
        self.phi = torch.zeros(num_envs, device=dev)  # Phi of its last decision
        self.powers = self.gamma ** torch.arange(n + 1, dtype=torch.float32, device=dev)
        self._envs = torch.arange(num_envs, device=dev)

    def _credit(self, envs: torch.Tensor, reward: torch.Tensor) -> torch.Tensor:
        """Add one decision's reward to every open decision of ``envs`` (bool [B])."""
        hit = self.live & envs.unsqueeze(1)
        self.ret += torch.where(hit, self.powers[self.terms] * reward.unsqueeze(1),
                                torch.zeros_like(self.ret))
        self.terms += hit.long()
        return hit

    def _emit(self, sel: torch.Tensor, next_obs: torch.Tensor | None,
              next_mask: torch.Tensor | None) -> Transitions:
        env, slot = sel.nonzero(as_tuple=True)
        if env.numel() > 1:  # each env's in the order of its decisions (older: more terms)
            order = torch.argsort(env * (self.n + 1) + (self.n - self.terms[env, slot]))
            env, slot = env[order], slot[order]
        done = next_obs is None
        obs = self.obs[env, slot]
        if next_obs is None or next_mask is None:
            nxt = torch.zeros_like(obs)
            nmask = torch.zeros((len(env), self.num_actions), dtype=torch.bool, device=obs.device)
        else:
            nxt, nmask = next_obs[env], next_mask[env]
        out = Transitions(obs=obs, action=self.action[env, slot], ret=self.ret[env, slot],
                          next_obs=nxt, next_mask=nmask,
                          done=torch.full((len(env),), done, device=obs.device),
                          discount=self.powers[self.terms[env, slot]], env=env)
        self.live &= ~sel
        return out

    def decide(self, rows: torch.Tensor, obs: torch.Tensor, mask: torch.Tensor,
               action: torch.Tensor, phi: torch.Tensor) -> Transitions:
        """The learner acts in the envs ``rows`` (bool [B]) with ``action`` from ``obs`` (full
        [B, ...] tensors); ``phi``: Phi of those states. Returns the transitions that reached n
        reward terms (their next state is this one)."""
        again = rows & (self.count > 0)
        self._credit(again, self.reward + self.gamma * phi - self.phi)
        out = self._emit(self.live & (self.terms >= self.n), obs, mask)
        env = self._envs[rows]
        slot = self.count[rows] % self.n
        self.obs[env, slot] = obs[rows].to(self.obs.dtype)
        self.action[env, slot] = action[rows]
        self.ret[env, slot] = 0.0
        self.terms[env, slot] = 0
        self.live[env, slot] = True
        self.count += rows.long()
        self.reward[rows] = 0.0
        self.phi = torch.where(rows, phi.to(self.phi.dtype), self.phi)
        return out

    def after_step(self, reward: torch.Tensor, done: torch.Tensor) -> Transitions:
        """The learner's reward at the step just taken and where the match ended; returns the
        transitions the ended matches closed (``done``, no bootstrap)."""
        active = self.count > 0
        self.reward += torch.where(active, reward.to(self.reward.dtype),
                                   torch.zeros_like(self.reward))
        ended = done & active
        self._credit(ended, self.reward - self.phi)  # Phi(terminal) = 0
        out = self._emit(self.live & ended.unsqueeze(1), None, None)
        self.count[done] = 0
        self.reward[done] = 0.0
        self.phi[done] = 0.0
        self.live[done] = False
        return out


class ReplayBuffer:
    """A ring of transitions in preallocated torch tensors, sampled uniformly."""

    FIELDS = ("obs", "action", "ret", "next_obs", "next_mask", "done", "discount")

    def __init__(self, capacity: int, obs_dim: int, num_actions: int, device: Any = "cpu"):
        dev = torch.device(device)
        self.capacity = capacity
        self.obs = torch.zeros((capacity, obs_dim), device=dev)
        self.next_obs = torch.zeros((capacity, obs_dim), device=dev)
        self.next_mask = torch.zeros((capacity, num_actions), dtype=torch.bool, device=dev)
        self.action = torch.zeros(capacity, dtype=torch.int64, device=dev)
        self.ret = torch.zeros(capacity, device=dev)
        self.done = torch.zeros(capacity, dtype=torch.bool, device=dev)
        self.discount = torch.zeros(capacity, device=dev)
        self.pos = self.size = self.added = 0

    def add(self, t: Transitions) -> None:
        n = len(t)
        if n == 0:
            return
        if n > self.capacity:  # keep the newest
            t = Transitions(*(x[n - self.capacity:] for x in t))
            n = self.capacity
        idx = (self.pos + torch.arange(n, device=self.obs.device)) % self.capacity
        for name in self.FIELDS:
            getattr(self, name)[idx] = getattr(t, name).to(getattr(self, name).dtype)
        self.pos = (self.pos + n) % self.capacity
        self.size = min(self.size + n, self.capacity)
        self.added += n

    def sample(self, batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
        idx = torch.randint(0, self.size, (batch,), generator=generator,
                            device=generator.device).to(self.obs.device)
        return {name: getattr(self, name)[idx] for name in self.FIELDS}


def dqn_update(online: QNetwork, target: QNetwork, opt: torch.optim.Optimizer,
               batch: dict[str, torch.Tensor], cfg: Any) -> tuple[float, float]:
    """One Double-DQN step (Huber loss, clipped gradients) and a Polyak target update;
    returns (loss, mean Q of the taken actions)."""
    y = double_dqn_target(online, target, batch["ret"], batch["next_obs"], batch["next_mask"],
                          batch["discount"], batch["done"])
    q = online(batch["obs"]).gather(1, batch["action"].unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(q, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_norm_(online.parameters(), cfg.grad_clip)
    opt.step()
    polyak(target, online, cfg.tau)
    return float(loss.detach()), float(q.detach().mean())


class DQN:
    """The algorithm object of ``core.train``: one env step of every table per iteration,
    ``updates_per_step`` updates once the buffer holds ``learning_starts``; a history record
    every ``log_every`` iterations."""
    network = "q_net"  # its checkpoints' network kind (policies.checkpoint.NETWORKS)

    def __init__(self, cfg: Any, device: torch.device, generator: torch.Generator):
        self.cfg, self.device, self.gen = cfg, device, generator
        self.env = env = cfg.make_env(cfg.envs)
        self.bridge = TorchBridge(env, device)
        self.obs, self.info = runs.restart_envs(self.bridge, None)
        b, a_n = cfg.envs, env.num_actions
        self.obs_dim, self.num_actions = env.obs_dim, a_n
        self.net = make_qnet(cfg.head, env.obs_dim, a_n, cfg.hidden, cfg.layers,
                             game=env.name).to(device)
        self.target = copy.deepcopy(self.net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr)
        self.frozen: QNetwork | None = None
        self.tracker = NStepTracker(b, env.obs_dim, a_n, cfg.n_step, cfg.gamma, device)
        self.buffer = ReplayBuffer(cfg.buffer_size, env.obs_dim, a_n, device)
        self.seat = torch.randint(0, cfg.players, (b,), generator=generator, device=device)
        self.selfplay_env = torch.arange(b, device=device) < round(cfg.selfplay_fraction * b)
        self.updates = self.refreshed_at = 0
        self.window = dict.fromkeys(("loss", "q", "n", "wins", "rounds"), 0.0)

    def iteration(self, it: int, frac: float) -> dict[str, Any] | None:
        cfg, dev, gen, b = self.cfg, self.device, self.gen, self.cfg.envs
        eps = linear(frac, cfg.eps_start, cfg.eps_end, cfg.eps_decay)
        selfplay = frac >= cfg.selfplay_start and cfg.selfplay_fraction > 0
        if selfplay and self.frozen is None:
            self.frozen, self.refreshed_at = copy.deepcopy(self.net).eval(), self.updates
        obs, mask = self.obs, self.info["action_mask"]
        mine = self.info["current_player"].to(device=dev, dtype=torch.int64) == self.seat
        actions = torch.zeros(b, dtype=torch.int64, device=dev)
        with torch.no_grad():
            if bool(mine.any()):
                rows = mine.nonzero().squeeze(1)
                greedy = greedy_actions(self.net, obs[rows], mask[rows])
                explore = torch.rand(rows.shape[0], generator=gen, device=dev) < eps
                actions[rows] = torch.where(explore, random_legal(mask[rows], gen), greedy)
            vs_frozen = ~mine & self.selfplay_env if selfplay else torch.zeros_like(mine)
            vs_opponent = ~mine & ~vs_frozen
            if bool(vs_opponent.any()):
                theirs = cfg.opponent_actions(self.env, obs, mask, vs_opponent, frac)
                actions = torch.where(vs_opponent, theirs.to(dev), actions)
            if self.frozen is not None and bool(vs_frozen.any()):
                rows = vs_frozen.nonzero().squeeze(1)
                a_f = greedy_actions(self.frozen, obs[rows], mask[rows])
                if cfg.opponent_epsilon > 0:
                    explore = (torch.rand(rows.shape[0], generator=gen, device=dev)
                               < cfg.opponent_epsilon)
                    a_f = torch.where(explore, random_legal(mask[rows], gen), a_f)
                actions[rows] = a_f
        phi = cfg.shaping * torch.from_numpy(cfg.potential(self.env)).to(dev, torch.float32)
        self.buffer.add(self.tracker.decide(mine, obs, mask, actions, phi))
        self.obs, reward, terminated, truncated, self.info = self.bridge.step(actions)
        done = (terminated | truncated).to(dev)
        r_learner = reward.to(dev).gather(1, self.seat.unsqueeze(1)).squeeze(1)
        self.buffer.add(self.tracker.after_step(r_learner, done))
        w = self.window
        n_done = int(done.sum())
        if n_done:
            w["wins"] += int((r_learner[done] > 0).sum())
            w["rounds"] += n_done
            self.seat = torch.where(
                done, torch.randint(0, cfg.players, (b,), generator=gen, device=dev), self.seat)
        if self.buffer.size >= max(cfg.learning_starts, cfg.batch_size):
            for _ in range(cfg.updates_per_step):
                loss, mean_q = dqn_update(self.net, self.target, self.opt,
                                          self.buffer.sample(cfg.batch_size, gen), cfg)
                self.updates += 1
                w["loss"] += loss
                w["q"] += mean_q
                w["n"] += 1
            if self.frozen is not None and self.updates - self.refreshed_at >= cfg.selfplay_refresh:
                self.frozen.load_state_dict(self.net.state_dict())
                self.refreshed_at = self.updates
        if not cfg.log_every or it % cfg.log_every:
            return None
        record = {"updates": self.updates, "transitions": self.buffer.added, "epsilon": eps,
                  "selfplay": float(selfplay), "train_win_rate": w["wins"] / max(1, w["rounds"]),
                  "loss": w["loss"] / w["n"] if w["n"] else float("nan"),
                  "mean_q": w["q"] / w["n"] if w["n"] else float("nan"),
                  **cfg.schedules(frac)}
        self.window = dict.fromkeys(w, 0.0)
        return record

    def state(self) -> dict[str, Any]:
        return {"target": self.target.state_dict(), "updates": self.updates,
                "frozen": None if self.frozen is None else self.frozen.state_dict(),
                "refreshed_at": self.refreshed_at, "transitions": self.buffer.added,
                "env_streams": runs.env_streams(self.env)}

    def restore(self, ckpt: dict[str, Any]) -> None:
        """The replay buffer and the running matches are not saved: new matches are dealt
        from the saved streams and the buffer refills."""
        self.target.load_state_dict(ckpt["target"])
        if ckpt.get("frozen") is not None:
            self.frozen = copy.deepcopy(self.net).eval()
            self.frozen.load_state_dict(ckpt["frozen"])
        self.updates, self.refreshed_at = int(ckpt["updates"]), int(ckpt["refreshed_at"])
        self.buffer.added = int(ckpt["transitions"])
        self.obs, self.info = runs.restart_envs(self.bridge, ckpt["env_streams"])
        self.seat = torch.randint(0, self.cfg.players, (self.cfg.envs,), generator=self.gen,
                                  device=self.device)

    def close(self) -> None:
        pass
