"""Batched self-play policy gradient on three-player Liar's Dice through the TorchRL adapter.

A batch of tables is one TorchRL env whose actions drive every seat; one policy plays them
all (a ``ProbabilisticActor`` with a ``MaskedCategorical`` keeps the moves legal) and
``env.rollout`` collects. Each move is credited with its own seat's reward for the round
(the env's ``reward`` holds every seat's). Prints the mean reward per round of the policy at
one seat against two uniformly random players, before and after training.

    python examples/torchrl_selfplay_liars_dice.py --minutes 3
"""

from __future__ import annotations

import argparse
import time

import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from vecgames.adapters.torchrl_env import TorchRLEnv

PLAYERS = 3


def seat_returns(td) -> tuple[torch.Tensor, torch.Tensor]:
    """Per move: the acting seat's reward summed to the end of its game, and whether that
    game ended inside the rollout (moves of unfinished games are not trained on)."""
    reward, done = td["next", "reward"], td["next", "done"][..., 0]  # [B, T, P], [B, T]
    running = torch.zeros_like(reward[:, 0])
    ended = torch.zeros_like(done[:, 0])
    ret = torch.zeros(done.shape)
    complete = torch.zeros_like(done)
    for t in reversed(range(done.shape[1])):
        keep = (~done[:, t]).float().unsqueeze(-1)
        running = reward[:, t] + running * keep
        ended = ended | done[:, t]
        ret[:, t] = running.gather(1, td["current_player"][:, t].unsqueeze(1)).squeeze(1)
        complete[:, t] = ended
    return ret, complete


def versus_random(env: TorchRLEnv, net: nn.Module, steps: int) -> float:
    """The policy at seat 0, random players elsewhere: mean seat-0 reward per ended round."""
    td = env.reset()
    total, rounds = 0.0, 0
    for _ in range(steps):
        mask = td["action_mask"]
        with torch.no_grad():
            mine = MaskedCategorical(logits=net(td["observation"]), mask=mask).sample()
        random = MaskedCategorical(logits=torch.zeros(mask.shape), mask=mask).sample()
        td["action"] = torch.where(td["current_player"] == 0, mine, random)
        td = env.step(td)
        total += float(td["next", "reward"][:, 0].sum())
        rounds += int((td["next", "reward"] != 0).any(-1).sum())
        td = td["next"]
    return total / max(rounds, 1)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0)
    p.add_argument("--updates", type=int, default=None, help="stop after this many updates")
    p.add_argument("--num-envs", type=int, default=512)
    p.add_argument("--steps", type=int, default=24)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--eval-steps", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    env = TorchRLEnv("liars_dice", num_envs=args.num_envs, num_players=PLAYERS, seed=args.seed)
    eval_env = TorchRLEnv("liars_dice", num_envs=512, num_players=PLAYERS, seed=99)
    net = nn.Sequential(nn.Linear(env.native.obs_dim, 128), nn.ReLU(), nn.Linear(128, 128),
                        nn.ReLU(), nn.Linear(128, env.native.num_actions))
    actor = ProbabilisticActor(
        TensorDictModule(net, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"}, distribution_class=MaskedCategorical)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    before = versus_random(eval_env, net, args.eval_steps)
    deadline = time.perf_counter() + 60 * args.minutes
    td, updates = None, 0
    while time.perf_counter() < deadline and (args.updates is None or updates < args.updates):
        with torch.no_grad():  # each rollout continues the games where the last one stopped
            td = env.rollout(args.steps, policy=actor, break_when_any_done=False,
                             auto_reset=td is None,
                             tensordict=None if td is None else td[:, -1]["next"])
        ret, complete = seat_returns(td)
        dist = MaskedCategorical(logits=net(td["observation"]), mask=td["action_mask"])
        # zero-sum self-play: a seat's mean return is 0, a natural baseline
        logp = dist.log_prob(td["action"])
        loss = -(logp * ret)[complete].mean() - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        updates += 1
    after = versus_random(eval_env, net, args.eval_steps)
    print(f"{updates} updates ({updates * args.steps * args.num_envs:,} self-play moves); mean "
          f"reward per round at one seat vs 2 random players: before {before:+.3f}, "
          f"after {after:+.3f}")


if __name__ == "__main__":
    main()
