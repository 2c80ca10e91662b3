"""Zha Jin Hua's seed recipe (``--recipe seed``): the policy gradient of seed 003, as written.

Each iteration, with pi_old the policy that starts it:

1. Every env plays one whole game with pi_old at **every** seat (self-play), so an iteration
   is M = ``envs`` games and M * P trajectories: one per seat of each game (the seed's
   "每玩一局实际上得到了6个样本"). Envs whose game ended wait (``VecEnv.WAIT``) until the last
   game of the batch ends, so no game mixes two policies.
2. A(a_i, s_i) = the seat's chips from decision i to the end of its game: its game result R
   less what it had already paid, which no later action changes (the seed leaves A undefined
   and argues against a learned value, so there is no baseline and no normalisation).
3. theta_new = theta_old + alpha * sum_k sum_i grad log pi(a_i | s_i) A_i / (M * P):
   one plain gradient step (``--lr`` is alpha).
4. theta_new -= beta * grad KL(pi_old(.|s_i) || pi_theta(.|s_i)) at theta_new, summed over the
   decisions and divided by M * P like the step above (``--beta``).

No value term and no entropy term. Decisions with one legal action (a seen player's look
phase) have log pi = 0 and KL = 0: they add nothing to either step and are left out.
The policy sees the seed's observation (``obs="seed"``, c1..c12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import vecgames
from vecgames.torch_bridge import TorchBridge, import_torch

from . import runs

torch = import_torch()

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
        self.env = vecgames.make(cfg.game, num_envs=cfg.envs, seed=cfg.seed,
                                 num_players=cfg.players, **cfg.env_options)
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)

    def restart(self, streams: Any) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask, self.cur = info["action_mask"], info["current_player"]

    @torch.no_grad()
    def collect(self, net: Any) -> tuple[SeedBatch, list[float]]:
        """Every env's next game, played to its end by ``net`` at every seat."""
        from .zhajinhua import sample_actions  # the default recipe's module imports this one

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
        batch = SeedBatch(obs, mask, action, ret, env, seat, trajectories=b * players, games=b)
        return batch, []

    def batch(self, collected: SeedBatch) -> SeedBatch:
        return collected


def seed_update(net: Any, opt: Any, batch: SeedBatch, cfg: Any,
                generator: Any = None) -> dict[str, float]:
    """Steps 3 and 4 above: the plain policy-gradient step (``opt``: SGD, lr alpha), then
    the KL step of size ``cfg.beta``. Returns the two loss pieces (nothing else is used)."""
    from .zhajinhua import masked_kl_entropy

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
