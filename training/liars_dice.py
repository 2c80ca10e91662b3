"""Liar's Dice with 斋/飞: the seed project's DQN on the batched env and the torch bridge.

Run ``python -m vecgames.training.liars_dice --minutes 3`` (or
``vecgames train liars_dice ...``); the algorithm, its choices and a measured result are in
docs/training.md. In short (the seed's "最近更新" list, implemented as described):

- **Q over the full combined action**: one Q value per env action (challenge + every
  (mode, count, face) bid), from an MLP trunk on the seed's 22-value observation
  (``--observation full`` for the env's larger one). Illegal actions get -inf before every
  argmax (acting and targets). ``--head four`` is the seed's network instead: four action
  heads (main action, mode, count, face) whose outputs add up to each action's Q value
  (:class:`FourHeadQNet`; docs/liars_dice.md compares the two).
- **Double DQN** (the online net picks the next action among the legal ones, the target net
  values it), **n-step returns** (n=3, gamma 0.99) over the learner's own consecutive decisions
  (the opponent's moves in between belong to the environment), **Polyak** target updates
  (tau 0.005), **Huber** loss, **Adam** lr 1e-4, gradient-norm clipping 10, **epsilon-greedy**
  over legal actions decaying linearly to 0.1, a replay buffer of 200k transitions.
- **Potential-based shaping**: Phi(s) = ``--shaping`` x P(the last bid holds | the learner's
  own dice) at the learner's decision states (0 before the round's first bid and at the end of
  a round); F = gamma Phi(s') - Phi(s) is added to each decision's reward.
- **Opponent curriculum**: the seed's heuristic challenger (``env_actions(env, "heuristic",
  threshold)``) with its challenge threshold rising linearly (0.2 -> 0.5 over the first half),
  then a frozen copy of the online network, refreshed every ``--selfplay-refresh`` updates,
  at ``--selfplay-fraction`` of the tables (default half; the others keep the heuristic at
  0.5). The learner's seat is drawn at random for every match.

The result is a greedy agent; :func:`load_agent` rebuilds it from a checkpoint
(``Agent.act(obs, mask)``) for play against people.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

import vecgames
import vecgames.games.liars_dice  # noqa: F401  (imported before the policies: import order)
from vecgames.games.liars_dice.bids import (
    B_COUNT,
    B_FACE,
    B_MODE,
    FEI,
)
from vecgames.games.liars_dice.odds import TAIL
from vecgames.games.liars_dice.rules import DICE, LAST, PLAYER
from vecgames.policies.checkpoint import load_network
from vecgames.policies.liars_dice import env_actions
from vecgames.policies.nets import (  # noqa: F401  (QNet, FourHeadQNet, head_layout: re-exported)
    HEADS,
    FourHeadQNet,
    QNet,
    QNetwork,
    greedy_actions,
    head_layout,
    make_qnet,
    masked_q,
)
from vecgames.torch_bridge import TorchBridge, import_torch, resolve_device

from . import config_cli, runs
from .runs import start_run

torch = import_torch()
nn = torch.nn
F = torch.nn.functional

GAME = "liars_dice"
PROG = "python -m vecgames.training.liars_dice"
DEFAULT_OUT = "runs/liars_dice"
EVAL_SEED_OFFSET = 1_000_003  # final evaluation: a stream training never sees
CURVE_SEED_OFFSET = 2_000_003  # the learning curve's small evaluations: another one
OPPONENTS = ("random", "heuristic")
NEG_INF = float("-inf")


@dataclass
class Config:
    """Everything a run depends on; saved in every checkpoint and in config.json."""

    game: str = GAME
    players: int = 2
    dice: int = 5
    variant: str = "zhai_fei"  # or "basic": the seed's basic rules, 飞 bids only
    observation: str = "seed"
    envs: int = 512
    iterations: int | None = None
    minutes: float | None = None
    seed: int = 0
    out: str = DEFAULT_OUT
    device: str = "cpu"
    # the network and the DQN update
    hidden: int = 256
    layers: int = 2
    head: str = "combined"  # or "four": the seed's four action heads (FourHeadQNet)
    lr: float = 1e-4
    gamma: float = 0.99
    n_step: int = 3
    tau: float = 0.005
    batch_size: int = 256
    buffer_size: int = 200_000
    learning_starts: int = 10_000
    updates_per_step: int = 1
    grad_clip: float = 10.0
    # exploration and shaping
    eps_start: float = 1.0
    eps_end: float = 0.1
    eps_decay: float = 0.3  # fraction of the budget over which epsilon falls to eps_end
    shaping: float = 0.1
    # opponent curriculum
    threshold_start: float = 0.2
    threshold_end: float = 0.5
    threshold_ramp: float = 0.5  # fraction of the budget over which the threshold rises
    selfplay_start: float = 0.5  # fraction of the budget after which self-play begins
    selfplay_fraction: float = 0.5  # share of the envs that face the frozen copy from then on
    selfplay_refresh: int = 2_000  # updates between refreshes of the frozen copy
    opponent_epsilon: float = 0.0  # the frozen copy's random-legal rate
    # evaluation and outputs
    eval_games: int = 20_000
    eval_envs: int = 2_000
    eval_threshold: float = 0.5
    log_every: int = 500
    curve_games: int = 2_000
    checkpoint_every: int = 10_000
    torch_threads: int = 1
    env_threads: int = 1
    progress: bool = True
    resume: bool = False  # continue the run in ``out`` from its last checkpoint
    overwrite: bool = False  # replace the run in ``out`` (neither: refuse a used ``out``)

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 20_000

    def env_options(self) -> dict[str, Any]:
        """Keywords of ``vecgames.make`` that rebuild this run's env (one round a match)."""
        return {"num_players": self.players, "dice": self.dice, "num_rounds": 1,
                "variant": self.variant, "observation": self.observation}


def random_legal(mask: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One uniformly drawn legal action per row (every row must have one)."""
    u = torch.rand(mask.shape, generator=generator, device=mask.device)
    return u.masked_fill(~mask, -1.0).argmax(-1)


@torch.no_grad()
def double_dqn_target(online: nn.Module, target: nn.Module, ret: torch.Tensor,
                      next_obs: torch.Tensor, next_mask: torch.Tensor, discount: torch.Tensor,
                      done: torch.Tensor) -> torch.Tensor:
    """``ret + discount * Q_target(s', argmax_{legal a'} Q_online(s', a'))``, just ``ret`` where
    ``done``: the online net picks among the legal next actions, the target net values it."""
    pick = greedy_actions(online, next_obs, next_mask)
    value = target(next_obs).gather(1, pick.unsqueeze(1)).squeeze(1)
    return ret + torch.where(done, torch.zeros_like(value), discount * value)


# -- bid plausibility (the shaping potential) --------------------------------------------
def bid_plausibility(env: Any) -> np.ndarray:
    """float64 ``[B]``: P(the last bid holds | the dice of the player to act), with the other
    seats' dice unknown; 0 where no bid has been made this round. The seed observation's
    feature 19, computed from the env state so it serves either observation."""
    table, rules = env.state.table, env.rules
    last = table[:, LAST]
    seat = table[np.arange(table.shape[0]), DICE + table[:, PLAYER]]
    mode = rules.bids[last, B_MODE]
    count = rules.bids[last, B_COUNT]
    face = np.maximum(rules.bids[last, B_FACE], 1)
    own = (seat >> (4 * (face - 1))) & 15
    own = own + np.where((mode == FEI) & (face != 1), seat & 15, 0)
    unknown = rules.total_dice - rules.dice
    need = np.clip(count - own, 0, unknown + 1)
    return np.where(last > 0, TAIL[mode, unknown, need], 0.0)


# -- n-step returns per acting seat --------------------------------------------------------
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

    The learner's decisions in one round, d_0, d_1, ..., are its MDP's steps; whatever the
    other seats do between them is the environment. Decision k's reward R_k is the learner's
    reward summed over every env step from d_k up to d_{k+1} (or to the end of the round: a
    round ended by the opponent's challenge pays the learner's last decision), plus the
    shaping F_k = gamma Phi_{k+1} - Phi_k, with Phi = 0 once the round is over. Decision k's
    transition is ``(o_k, a_k, sum_{i<n} gamma^i R_{k+i}, o_{k+n}, mask_{k+n})``, cut at the
    round's end (``done``). It is emitted when d_{k+n} is made or when the round ends.

    Call :meth:`decide` before each env step (``rows``: envs where the learner acts now) and
    :meth:`after_step` after it with the learner's reward and the ``done`` flags
    (terminated | truncated). ``done`` closes every open decision of that env at once, so with
    the same-step auto-reset nothing of the next match is ever mixed in; rewards of a round in
    which the learner has not acted yet are dropped (there is no decision to credit).
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
        self.count = torch.zeros(num_envs, dtype=torch.int64, device=dev)  # decisions this round
        self.reward = torch.zeros(num_envs, device=dev)  # learner reward since its last decision
        self.phi = torch.zeros(num_envs, device=dev)  # Phi of its last decision
        self.powers = self.gamma ** torch.arange(n + 1, dtype=torch.float32, device=dev)
        self._envs = torch.arange(num_envs, device=dev)

    def _credit(self, envs: torch.Tensor, reward: torch.Tensor) -> torch.Tensor:
        """Add one decision's reward to every open decision of ``envs`` (bool [B]) with its
        discount; returns the open slots it reached (bool [B, n])."""
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
        if done:
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
        [B, ...] tensors; other rows are ignored); ``phi`` is Phi of those states. Returns the
        transitions that reached n reward terms (their next state is this one)."""
        again = rows & (self.count > 0)
        shaped = self.reward + self.gamma * phi - self.phi
        self._credit(again, shaped)
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
        transitions the ended rounds closed (``done``, no bootstrap)."""
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


# -- replay --------------------------------------------------------------------------------
class ReplayBuffer:
    """A ring of transitions in preallocated torch tensors, sampled uniformly."""

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
        self.pos = 0
        self.size = 0
        self.added = 0

    def add(self, t: Transitions) -> None:
        n = len(t)
        if n == 0:
            return
        if n > self.capacity:  # keep the newest
            t = Transitions(*(x[n - self.capacity:] for x in t))
            n = self.capacity
        idx = (self.pos + torch.arange(n, device=self.obs.device)) % self.capacity
        for name in ("obs", "next_obs", "next_mask", "action", "ret", "done", "discount"):
            getattr(self, name)[idx] = getattr(t, name).to(getattr(self, name).dtype)
        self.pos = (self.pos + n) % self.capacity
        self.size = min(self.size + n, self.capacity)
        self.added += n

    def sample(self, batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
        idx = torch.randint(0, self.size, (batch,), generator=generator,
                            device=generator.device).to(self.obs.device)
        return {name: getattr(self, name)[idx] for name in
                ("obs", "action", "ret", "next_obs", "next_mask", "done", "discount")}


# -- the update ----------------------------------------------------------------------------
def dqn_update(online: QNetwork, target: QNetwork, opt: torch.optim.Optimizer,
               batch: dict[str, torch.Tensor], cfg: Config) -> tuple[float, float]:
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


@torch.no_grad()
def polyak(target: nn.Module, online: nn.Module, tau: float) -> None:
    """target <- (1 - tau) target + tau online."""
    for t, o in zip(target.parameters(), online.parameters(), strict=True):
        t.lerp_(o, tau)


def linear(frac: float, start: float, end: float, span: float) -> float:
    """``start`` -> ``end`` linearly over progress [0, span], then ``end``."""
    if span <= 0:
        return end
    return start + (end - start) * min(1.0, max(0.0, frac) / span)


# -- the agent -----------------------------------------------------------------------------
class Agent:
    """A greedy player from a trained Q network.

    ``observation``, ``num_players`` and ``dice`` say which env it plays (``env_options()``
    gives the ``vecgames.make("liars_dice", ...)`` keywords); ``act(obs, mask)`` takes numpy
    float32 ``[B, obs_dim]`` observations and bool ``[B, num_actions]`` legal masks of the
    players to act and returns int64 ``[B]`` legal actions.
    """

    def __init__(self, net: QNetwork, config: dict[str, Any], device: Any = "cpu"):
        self.device = resolve_device(device)
        self.net = net.to(self.device).eval()
        self.config = dict(config)
        self.observation: str = config["observation"]
        self.num_players: int = int(config["players"])
        self.dice: int = int(config["dice"])
        self.obs_dim, self.num_actions = net.obs_dim, net.num_actions

    def env_options(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "dice": self.dice,
                "variant": self.config.get("variant", "zhai_fei"),
                "observation": self.observation}

    @torch.no_grad()
    def q_values(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """float32 ``[B, num_actions]`` Q values, -inf at illegal actions."""
        o, m = self._check(obs, mask)
        return masked_q(self.net(o), m).cpu().numpy()

    @torch.no_grad()
    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        o, m = self._check(obs, mask)
        if o.shape[0] == 0:
            return np.zeros(0, np.int64)
        return greedy_actions(self.net, o, m).cpu().numpy().astype(np.int64)

    def _check(self, obs: Any, mask: Any) -> tuple[torch.Tensor, torch.Tensor]:
        obs = np.asarray(obs, dtype=np.float32)
        mask = np.asarray(mask)
        if obs.ndim != 2 or obs.shape[1] != self.obs_dim:
            raise ValueError(f"obs must be [B, {self.obs_dim}] ({self.observation} "
                             f"observation), got shape {obs.shape}")
        if mask.dtype != np.bool_ or mask.shape != (obs.shape[0], self.num_actions):
            raise ValueError(f"mask must be bool [B, {self.num_actions}] with B = "
                             f"{obs.shape[0]}, got {mask.dtype} {mask.shape}")
        if obs.shape[0] and not mask.any(1).all():
            raise ValueError("every mask row needs a legal action")
        return (torch.from_numpy(obs).to(self.device),
                torch.from_numpy(np.ascontiguousarray(mask)).to(self.device))


def load_agent(path: str | os.PathLike, device: Any = "cpu") -> Agent:
    """The greedy :class:`Agent` stored in a checkpoint written by this trainer (loaded with
    ``weights_only=True``: a file holding other objects is refused with a ValueError)."""
    dev = resolve_device(device)
    net, _, ckpt, _ = load_network(path, dev)
    return Agent(net, ckpt["config"], dev)


# -- evaluation ----------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def evaluate(agent: Agent, opponent: str = "heuristic", games: int = 20_000,
             envs: int = 2_000, seed: int = 0, threshold: float = 0.5) -> dict[str, Any]:
    """Greedy ``agent`` at one seat, ``opponent`` players (``"random"``: uniform over legal
    actions; ``"heuristic"``: the seed's challenger at ``threshold``) at the others.

    Env b plays exactly ``ceil(games / envs)`` matches (one round each) with the agent at
    seat ``(b + k) % P`` in its k-th, so seats alternate. Returns the win rate (the agent did
    not lose the round) with its 95% Wilson interval, the fair share (P-1)/P, and the mean
    reward per match with a 95% normal interval.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {OPPONENTS}, got {opponent!r}")
    envs = max(1, min(envs, games))
    per_env = math.ceil(games / envs)
    p = agent.num_players
    env = vecgames.make(GAME, num_envs=envs, seed=seed, num_rounds=1, **agent.env_options())
    obs, info = env.reset()
    rows = np.arange(envs)
    played = np.zeros(envs, np.int64)
    rewards = np.zeros((envs, per_env), np.float64)
    start = time.perf_counter()
    while (played < per_env).any():
        seat = (rows + played) % p
        mine = info["current_player"] == seat
        actions = env_actions(env, opponent, threshold)
        if mine.any():
            actions[mine] = agent.act(obs[mine], info["action_mask"][mine])
        obs, reward, terminated, truncated, info = env.step(actions)
        done = (terminated | truncated) & (played < per_env)
        idx = rows[done]
        rewards[idx, played[idx]] = reward[idx, seat[idx]]
        played += done
    flat = rewards.ravel()
    n = flat.size
    wins = int((flat > 0).sum())
    low, high = wilson(wins, n)
    mean = float(flat.mean())
    se = float(flat.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return {"opponent": opponent, "threshold": threshold if opponent == "heuristic" else None,
            "games": n, "wins": wins, "win_rate": wins / n, "ci95_low": low, "ci95_high": high,
            "fair_share": (p - 1) / p, "mean_reward": mean,
            "reward_ci95": [mean - 1.96 * se, mean + 1.96 * se], "players": p,
            "seconds": round(time.perf_counter() - start, 2)}


# -- outputs -------------------------------------------------------------------------------
def save_checkpoint(path: Path, online: QNetwork, target: QNetwork, opt: torch.optim.Optimizer,
                    cfg: Config, iteration: int, updates: int,
                    state: dict[str, Any] | None = None) -> None:
    """The networks, the optimizer, the config and ``state`` (what ``--resume`` restores), as
    tensors and plain data (see ``runs.save_checkpoint``)."""
    runs.save_checkpoint(path, {
        "model": online.state_dict(), "target": target.state_dict(),
        "optimizer": opt.state_dict(), "config": asdict(cfg), "game": cfg.game,
        "iteration": iteration, "updates": updates, "obs_dim": online.obs_dim,
        "num_actions": online.num_actions,
        "env_options": cfg.env_options(), **(state or {})})


def plot_curve(history: list[dict[str, Any]], path: Path) -> None:
    """Greedy win rates vs the heuristic (0.5) and random during training, the loss and the
    schedules."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [h["seconds"] / 60 for h in history]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    for key, label in (("curve_vs_heuristic", "greedy vs heuristic 0.5"),
                       ("curve_vs_random", "greedy vs random"),
                       ("train_win_rate", "training games (with exploration)")):
        ax.plot(x, [h.get(key, np.nan) for h in history], label=label)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set(title="learner win rate", xlabel="training minutes", ylim=(0, 1))
    ax.legend(fontsize=8)
    axes[1].plot(x, [h.get("loss", np.nan) for h in history], label="Huber loss")
    axes[1].plot(x, [h.get("mean_q", np.nan) for h in history], label="mean Q(s, a)")
    axes[1].set(title="DQN", xlabel="training minutes")
    axes[1].legend(fontsize=8)
    for key in ("epsilon", "threshold", "selfplay"):
        axes[2].plot(x, [h.get(key, np.nan) for h in history], label=key)
    axes[2].set(title="schedules", xlabel="training minutes")
    axes[2].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_eval(out: Path, records: dict[str, dict[str, Any]], cfg: Config,
               train_info: dict[str, Any], command: str) -> None:
    data = {"evals": records, "train": train_info, "config": asdict(cfg), "command": command}
    (out / "eval.json").write_text(json.dumps(data, indent=2))
    lines = ["# Liar's Dice DQN evaluation", "", f"Command: `{command}`", "",
             f"Training: {train_info['iterations']} iterations, {train_info['updates']} "
             f"updates, {train_info['transitions']} transitions, "
             f"{train_info['seconds']:.0f} s.", ""]
    for r in records.values():
        lines.append(f"- {describe(r)}")
    (out / "eval.md").write_text("\n".join(lines) + "\n")


def describe(r: dict[str, Any]) -> str:
    who = ("uniform-random-legal" if r["opponent"] == "random"
           else f"heuristic (threshold {r['threshold']})")
    return (f"vs {who}: win rate {r['win_rate']:.4f}, 95% CI [{r['ci95_low']:.4f}, "
            f"{r['ci95_high']:.4f}] over {r['games']} matches (fair share "
            f"{r['fair_share']:.2f})")


# -- driver --------------------------------------------------------------------------------
class Progress:
    """Fraction of the budget spent: the larger of iterations and minutes, when given."""

    def __init__(self, cfg: Config, before: float = 0.0):
        self.cfg = cfg
        self.start = time.perf_counter() - before  # a resumed run goes on from its checkpoint

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def fraction(self, it: int) -> float:
        parts = []
        if self.cfg.iterations is not None:
            parts.append(it / self.cfg.iterations)
        if self.cfg.minutes is not None:
            parts.append(self.seconds() / (60.0 * self.cfg.minutes))
        return max(parts)


def train(cfg: Config, command: str = "") -> dict[str, Any]:
    """Train, checkpoint, plot, evaluate; returns ``{"evals", "train"}``."""
    validate(cfg)
    import numba

    threads_before = numba.get_num_threads()
    if cfg.env_threads > 0:
        # One env step of 512 tables takes ~0.1 ms; a parallel kernel whose second thread is
        # descheduled (a busy 2-core machine) waited milliseconds at its barrier instead.
        numba.set_num_threads(min(cfg.env_threads, numba.config.NUMBA_NUM_THREADS))
    try:
        return _train(cfg, command)
    finally:
        numba.set_num_threads(threads_before)


def _train(cfg: Config, command: str) -> dict[str, Any]:
    device, gen, out, ckpt = start_run(cfg)

    env = vecgames.make(GAME, num_envs=cfg.envs, seed=cfg.seed, **cfg.env_options())
    bridge = TorchBridge(env, device)
    obs, info = runs.restart_envs(bridge, None if ckpt is None else ckpt["env_streams"])
    b, p, a_n = cfg.envs, cfg.players, env.num_actions
    online = make_qnet(cfg.head, env.obs_dim, a_n, cfg.hidden, cfg.layers).to(device)
    target = copy.deepcopy(online)
    opt = torch.optim.Adam(online.parameters(), lr=cfg.lr)
    frozen: QNetwork | None = None
    tracker = NStepTracker(b, env.obs_dim, a_n, cfg.n_step, cfg.gamma, device)
    buffer = ReplayBuffer(cfg.buffer_size, env.obs_dim, a_n, device)
    seat = torch.randint(0, p, (b,), generator=gen, device=device)
    selfplay_env = torch.arange(b, device=device) < round(cfg.selfplay_fraction * b)
    history: list[dict[str, Any]] = []
    it = updates = refreshed_at = 0
    before = 0.0
    if ckpt is not None:  # the replay buffer and the running matches are not saved
        online.load_state_dict(ckpt["model"])
        target.load_state_dict(ckpt["target"])
        opt.load_state_dict(ckpt["optimizer"])
        if ckpt.get("frozen") is not None:
            frozen = copy.deepcopy(online).eval()
            frozen.load_state_dict(ckpt["frozen"])
        runs.restore_rng(ckpt, gen)
        it, updates, refreshed_at = ckpt["iteration"], ckpt["updates"], ckpt["refreshed_at"]
        history, before, buffer.added = list(ckpt["history"]), ckpt["seconds"], ckpt["transitions"]
        seat = torch.randint(0, p, (b,), generator=gen, device=device)
    curve_agent = Agent(online, asdict(cfg), device)  # shares the online net's weights
    online.train()

    def state() -> dict[str, Any]:
        return {"frozen": None if frozen is None else frozen.state_dict(),
                "refreshed_at": refreshed_at, "history": history,
                "seconds": progress.seconds(), "transitions": buffer.added,
                "rng": runs.rng_state(gen), "env_streams": runs.env_streams(env)}

    progress = Progress(cfg, before)
    bar = _progress(cfg, it)
    window = {"loss": 0.0, "q": 0.0, "n": 0, "wins": 0, "rounds": 0}
    while True:
        frac = progress.fraction(it)
        if frac >= 1.0:
            break
        it += 1
        eps = linear(frac, cfg.eps_start, cfg.eps_end, cfg.eps_decay)
        threshold = linear(frac, cfg.threshold_start, cfg.threshold_end, cfg.threshold_ramp)
        selfplay = frac >= cfg.selfplay_start and cfg.selfplay_fraction > 0
        if selfplay and frozen is None:
            frozen, refreshed_at = copy.deepcopy(online).eval(), updates

        mask = info["action_mask"]
        cur = info["current_player"].to(device=device, dtype=torch.int64)
        mine = cur == seat
        actions = torch.zeros(b, dtype=torch.int64, device=device)
        with torch.no_grad():
            if bool(mine.any()):
                rows = mine.nonzero().squeeze(1)
                greedy = greedy_actions(online, obs[rows], mask[rows])
                explore = torch.rand(rows.shape[0], generator=gen, device=device) < eps
                actions[rows] = torch.where(explore, random_legal(mask[rows], gen), greedy)
            vs_frozen = ~mine & selfplay_env if selfplay else torch.zeros_like(mine)
            vs_heuristic = ~mine & ~vs_frozen
            if bool(vs_heuristic.any()):
                heur = torch.from_numpy(env_actions(env, "heuristic", threshold)).to(device)
                actions = torch.where(vs_heuristic, heur, actions)
            if frozen is not None and bool(vs_frozen.any()):
                rows = vs_frozen.nonzero().squeeze(1)
                a_f = greedy_actions(frozen, obs[rows], mask[rows])
                if cfg.opponent_epsilon > 0:
                    explore = (torch.rand(rows.shape[0], generator=gen, device=device)
                               < cfg.opponent_epsilon)
                    a_f = torch.where(explore, random_legal(mask[rows], gen), a_f)
                actions[rows] = a_f
        phi = cfg.shaping * torch.from_numpy(bid_plausibility(env)).to(device, torch.float32)
        buffer.add(tracker.decide(mine, obs, mask, actions, phi))

        obs, reward, terminated, truncated, info = bridge.step(actions)
        done = (terminated | truncated).to(device)
        r_learner = reward.to(device).gather(1, seat.unsqueeze(1)).squeeze(1)
        buffer.add(tracker.after_step(r_learner, done))
        n_done = int(done.sum())
        if n_done:
            window["wins"] += int((r_learner[done] > 0).sum())
            window["rounds"] += n_done
            seat = torch.where(done, torch.randint(0, p, (b,), generator=gen, device=device),
                               seat)

        if buffer.size >= max(cfg.learning_starts, cfg.batch_size):
            for _ in range(cfg.updates_per_step):
                loss, mean_q = dqn_update(online, target, opt,
                                          buffer.sample(cfg.batch_size, gen), cfg)
                updates += 1
                window["loss"] += loss
                window["q"] += mean_q
                window["n"] += 1
            if frozen is not None and updates - refreshed_at >= cfg.selfplay_refresh:
                frozen.load_state_dict(online.state_dict())
                refreshed_at = updates

        bar.update(1)
        if cfg.log_every and it % cfg.log_every == 0:
            record = {"iteration": it, "seconds": progress.seconds(), "updates": updates,
                      "transitions": buffer.added, "epsilon": eps, "threshold": threshold,
                      "selfplay": float(selfplay),
                      "train_win_rate": window["wins"] / max(1, window["rounds"]),
                      "loss": window["loss"] / window["n"] if window["n"] else float("nan"),
                      "mean_q": window["q"] / window["n"] if window["n"] else float("nan")}
            for opp in OPPONENTS if cfg.curve_games else ():  # inside the time budget
                r = evaluate(curve_agent, opp, cfg.curve_games, min(cfg.curve_games, 1000),
                             cfg.seed + CURVE_SEED_OFFSET, cfg.eval_threshold)
                record[f"curve_vs_{opp}"] = r["win_rate"]
            history.append(record)
            window = {"loss": 0.0, "q": 0.0, "n": 0, "wins": 0, "rounds": 0}
            bar.set_postfix(eps=f"{eps:.2f}", thr=f"{threshold:.2f}",
                            vs_heur=f"{record.get('curve_vs_heuristic', float('nan')):.3f}",
                            loss=f"{record['loss']:.4f}")
        if cfg.checkpoint_every and it % cfg.checkpoint_every == 0:
            save_checkpoint(out / "checkpoints" / f"iter_{it:07d}.pt", online, target, opt,
                            cfg, it, updates, state())
    bar.close()
    seconds = progress.seconds()
    save_checkpoint(out / "final.pt", online, target, opt, cfg, it, updates, state())
    (out / "history.json").write_text(json.dumps(history, indent=1))
    plot_curve(history, out / "learning_curve.png")
    agent = Agent(online, asdict(cfg), device)
    records = {opp: evaluate(agent, opp, cfg.eval_games, cfg.eval_envs,
                             cfg.seed + EVAL_SEED_OFFSET, cfg.eval_threshold)
               for opp in OPPONENTS}
    train_info = {"iterations": it, "updates": updates, "transitions": buffer.added,
                  "seconds": round(seconds, 1)}
    write_eval(out, records, cfg, train_info, command)
    return {"evals": records, "train": train_info}


def validate(cfg: Config) -> None:
    """Reject settings the trainer cannot use (argparse-level messages)."""
    checks = [
        (cfg.iterations is None or cfg.iterations >= 1, "--iterations must be >= 1"),
        (cfg.minutes is None or cfg.minutes > 0, "--minutes must be > 0"),
        (cfg.observation in ("seed", "full"), "--observation must be 'seed' or 'full'"),
        (cfg.head in HEADS, "--head must be 'combined' or 'four'"),
        (cfg.variant in ("zhai_fei", "basic"), "--variant must be 'zhai_fei' or 'basic'"),
        (cfg.n_step >= 1, "--n-step must be >= 1"),
        (0.0 < cfg.gamma <= 1.0, "--gamma must be in (0, 1]"),
        (0.0 < cfg.tau <= 1.0, "--tau must be in (0, 1]"),
        (cfg.batch_size >= 1 and cfg.buffer_size >= cfg.batch_size,
         "--buffer-size must be >= --batch-size >= 1"),
        (cfg.envs >= 1 and cfg.hidden >= 1 and cfg.layers >= 1,
         "--envs, --hidden and --layers must be >= 1"),
        (cfg.updates_per_step >= 0, "--updates-per-step must be >= 0"),
        (all(0.0 <= x <= 1.0 for x in (cfg.eps_start, cfg.eps_end, cfg.threshold_start,
                                       cfg.threshold_end, cfg.eval_threshold,
                                       cfg.selfplay_fraction, cfg.opponent_epsilon)),
         "epsilons, thresholds and --selfplay-fraction must be in [0, 1]"),
        (cfg.eval_games >= 1 and cfg.eval_envs >= 1, "--eval-games must be >= 1"),
    ]
    for ok, message in checks:
        if not ok:
            raise SystemExit(message)


def _progress(cfg: Config, initial: int = 0) -> Any:
    return runs.progress_bar(cfg.iterations, f"train {cfg.game}", cfg.progress,
                             initial=initial, mininterval=1.0)


# -- command line --------------------------------------------------------------------------
DESCRIPTION = ("Train the seed's Liar's Dice DQN (combined-action Q, Double DQN, 3-step returns, "
               "shaping, heuristic-then-self-play curriculum) and evaluate it against random and "
               "heuristic opponents.")
HELP = {
    "iterations": "env steps of all tables (default 20000 unless --minutes is given)",
    "players": "seats per table",
    "dice": "dice per player",
    "variant": "'zhai_fei' or 'basic' (the seed's basic rules: 飞 only)",
    "observation": "'seed' (the seed's 22 values) or 'full'",
    "envs": "parallel tables stepping in lock-step",
    "seed": "seeds torch, the env streams and the schedules' draws",
    "out": "output directory",
    "hidden": "MLP width",
    "layers": "MLP hidden layers",
    "head": ("'combined' (one Q per action) or 'four' (the seed's main/mode/count/face heads, "
             "Q = their sum)"),
    "lr": "Adam learning rate",
    "gamma": "discount per learner decision",
    "n_step": "n of the n-step returns",
    "tau": "Polyak rate of the target network",
    "batch_size": "transitions per gradient update",
    "buffer_size": "replay capacity (transitions)",
    "learning_starts": "transitions stored before the first update",
    "updates_per_step": "gradient updates per env step",
    "grad_clip": "gradient-norm clip",
    "eps_start": "initial epsilon",
    "eps_end": "final epsilon",
    "eps_decay": "budget fraction over which epsilon decays",
    "shaping": "potential coefficient (0: no shaping)",
    "threshold_start": "heuristic opponent's first threshold",
    "threshold_end": "heuristic opponent's last threshold",
    "threshold_ramp": "budget fraction of the threshold ramp",
    "selfplay_start": "budget fraction after which envs face the frozen copy (>= 1: never)",
    "selfplay_fraction": ("share of the envs facing the frozen copy once self-play starts (others: "
                          "heuristic)"),
    "selfplay_refresh": "updates between frozen-copy refreshes",
    "opponent_epsilon": "frozen copy's random-legal rate",
    "eval_games": "final evaluation matches per opponent",
    "eval_envs": "parallel evaluation tables",
    "eval_threshold": "the evaluated heuristic's threshold",
    "log_every": "iterations between learning-curve points (0: none)",
    "curve_games": "matches per opponent at each curve point (0: none)",
    "checkpoint_every": "iterations between checkpoints (0: final)",
    "torch_threads": "torch CPU threads (0: torch's default)",
    "env_threads": "Numba threads of the env kernels (0: all cores)",
}


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    return config_cli.build_parser(Config, prog, DESCRIPTION, HELP)


def parse_config(argv: list[str] | None = None, prog: str = PROG) -> Config:
    return config_cli.parse_config(Config, build_parser(prog), argv, validate)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Command-line entry point; returns the exit code (``vecgames train liars_dice`` calls
    it with ``prog="vecgames train liars_dice"``)."""
    try:
        cfg, command = runs.parse_cli(argv, prog, parse_config, build_parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = train(cfg, command)
    t = result["train"]
    print(f"trained {t['iterations']} iterations ({t['updates']} updates) in "
          f"{t['seconds']:.0f} s; outputs in {cfg.out}")
    for r in result["evals"].values():
        print(describe(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
