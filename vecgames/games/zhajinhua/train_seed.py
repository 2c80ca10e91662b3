"""Zha Jin Hua's seed recipe (``--recipe seed``): seed 003's policy gradient, as written.
Per iteration, pi_old the policy that starts it: (1) every env plays one whole self-play game
with pi_old (envs whose game ended wait), M = ``envs`` games, M * P trajectories; (2)
A(a_i, s_i) = the seat's chips from decision i to the game's end (no baseline); (3) one plain
gradient step of sum grad log pi(a_i|s_i) A_i / (M P) (``--lr``); (4) a step of -``beta`` grad
KL(pi_old || pi) at the new weights, also / (M P). No value or entropy term; forced decisions
are left out; the policy sees the seed's observation (``obs="seed"``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import vecgames
from vecgames.policies.nets import PolicyNet
from vecgames.torch_bridge import TorchBridge, import_torch
from vecgames.training import core, runs
from vecgames.training.pg import masked_kl_entropy, sample_actions

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402

ENV_OPTIONS = {"obs": "seed"}
# Defaults of the recipe where the default recipe's would not fit (the seed gives no numbers).
DEFAULTS = {"envs": 256, "lr": 0.03, "beta": 1.0}


@dataclass
class SeedBatch:
    """One iteration's decisions (those with a choice), flat; ``trajectories`` = M * P."""

    obs: Any  # float32 [N, D]
    mask: Any  # bool [N, A]
    action: Any  # int64 [N]
    ret: Any  # float32 [N]: A(a_i, s_i)
    env: Any  # int64 [N]: the env (one game each) the decision was taken in
    seat: Any  # int64 [N]
    trajectories: int
    games: int

    def __len__(self) -> int:
        return int(self.action.shape[0])


class SeedCollector:
    """Plays one whole self-play game per env with the current policy (step 1 above)."""

    def __init__(self, cfg: Any, device: Any, generator: Any):
        self.cfg, self.device, self.gen = cfg, device, generator
        self.num_envs = cfg.envs
        self.env: Any = vecgames.make(cfg.game, num_envs=cfg.envs, seed=cfg.seed,
                                 num_players=cfg.players, **cfg.env_options)
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)

    def restart(self, streams: Any) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask, self.cur = info["action_mask"], info["current_player"]

    @torch.no_grad()
    def collect(self, net: Any) -> SeedBatch:
        """Every env's next game, played to its end by ``net`` at every seat."""
        b, players = self.num_envs, self.env.num_players
        envs = torch.arange(b, device=self.device)
        playing = torch.ones(b, dtype=torch.bool, device=self.device)
        steps: list[tuple[Any, ...]] = []
        rewards = []
        while bool(playing.any()):
            logits, _ = net(self.obs, self.mask)
            actions = sample_actions(logits, self.gen)
            actions = torch.where(playing, actions, torch.full_like(actions, -1))  # WAIT
            choice = playing & (self.mask.sum(-1) > 1)
            steps.append((self.obs[choice].clone(), self.mask[choice].clone(),
                          actions[choice], envs[choice], self.cur[choice].long()))
            self.obs, reward, terminated, truncated, info = self.bridge.step(actions)
            self.mask, self.cur = info["action_mask"], info["current_player"]
            done = (terminated | truncated) & playing
            rewards.append(reward.clone())  # a waiting env's row is 0
            playing = playing & ~done
        # The ante comes with every game's first step: it was paid at the deal, before any
        # decision, so it is left out of A for every seat (the opener's first decision too).
        rewards[0] = rewards[0] + float(self.env.rules.ante)
        # chips from each step to the end of the game, per seat (each env's game ends once)
        to_go = torch.flip(torch.cumsum(torch.flip(torch.stack(rewards), [0]), 0), [0])
        ret = torch.cat([to_go[t, s[3], s[4]] for t, s in enumerate(steps)])
        obs, mask, action, env, seat = (torch.cat([s[k] for s in steps]) for k in range(5))
        return SeedBatch(obs, mask, action, ret, env, seat, trajectories=b * players, games=b)


def seed_update(net: Any, opt: Any, batch: SeedBatch, cfg: Any,
                generator: Any = None) -> dict[str, float]:
    """Steps 3 and 4 above: the plain policy-gradient step (``opt``: SGD, lr alpha), then
    the KL step of size ``cfg.beta``. Returns the two loss pieces (nothing else is used)."""
    params = list(net.parameters())
    with torch.no_grad():
        logp_old = torch.log_softmax(net(batch.obs, batch.mask)[0], -1)
    logp = torch.log_softmax(net(batch.obs, batch.mask)[0], -1)
    logp_a = logp.gather(1, batch.action.unsqueeze(1)).squeeze(1)
    pg = -(logp_a * batch.ret).sum() / batch.trajectories
    opt.zero_grad(set_to_none=True)
    pg.backward()
    opt.step()
    logp_new = torch.log_softmax(net(batch.obs, batch.mask)[0], -1)
    kl = masked_kl_entropy(logp_old, logp_new, batch.mask)[0].sum() / batch.trajectories
    opt.zero_grad(set_to_none=True)
    kl.backward()
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= cfg.beta * p.grad
    opt.zero_grad(set_to_none=True)
    return {"pg_loss": float(pg.detach()), "kl": float(kl.detach()), "samples": len(batch),
            "games": batch.games, "trajectories": batch.trajectories}


class SeedRecipe(core.RolloutAlgorithm):
    """The algorithm object of ``core.train`` for ``--recipe seed`` (SGD: the plain step)."""
    network = "policy_net"  # its checkpoints' network kind (policies.checkpoint.NETWORKS)

    def __init__(self, cfg: Any, device: Any, generator: Any):
        self.cfg = cfg
        self.collector = SeedCollector(cfg, device, generator)
        self.obs_dim, self.num_actions = self.collector.obs_dim, self.collector.num_actions
        self.net = PolicyNet(self.obs_dim, self.num_actions, cfg.hidden).to(device)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=cfg.lr)
        self.samples = 0

    def iteration(self, it: int, frac: float) -> dict[str, Any]:
        stats = seed_update(self.net, self.opt, self.collector.collect(self.net), self.cfg)
        self.samples += int(stats["samples"])
        return stats

