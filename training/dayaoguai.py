"""Da Yaoguai 打妖怪: the policy-gradient trainer of ``training/zhajinhua.py`` (the same
network, REINFORCE update with a value baseline and a KL(pi_old || pi_new) penalty, checkpoints
and run folder) on ``vecgames.make("dayaoguai")`` through the torch bridge.

Run ``python -m vecgames.training.dayaoguai --minutes 5`` (or ``vecgames train dayaoguai ...``); the
choices and a measured result are in docs/training.md. What differs from Zha Jin Hua:

- **Returns.** A game runs up to ``max_steps`` (1,000) env steps and rarely ends on its own, so
  whole-game returns are neither available within a rollout nor useful (hundreds of decisions
  of noise). A decision's return is a lambda-return over the acting seat's own decisions: the
  beans the seat wins or pays from its action up to its next decision, plus ``gamma`` times the
  (lambda-mixed) value of that next decision; a game's end (terminated or truncated) cuts it.
  A seat's last decision in a rollout waits for the next rollout (carry-over, as in Zha Jin
  Hua), so every decision is trained on once. Beans are multiplied by ``reward_scale`` / base.
- **Opponents.** Training tables are split by ``--mix`` between self-play (every seat the
  current policy, every decision trained on) and tables where the learner sits at seat
  ``b % P`` against three copies of one njit baseline of ``vecgames.policies.dayaoguai``
  (``random``, ``weakest``, ``pickup``, ``shed``), whose actions a parallel njit kernel
  computes from the env state (``baseline_actions``).
- **Evaluation.** The final policy at one rotating seat against three players of each njit
  baseline (``random``, ``weakest``, ``pickup``, ``shed``): mean beans per game with a
  95% CI, the share of games truncated at ``max_steps`` and the mean game length.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange

import vecgames
from vecgames.games.dayaoguai.rules import PLAYER
from vecgames.policies.dayaoguai import PLAN, policy_action
from vecgames.policies.dayaoguai import POLICIES as BUILTIN
from vecgames.torch_bridge import TorchBridge

from . import config_cli, ray_rollouts, runs
from . import zhajinhua as base
from .ray_rollouts import worker_generator

torch = base.torch

GAME = "dayaoguai"
PROG = "python -m vecgames.training.dayaoguai"
LEARNER = -1  # seat_policy entry of a seat played by the network
# The rule baselines (ids as in vecgames.policies.dayaoguai): 'plan' searches (about 10^4
# decisions/s), too slow for training tables and the default evaluation.
POLICIES = BUILTIN[:PLAN]
KINDS = ("self", *POLICIES)  # training-table line-ups: self-play, or 3 copies of a baseline
DEFAULT_MIX = "self=1,random=1,weakest=1,pickup=1"
EVAL_SEED_OFFSET = base.EVAL_SEED_OFFSET
PENDING, ENDED, NEXT = 0, 1, 2  # what follows a seat's decision (seat_returns)


@dataclass
class Config:
    """Everything a run depends on; saved in every checkpoint and in config.json."""

    game: str = GAME
    players: int = 4
    envs: int = 1024
    steps: int = 64
    iterations: int | None = None
    minutes: float | None = None
    seed: int = 0
    out: str = "runs/dayaoguai"
    device: str = "cpu"
    max_steps: int = 1000
    mix: str = DEFAULT_MIX
    gamma: float = 0.95
    lam: float = 0.9
    reward_scale: float = 0.25
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
    checkpoint_every: int = 25
    torch_threads: int = 1
    progress: bool = True
    eval_opponents: tuple[str, ...] = POLICIES
    env_options: dict[str, Any] = field(default_factory=dict)
    workers: int = 0  # Ray rollout workers (0: the envs step in this process)
    ray_address: str | None = None  # the Ray cluster of the workers (None: a local Ray)
    resume: bool = False  # continue the run in ``out`` from its last checkpoint
    overwrite: bool = False  # replace the run in ``out`` (neither: refuse a used ``out``)

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 100

    def make_env(self, num_envs: int, seed: int, env_offset: int = 0):
        return vecgames.make(GAME, num_envs=num_envs, seed=seed, env_offset=env_offset,
                             num_players=self.players, max_steps=self.max_steps,
                             **self.env_options)


def parse_mix(spec: str) -> dict[str, float]:
    """``"self=1,random=1,weakest=2"`` -> normalised weights over KINDS (missing kinds 0)."""
    weights = dict.fromkeys(KINDS, 0.0)
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in weights:
            raise ValueError(f"mix: expected name=weight with names {KINDS}, got {part!r}")
        w = float(value)
        if not w >= 0.0 or math.isinf(w):
            raise ValueError(f"mix: weight of {name.strip()!r} must be >= 0, got {value!r}")
        weights[name.strip()] = w
    total = sum(weights.values())
    if total <= 0.0:
        raise ValueError(f"mix: some weight must be positive, got {spec!r}")
    return {k: w / total for k, w in weights.items()}


def table_kinds(num_envs: int, mix: dict[str, float]) -> np.ndarray:
    """int64 [B]: index into KINDS of each training table, in contiguous blocks whose sizes
    follow the mix (largest remainders, so they sum to B)."""
    shares = np.array([mix[k] for k in KINDS]) * num_envs
    counts = np.floor(shares).astype(np.int64)
    for k in np.argsort(-(shares - counts), kind="stable")[: num_envs - counts.sum()]:
        counts[k] += 1
    return np.repeat(np.arange(len(KINDS)), counts)


def seat_table(kinds: np.ndarray, players: int) -> np.ndarray:
    """int64 [B, P]: per seat the baseline id (``POLICIES`` index) or LEARNER. Self-play
    tables are all LEARNER; a baseline table has the learner at seat ``b % P`` only."""
    b = kinds.shape[0]
    table = np.repeat((kinds - 1)[:, None], players, axis=1)  # "self" -> -1 == LEARNER
    table[np.arange(b), np.arange(b) % players] = LEARNER
    return table.astype(np.int64)


# -- the baseline opponents ----------------------------------------------------------------
# Not cached on disk (unlike vecgames' kernels): Numba's cache is keyed on this file alone, so a
# cached kernel would keep playing an old version of the policies after policies/dayaoguai.py
# changes (seen while writing this). Compiling it takes a few seconds per process.
@njit(parallel=True, cache=False, nogil=True, error_model="numpy", _nrt=False)
def _baseline_kernel(s, r, seat_policy, actions):
    for i in prange(s.rng.shape[0]):
        pol = seat_policy[i, s.table[i, PLAYER]]
        if pol >= 0:
            actions[i] = policy_action(pol, s, i, r)


def baseline_actions(env: Any, seat_policy: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """Fill ``actions[i]`` with the njit baseline ``POLICIES[seat_policy[i, p]]`` of the seat p
    to act in env i, from the env's state; rows whose seat is LEARNER are left as they are.
    (``random`` draws from the env's own stream, as in ``vecgames.simulate``.)"""
    _baseline_kernel(env.state, env.rules, seat_policy, actions)
    return actions


# -- returns -------------------------------------------------------------------------------
def seat_returns(reward: torch.Tensor, done: torch.Tensor, player: torch.Tensor,
                 value: torch.Tensor, gamma: float, lam: float
                 ) -> tuple[torch.Tensor, torch.Tensor]:
    """Lambda-returns over each seat's own decisions, and whether each is known yet.

    Time-major: ``reward`` [T, B, P], ``done`` [T, B], ``player`` [T, B] (the seat acting at
    step t), ``value`` [T, B] (that decision's value estimate, in return units). The decision
    at step t of seat p earns ``r`` = seat p's rewards from step t up to (not including) its
    next decision t' in the same game, and ``G[t] = r + gamma * ((1 - lam) * value[t'] +
    lam * G[t'])``. If the game ends first (a ``done`` step, whose reward is the ending game's),
    ``G[t] = r``. If neither is seen within the T steps the decision is pending
    (``known[t]`` False), and seat p's earlier decisions bootstrap from its value alone.
    """
    steps, b, _ = reward.shape
    rows = torch.arange(b, device=reward.device)
    acc = torch.zeros_like(reward[0])
    tail_g = torch.zeros_like(reward[0])
    tail_v = torch.zeros_like(reward[0])
    state = torch.full(reward[0].shape, PENDING, dtype=torch.int8, device=reward.device)
    G = torch.empty_like(value)
    known = torch.empty_like(done)
    for t in range(steps - 1, -1, -1):
        d = done[t].unsqueeze(1)
        acc = acc.masked_fill(d, 0.0) + reward[t]
        state = state.masked_fill(d, ENDED)
        p = player[t]
        st = state[rows, p]
        r = acc[rows, p]
        g = torch.where(st == NEXT,
                        r + gamma * ((1.0 - lam) * tail_v[rows, p] + lam * tail_g[rows, p]), r)
        ok = st != PENDING
        G[t] = g
        known[t] = ok
        tail_g[rows, p] = torch.where(ok, g, value[t])
        tail_v[rows, p] = value[t]
        acc[rows, p] = 0.0
        state[rows, p] = NEXT
    return G, known


# -- rollouts ------------------------------------------------------------------------------
@dataclass
class Rollout:
    """T steps of B envs, time-major (as ``zhajinhua.Rollout``, plus the values)."""

    obs: torch.Tensor  # float32 [T, B, D]
    mask: torch.Tensor  # bool [T, B, A]
    action: torch.Tensor  # int64 [T, B]
    player: torch.Tensor  # int64 [T, B]
    value: torch.Tensor  # float32 [T, B]: the learner's value estimate, return units
    reward: torch.Tensor  # float32 [T, B, P], scaled
    done: torch.Tensor  # bool [T, B]
    learner: torch.Tensor  # bool [T, B]
    fresh: torch.Tensor  # bool [T, B]


class CarryOver:
    """Turns rollouts into training batches, carrying pending decisions to the next one."""

    cfg: Config
    prev: Rollout | None = None

    def batch(self, new: Rollout) -> base.Batch:
        """Samples whose return is known: the previous rollout's pending decisions and this
        one's decisions (each seat's last one per env waits for the next call)."""
        parts = [new] if self.prev is None else [self.prev, new]
        cat = {k: torch.cat([getattr(r, k) for r in parts])
               for k in ("reward", "done", "player", "value")}
        G, known = seat_returns(cat["reward"], cat["done"], cat["player"], cat["value"],
                                self.cfg.gamma, self.cfg.lam)
        samples: list[base.Batch] = []
        start = 0
        for ro in parts:
            t = ro.done.shape[0]
            ok = known[start:start + t]
            choice = ro.mask.sum(-1) > 1  # forced moves (the 方块J lead, pass only) teach nothing
            sel = ro.fresh & ok & ro.learner & choice
            samples.append(base.Batch(ro.obs[sel], ro.mask[sel], ro.action[sel],
                                      G[start:start + t][sel]))
            ro.fresh &= ~ok
            start += t
        self.prev = new
        return base.Batch(*(torch.cat([getattr(s, k) for s in samples])
                            for k in ("obs", "mask", "action", "ret")))


def bean_rates(beans: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """The learner's beans per 1,000 env steps at the tables of each baseline, from the beans
    it won there and the env steps taken (per KINDS entry). A baseline without tables in the
    mix has no entry (no NaN in the history)."""
    rate = (beans * 1000.0 / np.maximum(counts, 1)).tolist()
    return {f"beans_vs_{k}": r
            for k, r, c in zip(KINDS, rate, counts, strict=True) if k != "self" and c}


class Collector(CarryOver):
    """Steps the training tables (learner by the net, baselines by the njit kernel) and keeps
    the previous rollout for carry-over. ``env_offset``/``num_envs``: this collector holds
    tables ``env_offset ..`` of the run's ``cfg.envs`` (a rollout worker's slice; table kinds
    and seats follow the global index)."""

    def __init__(self, cfg: Config, device: torch.device, generator: torch.Generator,
                 env_offset: int = 0, num_envs: int | None = None):
        self.cfg = cfg
        self.device = device
        self.gen = generator
        self.num_envs = cfg.envs if num_envs is None else num_envs
        self.env = cfg.make_env(self.num_envs, cfg.seed, env_offset)
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)
        mine = slice(env_offset, env_offset + self.num_envs)
        all_kinds = table_kinds(cfg.envs, parse_mix(cfg.mix))
        self.kinds = all_kinds[mine]
        self.seat_policy = seat_table(all_kinds, cfg.players)[mine]
        self.is_learner = torch.from_numpy(self.seat_policy == LEARNER).to(device)
        self.actions = np.zeros(self.num_envs, np.int64)
        self.scale = cfg.reward_scale / self.env.rules.base
        self.learner_seat = torch.arange(cfg.envs, device=device)[mine] % cfg.players
        self.kind_t = torch.from_numpy(self.kinds).to(device)

    def restart(self, streams: torch.Tensor | None) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask, self.cur = info["action_mask"], info["current_player"]

    def _empty(self) -> Rollout:
        t, b, env, dev = self.cfg.steps, self.num_envs, self.env, self.device
        return Rollout(
            obs=torch.empty((t, b, env.obs_dim), device=dev),
            mask=torch.empty((t, b, env.num_actions), dtype=torch.bool, device=dev),
            action=torch.empty((t, b), dtype=torch.int64, device=dev),
            player=torch.empty((t, b), dtype=torch.int64, device=dev),
            value=torch.zeros((t, b), device=dev),
            reward=torch.empty((t, b, env.num_players), device=dev),
            done=torch.empty((t, b), dtype=torch.bool, device=dev),
            learner=torch.empty((t, b), dtype=torch.bool, device=dev),
            fresh=torch.ones((t, b), dtype=torch.bool, device=dev),
        )

    @torch.no_grad()
    def collect(self, net: base.PolicyNet) -> tuple[Rollout, tuple[np.ndarray, np.ndarray]]:
        """One rollout of ``steps`` steps; also the learner's beans won and the env steps
        taken at the tables of each kind (``bean_rates`` makes the learning curve of them)."""
        ro = self._empty()
        envs = torch.arange(self.num_envs, device=self.device)
        beans = torch.zeros(len(KINDS), device=self.device)
        for t in range(self.cfg.steps):
            cur = self.cur.long()
            learner = self.is_learner[envs, cur]
            rows = envs[learner]
            logits, v = net(self.obs[rows], self.mask[rows])
            mine = base.sample_actions(logits, self.gen)
            baseline_actions(self.env, self.seat_policy, self.actions)
            actions = torch.from_numpy(self.actions)
            actions[rows.cpu()] = mine.cpu()
            ro.obs[t].copy_(self.obs)
            ro.mask[t].copy_(self.mask)
            ro.player[t].copy_(cur)
            ro.action[t].copy_(actions)
            ro.value[t, rows] = v * base.RETURN_SCALE
            ro.learner[t].copy_(learner)
            self.obs, reward, terminated, truncated, info = self.bridge.step(actions)
            self.mask, self.cur = info["action_mask"], info["current_player"]
            ro.reward[t].copy_(reward).mul_(self.scale)
            ro.done[t].copy_(terminated | truncated)
            mine_beans = reward.gather(1, self.learner_seat.unsqueeze(1)).squeeze(1)
            beans.index_add_(0, self.kind_t, mine_beans)
        counts = np.bincount(self.kinds, minlength=len(KINDS)) * self.cfg.steps
        return ro, (beans.cpu().numpy(), counts)


def worker_collector(cfg: Config, envs_per_worker: int, worker: int) -> Collector:
    """Rollout worker ``worker``'s collector: its slice of the tables, on the CPU, with its
    own sampling stream."""
    return Collector(cfg, torch.device("cpu"), worker_generator(cfg.seed, worker),
                     env_offset=worker * envs_per_worker, num_envs=envs_per_worker)


class RayCollector(CarryOver, ray_rollouts.RayCollector):
    """``cfg.workers`` Ray actors, each stepping ``cfg.envs / cfg.workers`` of the tables with
    a CPU copy of the policy; their rollouts are joined on the learner's device."""

    def __init__(self, cfg: Config, device: torch.device):
        ray_rollouts.RayCollector.__init__(self, cfg, device, cfg.make_env(1, cfg.seed),
                                           worker_collector, base.PolicyNet)

    def collect(self, net: base.PolicyNet) -> tuple[Rollout, tuple[np.ndarray, np.ndarray]]:
        rollout, parts = self.workers.collect(net, self.device)
        return rollout, (sum(p[0] for p in parts), sum(p[1] for p in parts))


# -- evaluation ----------------------------------------------------------------------------
@torch.no_grad()
def evaluate(net: base.PolicyNet | None, cfg: Config, device: torch.device,
             opponents: str = "random", policy: str = "trained") -> dict[str, Any]:
    """The policy at one seat, three (P - 1) njit ``opponents`` at the others, seats rotating.

    Env b plays exactly ``ceil(eval_games / eval_envs)`` games (learner at seat ``(b + k) % P``
    in its k-th game); returns mean beans per game with a 95% CI, the share of games truncated
    at ``max_steps`` and the mean game length. ``policy`` may name a baseline instead of the
    trained net (``"random"`` at the learner's seat breaks even against random players).
    """
    if opponents not in POLICIES:
        raise ValueError(f"opponents must be one of {POLICIES}, got {opponents!r}")
    if policy != "trained" and policy not in POLICIES:
        raise ValueError(f"policy must be 'trained' or one of {POLICIES}, got {policy!r}")
    envs = max(1, min(cfg.eval_envs, cfg.eval_games))
    per_env = math.ceil(cfg.eval_games / envs)
    p = cfg.players
    env = cfg.make_env(envs, cfg.seed + EVAL_SEED_OFFSET)
    bridge = TorchBridge(env, device)
    gen = torch.Generator(device=device).manual_seed(cfg.seed + EVAL_SEED_OFFSET)
    obs, info = bridge.reset()
    rows = np.arange(envs)
    rows_t = torch.arange(envs, device=device)
    played = np.zeros(envs, np.int64)
    beans = torch.zeros(envs, device=device)
    results = np.zeros((envs, per_env))
    truncs = np.zeros((envs, per_env), np.bool_)
    lengths = np.zeros((envs, per_env), np.int64)
    steps = np.zeros(envs, np.int64)
    seat_policy = np.full((envs, p), POLICIES.index(opponents), np.int64)
    me = LEARNER if policy == "trained" else POLICIES.index(policy)
    actions = np.zeros(envs, np.int64)
    start = time.perf_counter()
    while (played < per_env).any():
        seat = (rows + played) % p
        seat_policy[:] = POLICIES.index(opponents)
        seat_policy[rows, seat] = me
        baseline_actions(env, seat_policy, actions)
        act = torch.from_numpy(actions)
        if me == LEARNER:
            mine = rows_t[info["current_player"].long() == torch.from_numpy(seat).to(device)]
            logits, _ = net(obs[mine], info["action_mask"][mine])
            act[mine.cpu()] = base.sample_actions(logits, gen, greedy=cfg.eval_greedy).cpu()
        obs, reward, terminated, truncated, info = bridge.step(act)
        seat_t = torch.from_numpy(seat).to(device)
        beans += reward.gather(1, seat_t.unsqueeze(1)).squeeze(1)
        steps += 1
        ended = (terminated | truncated).cpu().numpy()
        done = ended & (played < per_env)
        idx = rows[done]
        results[idx, played[idx]] = beans.cpu().numpy()[idx]
        truncs[idx, played[idx]] = truncated.cpu().numpy()[idx]
        lengths[idx, played[idx]] = steps[idx]
        beans[torch.from_numpy(ended).to(device)] = 0.0
        steps[ended] = 0
        played += done
    record = runs.mean_ci(results.ravel())
    record.update(policy=policy, opponents=opponents, players=p, greedy=cfg.eval_greedy,
                  max_steps=cfg.max_steps, truncated=float(truncs.mean()),
                  mean_steps=float(lengths.mean()),
                  seconds=round(time.perf_counter() - start, 2))
    return record


# -- outputs -------------------------------------------------------------------------------
def plot_curve(history: list[dict[str, Any]], path: Path) -> None:
    """The learner's beans per 1,000 env steps at each baseline's tables during training,
    entropy and KL per iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    it = [h["iteration"] for h in history]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    k = max(1, len(history) // 20)
    for name in POLICIES:
        ys = np.array([h.get(f"beans_vs_{name}", np.nan) for h in history], dtype=float)
        if np.isnan(ys).all():
            continue
        line, = axes[0].plot(it, ys, alpha=0.25)
        if k > 1:
            smooth = np.convolve(np.nan_to_num(ys), np.ones(k) / k, mode="valid")
            axes[0].plot(it[k - 1:], smooth, color=line.get_color(), label=f"vs 3 {name}")
        else:
            line.set(alpha=1.0, label=f"vs 3 {name}")
    axes[0].axhline(0.0, color="grey", lw=0.8)
    axes[0].set(title="learner beans per 1,000 steps (training)", xlabel="iteration")
    axes[0].legend()
    for ax, key in zip(axes[1:], ("entropy", "kl"), strict=True):
        ax.plot(it, [h.get(key, np.nan) for h in history])
        ax.set(title=key, xlabel="iteration")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def describe(name: str, r: dict[str, Any]) -> str:
    return (f"vs 3 {name}: {r['mean']:+.1f} beans/game, 95% CI [{r['ci95_low']:.1f}, "
            f"{r['ci95_high']:.1f}] over {r['games']} games, {100 * r['truncated']:.1f}% "
            f"truncated")


def write_eval(out: Path, records: dict[str, dict[str, Any]], cfg: Config,
               train_info: dict[str, Any], command: str) -> None:
    data = {"evals": records, "train": train_info, "config": asdict(cfg), "command": command}
    (out / "eval.json").write_text(json.dumps(data, indent=2))
    lines = ["# Da Yaoguai policy evaluation", "", f"Command: `{command}`", "",
             f"Training: {train_info['iterations']} iterations, {train_info['seconds']:.0f} s, "
             f"{train_info['samples']} decisions trained on; table mix {cfg.mix}.", "",
             f"Trained policy ({'greedy' if cfg.eval_greedy else 'sampled'}) at one seat "
             f"(rotating) vs {cfg.players - 1} copies of a baseline, games cut at "
             f"max_steps={cfg.max_steps}; 95% CI by the normal approximation.", "",
             "| opponents | games | mean beans/game | 95% CI | truncated | mean steps |",
             "|---|---|---|---|---|---|"]
    for name, r in records.items():
        lines.append(f"| 3 × `{name}` | {r['games']} | **{r['mean']:+.1f}** | "
                     f"[{r['ci95_low']:.1f}, {r['ci95_high']:.1f}] | "
                     f"{100 * r['truncated']:.1f}% | {r['mean_steps']:.0f} |")
    lines.append("")
    (out / "eval.md").write_text("\n".join(lines))


# -- driver --------------------------------------------------------------------------------
def train(cfg: Config, command: str = "") -> dict[str, Any]:
    """Train, checkpoint, plot, evaluate; returns ``{"evals": ..., "train": ...}``."""
    device, gen, out, ckpt = runs.start_run(cfg)
    collector = RayCollector(cfg, device) if cfg.workers else Collector(cfg, device, gen)
    net = base.PolicyNet(collector.obs_dim, collector.num_actions, cfg.hidden).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    it, history, samples, before = runs.resume_state(ckpt, net, opt, gen, collector)
    start = time.perf_counter() - before  # a resumed run's clock goes on from its checkpoint
    deadline = None if cfg.minutes is None else start + 60.0 * cfg.minutes
    bar = base._progress(cfg, it)
    try:
        while (cfg.iterations is None or it < cfg.iterations) and (
                deadline is None or time.perf_counter() < deadline):
            it += 1
            rollout, (beans, counts) = collector.collect(net)
            curve = bean_rates(beans, counts)
            stats = base.update(net, opt, collector.batch(rollout), cfg, gen)
            samples += stats["samples"]
            stats.update(curve, iteration=it, seconds=time.perf_counter() - start)
            history.append(stats)
            bar.update(1)
            bar.set_postfix({k[9:]: f"{v:.0f}" for k, v in curve.items() if not math.isnan(v)}
                            | {"ent": f"{stats.get('entropy', 0):.2f}"})
            if cfg.checkpoint_every and it % cfg.checkpoint_every == 0:
                base.save_checkpoint(out / "checkpoints" / f"iter_{it:06d}.pt", net, opt, cfg, it,
                                     runs.run_state(gen, collector, history, samples,
                                                    time.perf_counter() - start))
    finally:  # Ray actors hold their CPUs until closed, also after an error
        bar.close()
        if isinstance(collector, RayCollector):
            collector.close()
    seconds = time.perf_counter() - start
    base.save_checkpoint(out / "final.pt", net, opt, cfg, it,
                         runs.run_state(gen, collector, history, samples, seconds))
    (out / "history.json").write_text(json.dumps(history, indent=1))
    plot_curve(history, out / "learning_curve.png")
    records = {name: evaluate(net, cfg, device, opponents=name) for name in cfg.eval_opponents}
    train_info = {"iterations": it, "seconds": round(seconds, 1), "samples": samples}
    write_eval(out, records, cfg, train_info, command)
    return {"evals": records, "train": train_info}


def load_policy(path: Any, device: Any = "cpu") -> base.PolicyNet:
    """The PolicyNet stored in a checkpoint written by this trainer (``weights_only``-safe)."""
    return base.load_policy(path, device)


DESCRIPTION = ("Train a Da Yaoguai policy (REINFORCE + value baseline + KL penalty, "
               "lambda-returns over each seat's decisions) against self-play and the njit "
               "baselines, and evaluate it against 3 random, 3 weakest and 3 pickup players.")
HELP = {
    "players": "seats per table (3..6)",
    "iterations": "training iterations (default 100 unless --minutes is given)",
    "max_steps": "env steps after which a game is truncated (training and evaluation)",
    "mix": "training-table weights: self (self-play), random, weakest, pickup (the learner "
           "vs 3 copies of that baseline)",
    "gamma": "discount per own decision",
    "lam": "lambda of the lambda-return",
    "reward_scale": "training reward = beans / base x this",
    "eval_games": "evaluation games per baseline",
}


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    return config_cli.build_parser(Config, prog, DESCRIPTION, HELP, skip=("eval_opponents",))


def check_config(cfg: Config) -> None:
    config_cli.budget_checks(cfg)
    config_cli.at_least(cfg, 1, "envs", "steps", "eval_games", "eval_envs", "max_steps")
    if not (0.0 <= cfg.gamma <= 1.0 and 0.0 <= cfg.lam <= 1.0):
        raise SystemExit("--gamma and --lam must be in [0, 1]")
    try:
        parse_mix(cfg.mix)
    except ValueError as exc:
        raise SystemExit(f"--{exc}") from exc


def parse_config(argv: list[str] | None = None, prog: str = PROG) -> Config:
    return config_cli.parse_config(Config, build_parser(prog), argv, check_config)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Command-line entry point; returns the exit code (``vecgames train dayaoguai`` calls
    it with ``prog="vecgames train dayaoguai"``)."""
    try:
        cfg, command = runs.parse_cli(argv, prog, parse_config, build_parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = train(cfg, command)
    t = result["train"]
    scores = "; ".join(describe(name, r) for name, r in result["evals"].items())
    print(f"trained {t['iterations']} iterations in {t['seconds']:.0f} s; {scores}; "
          f"outputs in {cfg.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
