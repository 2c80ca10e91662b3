"""Zha Jin Hua: episodic REINFORCE with a learned baseline and a KL(pi_old || pi_new) penalty.

Run ``python -m vecgames.training.zhajinhua --minutes 5`` (or ``vecgames train zhajinhua ...``); the
algorithm, its choices and a measured result are in docs/training.md. In short:

- B envs step in lock-step through the torch bridge; every decision's (obs, mask, action,
  seat) and every step's per-seat rewards are recorded for ``--steps`` steps per iteration.
- Each seat of each game is one trajectory. A decision's return is the acting seat's reward
  summed from that step to the end of its game (undiscounted), cut at ``terminated`` so the
  same-step auto-reset never leaks the next game's ante into the previous game. Decisions whose
  game has not ended by the end of the rollout are carried into the next iteration (their
  future rewards arrive there); a game still running after two rollouts is dropped.
- Baseline: a value head on the shared trunk, fit to the returns (Huber); advantages are
  normalised. Loss = -mean(logp * A) + beta * KL(pi_old || pi_new) + value and entropy terms,
  a few epochs of Adam minibatches per rollout; pi_old is the policy that starts the update.
- Opponents: a fraction of the envs (``--random-opponents``, default 1.0) seat the learner at
  one seat and uniform-random-legal players at the others; the rest are pure self-play (all
  seats share the policy, the seed's setting). Only the learner's decisions are trained on.
  All-random is the default because the evaluation is against random players (measured in
  docs/training.md: self-play tables cost chips there).

``--recipe seed`` trains as seed 003 describes instead (``zhajinhua_seed.py``): self-play with
one trajectory per seat of each whole game, a plain gradient step then a KL step, no value and
no entropy term, on the seed's observation. docs/zhajinhua.md compares the two recipes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

import vecgames
from vecgames.policies.checkpoint import load_network
from vecgames.policies.nets import PolicyNet
from vecgames.policies.protocol import resolve_player
from vecgames.simulators.mixed import checked_actions
from vecgames.torch_bridge import TorchBridge, import_torch, resolve_device

from . import config_cli, ray_rollouts, runs
from . import zhajinhua_seed as seed_recipe
from .ray_rollouts import worker_generator
from .runs import mean_ci, resume_state, run_state, start_run

torch = import_torch()
nn = torch.nn
F = torch.nn.functional

GAME = "zhajinhua"
PROG = "python -m vecgames.training.zhajinhua"  # main's default prog (cli: "vecgames train ...")
GAME_TITLES = {"zhajinhua": "Zha Jin Hua", "holdem": "No-limit Hold'em"}
RETURN_SCALE = 32.0  # the value head predicts return / RETURN_SCALE (returns reach hundreds)
EVAL_SEED_OFFSET = 1_000_003  # evaluation games are dealt from a stream training never sees
RECIPES = ("default", "seed")
# Opponents evaluate() seats: torch baselines, and the game's built-in heuristic player.
EVAL_OPPONENTS = ("random", "call", "heuristic")


@dataclass
class Config:
    """Everything a run depends on; saved in every checkpoint and in config.json."""

    game: str = GAME
    players: int = 6
    envs: int = 1024
    steps: int = 64
    iterations: int | None = None
    minutes: float | None = None
    seed: int = 0
    out: str = "runs/zhajinhua"
    device: str = "cpu"
    eval_games: int = 20_000
    eval_envs: int = 2048
    eval_greedy: bool = False
    beta: float = 0.5
    lr: float = 1e-3
    epochs: int = 3
    minibatches: int = 4
    hidden: int = 128
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    random_opponents: float = 1.0
    # who sits at the other seats of those tables: "random" (drawn in torch), or any player
    # vecgames.players(game) names or a checkpoint path, read through the player protocol
    opponent: str = "random"
    checkpoint_every: int = 25
    torch_threads: int = 1
    progress: bool = True
    env_options: dict[str, Any] = field(default_factory=dict)
    eval_opponents: tuple[str, ...] = ("random",)  # baselines the final policy is scored against
    workers: int = 0  # Ray rollout workers (0: the envs step in this process)
    ray_address: str | None = None  # the Ray cluster of the workers (None: a local Ray)
    resume: bool = False  # continue the run in ``out`` from its last checkpoint
    overwrite: bool = False  # replace the run in ``out`` (neither: refuse a used ``out``)
    recipe: str = "default"  # "seed": seed 003's algorithm (training/zhajinhua_seed.py)

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 100


def sample_actions(logits: torch.Tensor, generator: torch.Generator,
                   greedy: bool = False) -> torch.Tensor:
    """One action per row from masked logits (probabilities of illegal actions are exactly 0)."""
    if greedy:
        return logits.argmax(-1)
    probs = torch.softmax(logits, -1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def masked_kl_entropy(logp_old: torch.Tensor, logp_new: torch.Tensor,
                      mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-row KL(pi_old || pi_new) and entropy of pi_new over legal actions (-inf safe)."""
    # Fill -inf with 0 before multiplying: 0 * -inf is nan, in the forward and the backward.
    lp_old = logp_old.masked_fill(~mask, 0.0)
    lp_new = logp_new.masked_fill(~mask, 0.0)
    kl = (logp_old.exp() * (lp_old - lp_new)).sum(-1)
    ent = -(logp_new.exp() * lp_new).sum(-1)
    return kl, ent


# -- returns -------------------------------------------------------------------------------
def returns_to_go(reward: torch.Tensor, done: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Undiscounted per-seat return-to-go inside each game, and whether the game completed.

    ``reward`` [T, B, P] and ``done`` [T, B] are time-major. ``G[t, b, p]`` is the sum of seat
    p's rewards from step t to the step where env b's game ends. A step with ``done`` ends its
    game: its reward is the finished game's, and everything after it (the next game, antes
    included) is cut off. ``complete[t, b]`` is False for steps whose game has not ended
    within the T steps (their G would be partial).
    """
    G = torch.empty_like(reward)
    complete = torch.empty_like(done)
    running = torch.zeros_like(reward[0])
    seen_end = torch.zeros_like(done[0])
    for t in range(reward.shape[0] - 1, -1, -1):
        keep = (~done[t]).unsqueeze(-1).to(reward.dtype)
        running = reward[t] + running * keep
        seen_end = seen_end | done[t]
        G[t] = running
        complete[t] = seen_end
    return G, complete


# -- rollouts ------------------------------------------------------------------------------
@dataclass
class Rollout:
    """T steps of B envs, time-major. ``learner`` marks decisions taken by the trained policy;
    ``fresh`` marks steps not yet used for training."""

    obs: torch.Tensor  # float32 [T, B, D]
    mask: torch.Tensor  # bool [T, B, A]
    action: torch.Tensor  # int64 [T, B]
    player: torch.Tensor  # int64 [T, B]
    reward: torch.Tensor  # float32 [T, B, P]
    done: torch.Tensor  # bool [T, B]
    learner: torch.Tensor  # bool [T, B]
    fresh: torch.Tensor  # bool [T, B]


@dataclass
class Batch:
    """Flat training samples: the learner's non-forced decisions of completed games."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    ret: torch.Tensor

    def __len__(self) -> int:
        return int(self.action.shape[0])


def opponent_table(num_envs: int, players: int, random_fraction: float,
                   device: torch.device) -> torch.Tensor:
    """bool [B, P]: seat p of env b is played uniformly at random. The first
    ``round(fraction * B)`` envs seat the learner at ``b % P`` only; the others self-play."""
    n_rand = int(round(random_fraction * num_envs))
    envs = torch.arange(num_envs, device=device)
    seats = torch.arange(players, device=device)
    not_learner = seats.unsqueeze(0) != (envs % players).unsqueeze(1)
    return not_learner & (envs < n_rand).unsqueeze(1)


class CarryOver:
    """Turns rollouts into training batches, carrying unfinished games to the next one."""

    prev: Rollout | None = None

    def batch(self, new: Rollout) -> Batch:
        """Samples from the previous rollout's unfinished games (now finished) and this one's
        finished games; this rollout's unfinished steps wait for the next call."""
        parts = [new] if self.prev is None else [self.prev, new]
        reward = torch.cat([r.reward for r in parts])
        done = torch.cat([r.done for r in parts])
        G, complete = returns_to_go(reward, done)
        samples: list[Batch] = []
        start = 0
        for ro in parts:
            t = ro.done.shape[0]
            ok = complete[start:start + t]
            G_part = G[start:start + t].gather(2, ro.player.unsqueeze(2)).squeeze(2)
            choice = ro.mask.sum(-1) > 1  # forced moves (a seen player's look phase) teach nothing
            sel = ro.fresh & ok & ro.learner & choice
            samples.append(Batch(ro.obs[sel], ro.mask[sel], ro.action[sel], G_part[sel]))
            ro.fresh &= ~ok
            start += t
        self.prev = new
        return Batch(*(torch.cat([getattr(s, k) for s in samples])
                       for k in ("obs", "mask", "action", "ret")))


class Collector(CarryOver):
    """Steps the envs with the current policy and keeps the previous rollout for carry-over.

    ``env_offset``/``num_envs``: this collector holds envs ``env_offset ..`` of the run's
    ``cfg.envs`` (a rollout worker's slice; seats and opponents follow the global index)."""

    def __init__(self, cfg: Config, device: torch.device, generator: torch.Generator,
                 env_offset: int = 0, num_envs: int | None = None):
        self.cfg = cfg
        self.device = device
        self.gen = generator
        self.num_envs = cfg.envs if num_envs is None else num_envs
        env = vecgames.make(cfg.game, num_envs=self.num_envs, seed=cfg.seed,
                            env_offset=env_offset, num_players=cfg.players, **cfg.env_options)
        self.env = env
        self.obs_dim, self.num_actions = env.obs_dim, env.num_actions
        self.bridge = TorchBridge(env, device)
        self.restart(None)
        mine = slice(env_offset, env_offset + self.num_envs)
        self.random_seat = opponent_table(cfg.envs, cfg.players, cfg.random_opponents,
                                          device)[mine]
        self.rand_env = self.random_seat.any(1)
        self.opponent = None if cfg.opponent == "random" else resolve_player(cfg.game,
                                                                              cfg.opponent)
        self.learner_seat = torch.arange(cfg.envs, device=device)[mine] % cfg.players
        self.chips = torch.zeros(self.num_envs, device=device)  # learner's chips, running game

    def restart(self, streams: torch.Tensor | None) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask, self.cur = info["action_mask"], info["current_player"]
        self.chips = torch.zeros(self.num_envs, device=self.device)

    def _empty(self) -> Rollout:
        t, b, env, dev = self.cfg.steps, self.num_envs, self.env, self.device
        return Rollout(
            obs=torch.empty((t, b, env.obs_dim), device=dev),
            mask=torch.empty((t, b, env.num_actions), dtype=torch.bool, device=dev),
            action=torch.empty((t, b), dtype=torch.int64, device=dev),
            player=torch.empty((t, b), dtype=torch.int64, device=dev),
            reward=torch.empty((t, b, env.num_players), device=dev),
            done=torch.empty((t, b), dtype=torch.bool, device=dev),
            learner=torch.empty((t, b), dtype=torch.bool, device=dev),
            fresh=torch.ones((t, b), dtype=torch.bool, device=dev),
        )

    @torch.no_grad()
    def collect(self, net: PolicyNet) -> tuple[Rollout, list[float]]:
        """One rollout of ``steps`` steps; also the learner's chips in each game it finished
        against random opponents (the training-time learning curve)."""
        ro = self._empty()
        envs = torch.arange(self.num_envs, device=self.device)
        finished: list[torch.Tensor] = []
        for t in range(self.cfg.steps):
            cur = self.cur.long()
            is_random = self.random_seat[envs, cur]
            logits, _ = net(self.obs, self.mask)
            if self.opponent is None:
                uniform = torch.zeros_like(logits).masked_fill(~self.mask, float("-inf"))
                logits = torch.where(is_random.unsqueeze(1), uniform, logits)
            actions = sample_actions(logits, self.gen)
            if self.opponent is not None:
                self._opponent_moves(actions, is_random)
            ro.obs[t].copy_(self.obs)
            ro.mask[t].copy_(self.mask)
            ro.player[t].copy_(cur)
            ro.action[t].copy_(actions)
            ro.learner[t].copy_(~is_random)
            self.obs, reward, terminated, truncated, info = self.bridge.step(actions)
            self.mask, self.cur = info["action_mask"], info["current_player"]
            done = terminated | truncated
            ro.reward[t].copy_(reward)
            ro.done[t].copy_(done)
            self.chips += reward.gather(1, self.learner_seat.unsqueeze(1)).squeeze(1)
            finished.append(self.chips[done & self.rand_env].clone())
            self.chips[done] = 0.0
        return ro, torch.cat(finished).tolist()


    def _opponent_moves(self, actions: torch.Tensor, seats: torch.Tensor) -> None:
        """The opponent's actions (``cfg.opponent``, a player of the protocol) into the rows
        where it is to act."""
        index = torch.nonzero(seats).squeeze(1)
        if index.numel() == 0:
            return
        rows = index.cpu().numpy()
        act_env = getattr(self.opponent, "act_env", None)
        if act_env is not None:
            chosen = np.asarray(act_env(self.env, rows))
        else:  # only the opponent's rows leave the device
            chosen = self.opponent(self.obs[index].cpu().numpy(), self.mask[index].cpu().numpy())
        chosen = checked_actions(self.env, chosen, rows, self.cfg.opponent)
        actions[index] = torch.as_tensor(chosen, dtype=actions.dtype, device=actions.device)


def worker_collector(cfg: Config, envs_per_worker: int, worker: int) -> Collector:
    """Rollout worker ``worker``'s collector: its slice of the envs, on the CPU, with its own
    sampling stream."""
    return Collector(cfg, torch.device("cpu"), worker_generator(cfg.seed, worker),
                     env_offset=worker * envs_per_worker, num_envs=envs_per_worker)


class RayCollector(CarryOver, ray_rollouts.RayCollector):
    """``cfg.workers`` Ray actors, each stepping ``cfg.envs / cfg.workers`` of the envs with a
    CPU copy of the policy; their rollouts are joined on the learner's device."""

    def __init__(self, cfg: Config, device: torch.device):
        probe = vecgames.make(cfg.game, num_envs=1, num_players=cfg.players, **cfg.env_options)
        ray_rollouts.RayCollector.__init__(self, cfg, device, probe, worker_collector,
                                           PolicyNet)

    def collect(self, net: PolicyNet) -> tuple[Rollout, list[float]]:
        rollout, chips = self.workers.collect(net, self.device)
        return rollout, [c for worker in chips for c in worker]


# -- the update ----------------------------------------------------------------------------
def update(net: PolicyNet, opt: torch.optim.Optimizer, batch: Batch, cfg: Config,
           generator: torch.Generator) -> dict[str, float]:
    """REINFORCE with the value baseline and a KL(pi_old || pi_new) penalty; returns stats."""
    if len(batch) == 0:
        return {"samples": 0}
    with torch.no_grad():
        logits_old, v_old = net(batch.obs, batch.mask)
        logp_old = torch.log_softmax(logits_old, -1)
        adv = batch.ret - v_old * RETURN_SCALE
        adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
    target = batch.ret / RETURN_SCALE
    n = len(batch)
    size = max(1, math.ceil(n / cfg.minibatches))
    totals = {"pg_loss": 0.0, "kl": 0.0, "entropy": 0.0, "value_loss": 0.0}
    count = 0
    for _ in range(cfg.epochs):
        perm = torch.randperm(n, generator=generator, device=generator.device).to(adv.device)
        for idx in perm.split(size):
            logits, v = net(batch.obs[idx], batch.mask[idx])
            logp = torch.log_softmax(logits, -1)
            logp_a = logp.gather(1, batch.action[idx].unsqueeze(1)).squeeze(1)
            kl, ent = masked_kl_entropy(logp_old[idx], logp, batch.mask[idx])
            pg = -(logp_a * adv[idx]).mean()
            vloss = F.smooth_l1_loss(v, target[idx])
            loss = (pg + cfg.beta * kl.mean() + cfg.value_coef * vloss
                    - cfg.entropy_coef * ent.mean())
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            for key, val in zip(totals, (pg, kl.mean(), ent.mean(), vloss), strict=True):
                totals[key] += float(val.detach())
            count += 1
    stats = {k: v / count for k, v in totals.items()}
    stats["samples"] = n
    return stats


# -- evaluation ----------------------------------------------------------------------------
def baseline_logits(name: str, mask: torch.Tensor) -> torch.Tensor:
    """Logits of a baseline opponent over legal actions.

    ``"random"``: uniform over the legal actions. ``"call"`` (Hold'em, whose action 0 is fold
    and 1 check/call): the seed's "call with a fixed probability", check/call with probability
    1/2 and fold otherwise (check when folding is not legal), never raising.
    """
    if name == "random":
        return torch.zeros(mask.shape, device=mask.device).masked_fill(~mask, float("-inf"))
    if name == "call":
        logits = torch.full(mask.shape, float("-inf"), device=mask.device)
        logits[:, 1] = 0.0
        logits[:, 0] = torch.where(mask[:, 0], 0.0, float("-inf"))
        return logits
    raise ValueError(f"unknown baseline {name!r}; baselines: random, call")


@torch.no_grad()
def evaluate(net: PolicyNet, cfg: Config, device: torch.device,
             policy: str = "trained", opponents: str = "random") -> dict[str, Any]:
    """The policy at one seat, baseline players (``opponents``) at the others, seats rotating.

    Env b plays exactly ``ceil(games / envs)`` games (learner at seat ``(b + k) % P`` in its
    k-th game) so long games are not under-counted; returns mean chips per game and a 95% CI.
    ``policy="random"`` puts a random player at the learner's seat too (a sanity baseline).
    ``opponents="heuristic"``: Zha Jin Hua's built-in ``heuristic`` player (its njit policy).
    """
    envs = max(1, min(cfg.eval_envs, cfg.eval_games))
    per_env = math.ceil(cfg.eval_games / envs)
    p = cfg.players
    env = vecgames.make(cfg.game, num_envs=envs, seed=cfg.seed + EVAL_SEED_OFFSET,
                        num_players=p, **cfg.env_options)
    builtin = builtin_player(env, opponents)
    bridge = TorchBridge(env, device)
    gen = torch.Generator(device=device).manual_seed(cfg.seed + EVAL_SEED_OFFSET)
    obs, info = bridge.reset()
    rows = torch.arange(envs, device=device)
    played = torch.zeros(envs, dtype=torch.int64, device=device)
    chips = torch.zeros(envs, device=device)
    results = torch.zeros((envs, per_env), device=device)
    start = time.perf_counter()
    while bool((played < per_env).any()):
        mask = info["action_mask"]
        seat = (rows + played) % p
        logits, _ = net(obs, mask)
        mine = info["current_player"].long() == seat
        if policy == "random":  # a sanity baseline: a random player in the learner's seat
            logits = baseline_logits("random", mask)
        if builtin is not None:
            actions = torch.where(mine, sample_actions(logits, gen, greedy=cfg.eval_greedy),
                                  builtin().to(device))
        elif cfg.eval_greedy:
            actions = torch.where(mine, sample_actions(logits, gen, greedy=True),
                                  sample_actions(baseline_logits(opponents, mask), gen))
        else:
            others = baseline_logits(opponents, mask)
            actions = sample_actions(torch.where(mine.unsqueeze(1), logits, others), gen)
        obs, reward, terminated, truncated, info = bridge.step(actions)
        chips += reward.gather(1, seat.unsqueeze(1)).squeeze(1)
        done = (terminated | truncated) & (played < per_env)
        idx = rows[done]
        results[idx, played[idx]] = chips[idx]
        chips[terminated | truncated] = 0.0
        played += done.long()
    record = mean_ci(results.flatten().cpu().numpy())
    record.update(policy=policy, opponents=opponents, players=p,
                  greedy=cfg.eval_greedy, seconds=round(time.perf_counter() - start, 2))
    return record


def builtin_player(env: Any, name: str) -> Any:
    """For ``name == "heuristic"`` (Zha Jin Hua only): a function giving that player's action in
    every env as a tensor; None for the torch baselines (checked by :func:`baseline_logits`)."""
    if name != "heuristic":
        return None
    if env.name != "zhajinhua":
        raise ValueError(f"the heuristic opponent is Zha Jin Hua's built-in player, not "
                         f"{env.name}'s")
    from vecgames.policies.zhajinhua import heuristic_actions

    out = np.empty(env.num_envs, np.int64)

    def actions() -> torch.Tensor:
        heuristic_actions(env.state, env.rules, out)
        return torch.from_numpy(out)

    return actions


# -- outputs -------------------------------------------------------------------------------
def save_checkpoint(path: Path, net: PolicyNet, opt: torch.optim.Optimizer, cfg: Any,
                    iteration: int, state: dict[str, Any] | None = None) -> None:
    """The network, the optimizer, the config and ``state`` (what :func:`resume_state`
    restores), as tensors and plain data (see ``runs.save_checkpoint``)."""
    runs.save_checkpoint(path, {
        "model": net.state_dict(), "optimizer": opt.state_dict(), "config": asdict(cfg),
        "game": cfg.game, "env_options": {"num_players": cfg.players, **cfg.env_options},
        "iteration": iteration, "obs_dim": net.trunk[0].in_features,
        "num_actions": net.pi.out_features, **(state or {})})


def load_policy(path: str | os.PathLike, device: Any = "cpu") -> PolicyNet:
    """The PolicyNet stored in a checkpoint written by this trainer (loaded with
    ``weights_only=True``: a file holding other objects is refused with a ValueError)."""
    dev = resolve_device(device)
    return load_network(path, dev)[0].to(dev)


def plot_curve(history: list[dict[str, Any]], path: Path, opponent: str = "random") -> None:
    """Learner chips/game vs ``opponent`` during training, entropy and KL per iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    it = [h["iteration"] for h in history]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    chips = np.array([h.get("chips_vs_random", np.nan) for h in history], dtype=float)
    axes[0].plot(it, chips, alpha=0.4, label="per iteration")
    k = max(1, len(chips) // 20)
    if k > 1:
        smooth = np.convolve(np.nan_to_num(chips), np.ones(k) / k, mode="valid")
        axes[0].plot(it[k - 1:], smooth, label=f"mean of {k}")
    axes[0].axhline(0.0, color="grey", lw=0.8)
    axes[0].set(title=f"learner chips/game vs {opponent} (training)", xlabel="iteration")
    axes[0].legend()
    for ax, key in zip(axes[1:], ("entropy", "kl"), strict=True):
        ax.plot(it, [h.get(key, np.nan) for h in history])
        ax.set(title=key, xlabel="iteration")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_eval(out: Path, records: dict[str, dict[str, Any]], cfg: Config,
               train_info: dict[str, Any], command: str) -> None:
    first = next(iter(records.values()))
    data = {"eval": first, "evals": records, "train": train_info, "config": asdict(cfg),
            "command": command}
    (out / "eval.json").write_text(json.dumps(data, indent=2))
    lines = [f"# {GAME_TITLES.get(cfg.game, cfg.game)} policy evaluation", "",
             f"Command: `{command}`", "",
             f"Training: {train_info['iterations']} iterations, {train_info['seconds']:.0f} s, "
             f"{train_info['samples']} decisions trained on.", ""]
    for name, r in records.items():
        label = "uniform-random-legal" if name == "random" else f"'{name}' baseline"
        lines.append(
            f"Trained policy at one seat (rotating) vs {cfg.players - 1} {label} opponents, "
            f"{r['games']} games: mean chips/game **{r['mean']:.3f}**, 95% CI "
            f"[{r['ci95_low']:.3f}, {r['ci95_high']:.3f}] (normal approximation).")
        lines.append("")
    (out / "eval.md").write_text("\n".join(lines))


# -- driver --------------------------------------------------------------------------------
def train(cfg: Config, command: str = "") -> dict[str, Any]:
    """Train, checkpoint, plot, evaluate; returns the evaluation record."""
    if cfg.recipe not in RECIPES or (cfg.recipe == "seed" and (cfg.game != GAME or cfg.workers)):
        raise ValueError(f"recipe must be one of {RECIPES} ('seed': Zha Jin Hua without Ray "
                         f"workers), got {cfg.recipe!r} for {cfg.game} with {cfg.workers} workers")
    device, gen, out, ckpt = start_run(cfg)
    learn = update
    if cfg.recipe == "seed":
        collector: Any = seed_recipe.SeedCollector(cfg, device, gen)
        learn = seed_recipe.seed_update
    else:
        collector = RayCollector(cfg, device) if cfg.workers else Collector(cfg, device, gen)
    net = PolicyNet(collector.obs_dim, collector.num_actions, cfg.hidden).to(device)
    opt: torch.optim.Optimizer = (torch.optim.SGD(net.parameters(), lr=cfg.lr)
                                  if cfg.recipe == "seed" else
                                  torch.optim.Adam(net.parameters(), lr=cfg.lr))
    it, history, samples, before = resume_state(ckpt, net, opt, gen, collector)
    start = time.perf_counter() - before  # a resumed run's clock goes on from its checkpoint
    deadline = None if cfg.minutes is None else start + 60.0 * cfg.minutes
    bar = _progress(cfg, it)
    try:
        while (cfg.iterations is None or it < cfg.iterations) and (
                deadline is None or time.perf_counter() < deadline):
            it += 1
            rollout, chips = collector.collect(net)
            stats = learn(net, opt, collector.batch(rollout), cfg, gen)
            samples += stats["samples"]
            stats.update(iteration=it, seconds=time.perf_counter() - start,
                         chips_vs_random=float(np.mean(chips)) if chips else float("nan"))
            history.append(stats)
            bar.update(1)
            bar.set_postfix(chips=f"{stats['chips_vs_random']:.2f}",
                            ent=f"{stats.get('entropy', 0):.2f}", kl=f"{stats.get('kl', 0):.4f}")
            if cfg.checkpoint_every and it % cfg.checkpoint_every == 0:
                save_checkpoint(out / "checkpoints" / f"iter_{it:06d}.pt", net, opt, cfg, it,
                                run_state(gen, collector, history, samples,
                                          time.perf_counter() - start))
    finally:  # Ray actors hold their CPUs until closed, also after an error
        bar.close()
        if isinstance(collector, RayCollector):
            collector.close()
    seconds = time.perf_counter() - start
    save_checkpoint(out / "final.pt", net, opt, cfg, it,
                    run_state(gen, collector, history, samples, seconds))
    (out / "history.json").write_text(json.dumps(history, indent=1))
    plot_curve(history, out / "learning_curve.png", Path(cfg.opponent).stem)
    records = {name: evaluate(net, cfg, device, opponents=name) for name in cfg.eval_opponents}
    train_info = {"iterations": it, "seconds": round(seconds, 1), "samples": samples}
    write_eval(out, records, cfg, train_info, command)
    return {**next(iter(records.values())), "evals": records, "train": train_info}


def _progress(cfg: Any, initial: int = 0) -> Any:
    return runs.progress_bar(cfg.iterations, f"train {cfg.game}", cfg.progress,
                             initial=initial)


DESCRIPTION = ("Train a Zha Jin Hua policy (REINFORCE + baseline + KL penalty against random "
               "players; --recipe seed: the seed's self-play policy gradient) and evaluate it "
               "against uniform-random-legal (or --eval-opponents) players.")


HELP = {
    "players": "seats per table (Zha Jin Hua 2..6, Hold'em 2..10)",
    "iterations": "training iterations (default 100 unless --minutes is given)",
    "random_opponents": "fraction of training tables where the other seats play --opponent "
                        "(the rest self-play)",
    "opponent": "who plays the other seats of those tables: random, a built-in player "
                "(vecgames.players(game)) or a checkpoint path",
    "recipe": "'seed': train as seed 003 describes (self-play, one trajectory per seat and game, "
              "a plain gradient step then a KL step, no value or entropy term, obs='seed'; "
              f"defaults {seed_recipe.DEFAULTS})",
    "eval_opponents": "opponents the final policy is scored against: random, heuristic",
}


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    return config_cli.build_parser(Config, prog, DESCRIPTION, HELP, choices={"recipe": RECIPES})


def check_config(cfg: Config) -> None:
    config_cli.budget_checks(cfg)
    config_cli.at_least(cfg, 1, "envs", "steps", "eval_games", "eval_envs")
    if not 0.0 <= cfg.random_opponents <= 1.0:
        raise SystemExit("--random-opponents must be in [0, 1]")
    if cfg.opponent == "human":
        raise SystemExit("--opponent: a person cannot sit at every training table")
    if cfg.opponent != "random":
        try:
            resolve_player(cfg.game, cfg.opponent)
        except (TypeError, ValueError) as exc:
            raise SystemExit(f"--opponent: {exc}") from None
        if cfg.game == "holdem" and cfg.opponent in vecgames.players("holdem"):
            # they bet exact chip amounts (env.step_amounts); the trainer steps action ids
            raise SystemExit("--opponent: Hold'em's built-in players bet exact amounts that "
                             "this trainer's actions cannot carry; use random or a checkpoint")


def parse_config(argv: list[str] | None = None, prog: str = PROG) -> Config:
    cfg = config_cli.parse_config(Config, build_parser(prog), argv, check_config)
    return apply_recipe(cfg, argv or [])


# Options of the default recipe that the seed recipe has no use for.
NOT_IN_SEED_RECIPE = ("--steps", "--epochs", "--minibatches", "--entropy-coef",
                      "--value-coef", "--random-opponents", "--workers")


def apply_recipe(cfg: Config, argv: list[str]) -> Config:
    """Check ``--eval-opponents``; ``--recipe seed`` sets its defaults where an option was
    not given."""
    if not cfg.eval_opponents or any(o not in ("random", "heuristic")
                                     for o in cfg.eval_opponents):
        raise SystemExit(f"--eval-opponents: a comma-separated list of random, heuristic; "
                         f"got {','.join(cfg.eval_opponents)!r}")
    if cfg.recipe != "seed":
        return cfg
    given = config_cli.given_flags(argv)
    unused = sorted(given & set(NOT_IN_SEED_RECIPE))
    if unused:
        raise SystemExit(f"--recipe seed plays whole self-play games with one update per "
                         f"iteration; it takes none of {', '.join(unused)}")
    defaults = {k: v for k, v in seed_recipe.DEFAULTS.items() if f"--{k}" not in given}
    return replace(cfg, env_options=dict(seed_recipe.ENV_OPTIONS), random_opponents=0.0,
                   entropy_coef=0.0, value_coef=0.0, epochs=1, minibatches=1, **defaults)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Command-line entry point; returns the exit code (``vecgames train zhajinhua`` calls
    it with ``prog="vecgames train zhajinhua"``)."""
    try:
        cfg, command = runs.parse_cli(argv, prog, parse_config, build_parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = train(cfg, command)
    t = result["train"]
    scores = "; ".join(
        f"vs {name} opponents over {r['games']} games: mean chips/game {r['mean']:.3f}, "
        f"95% CI [{r['ci95_low']:.3f}, {r['ci95_high']:.3f}]"
        for name, r in result["evals"].items())
    print(f"trained {t['iterations']} iterations in {t['seconds']:.0f} s; {scores}; "
          f"outputs in {cfg.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
