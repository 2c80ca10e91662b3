"""A torch player through ``play_games`` next to ``simulate``'s in-kernel built-ins.

    python benchmarks/bench_players.py [--scale 1.0] [--envs 2048] [--threads N]

For each game: ``vecgames.simulate(game, n, players=mlp)`` with one small torch MLP (obs ->
128 -> 128 -> actions, ReLU, CPU, untrained) at every seat, sampling from its masked softmax
(Gumbel-max; an untrained greedy table can cycle for ever in Da Yaoguai), and as many games
in-kernel with the random built-in player at every seat (``policy="random"``). Rates are
decisions/s (the rows the MLP was asked for) and games/s, the best of three runs after a
warm-up call that compiles; the issue's target is >= 50k decisions/s on 2 CPU cores. Run it
alone on the machine (niced if others work there).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402
from vecgames.torch_bridge import import_torch  # noqa: E402

torch = import_torch()

# game -> (games per run at scale 1, rule options); Da Yaoguai cut at the trainer's 1000 steps
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "zhajinhua": (20_000, {}),
    "holdem": (20_000, {}),
    "liars_dice": (20_000, {}),
    "hanabi": (4_000, {}),
    "dayaoguai": (1_000, {"max_steps": 1000}),
}


class MLPPlayer:
    """A 2x128 MLP over the observation; samples from the softmax of its masked logits."""

    name = "mlp"

    def __init__(self, obs_dim: int, num_actions: int, seed: int = 0):
        torch.manual_seed(seed)
        self.net = torch.nn.Sequential(
            torch.nn.Linear(obs_dim, 128), torch.nn.ReLU(), torch.nn.Linear(128, 128),
            torch.nn.ReLU(), torch.nn.Linear(128, num_actions)).eval()
        self.generator = torch.Generator().manual_seed(seed)
        self.decisions = 0

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        self.decisions += len(obs)
        with torch.inference_mode():
            logits = self.net(torch.from_numpy(obs))
            # a draw from the masked softmax by the Gumbel-max trick (cheaper than multinomial)
            u = torch.rand(logits.shape, generator=self.generator).clamp_(min=1e-12)
            noisy = logits - torch.log(-torch.log(u))
            noisy.masked_fill_(~torch.from_numpy(action_mask), float("-inf"))
            return noisy.argmax(1).numpy()


def measure(game: str, num_games: int, rules: dict[str, Any], envs: int,
            threads: int | None) -> list[str]:
    env = vecgames.make(game, **rules)
    player = MLPPlayer(env.obs_dim, env.num_actions)

    threading = {} if threads is None else {"num_threads": threads}

    def through_env() -> None:
        vecgames.simulate(game, num_games, players=player, seed=1, num_envs=envs,
                          progress=False, **threading, **rules)

    def in_kernel() -> None:
        vecgames.simulate(game, num_games, policy="random", seed=1, progress=False,
                          **threading, **rules)

    through_env()  # compile, and count the decisions of one run
    player.decisions = 0
    through_env()
    decisions = player.decisions
    seconds = best_seconds(through_env)
    in_kernel()
    kernel_seconds = best_seconds(in_kernel)
    return [game, f"{env.num_players}", f"{num_games:,}", f"{decisions / num_games:.1f}",
            f"{decisions / seconds:,.0f}", f"{num_games / seconds:,.0f}",
            f"{num_games / kernel_seconds:,.0f}"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0, help="games per run x this")
    p.add_argument("--envs", type=int, default=2048, help="tables stepped together")
    p.add_argument("--threads", type=int, default=None,
                   help="Numba threads (default: play_games' ENV_THREADS, simulate's all)")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads (default 1: on 2 cores beside Numba's, the fastest)")
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    a = p.parse_args(argv)
    torch.set_num_threads(a.torch_threads)
    rows = [measure(g, max(1, int(GAMES[g][0] * a.scale)), GAMES[g][1], a.envs, a.threads)
            for g in a.games.split(",")]
    print_table(["game", "seats", "games", "decisions/game", "MLP decisions/s",
                 "MLP games/s", "simulate random games/s"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
