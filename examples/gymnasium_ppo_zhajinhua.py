"""CleanRL-style PPO on Zha Jin Hua through the Gymnasium adapter.

One seat per table is the agent, the others play uniformly at random; the policy masks illegal
actions with ``info["action_mask"]``. Prints the agent's mean chips per game against the random
players before and after training (games without an agent decision included).

    python examples/gymnasium_ppo_zhajinhua.py --minutes 3
"""

from __future__ import annotations

import argparse
import time

import torch
from torch import nn

from vecgames.adapters.gym_env import VecGymEnv


class Agent(nn.Module):
    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, num_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.v(h).squeeze(-1)


def mean_chips(agent: Agent, envs: VecGymEnv, games: int) -> float:
    """The agent's mean reward per game (sampling its policy), unplayed games included."""
    obs, info = envs.reset(seed=12345)
    total, played = 0.0, 0
    while played < games:
        with torch.no_grad():
            dist, _ = agent(torch.from_numpy(obs), torch.from_numpy(info["action_mask"]))
        obs, reward, terminated, truncated, info = envs.step(dist.sample().numpy())
        total += float(reward.sum() + info["unplayed_reward"].sum())
        played += int((terminated | truncated).sum() + info["unplayed_games"].sum())
    return total / played


def train(args: argparse.Namespace) -> tuple[float, float]:
    torch.manual_seed(args.seed)
    envs = VecGymEnv("zhajinhua", num_envs=args.num_envs, num_players=args.players,
                     seed=args.seed)
    obs_dim, num_actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(obs_dim, num_actions)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    eval_envs = VecGymEnv("zhajinhua", num_envs=256, num_players=args.players, seed=99)
    before = mean_chips(agent, eval_envs, args.eval_games)
    t, n = args.num_steps, args.num_envs
    buf_obs = torch.zeros((t, n, obs_dim))
    buf_mask = torch.zeros((t, n, num_actions), dtype=torch.bool)
    buf_act = torch.zeros((t, n), dtype=torch.long)
    buf_logp, buf_rew, buf_done, buf_val = (torch.zeros((t, n)) for _ in range(4))
    obs, info = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
    next_done = torch.zeros(n)
    deadline = time.perf_counter() + 60 * args.minutes
    updates = 0
    while time.perf_counter() < deadline and (args.updates is None or updates < args.updates):
        for step in range(t):  # collect
            buf_obs[step], buf_mask[step], buf_done[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                dist, value = agent(next_obs, next_mask)
                action = dist.sample()
            buf_act[step], buf_logp[step], buf_val[step] = action, dist.log_prob(action), value
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            buf_rew[step] = torch.from_numpy(reward) / args.reward_scale
            next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
            next_done = torch.from_numpy(terminated | truncated).float()
        with torch.no_grad():  # GAE; same-step autoreset: a done step starts a new episode
            _, next_value = agent(next_obs, next_mask)
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros(n)
            for step in reversed(range(t)):
                done_here = next_done if step == t - 1 else buf_done[step + 1]
                value_after = next_value if step == t - 1 else buf_val[step + 1]
                delta = buf_rew[step] + args.gamma * value_after * (1 - done_here) \
                    - buf_val[step]
                last = delta + args.gamma * args.lam * (1 - done_here) * last
                adv[step] = last
            returns = adv + buf_val
        b_obs, b_mask = buf_obs.reshape(t * n, -1), buf_mask.reshape(t * n, -1)
        b_act, b_logp = buf_act.reshape(-1), buf_logp.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), returns.reshape(-1)
        for _ in range(args.epochs):  # clipped PPO updates
            for idx in torch.randperm(t * n).split(t * n // args.minibatches):
                dist, value = agent(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip))
                loss = (pg.mean() + 0.5 * ((value - b_ret[idx]) ** 2).mean()
                        - args.entropy * dist.entropy().mean())
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        updates += 1
    after = mean_chips(agent, eval_envs, args.eval_games)
    print(f"{updates} PPO updates ({updates * t * n:,} agent decisions); mean chips per game "
          f"vs {args.players - 1} random players: before {before:+.2f}, after {after:+.2f}")
    return before, after


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0)
    p.add_argument("--updates", type=int, default=None, help="stop after this many updates")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--num-steps", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--reward-scale", type=float, default=10.0)
    p.add_argument("--eval-games", type=int, default=5_000)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args(argv))


if __name__ == "__main__":
    main()
