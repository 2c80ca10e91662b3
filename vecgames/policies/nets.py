"""The networks vecgames' trainers train and ``load_player`` rebuilds from a checkpoint.

- ``PolicyNet``: the policy-gradient trainers' MLP (Zha Jin Hua, Hold'em, Da Yaoguai);
- ``ActorCritic``: JaxMARL's Hanabi MLP (the PPO trainer);
- ``QNet`` / ``FactoredQNet``: the DQN trainer's Q networks (Liar's Dice; ``--head four``
  factors Q into heads whose layout the game gives, its spec's ``action_heads``).

Importing this module imports torch (the ``train`` extra); nothing in ``import vecgames`` does.
"""

from __future__ import annotations

import math

import numpy as np

from ..games.catalog import spec_of
from ..torch_bridge import import_torch

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402
from torch import nn  # noqa: E402

NEG_INF = float("-inf")


class PolicyNet(nn.Module):
    """MLP trunk with a masked-softmax policy head and a value head (the baseline)."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 128):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, num_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions -> -inf) and the value (in RETURN_SCALE units)."""
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, float("-inf"))
        return logits, self.v(h).squeeze(-1)


def _layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
    layer = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class ActorCritic(nn.Module):
    """JaxMARL's Hanabi MLP: a shared ReLU embedding, then an actor branch (hidden -> logits,
    illegal actions -inf) and a critic branch (hidden -> value)."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 512):
        super().__init__()
        g = math.sqrt(2.0)
        self.embed = nn.Sequential(_layer(obs_dim, hidden, g), nn.ReLU())
        self.actor = nn.Sequential(_layer(hidden, hidden, g), nn.ReLU(),
                                   _layer(hidden, num_actions, 0.01))
        self.critic = nn.Sequential(_layer(hidden, hidden, g), nn.ReLU(), _layer(hidden, 1, 1.0))
        self.obs_dim, self.num_actions, self.hidden = obs_dim, num_actions, hidden

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions -> -inf) and the value."""
        h = self.embed(obs)
        logits = self.actor(h).masked_fill(~mask, float("-inf"))
        return logits, self.critic(h).squeeze(-1)


HEADS = ("combined", "four")


def _trunk(obs_dim: int, hidden: int, layers: int) -> nn.Sequential:
    parts: list[nn.Module] = []
    width = obs_dim
    for _ in range(layers):
        parts += [nn.Linear(width, hidden), nn.ReLU()]
        width = hidden
    return nn.Sequential(*parts)


class QNet(nn.Module):
    """MLP trunk (``layers`` x ``hidden``, ReLU) with one Q value per env action."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 256, layers: int = 2):
        super().__init__()
        self.trunk = _trunk(obs_dim, hidden, layers)
        self.q = nn.Linear(hidden, num_actions)
        self.obs_dim, self.num_actions = obs_dim, num_actions

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.q(self.trunk(obs))


class FactoredQNet(nn.Module):
    """The MLP trunk with heads whose outputs add up to each action's Q (``layout``: float
    ``[num_actions, heads]`` of 0/1, which head outputs make up each action; Liar's Dice's
    is the seed's main/mode/count/face network, ``--head four``), so acting, masking and the
    Double-DQN update stay those of :class:`QNet`, with fewer outputs."""

    def __init__(self, obs_dim: int, num_actions: int, layout: np.ndarray, hidden: int = 256,
                 layers: int = 2):
        super().__init__()
        layout_t = torch.as_tensor(np.asarray(layout, np.float32))
        if layout_t.ndim != 2 or layout_t.shape[0] != num_actions:
            raise ValueError(f"layout must be [num_actions={num_actions}, heads], got "
                             f"{tuple(layout_t.shape)}")
        self.trunk = _trunk(obs_dim, hidden, layers)
        self.heads = nn.Linear(hidden, layout_t.shape[1])  # the heads, side by side
        self.register_buffer("layout", layout_t, persistent=False)
        self.obs_dim, self.num_actions = obs_dim, num_actions

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.heads(self.trunk(obs)) @ self.layout.T


def action_heads(game: str, num_actions: int) -> np.ndarray:
    """Game ``game``'s factored-head layout for ``num_actions`` actions (its spec's
    ``action_heads``); ValueError for a game without one."""
    spec = spec_of(game)
    if not spec.has("action_heads"):
        raise ValueError(f"head 'four' factors a game's actions into heads, and {game} has no "
                         f"such layout: use head 'combined'")
    return spec.load("action_heads")(num_actions)  # type: ignore[no-any-return]


QNetwork = QNet | FactoredQNet


def make_qnet(head: str, obs_dim: int, num_actions: int, hidden: int, layers: int,
              game: str | None = None) -> QNetwork:
    """The Q network of ``--head``: ``combined`` :class:`QNet`, ``four`` :class:`FactoredQNet`
    with ``game``'s head layout."""
    if head not in HEADS:
        raise ValueError(f"head must be one of {HEADS}, got {head!r}")
    if head == "four":
        if game is None:
            raise ValueError("head 'four' needs the game whose action heads it factors")
        return FactoredQNet(obs_dim, num_actions, action_heads(game, num_actions), hidden,
                            layers)
    return QNet(obs_dim, num_actions, hidden, layers)


def masked_q(q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Q values with illegal actions set to -inf."""
    return q.masked_fill(~mask, NEG_INF)


def greedy_actions(net: nn.Module, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """argmax of Q over the legal actions of each row."""
    return masked_q(net(obs), mask).argmax(-1)
