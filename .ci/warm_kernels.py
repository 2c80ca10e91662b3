"""Compile every game's kernels into Numba's on-disk cache, so that CI can do it while the
rest of the dependencies download (the tests then load them instead of compiling them, once
per test process). Any failure here only costs time: the tests compile what they need."""

from __future__ import annotations

import sys
import time

import numpy as np

import vecgames


def warm(game: str) -> None:
    vecgames.simulate(game, 64, seed=0)
    vecgames.simulate(game, 64, seed=0, summary=True)
    env = vecgames.make(game, num_envs=4, seed=0)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        mask = np.asarray(info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        *_, info = env.step(actions)
    # the built-in players at an env (mixed tables, the arena, the web): one kernel per game
    from vecgames.policies.builtin import BuiltinPlayer

    rows = np.arange(env.num_envs, dtype=np.int64)
    for name in vecgames.players(game):
        player = BuiltinPlayer(game, name)
        if not player.kernel_only:
            player.act_env(env, rows)


def main() -> int:
    games = sys.argv[1:] or [g.name for g in vecgames.list_games()]
    for game in games:
        start = time.perf_counter()
        warm(game)
        print(f"{game}: {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
