"""Self-play REINFORCE on two-player Liar's Dice through the PettingZoo AEC adapter.

Both agents share one policy and learn from their own moves (the return of a move is the
agent's reward for the match). Prints the policy's mean reward per match (+1 win, -1 loss)
against a uniformly random opponent before and after training.

    python examples/pettingzoo_selfplay_liars_dice.py --minutes 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from vecgames.adapters.pz_env import AECGameEnv


def policy_net(obs_dim: int, num_actions: int, hidden: int = 128) -> nn.Module:
    return nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                         nn.ReLU(), nn.Linear(hidden, num_actions))


def choose(net: nn.Module, obs: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, dict]:
    x = torch.from_numpy(obs["observation"])
    mask = torch.from_numpy(obs["action_mask"].astype(bool))
    with torch.no_grad():
        logits = net(x).masked_fill(~mask, -1e9)
    action = int(logits.argmax()) if greedy else int(torch.distributions.Categorical(
        logits=logits).sample())
    return action, {"obs": x, "mask": mask, "action": action}


def play_match(env: AECGameEnv, players: dict, rng: np.random.Generator):
    """One match; ``players[agent]`` is the net or None (random). Returns each agent's moves
    and total reward."""
    env.reset()
    moves = {agent: [] for agent in env.possible_agents}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if players[agent] is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action, move = choose(players[agent], obs)
            moves[agent].append(move)
        env.step(action)
    return moves, totals


def evaluate(net: nn.Module, matches: int, seed: int) -> float:
    env = AECGameEnv("liars_dice", seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    for k in range(matches):  # the policy takes each seat in turn
        me = env.possible_agents[k % 2]
        players = {a: (net if a == me else None) for a in env.possible_agents}
        total += play_match(env, players, rng)[1][me]
    return total / matches


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0)
    p.add_argument("--updates", type=int, default=None, help="stop after this many updates")
    p.add_argument("--matches-per-update", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--eval-matches", type=int, default=2_000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    env = AECGameEnv("liars_dice", seed=args.seed)
    space = env.observation_space(env.possible_agents[0])["observation"]
    net = policy_net(space.shape[0], env.action_space(env.possible_agents[0]).n)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    before = evaluate(net, args.eval_matches, seed=1234)
    deadline = time.perf_counter() + 60 * args.minutes
    updates = 0
    while time.perf_counter() < deadline and (args.updates is None or updates < args.updates):
        samples = []
        for _ in range(args.matches_per_update):
            moves, totals = play_match(env, dict.fromkeys(env.possible_agents, net), rng)
            samples += [(m, totals[agent]) for agent in moves for m in moves[agent]]
        obs = torch.stack([m["obs"] for m, _ in samples])
        mask = torch.stack([m["mask"] for m, _ in samples])
        action = torch.tensor([m["action"] for m, _ in samples])
        ret = torch.tensor([r for _, r in samples], dtype=torch.float32)
        logits = net(obs).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        # zero-sum self-play: the mean return is 0, a natural baseline
        loss = -(dist.log_prob(action) * ret).mean() - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        updates += 1
    after = evaluate(net, args.eval_matches, seed=1234)
    print(f"{updates} updates ({updates * args.matches_per_update:,} self-play matches); "
          f"mean reward per match vs a random player: before {before:+.3f}, after {after:+.3f}")


if __name__ == "__main__":
    main()
