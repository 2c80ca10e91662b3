"""Policy gradient for the competitive games (Zha Jin Hua, Hold'em, Da Yaoguai): tables of
``--mix`` (self-play, the league of snapshots, any player), per-seat returns with carry-over,
and the KL-penalised REINFORCE with a value baseline or the shared PPO update (``ppo``;
docs/training.md)."""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import vecgames
from vecgames.policies.nets import PolicyNet
from vecgames.policies.protocol import resolve_player
from vecgames.simulators.mixed import (
    checked_actions,
    checked_answer,
    exact_actions,
    player_answer,
)
from vecgames.torch_bridge import TorchBridge, import_torch

from . import config_cli, core, ppo, ray_rollouts, runs

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402
from torch.nn import functional as F  # noqa: E402

RETURN_SCALE = 32.0  # the value head predicts return / RETURN_SCALE (returns reach hundreds)
PENDING, ENDED, NEXT = 0, 1, 2  # what follows a seat's decision (seat_returns)
SELF, LEAGUE = "self", "league"


@dataclass
class Config(core.Config):
    """The policy-gradient trainers' config; a game's trainer subclasses it with its own
    defaults."""

    game: str = ""  # each game's trainer sets its own
    players: int = 6
    out: str = "runs/pg"
    steps: int = 64  # env steps per iteration
    algo: str = "pg"
    mix: str = "random=1"
    league_every: int = 10  # iterations between snapshots added to the league
    league_size: int = 5  # snapshots the league keeps (the newest)
    returns: str = "game"
    gamma: float = 1.0  # discount per own decision (--returns lambda)
    lam: float = 1.0  # lambda of the lambda-return
    reward_scale: float = 1.0  # training reward = reward x this
    beta: float = 0.5  # KL(pi_old||pi_new) penalty (--algo pg)
    clip: float = 0.2  # PPO ratio and value clip (--algo ppo)
    epochs: int = 3  # passes over each rollout
    minibatches: int = 4  # minibatches per pass
    value_coef: float = 0.5  # weight of the value loss
    entropy_coef: float = 0.01  # weight of the entropy bonus
    max_grad_norm: float = 0.5  # gradient-norm clip of each PPO step (--algo ppo)
    eval_greedy: bool = False  # score the argmax action instead of sampling the policy
    env_options: dict[str, Any] = field(default_factory=dict)
    workers: int = 0  # Ray rollout workers (0: the envs step in this process)
    ray_address: str | None = None  # the Ray cluster of the workers (None: a local Ray)

    def env_kwargs(self) -> dict[str, Any]:
        """``vecgames.make`` keywords of the training env (and of the checkpoint's player)."""
        return {"num_players": self.players, **self.env_options}

    def kernel(self) -> tuple[tuple[str, ...], Any]:
        """(the built-ins this game plays in a kernel of its own, ``fill(env, seat_policy,
        actions)``); none by default."""
        return (), None

    def draws_random(self) -> bool:
        """Whether ``random`` opponents are drawn in torch, in the learner's sampling call."""
        return False

    def scale(self, env: Any) -> float:
        return self.reward_scale


HELP = {
    "algo": "'pg': REINFORCE with the value baseline and a KL(pi_old||pi_new) penalty; "
            "'ppo': the Hanabi trainer's PPO update (clipped surrogate and value loss, "
            "--max-grad-norm)",
    "mix": "training tables: name=weight blocks in this order; 'self' (self-play), "
           "'league' (snapshots of the policy) or any player of the game or checkpoint path "
           "(the learner at one seat, that player at the others)",
    "returns": "'game': the rest of the game's reward; 'lambda': a lambda-return over the "
               "seat's own decisions (--gamma, --lam)",
    "eval_opponents": "players the final policy is scored against, each at every other seat",
}
CHOICES = {"algo": ("pg", "ppo"), "returns": ("game", "lambda")}
KL_KEYS = ("kl", "approx_kl")  # history keys of the KL: --algo pg's exact one, ppo's estimate


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
    p's rewards from step t to the step where env b's game ends; a ``done`` step's reward is
    the finished game's and everything after it is cut off. ``complete[t, b]`` is False for
    steps whose game has not ended within the T steps (their G would be partial).
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


def seat_returns(reward: torch.Tensor, done: torch.Tensor, player: torch.Tensor,
                 value: torch.Tensor, gamma: float, lam: float
                 ) -> tuple[torch.Tensor, torch.Tensor]:
    """Lambda-returns over each seat's own decisions, and whether each is known yet.

    Time-major: ``reward`` [T, B, P], ``done`` [T, B], ``player`` [T, B] (the seat acting at
    step t), ``value`` [T, B] (that decision's value, in return units). The decision at step t
    of seat p earns ``r`` = seat p's rewards from t up to its next decision t' in the same
    game, and ``G[t] = r + gamma * ((1 - lam) * value[t'] + lam * G[t'])``; if the game ends
    first, ``G[t] = r``. If neither is seen within the T steps the decision is pending
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


# -- the training tables -------------------------------------------------------------------
def parse_mix(spec: str) -> list[tuple[str, float]]:
    """``"self=1,random=2"`` -> ``[("self", 1/3), ("random", 2/3)]`` (weights normalised)."""
    pairs: list[tuple[str, float]] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, sep, value = part.rpartition("=")
        try:
            weight = float(value)
        except ValueError:
            weight = float("nan")
        if not sep or not name.strip() or not weight >= 0.0 or math.isinf(weight):
            raise ValueError(f"expected name=weight (weight >= 0), got {part!r}")
        if name.strip() in (n for n, _ in pairs):
            raise ValueError(f"{name.strip()!r} is given twice")
        pairs.append((name.strip(), weight))
    total = sum(w for _, w in pairs)
    if total <= 0.0:
        raise ValueError(f"some weight must be positive, got {spec!r}")
    return [(name, w / total) for name, w in pairs]


def table_kinds(num_envs: int, weights: list[float]) -> np.ndarray:
    """int64 [B]: each table's entry of the mix, in contiguous blocks whose sizes follow the
    weights (largest remainders, so they sum to B)."""
    shares = np.array(weights) * num_envs
    counts = np.floor(shares).astype(np.int64)
    for k in np.argsort(-(shares - counts), kind="stable")[: num_envs - counts.sum()]:
        counts[k] += 1
    return np.repeat(np.arange(len(weights)), counts)


def check_mix(cfg: Config) -> None:
    """SystemExit naming a mix entry the game cannot seat."""
    try:
        names = [name for name, _ in parse_mix(cfg.mix)]
    except ValueError as exc:
        raise SystemExit(f"--mix: {exc}") from None
    if LEAGUE in names and cfg.workers:
        raise SystemExit("--mix: the league plays in this process: not with --workers")
    config_cli.check_players(cfg.game, names, "mix", skip=played_here(cfg))


def played_here(cfg: Config) -> tuple[str, ...]:
    """The mix entries the collector plays itself: self-play, the league, the game's kernel
    players and, where the game draws it in torch, ``random``; the others are protocol
    players."""
    return (SELF, LEAGUE, *cfg.kernel()[0], *(["random"] if cfg.draws_random() else []))


def check_config(cfg: Config) -> None:
    """The checks of every policy-gradient trainer."""
    config_cli.budget_checks(cfg)
    config_cli.at_least(cfg, 1, "envs", "steps", "eval_games", "league_every", "league_size",
                        *(["max_steps"] if hasattr(cfg, "max_steps") else []))
    if not (0.0 <= cfg.gamma <= 1.0 and 0.0 <= cfg.lam <= 1.0):
        raise SystemExit("--gamma and --lam must be in [0, 1]")
    config_cli.check_players(cfg.game, cfg.eval_opponents, "eval-opponents")
    check_mix(cfg)


def table_options(cfg: Config) -> dict[str, Any]:
    """The arena's table: the training env's rule options (its observation is the player's)."""
    return {"num_players": cfg.players}


@dataclass
class Rollout:
    """T steps of B envs, time-major. ``learner`` marks decisions taken by the trained policy;
    ``fresh`` marks steps not yet used for training."""

    obs: torch.Tensor  # float32 [T, B, D]
    mask: torch.Tensor  # bool [T, B, A]
    action: torch.Tensor  # int64 [T, B]
    player: torch.Tensor  # int64 [T, B]
    value: torch.Tensor  # float32 [T, B]: the learner's value estimate, return units
    reward: torch.Tensor  # float32 [T, B, P], scaled
    done: torch.Tensor  # bool [T, B]
    learner: torch.Tensor  # bool [T, B]
    fresh: torch.Tensor  # bool [T, B]


@dataclass
class Batch:
    """Flat training samples: the learner's decisions with a choice and a known return."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    ret: torch.Tensor

    def __len__(self) -> int:
        return int(self.action.shape[0])


class CarryOver:
    """Turns rollouts into training batches, carrying unknown returns to the next one."""

    cfg: Config
    prev: Rollout | None = None

    def batch(self, new: Rollout) -> Batch:
        parts = [new] if self.prev is None else [self.prev, new]
        cat = {k: torch.cat([getattr(r, k) for r in parts])
               for k in ("reward", "done", "player", "value")}
        if self.cfg.returns == "lambda":
            G, known = seat_returns(cat["reward"], cat["done"], cat["player"], cat["value"],
                                    self.cfg.gamma, self.cfg.lam)
        else:
            G_all, known = returns_to_go(cat["reward"], cat["done"])
            G = G_all.gather(2, cat["player"].unsqueeze(2)).squeeze(2)
        samples: list[Batch] = []
        start = 0
        for ro in parts:
            t = ro.done.shape[0]
            ok = known[start:start + t]
            choice = ro.mask.sum(-1) > 1  # forced moves teach nothing
            sel = ro.fresh & ok & ro.learner & choice
            samples.append(Batch(ro.obs[sel], ro.mask[sel], ro.action[sel],
                                 G[start:start + t][sel]))
            ro.fresh &= ~ok
            start += t
        self.prev = new
        return Batch(*(torch.cat([getattr(s, k) for s in samples])
                       for k in ("obs", "mask", "action", "ret")))


class Collector(CarryOver):
    """Steps the training tables: the learner by the network, opponents by their players.

    ``env_offset``/``num_envs``: this collector holds tables ``env_offset ..`` of the run's
    ``cfg.envs`` (a rollout worker's slice; kinds and seats follow the global index)."""

    def __init__(self, cfg: Config, device: torch.device, generator: torch.Generator,
                 env_offset: int = 0, num_envs: int | None = None):
        self.cfg, self.device, self.gen = cfg, device, generator
        self.num_envs = b = cfg.envs if num_envs is None else num_envs
        self.env = vecgames.make(cfg.game, num_envs=b, seed=cfg.seed, env_offset=env_offset,
                                 **cfg.env_kwargs())
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.bridge = TorchBridge(self.env, device)
        self.restart(None)
        mix = parse_mix(cfg.mix)
        self.names = [name for name, _ in mix]
        glob = np.arange(env_offset, env_offset + b)
        kinds = table_kinds(cfg.envs, [w for _, w in mix])[glob]
        p = cfg.players
        self.learner_seat = torch.as_tensor(glob % p, device=device)
        learner = (kinds[:, None] == self.names.index(SELF) if SELF in self.names
                   else np.zeros((b, p), bool)) | (np.arange(p)[None, :] == (glob % p)[:, None])
        self.learner = torch.as_tensor(learner, device=device)
        self.kinds = torch.as_tensor(kinds, device=device)
        self.kind_rows = [self.kinds == k for k in range(len(self.names))]
        kernel_names, self.fill = cfg.kernel()
        ids = np.array([kernel_names.index(n) if n in kernel_names else -1 for n in self.names])
        self.seat_policy = np.where(learner, -1, ids[kinds][:, None]).astype(np.int64)
        self.kernel_any = bool((self.seat_policy >= 0).any())
        torch_random = "random" in self.names and cfg.draws_random()
        self.uniform = torch.as_tensor(
            kinds == self.names.index("random") if torch_random else np.zeros(b, bool),
            device=device)
        self.players = {k: resolve_player(cfg.game, n) for k, n in enumerate(self.names)
                        if n not in played_here(cfg)}
        self.league: list[Any] = []
        self.actions = np.zeros(b, np.int64)
        self.scale = cfg.scale(self.env)

    def restart(self, streams: torch.Tensor | None) -> None:
        """Deal new games (from saved random streams when resuming a run)."""
        self.obs, info = runs.restart_envs(self.bridge, streams)
        self.mask, self.cur = info["action_mask"], info["current_player"]
        self.payoff = torch.zeros(self.num_envs, device=self.device)

    def snapshot(self, net: PolicyNet) -> None:
        """Add a frozen copy of ``net`` to the league (the newest ``league_size`` kept)."""
        self.league = [*self.league, copy.deepcopy(net).eval()][-self.cfg.league_size:]

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
            fresh=torch.ones((t, b), dtype=torch.bool, device=dev))

    @torch.no_grad()
    def collect(self, net: PolicyNet) -> tuple[Rollout, np.ndarray]:
        """One rollout of ``steps`` steps; also the learner's payoff summed over the games
        it finished at each kind of table, and their count ([2, kinds])."""
        ro = self._empty()
        envs = torch.arange(self.num_envs, device=self.device)
        curve = torch.zeros((2, len(self.names)), device=self.device)
        for t in range(self.cfg.steps):
            cur = self.cur.long()
            learner = self.learner[envs, cur]
            if self.cfg.draws_random():  # every row in one draw, as the game always did
                logits, v = net(self.obs, self.mask)
                uniform = torch.zeros_like(logits).masked_fill(~self.mask, float("-inf"))
                actions = sample_actions(torch.where(self.uniform.unsqueeze(1) & ~learner
                                                     .unsqueeze(1), uniform, logits), self.gen)
                ro.value[t] = torch.where(learner, v * RETURN_SCALE, ro.value[t])
            else:
                rows = envs[learner]
                logits, v = net(self.obs[rows], self.mask[rows])
                mine = sample_actions(logits, self.gen)
                if self.kernel_any:
                    self.fill(self.env, self.seat_policy, self.actions)
                actions = torch.from_numpy(self.actions).to(self.device)
                actions[rows] = mine
                ro.value[t, rows] = v * RETURN_SCALE
            exact = self._opponents(actions, ~learner)
            ro.obs[t].copy_(self.obs)
            ro.mask[t].copy_(self.mask)
            ro.player[t].copy_(cur)
            ro.action[t].copy_(actions)
            ro.learner[t].copy_(learner)
            if exact is None:
                self.obs, reward, terminated, truncated, info = self.bridge.step(actions)
            else:  # Hold'em players that bet exact amounts: every row as (kind, amount)
                self.obs, reward, terminated, truncated, info = self.bridge.step_amounts(
                    *exact_actions(self.env, actions.cpu().numpy(), *exact))
            self.mask, self.cur = info["action_mask"], info["current_player"]
            done = terminated | truncated
            ro.reward[t].copy_(reward).mul_(self.scale)
            ro.done[t].copy_(done)
            self.payoff += reward.gather(1, self.learner_seat.unsqueeze(1)).squeeze(1)
            curve[0].index_add_(0, self.kinds[done], self.payoff[done])
            curve[1].index_add_(0, self.kinds[done], torch.ones_like(self.payoff[done]))
            self.payoff[done] = 0.0
        return ro, curve.cpu().numpy()

    def _opponents(self, actions: torch.Tensor, others: torch.Tensor
                   ) -> tuple[np.ndarray, np.ndarray] | None:
        """The protocol players' and the league's actions into their rows; the rows and
        (kind, amount) pairs of players that answered with exact Hold'em actions (their
        ``actions`` entries are the kinds), or None."""
        exact_rows, exact_pairs = [], []
        for k, player in self.players.items():
            index = torch.nonzero(others & self.kind_rows[k]).squeeze(1)
            if not index.numel():
                continue
            rows = index.cpu().numpy()
            chosen = player_answer(player, self.env, rows, self.obs, self.mask, index)
            ids, pairs = checked_answer(self.env, player, chosen, rows, self.names[k])
            if pairs is not None:
                exact_rows.append(rows)
                exact_pairs.append(pairs)
            actions[index] = torch.as_tensor(ids).to(actions.device)
        if LEAGUE in self.names and self.league:
            rows_of = others & self.kind_rows[self.names.index(LEAGUE)]
            for j, snap in enumerate(self.league):
                index = torch.nonzero(rows_of & (torch.arange(self.num_envs, device=self.device)
                                                 % len(self.league) == j)).squeeze(1)
                if index.numel():
                    logits, _ = snap(self.obs[index], self.mask[index])
                    actions[index] = sample_actions(logits, self.gen)
        if not exact_rows:
            return None
        return np.concatenate(exact_rows), np.concatenate(exact_pairs)


def protocol_actions(env: Any, player: Any, index: torch.Tensor, obs: torch.Tensor,
                     mask: torch.Tensor, name: str) -> torch.Tensor:
    """A player's checked actions in the envs ``index`` (its ``act_env`` where it has one; only
    those rows' observations leave the device otherwise)."""
    rows = index.cpu().numpy()
    chosen = player_answer(player, env, rows, obs, mask, index)
    return torch.as_tensor(checked_actions(env, chosen, rows, name))


def worker_collector(cfg: Config, envs_per_worker: int, worker: int) -> Collector:
    """Rollout worker ``worker``'s collector: its slice of the tables, on the CPU, with its
    own sampling stream."""
    return Collector(cfg, torch.device("cpu"), ray_rollouts.worker_generator(cfg.seed, worker),
                     env_offset=worker * envs_per_worker, num_envs=envs_per_worker)


class RayCollector(CarryOver, ray_rollouts.RayCollector):
    """``cfg.workers`` Ray actors, each stepping ``cfg.envs / cfg.workers`` of the tables with
    a CPU copy of the policy; their rollouts are joined on the learner's device."""

    def __init__(self, cfg: Config, device: torch.device):
        probe = vecgames.make(cfg.game, num_envs=1, **cfg.env_kwargs())
        ray_rollouts.RayCollector.__init__(self, cfg, device, probe, worker_collector,
                                           PolicyNet)

    def collect(self, net: PolicyNet) -> tuple[Rollout, np.ndarray]:
        rollout, curves = self.workers.collect(net, self.device)
        return rollout, sum(curves)


# -- the update ----------------------------------------------------------------------------
def update(net: PolicyNet, opt: torch.optim.Optimizer, batch: Batch, cfg: Config,
           generator: torch.Generator) -> dict[str, float]:
    """One update on ``batch``: the KL-penalised policy gradient (``algo="pg"``) or the PPO
    update of every trainer (``"ppo"``, :func:`ppo.ppo_update`); the mean losses and
    ``samples``. An empty batch changes nothing."""
    if len(batch) == 0:
        return {"samples": 0}
    if cfg.algo == "ppo":
        stats = ppo.ppo_update(net, opt, ppo_batch(net, batch), cfg, generator)
    else:
        stats = kl_pg_update(net, opt, batch, cfg, generator)
    return {**stats, "samples": len(batch)}


@torch.no_grad()
def ppo_batch(net: PolicyNet, batch: Batch) -> ppo.PPOBatch:
    """``batch`` for :func:`ppo.ppo_update`, in the value head's units (return /
    RETURN_SCALE). pi_old and its values are the network's now, not the collector's: samples
    carried over from the last rollout were played by an older policy."""
    logits, value = net(batch.obs, batch.mask)
    logp_old = torch.log_softmax(logits, -1).gather(1, batch.action.unsqueeze(1)).squeeze(1)
    ret = batch.ret / RETURN_SCALE
    return ppo.PPOBatch(batch.obs, batch.mask, batch.action, logp_old, value, ret - value, ret)


def kl_pg_update(net: PolicyNet, opt: torch.optim.Optimizer, batch: Batch, cfg: Config,
                 generator: torch.Generator) -> dict[str, float]:
    """``cfg.epochs`` passes of ``cfg.minibatches`` steps of REINFORCE with the value baseline
    (advantages normalised over the batch), ``cfg.beta`` x KL(pi_old || pi_new), the value
    and entropy terms; the mean losses."""
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
            vloss = F.smooth_l1_loss(v, target[idx])
            pg = -(logp_a * adv[idx]).mean()
            loss = (pg + cfg.beta * kl.mean() + cfg.value_coef * vloss
                    - cfg.entropy_coef * ent.mean())
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            for key, val in zip(totals, (pg, kl.mean(), ent.mean(), vloss), strict=True):
                totals[key] += float(val.detach())
            count += 1
    return {k: v / count for k, v in totals.items()}


class PolicyGradient(core.RolloutAlgorithm):
    """The algorithm object of ``core.train`` for the games above."""
    network = "policy_net"  # its checkpoints' network kind (policies.checkpoint.NETWORKS)

    def __init__(self, cfg: Config, device: torch.device, generator: torch.Generator):
        self.cfg, self.gen = cfg, generator
        self.collector: Any = (RayCollector(cfg, device) if cfg.workers
                               else Collector(cfg, device, generator))
        self.obs_dim, self.num_actions = self.collector.obs_dim, self.collector.num_actions
        self.net = PolicyNet(self.obs_dim, self.num_actions, cfg.hidden).to(device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr)
        self.samples = 0
        self.names = [name for name, _ in parse_mix(cfg.mix)]

    def iteration(self, it: int, frac: float) -> dict[str, Any]:
        if LEAGUE in self.names and (it - 1) % self.cfg.league_every == 0:
            self.collector.snapshot(self.net)
        rollout, (payoff, games) = self.collector.collect(self.net)
        stats = update(self.net, self.opt, self.collector.batch(rollout), self.cfg, self.gen)
        self.samples += int(stats["samples"])
        stats.update({f"vs_{name}": float(payoff[k] / games[k])
                      for k, name in enumerate(self.names) if name != SELF and games[k]})
        return stats

    def state(self) -> dict[str, Any]:
        league = getattr(self.collector, "league", [])
        return {**super().state(), "league": [snap.state_dict() for snap in league]}

    def restore(self, ckpt: dict[str, Any]) -> None:
        super().restore(ckpt)
        for weights in ckpt.get("league") or []:
            self.collector.snapshot(self.net)
            self.collector.league[-1].load_state_dict(weights)



def best_response_args(player: str, args: Any, extra: Sequence[str] = ()) -> list[str]:
    """A policy-gradient trainer's command line for ``vecgames exploit``: PPO at one seat,
    ``player`` at every other (``args.players`` seats), scored greedily; ``extra``: the
    game's own flags."""
    return ["--players", str(args.players), "--mix", f"{player}=1", "--algo", "ppo",
            "--eval-greedy", *extra]
