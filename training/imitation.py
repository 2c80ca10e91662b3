"""Imitation of a built-in teacher (DAgger) inside a rollout: the teacher labels the state of
every env with its action; with probability ``beta`` an env plays the teacher's action, else
the learner's. The loss is the cross-entropy of the teacher's labels, beside the value loss.

A teacher that keeps a memory in the state (Hanabi's ``conventions`` and ``hat`` write what a
clue means into ``State.memo`` when they choose it) wrote it for its own choice: where the
learner's action is played instead, that env's memory is put back as it was.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgames.policies.builtin import BuiltinPlayer

from .ppo import PPO, gae, masked_entropy, minibatches, torch


class Teacher:
    """Built-in player ``name`` of ``game`` labelling the player to act in every env."""

    def __init__(self, game: str, name: str):
        self.player = BuiltinPlayer(game, name)
        self._rows: np.ndarray | None = None
        self._memo: np.ndarray | None = None
        self._labels: np.ndarray | None = None

    def label(self, env: Any) -> np.ndarray:
        """The teacher's action in every env (int64 ``[num_envs]``); call :meth:`settle` with
        the actions played before stepping."""
        if self._rows is None or self._rows.shape[0] != env.num_envs:
            self._rows = np.arange(env.num_envs, dtype=np.int64)
        memo = getattr(env.state, "memo", None)
        self._memo = None if memo is None else memo.copy()
        self._labels = self.player.act_env(env, self._rows)
        return self._labels

    def settle(self, env: Any, played: np.ndarray) -> None:
        """Undo the teacher's memory writes in the envs where ``played`` is not its label."""
        if self._memo is None or self._labels is None:
            return
        other = played != self._labels
        env.state.memo[other] = self._memo[other]
        self._memo = None


def imitation_update(net: Any, opt: Any, ro: Any, cfg: Any, generator: Any
                     ) -> dict[str, float]:
    """``cfg.epochs`` passes of ``cfg.minibatches`` steps of cross-entropy on the teacher's
    labels plus ``cfg.value_coef`` x the value loss (GAE targets, so that the critic is ready
    when PPO takes over)."""
    _, ret = gae(ro.reward, ro.value, ro.done, ro.last_value, cfg.gamma, cfg.gae_lambda)
    obs, mask = ro.obs.flatten(0, 1), ro.mask.flatten(0, 1)
    label, ret = ro.teacher.flatten(), ret.flatten()
    n = label.shape[0]
    keys = ("loss", "imitation_loss", "value_loss", "entropy", "agreement")
    totals = dict.fromkeys(keys, 0.0)
    count = 0
    for idx in minibatches(n, cfg, generator, obs.device):
        logits, v = net(obs[idx], mask[idx])
        logp_all = torch.log_softmax(logits, -1)
        ce = -logp_all.gather(1, label[idx, None]).squeeze(1).mean()
        vloss = 0.5 * (v - ret[idx]).square().mean()
        loss = ce + cfg.value_coef * vloss
        _step_clipped_apart(net, opt, (ce, cfg.value_coef * vloss), cfg.max_grad_norm)
        with torch.no_grad():
            ent = masked_entropy(logp_all, mask[idx]).mean()
            agree = (logits.argmax(-1) == label[idx]).float().mean()
        for key, val in zip(keys, (loss, ce, vloss, ent, agree), strict=True):
            totals[key] += float(val.detach())
        count += 1
    return {k: v / count for k, v in totals.items()}


def _step_clipped_apart(net: Any, opt: Any, losses: tuple[Any, ...], max_norm: float) -> None:
    """One optimizer step on the sum of ``losses``, each one's gradient clipped to ``max_norm``
    on its own: the value loss of returns up to 25 points has gradients far larger than the
    cross-entropy's, and clipping their sum would all but stop the imitation."""
    params = [p for p in net.parameters() if p.requires_grad]
    total = [torch.zeros_like(p) for p in params]
    for k, loss in enumerate(losses):
        grads = torch.autograd.grad(loss, params, retain_graph=k + 1 < len(losses),
                                    allow_unused=True)
        present = [g for g in grads if g is not None]
        norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g)
                                                     for g in present]))
        scale = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
        for acc, g in zip(total, grads, strict=True):
            if g is not None:
                acc.add_(g * scale)
    for p, g in zip(params, total, strict=True):
        p.grad = g
    opt.step()


def beta_at(it: int, clone_iterations: int) -> float:
    """DAgger's share of teacher-played actions at iteration ``it`` (1-based): 1 at the start,
    falling linearly to 0 at half the imitation phase, 0 after it."""
    if clone_iterations <= 0:
        return 0.0
    return max(0.0, 1.0 - 2.0 * (it - 1) / clone_iterations)


class ImitationPPO(PPO):
    """PPO that first imitates ``cfg.teacher`` for ``cfg.clone_iterations`` iterations (DAgger,
    :func:`beta_at`), then goes on as plain PPO from the imitated policy."""

    def __init__(self, cfg: Any, device: Any, generator: Any):
        super().__init__(cfg, device, generator)
        self.teacher = Teacher(cfg.game, cfg.teacher)
        self.collector.teacher = self.teacher

    def iteration(self, it: int, frac: float) -> dict[str, Any]:
        cloning = it <= self.cfg.clone_iterations
        if not cloning:
            self.collector.teacher = None  # PPO's rollouts need no labels
            return super().iteration(it, frac)
        self.collector.teacher = self.teacher
        lr = self.set_lr(frac)
        beta = beta_at(it, self.cfg.clone_iterations)
        rollout, figures = self.collector.collect(self.net, beta)
        stats = imitation_update(self.net, self.opt, rollout, self.cfg, self.gen)
        self.env_steps += self.cfg.envs * self.cfg.steps
        stats.update(self.cfg.summary(figures), env_steps=self.env_steps, lr=lr, beta=beta)
        return stats
