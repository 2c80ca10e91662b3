"""Hanabi: PPO self-play with one shared actor-critic (IPPO with parameter sharing).

Run ``python -m vecgames.training.hanabi --minutes 10`` (or ``vecgames train hanabi ...``); the
choices, the reasoning and a measured result are in docs/training.md ("Hanabi"). In short:

- B envs of ``vecgames.make("hanabi", obs="jaxmarl", observers="current")`` step in lock-step
  through the torch bridge; one network plays every seat (the observation is always the
  acting seat's own view, so no seat id is needed).
- Each env step is one transition of the seat to act. The reward is shared by every seat, so
  the return that follows a decision is the same whoever makes the later moves: the whole
  env is one single-agent MDP whose state is seen through the acting seat's eyes, and
  ``V(obs of the next actor)`` estimates the same team return. GAE therefore runs over env
  steps per env (gamma 0.99, lambda 0.95), cut at ``terminated`` (the same-step auto-reset
  starts the next game at once; nothing is bootstrapped across games) and bootstrapped with
  the value of the last observation at the end of the rollout.
- PPO as in JaxMARL's ``ippo_ff_hanabi``: a 512 embedding shared by an actor branch (512 ->
  logits, illegal actions -inf) and a critic branch (512 -> value), clipped surrogate (0.2),
  clipped value loss (coefficient 0.5), entropy bonus (0.01), advantages normalised per
  minibatch, Adam (lr 5e-4, eps 1e-5, optional linear decay), gradient norm clipped at 0.5,
  4 epochs of 4 minibatches over each 1024 x 128 rollout.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

import vecgames
from vecgames.games.hanabi.rules import CHOICES, DEFAULT_OPTIONS, field
from vecgames.policies.checkpoint import load_network
from vecgames.policies.nets import ActorCritic
from vecgames.torch_bridge import TorchBridge, import_torch, resolve_device

from . import config_cli, ray_rollouts, runs
from .ray_rollouts import worker_generator
from .runs import mean_ci, resume_state, run_state, start_run

torch = import_torch()
nn = torch.nn
F = torch.nn.functional

GAME = "hanabi"
PROG = "python -m vecgames.training.hanabi"
EVAL_SEED_OFFSET = 1_000_003  # evaluation games are dealt from a stream training never sees
MAX_SCORE = 25
END_NAMES = ("lives", "deck", "perfect")


@dataclass
class Config:
    """Everything a run depends on; saved in every checkpoint and in config.json."""

    players: int = 2
    # the rule options of the seed's game (docs/hanabi.md): JaxMARL's rules by default
    end: str = DEFAULT_OPTIONS["end"]
    discard_at_max: str = DEFAULT_OPTIONS["discard_at_max"]
    hint_target: str = DEFAULT_OPTIONS["hint_target"]
    envs: int = 1024
    steps: int = 128
    iterations: int | None = None
    minutes: float | None = None
    seed: int = 0
    out: str = "runs/hanabi"
    device: str = "cpu"
    hidden: int = 512
    lr: float = 5e-4
    anneal_lr: bool = False
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    eval_games: int = 10_000
    eval_envs: int = 2000
    checkpoint_every: int = 25
    torch_threads: int = 1
    env_threads: int | None = None  # None: 1 on the CPU, every core with a GPU
    progress: bool = True
    workers: int = 0  # Ray rollout workers (0: the envs step in this process)
    ray_address: str | None = None  # the Ray cluster of the workers (None: a local Ray)
    resume: bool = False  # continue the run in ``out`` from its last checkpoint
    overwrite: bool = False  # replace the run in ``out`` (neither: refuse a used ``out``)

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 100

    def rule_options(self) -> dict[str, Any]:
        """The ``vecgames.make``/``simulate`` rule keywords of the game trained on."""
        return {"num_players": self.players, **{k: getattr(self, k) for k in CHOICES}}

    def env_options(self) -> dict[str, Any]:
        return {**self.rule_options(), "obs": "jaxmarl", "observers": "current"}


def sample_actions(logits: torch.Tensor, generator: torch.Generator | None,
                   greedy: bool = False) -> torch.Tensor:
    """One action per row of masked logits: the argmax, or a draw from the softmax (illegal
    actions have probability exactly 0, so they are never drawn)."""
    if greedy:
        return logits.argmax(-1)
    probs = torch.softmax(logits, -1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def masked_entropy(logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy per row over the legal actions (log-probabilities -inf elsewhere; nan-safe)."""
    lp = logp.masked_fill(~mask, 0.0)
    return -(lp.exp() * lp).sum(-1)


# -- advantages ----------------------------------------------------------------------------
def gae(reward: torch.Tensor, value: torch.Tensor, done: torch.Tensor, last_value: torch.Tensor,
        gamma: float = 0.99, lam: float = 0.95) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimates and value targets, time-major ``[T, B]``.

    ``done[t]`` means the game ended with step t (the env already dealt the next game, so the
    observation after step t is not that game's): step t's TD error has no bootstrap term and
    the advantage does not run on into later steps. ``last_value`` [B] is the value of the
    observation after the last step (the bootstrap of an unfinished game).
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


# -- rollouts ------------------------------------------------------------------------------
@dataclass
class Rollout:
    """T steps of B envs, time-major; one transition of the seat to act per env step."""

    obs: torch.Tensor  # float32 [T, B, D]
    mask: torch.Tensor  # bool [T, B, A]
    action: torch.Tensor  # int64 [T, B]
    logp: torch.Tensor  # float32 [T, B]: log pi_old(action)
    value: torch.Tensor  # float32 [T, B]
    reward: torch.Tensor  # float32 [T, B]: the shared reward of that step
    done: torch.Tensor  # bool [T, B]
    last_value: torch.Tensor  # float32 [B]


class Games:
    """Per-env bookkeeping of the running game: its return so far, and how games ended.

    A game's return is the sum of its shared rewards (the firework total, 0 if the lives ran
    out). The env resets a finished game in the same step, so its end is read from the step:
    the lives ran out when a play failed with one life left (the only way to lose the last
    one); a return of 25 is perfect; anything else ended with the deck (the final round)."""

    def __init__(self, num_envs: int, hand_size: int, device: torch.device):
        self.ret = torch.zeros(num_envs, device=device)
        self.h = hand_size

    def step(self, action: torch.Tensor, life_before: torch.Tensor, reward: torch.Tensor,
             done: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the return and the end (index into END_NAMES) of every env (meaningful
        where ``done``) and starts a new count where a game ended."""
        self.ret += reward
        ret = self.ret.clone()
        play = (action >= self.h) & (action < 2 * self.h)
        lives = play & (life_before == 1) & (reward <= 0)
        end = torch.where(lives, 0, torch.where(ret >= MAX_SCORE, 2, 1))
        self.ret.masked_fill_(done, 0.0)
        return ret, end


def lives_left(env: Any, device: torch.device) -> torch.Tensor:
    """Life tokens of every env now (a copy), on ``device``."""
    return torch.tensor(field(env.state, "life"), device=device)


class Collector:
    """Steps the training envs with the current policy. ``env_offset``/``num_envs``: this
    collector holds envs ``env_offset ..`` of the run's ``cfg.envs`` (a rollout worker's)."""

    def __init__(self, cfg: Config, device: torch.device, generator: torch.Generator,
                 env_offset: int = 0, num_envs: int | None = None):
        self.cfg = cfg
        self.device = device
        self.gen = generator
        self.num_envs = cfg.envs if num_envs is None else num_envs
        self.env = vecgames.make(GAME, num_envs=self.num_envs, seed=cfg.seed,
                                 env_offset=env_offset, **cfg.env_options())
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)

    def restart(self, streams: torch.Tensor | None) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask = info["action_mask"]
        self.games = Games(self.num_envs, self.env.rules.hand_size, self.device)

    @torch.no_grad()
    def collect(self, net: ActorCritic) -> tuple[Rollout, torch.Tensor, torch.Tensor]:
        """One rollout; also the return and the end of every game finished during it."""
        t_max, b, env, dev = self.cfg.steps, self.num_envs, self.env, self.device
        ro = Rollout(
            obs=torch.empty((t_max, b, env.obs_dim), device=dev),
            mask=torch.empty((t_max, b, env.num_actions), dtype=torch.bool, device=dev),
            action=torch.empty((t_max, b), dtype=torch.int64, device=dev),
            logp=torch.empty((t_max, b), device=dev),
            value=torch.empty((t_max, b), device=dev),
            reward=torch.empty((t_max, b), device=dev),
            done=torch.empty((t_max, b), dtype=torch.bool, device=dev),
            last_value=torch.empty(b, device=dev),
        )
        rets = torch.empty((t_max, b), device=dev)
        ends = torch.empty((t_max, b), dtype=torch.int64, device=dev)
        for t in range(t_max):
            logits, value = net(self.obs, self.mask)
            action = sample_actions(logits, self.gen)
            ro.obs[t].copy_(self.obs)  # the bridge's tensors are overwritten by the next step
            ro.mask[t].copy_(self.mask)
            ro.action[t] = action
            ro.logp[t] = torch.log_softmax(logits, -1).gather(1, action[:, None]).squeeze(1)
            ro.value[t] = value
            life = lives_left(env, dev)
            self.obs, reward, terminated, truncated, info = self.bridge.step(action)
            self.mask = info["action_mask"]
            ro.reward[t] = reward[:, 0]  # shared: every seat gets the same
            ro.done[t] = terminated | truncated
            rets[t], ends[t] = self.games.step(action, life, ro.reward[t], ro.done[t])
        ro.last_value.copy_(net(self.obs, self.mask)[1])
        return ro, rets[ro.done], ends[ro.done]


class WorkerCollector:
    """A rollout worker's collector (its slice of the envs, on the CPU, with its own sampling
    stream), returning ``(rollout, (returns, ends))`` as ``RolloutWorkers`` expects."""

    def __init__(self, cfg: Config, envs_per_worker: int, worker: int):
        self.collector = Collector(cfg, torch.device("cpu"), worker_generator(cfg.seed, worker),
                                   env_offset=worker * envs_per_worker,
                                   num_envs=envs_per_worker)

    def collect(self, net: ActorCritic) -> tuple[Rollout, tuple[torch.Tensor, torch.Tensor]]:
        ro, rets, ends = self.collector.collect(net)
        return ro, (rets, ends)


class RayCollector(ray_rollouts.RayCollector):
    """``cfg.workers`` Ray actors, each stepping ``cfg.envs / cfg.workers`` of the envs with a
    CPU copy of the policy; their rollouts are joined on the learner's device."""

    def __init__(self, cfg: Config, device: torch.device):
        super().__init__(cfg, device, vecgames.make(GAME, num_envs=1, **cfg.env_options()),
                         WorkerCollector, ActorCritic)

    def collect(self, net: ActorCritic) -> tuple[Rollout, torch.Tensor, torch.Tensor]:
        ro, parts = self.workers.collect(net, self.device)
        return (ro, torch.cat([rets for rets, _ in parts]).to(self.device),
                torch.cat([ends for _, ends in parts]).to(self.device))


# -- the update ----------------------------------------------------------------------------
def ppo_update(net: ActorCritic, opt: torch.optim.Optimizer, ro: Rollout, cfg: Config,
               generator: torch.Generator) -> dict[str, float]:
    """``cfg.epochs`` passes of ``cfg.minibatches`` clipped-surrogate steps over a rollout."""
    adv, ret = gae(ro.reward, ro.value, ro.done, ro.last_value, cfg.gamma, cfg.gae_lambda)
    obs = ro.obs.flatten(0, 1)
    mask = ro.mask.flatten(0, 1)
    action, logp_old, v_old = ro.action.flatten(), ro.logp.flatten(), ro.value.flatten()
    adv, ret = adv.flatten(), ret.flatten()
    n = action.shape[0]
    keys = ("loss", "pg_loss", "value_loss", "entropy", "approx_kl", "clip_frac")
    totals = dict.fromkeys(keys, 0.0)
    count = 0
    for _ in range(cfg.epochs):
        perm = torch.randperm(n, generator=generator, device=generator.device).to(obs.device)
        for idx in perm.tensor_split(cfg.minibatches):
            logits, v = net(obs[idx], mask[idx])
            logp_all = torch.log_softmax(logits, -1)
            logp = logp_all.gather(1, action[idx, None]).squeeze(1)
            log_ratio = logp - logp_old[idx]
            ratio = log_ratio.exp()
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            v_clip = v_old[idx] + (v - v_old[idx]).clamp(-cfg.clip, cfg.clip)
            vloss = 0.5 * torch.max((v - ret[idx]).square(), (v_clip - ret[idx]).square()).mean()
            ent = masked_entropy(logp_all, mask[idx]).mean()
            loss = pg + cfg.value_coef * vloss - cfg.entropy_coef * ent
            opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            with torch.no_grad():
                kl = ((ratio - 1) - log_ratio).mean()  # the k3 estimator of KL(old || new)
                frac = ((ratio - 1).abs() > cfg.clip).float().mean()
            for key, val in zip(keys, (loss, pg, vloss, ent, kl, frac), strict=True):
                totals[key] += float(val.detach())
            count += 1
    stats = {k: v / count for k, v in totals.items()}
    var = ret.var()
    stats["explained_var"] = float(1 - (ret - v_old).var() / var) if var > 0 else float("nan")
    return stats


# -- evaluation ----------------------------------------------------------------------------
@torch.no_grad()
def evaluate(act: Any, cfg: Config, device: torch.device, greedy: bool,
             label: str) -> dict[str, Any]:
    """Self-play of ``act(obs, mask, greedy, generator) -> actions`` at every seat over
    ``cfg.eval_games`` games of a separate env (seed + 1000003, a stream training never
    uses). Each env plays exactly ``ceil(games / envs)`` games, so short games are not
    over-counted. Returns the mean score with a 95% CI and the share of each end."""
    envs = max(1, min(cfg.eval_envs, cfg.eval_games))
    per_env = math.ceil(cfg.eval_games / envs)
    env = vecgames.make(GAME, num_envs=envs, seed=cfg.seed + EVAL_SEED_OFFSET,
                        **cfg.env_options())
    bridge = TorchBridge(env, device)
    gen = torch.Generator(device=device).manual_seed(cfg.seed + EVAL_SEED_OFFSET)
    games = Games(envs, env.rules.hand_size, device)
    obs, info = bridge.reset()
    rows = torch.arange(envs, device=device)
    played = torch.zeros(envs, dtype=torch.int64, device=device)
    scores = torch.zeros((envs, per_env), device=device)
    ends = torch.zeros((envs, per_env), dtype=torch.int64, device=device)
    start = time.perf_counter()
    while bool((played < per_env).any()):
        action = act(obs, info["action_mask"], greedy, gen)
        life = lives_left(env, device)
        obs, reward, terminated, truncated, info = bridge.step(action)
        done = terminated | truncated
        ret, end = games.step(action, life, reward[:, 0], done)
        keep = done & (played < per_env)
        idx = rows[keep]
        scores[idx, played[idx]] = ret[idx]
        ends[idx, played[idx]] = end[idx]
        played += keep.long()
    ends_np = ends.flatten().cpu().numpy()
    record = mean_ci(scores.flatten().cpu().numpy())
    record.update(policy=label, greedy=greedy, seconds=round(time.perf_counter() - start, 2))
    record.update({f"end_{name}": float((ends_np == k).mean())
                   for k, name in enumerate(END_NAMES)})
    return record


def baseline(policy: str, cfg: Config) -> dict[str, Any]:
    """``vecgames.simulate`` of a baseline policy at every seat, in the same form."""
    start = time.perf_counter()
    df = vecgames.simulate(GAME, cfg.eval_games, policy=policy, seed=cfg.seed + EVAL_SEED_OFFSET,
                           **cfg.rule_options())
    record = mean_ci(df["score"].to_numpy())
    record.update(policy=policy, greedy=None, seconds=round(time.perf_counter() - start, 2))
    record.update({f"end_{name}": float((df["end"] == name).mean()) for name in END_NAMES})
    return record


# -- the saved policy ----------------------------------------------------------------------
class HanabiPolicy:
    """A trained policy: ``act(obs, mask)`` maps the acting seats' jaxmarl observations
    (float32 ``[B, obs_dim]``) and legal masks (bool ``[B, num_actions]``), numpy or torch, to
    int64 ``[B]`` legal actions (numpy in, numpy out; torch in, torch out). Greedy (argmax)
    by default; ``greedy=False`` samples the policy. ``env_options()`` gives the
    ``vecgames.make("hanabi", ...)`` keywords it plays (its rule options included)."""

    def __init__(self, net: ActorCritic, players: int, device: torch.device,
                 rules: dict[str, str] | None = None):
        self.net = net.eval()
        self.players = players
        self.rules = {k: DEFAULT_OPTIONS[k] for k in CHOICES} | (rules or {})
        self.device = device
        self.gen = torch.Generator(device=device).manual_seed(0)

    def env_options(self) -> dict[str, Any]:
        return {"num_players": self.players, **self.rules, "obs": "jaxmarl",
                "observers": "current"}

    @torch.no_grad()
    def logits(self, obs: Any, mask: Any) -> torch.Tensor:
        o = torch.as_tensor(obs, dtype=torch.float32, device=self.device)
        m = torch.as_tensor(mask, dtype=torch.bool, device=self.device)
        if o.ndim != 2 or o.shape[1] != self.net.obs_dim:
            raise ValueError(f"obs must be [B, {self.net.obs_dim}], got {tuple(o.shape)}")
        if m.shape != (o.shape[0], self.net.num_actions):
            raise ValueError(f"mask must be [{o.shape[0]}, {self.net.num_actions}], "
                             f"got {tuple(m.shape)}")
        if o.shape[0] and not bool(m.any(1).all()):
            raise ValueError("every row of mask needs a legal action")
        return self.net(o, m)[0]

    def act(self, obs: Any, mask: Any, greedy: bool = True,
            generator: torch.Generator | None = None) -> Any:
        actions = sample_actions(self.logits(obs, mask), generator or self.gen, greedy)
        return actions if torch.is_tensor(obs) else actions.cpu().numpy().astype(np.int64)


def save_checkpoint(path: Path, net: ActorCritic, opt: torch.optim.Optimizer, cfg: Config,
                    iteration: int, env_steps: int, state: dict[str, Any] | None = None) -> None:
    """The network, the optimizer, the config and ``state`` (``runs.run_state``), as
    tensors and plain data (see ``runs.save_checkpoint``)."""
    runs.save_checkpoint(path, {
        "model": net.state_dict(), "optimizer": opt.state_dict(), "config": asdict(cfg),
        "game": GAME, "env_options": {**cfg.rule_options(), "obs": "jaxmarl"},
        "iteration": iteration, "env_steps": env_steps, "obs_dim": net.obs_dim,
        "num_actions": net.num_actions, **(state or {})})


def load_policy(path: str | os.PathLike, device: Any = "cpu") -> HanabiPolicy:
    """The :class:`HanabiPolicy` stored in a checkpoint written by this trainer (loaded with
    ``weights_only=True``: a file holding other objects is refused with a ValueError)."""
    dev = resolve_device(device)
    net, _, ckpt, _ = load_network(path, dev)
    cfg = ckpt["config"]  # a checkpoint from before the rule options played the defaults
    return HanabiPolicy(net.to(dev), cfg["players"], dev,
                        {k: cfg[k] for k in CHOICES if k in cfg})


# -- outputs -------------------------------------------------------------------------------
def plot_curve(history: list[dict[str, Any]], path: Path, rules_score: float | None) -> None:
    """Mean score of the games finished in each iteration vs env steps; entropy; lives lost."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([h["env_steps"] for h in history], dtype=float) / 1e6
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    score = np.array([h["score"] for h in history], dtype=float)
    axes[0].plot(steps, score, label="trained (sampled), games finished per iteration")
    if rules_score is not None:
        axes[0].axhline(rules_score, color="tab:green", ls="--", label="rules baseline")
    axes[0].axhline(0.0, color="grey", lw=0.8, label="random (~0)")
    axes[0].set(title="Hanabi self-play score (training)", xlabel="env steps (M)",
                ylabel="mean score", ylim=(-0.5, 25.5))
    axes[0].legend(fontsize=8)
    axes[1].plot(steps, [h["end_lives"] for h in history])
    axes[1].set(title="share of games lost to lives", xlabel="env steps (M)", ylim=(0, 1))
    axes[2].plot(steps, [h["entropy"] for h in history])
    axes[2].set(title="policy entropy", xlabel="env steps (M)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def machine() -> str:
    """The CPU (and GPU) this ran on, in words, for eval.md."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    text = f"{os.cpu_count()} CPU cores ({cpu}), {platform.system()}"
    if torch.cuda.is_available():
        text += f", GPU {torch.cuda.get_device_name(0)}"
    return text


def write_eval(out: Path, records: dict[str, dict[str, Any]], cfg: Config,
               train_info: dict[str, Any], command: str) -> None:
    data = {"eval": records["greedy"], "evals": records, "train": train_info,
            "config": asdict(cfg), "command": command}
    (out / "eval.json").write_text(json.dumps(data, indent=2))
    names = {"greedy": "trained, greedy (argmax)", "sampled": "trained, sampled",
             "rules": "`rules` baseline", "random": "uniform-random-legal"}
    seed_rules = [f"{k}={getattr(cfg, k)}" for k in CHOICES
                  if getattr(cfg, k) != DEFAULT_OPTIONS[k]]
    rules = f", {', '.join(seed_rules)}" if seed_rules else ""
    lines = [f"# Hanabi ({cfg.players} players{rules}) self-play evaluation", "",
             f"Command: `{command}`", "",
             f"Training: {train_info['iterations']} iterations, "
             f"{train_info['env_steps']:,} env steps in {train_info['seconds']:.0f} s on "
             f"{train_info['device']} ({train_info['machine']}).", "",
             f"Every seat plays the same policy; {records['greedy']['games']:,} games each, "
             f"dealt from seed {cfg.seed + EVAL_SEED_OFFSET} (training uses {cfg.seed}). "
             "Score = the game's return (the firework total, 0 if the lives ran out); 95% CI "
             "by the normal approximation.", "",
             "| policy | mean score | 95% CI | lost to lives | deck ran out | perfect (25) |",
             "|---|---|---|---|---|---|"]
    for key, r in records.items():
        lines.append(f"| {names.get(key, key)} | **{r['mean']:.2f}** | "
                     f"[{r['ci95_low']:.2f}, {r['ci95_high']:.2f}] | {r['end_lives']:.1%} | "
                     f"{r['end_deck']:.1%} | {r['end_perfect']:.1%} |")
    lines.append("")
    (out / "eval.md").write_text("\n".join(lines))


# -- driver --------------------------------------------------------------------------------
def train(cfg: Config, command: str = "") -> dict[str, Any]:
    """Train, checkpoint, plot, evaluate; returns the evaluation records."""
    threads_before = numba.get_num_threads()
    threads = cfg.env_threads
    if threads is None:
        # On the CPU the network is the bottleneck and the env gets one thread: on a busy
        # 2-core machine a parallel kernel waited at its barrier for a descheduled thread
        # (8 ms against 1.8 ms per step of 1024 envs). With a GPU the env is the bottleneck.
        threads = 1 if resolve_device(cfg.device).type == "cpu" else 0
    if threads > 0:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        return _train(cfg, command)
    finally:
        numba.set_num_threads(threads_before)


def _train(cfg: Config, command: str) -> dict[str, Any]:
    device, gen, out, ckpt = start_run(cfg)
    collector = RayCollector(cfg, device) if cfg.workers else Collector(cfg, device, gen)
    net = ActorCritic(collector.obs_dim, collector.num_actions, cfg.hidden).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    it, history, env_steps, before = resume_state(ckpt, net, opt, gen, collector)
    start = time.perf_counter() - before  # a resumed run's clock goes on from its checkpoint
    budget = None if cfg.minutes is None else 60.0 * cfg.minutes
    bar = _progress(cfg, it)
    try:
        while True:
            elapsed = time.perf_counter() - start
            done_frac = max(0.0 if cfg.iterations is None else it / cfg.iterations,
                            0.0 if budget is None else elapsed / budget)
            if done_frac >= 1.0:
                break
            lr = cfg.lr * (1.0 - done_frac) if cfg.anneal_lr else cfg.lr
            for group in opt.param_groups:
                group["lr"] = lr
            it += 1
            rollout, rets, ends = collector.collect(net)
            stats = ppo_update(net, opt, rollout, cfg, gen)
            env_steps += cfg.envs * cfg.steps
            n = int(rets.numel())
            stats.update(iteration=it, env_steps=env_steps,
                         seconds=round(time.perf_counter() - start, 2), lr=lr, games=n,
                         score=float(rets.mean()) if n else float("nan"))
            stats.update({f"end_{name}": float((ends == k).float().mean()) if n else float("nan")
                          for k, name in enumerate(END_NAMES)})
            history.append(stats)
            bar.update(1)
            bar.set_postfix(score=f"{stats['score']:.2f}", lives=f"{stats['end_lives']:.2f}",
                            ent=f"{stats['entropy']:.2f}", steps=f"{env_steps / 1e6:.1f}M")
            if cfg.checkpoint_every and it % cfg.checkpoint_every == 0:
                save_checkpoint(out / "checkpoints" / f"iter_{it:06d}.pt", net, opt, cfg, it,
                                env_steps, run_state(gen, collector, history, env_steps,
                                                     time.perf_counter() - start))
    finally:  # Ray actors hold their CPUs until closed, also after an error
        bar.close()
        if isinstance(collector, RayCollector):
            collector.close()
    seconds = time.perf_counter() - start
    save_checkpoint(out / "final.pt", net, opt, cfg, it, env_steps,
                    run_state(gen, collector, history, env_steps, seconds))
    (out / "history.json").write_text(json.dumps(history, indent=1))
    policy = HanabiPolicy(net, cfg.players, device)
    records = {"greedy": evaluate(policy.act, cfg, device, True, "trained"),
               "sampled": evaluate(policy.act, cfg, device, False, "trained"),
               "rules": baseline("rules", cfg), "random": baseline("random", cfg)}
    plot_curve(history, out / "learning_curve.png", records["rules"]["mean"])
    train_info = {"iterations": it, "env_steps": env_steps, "seconds": round(seconds, 1),
                  "device": str(device), "machine": machine()}
    write_eval(out, records, cfg, train_info, command)
    return {"evals": records, "train": train_info}


def _progress(cfg: Config, initial: int = 0) -> Any:
    return runs.progress_bar(cfg.iterations, f"train {GAME}", cfg.progress, initial=initial)


DESCRIPTION = ("Train a Hanabi self-play policy (PPO, one network for every seat) on the "
               "jaxmarl observation and evaluate it against the rule-based baseline.")
HELP = {
    "players": "seats per table (2..5)",
    **{name: f"rule option {name} (the seed's: {choices[1]})"  # docs/hanabi.md
       for name, choices in CHOICES.items()},
    "steps": "env steps per rollout",
    "iterations": "rollout+update iterations (default 100 unless --minutes is given)",
    "anneal_lr": "decay the learning rate linearly to 0 over the budget",
    "clip": "PPO ratio and value clip",
    "env_threads": "Numba threads of the env kernels (0: all cores; default 1 on the CPU, all "
                   "cores with a GPU)",
}


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    return config_cli.build_parser(Config, prog, DESCRIPTION, HELP, choices=CHOICES)


def check_config(cfg: Config) -> None:
    config_cli.at_least(cfg, 1, "envs", "steps", "hidden", "epochs", "minibatches",
                        "eval_games", "eval_envs")
    config_cli.budget_checks(cfg)
    if not 2 <= cfg.players <= 5:
        raise SystemExit("--players must be in 2..5")
    if cfg.minibatches > cfg.envs * cfg.steps:
        raise SystemExit("--minibatches must not exceed envs x steps")


def parse_config(argv: list[str] | None = None, prog: str = PROG) -> Config:
    return config_cli.parse_config(Config, build_parser(prog), argv, check_config)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Command-line entry point; returns the exit code (``vecgames train hanabi`` calls it
    with ``prog="vecgames train hanabi"``)."""
    try:
        cfg, command = runs.parse_cli(argv, prog, parse_config, build_parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = train(cfg, command)
    t, r = result["train"], result["evals"]
    g, s = r["greedy"], r["sampled"]
    print(f"trained {t['iterations']} iterations ({t['env_steps']:,} env steps) in "
          f"{t['seconds']:.0f} s on {t['device']}; self-play over {g['games']:,} games: greedy "
          f"{g['mean']:.2f} [{g['ci95_low']:.2f}, {g['ci95_high']:.2f}], sampled "
          f"{s['mean']:.2f} [{s['ci95_low']:.2f}, {s['ci95_high']:.2f}] (rules baseline "
          f"{r['rules']['mean']:.2f}, random {r['random']['mean']:.2f}); outputs in {cfg.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
