"""The networks vecgames' trainers train and ``load_player`` rebuilds from a checkpoint.

- ``PolicyNet``: the policy-gradient trainers' MLP (Zha Jin Hua, Hold'em, Da Yaoguai);
- ``ActorCritic``: JaxMARL's Hanabi MLP (the PPO trainer);
- ``QNet`` / ``FourHeadQNet``: Liar's Dice Q networks (the DQN trainer's two heads).

Importing this module imports torch (the ``train`` extra); nothing in ``import vecgames`` does.
"""

from __future__ import annotations

import math

from ..games.liars_dice.bids import FEI_FACES, ZHAI_FACES, bid_count, bid_face, bid_mode
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


def head_layout(num_actions: int) -> torch.Tensor:
    """float32 ``[num_actions, 4 + D + 6]``: which head outputs make up each action's Q.

    Columns: main action (challenge, bid), mode (飞, 斋), count 1..D, face 1..6. The challenge
    reads the main head's first output alone; a bid (mode, count, face) the sum of the main
    head's second output and its mode, count and face outputs.
    """
    total = (num_actions - 1) // (FEI_FACES + ZHAI_FACES)
    layout = torch.zeros((num_actions, 4 + total + 6))
    layout[0, 0] = 1.0
    for a in range(1, num_actions):
        mode, count, face = (int(f(a - 1, total)) for f in (bid_mode, bid_count, bid_face))
        layout[a, [1, 2 + mode, 4 + count - 1, 4 + total + face - 1]] = 1.0
    return layout


class FourHeadQNet(nn.Module):
    """The seed's network (``--head four``): the MLP trunk with four action heads, main action
    (challenge or bid), mode, count and face; Q(a) is the sum of the head outputs that make up
    action a (``head_layout``), so acting, masking and the Double-DQN update stay those of
    :class:`QNet`, with 4 + D + 6 outputs in place of 1 + 11 D."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 256, layers: int = 2):
        super().__init__()
        self.trunk = _trunk(obs_dim, hidden, layers)
        layout = head_layout(num_actions)
        self.heads = nn.Linear(hidden, layout.shape[1])  # the four heads, side by side
        self.register_buffer("layout", layout, persistent=False)
        self.obs_dim, self.num_actions = obs_dim, num_actions

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.heads(self.trunk(obs)) @ self.layout.T


QNetwork = QNet | FourHeadQNet


def make_qnet(head: str, obs_dim: int, num_actions: int, hidden: int, layers: int) -> QNetwork:
    """The Q network of ``--head``: ``combined`` :class:`QNet`, ``four`` :class:`FourHeadQNet`."""
    if head not in HEADS:
        raise ValueError(f"head must be one of {HEADS}, got {head!r}")
    cls = FourHeadQNet if head == "four" else QNet
    return cls(obs_dim, num_actions, hidden, layers)


def masked_q(q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Q values with illegal actions set to -inf."""
    return q.masked_fill(~mask, NEG_INF)


def greedy_actions(net: nn.Module, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """argmax of Q over the legal actions of each row."""
    return masked_q(net(obs), mask).argmax(-1)
