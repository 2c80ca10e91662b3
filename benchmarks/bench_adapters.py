"""The adapters' overhead against the native batch API, in table moves per second.

    python -m benchmarks.bench_adapters [--game zhajinhua] [--players 3] [--envs 1024]

Every row plays random legal moves (the same picker, ``random_legal``, everywhere) and counts
every seat's moves, so rows compare the cost of a move. Batched rows (native, Gymnasium vector,
TorchRL) use ``--envs`` tables; one-table rows (native with one table, Gymnasium ``GymEnv``,
PettingZoo AEC and Parallel) one table. The Gymnasium rows count the opponents' moves made
inside each agent step; their tables wait (``VecEnv.WAIT``) while others move.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import vecgames
from benchmarks.timing import print_table
from vecgames.adapters.gym_env import GymEnv, VecGymEnv
from vecgames.adapters.pz_env import AECGameEnv, ParallelGameEnv
from vecgames.adapters.seats import random_legal
from vecgames.adapters.torchrl_env import TorchRLEnv


class MoveCounter:
    """Counts the moves the native env makes (waiting tables are not moves)."""

    def __init__(self, env):
        self.moves = 0
        self._step = env.step
        env.step = self.step

    def step(self, actions):
        self.moves += int((np.asarray(actions) >= 0).sum())
        return self._step(actions)


def moves_per_second(run: Callable[[], None], counter: MoveCounter, seconds: float) -> float:
    run()  # warm up (compiles or loads the kernels)
    counter.moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run()
    return counter.moves / (time.perf_counter() - start)


def native(game: str, envs: int, options: dict, rng: np.random.Generator):
    env = vecgames.make(game, num_envs=envs, **options)
    env.reset()
    return (lambda: [env.step(random_legal(env.action_mask, rng)) for _ in range(50)],
            MoveCounter(env))


def gym_vector(game: str, envs: int, options: dict, rng: np.random.Generator):
    env = VecGymEnv(game, num_envs=envs, **options)
    counter = MoveCounter(env.env)
    _, info = env.reset(seed=0)
    return lambda: [env.step(random_legal(env.env.action_mask, rng)) for _ in range(20)], counter


def gym_single(game: str, options: dict, rng: np.random.Generator):
    env = GymEnv(game, **options)
    counter = MoveCounter(env.env)
    env.reset(seed=0)

    def run():
        for _ in range(200):
            _, _, terminated, truncated, info = env.step(
                int(random_legal(env.env.action_mask, rng)[0]))
            if terminated or truncated:
                env.reset()
    return run, counter


def aec(game: str, options: dict, rng: np.random.Generator):
    env = AECGameEnv(game, **options)
    counter = MoveCounter(env.env)
    env.reset(seed=0)

    def run():
        for _ in range(200):
            if not env.agents:
                env.reset()
                continue
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else
                     int(random_legal(obs["action_mask"][None].astype(bool), rng)[0]))
    return run, counter


def parallel(game: str, options: dict, rng: np.random.Generator):
    env = ParallelGameEnv(game, **options)
    counter = MoveCounter(env.env)
    obs, _ = env.reset(seed=0)
    state = {"obs": obs}

    def run():
        for _ in range(200):
            if not env.agents:
                state["obs"], _ = env.reset()
            agent = env.possible_agents[int(env.env.current_player[0])]
            mask = state["obs"][agent]["action_mask"][None].astype(bool)
            state["obs"], *_ = env.step({agent: int(random_legal(mask, rng)[0])})
    return run, counter


def torchrl(game: str, envs: int, options: dict, rng: np.random.Generator):
    import torch

    env = TorchRLEnv(game, num_envs=envs, **options)
    counter = MoveCounter(env.native)
    state = {"td": env.reset()}

    def run():
        td = state["td"]
        for _ in range(50):
            td["action"] = torch.from_numpy(random_legal(td["action_mask"].numpy(), rng))
            td = env.step(td)["next"]
        state["td"] = td
    return run, counter


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="zhajinhua")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=3.0)
    a = p.parse_args(argv)
    options = {"num_players": a.players}
    rng = np.random.default_rng(0)
    batched = [("native VecEnv.step", native(a.game, a.envs, options, rng)),
               ("Gymnasium VecGymEnv (agent + opponents)", gym_vector(a.game, a.envs, options,
                                                                      rng)),
               ("TorchRL TorchRLEnv.step (CPU)", torchrl(a.game, a.envs, options, rng))]
    single = [("native VecEnv.step", native(a.game, 1, options, rng)),
              ("Gymnasium GymEnv (agent + opponents)", gym_single(a.game, options, rng)),
              ("PettingZoo AEC", aec(a.game, options, rng)),
              ("PettingZoo Parallel", parallel(a.game, options, rng))]
    for title, rows in ((f"{a.envs} tables", batched), ("one table", single)):
        rates = [(name, moves_per_second(run, counter, a.seconds))
                 for name, (run, counter) in rows]
        base = rates[0][1]
        print(f"\n{a.game}, {a.players} players, {title}: random legal moves, "
              f"{a.seconds:g} s per row")
        print_table(["API", "moves/s", "vs native"],
                    [(name, f"{rate:,.0f}", f"{rate / base:.2f}x") for name, rate in rates])


if __name__ == "__main__":
    main()
