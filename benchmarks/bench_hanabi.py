"""Hanabi throughput, side by side with JaxMARL and OpenSpiel (HLE), as a table.

    python benchmarks/bench_hanabi.py [--games 2000000] [--steps 200]
        [--jaxmarl-python /tmp/jaxvenv/bin/python]

Random legal play, 2 players. Peers (benchmark-only, optional):

- JaxMARL 0.2.0 (``pip install jax jaxlib jaxmarl``; best in a venv of its own, named with
  ``--jaxmarl-python``): a jitted, vmapped step of ``--jax-envs`` tables with the
  observations of every agent computed (its normal output), random legal actions sampled
  inside the jitted function; compile time reported apart.
- OpenSpiel's ``hanabi`` (HLE inside; ``pip install open_spiel``): one Python call per move,
  with and without the observation tensors of both players.

Ours: whole games through ``vecgames.simulate`` (game logic only) and ``env.step`` at batch
4096 with the ``jaxmarl`` observation written for every player (``observers="all"``). Run it
alone on the machine (2 cores). Each rate is the best of three runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numba

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.env_stepper import BATCH, EnvStepper  # noqa: E402
from benchmarks.openspiel_peer import random_play  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402

_JAXMARL_PROBE = r"""
import json, sys, time
import jax, jax.numpy as jnp
from jaxmarl import make
num_envs, steps = int(sys.argv[1]), int(sys.argv[2])
env = make("hanabi", num_agents=2)
agents = env.agents
t0 = time.perf_counter()
keys = jax.random.split(jax.random.PRNGKey(0), num_envs)
obs, state = jax.vmap(env.reset)(keys)

def one_step(carry, _):
    key, state = carry
    key, k_act, k_step = jax.random.split(key, 3)
    legal = jax.vmap(env.get_legal_moves)(state)
    acts = {}
    for i, a in enumerate(agents):
        logits = jnp.where(legal[a], 0.0, -jnp.inf)
        acts[a] = jax.random.categorical(jax.random.fold_in(k_act, i), logits)
    obs, state, rew, done, info = jax.vmap(env.step)(jax.random.split(k_step, num_envs),
                                                     state, acts)
    return (key, state), rew["__all__"].sum()

@jax.jit
def run(key, state):
    (key, state), r = jax.lax.scan(one_step, (key, state), None, length=steps)
    return state, r.sum()

state2, r = run(jax.random.PRNGKey(1), state)
jax.block_until_ready(r)
compile_s = time.perf_counter() - t0
best = 1e9
for rep in range(3):
    t = time.perf_counter()
    state2, r = run(jax.random.PRNGKey(2 + rep), state2)
    jax.block_until_ready(r)
    best = min(best, time.perf_counter() - t)
print(json.dumps({"steps_per_s": num_envs * steps / best, "compile_s": compile_s}))
"""


def jaxmarl_rate(python: str | None, num_envs: int, steps: int) -> dict | None:
    """JaxMARL env-steps/s (observations of both agents computed) and its compile time, run
    in ``python`` (an interpreter with jaxmarl), or None when it is not available."""
    exe = python or sys.executable
    try:
        out = subprocess.run([exe, "-c", _JAXMARL_PROBE, str(num_envs), str(steps)],
                             capture_output=True, text=True, check=True, timeout=1200)
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def openspiel_rate(num_games: int, observe: bool, seed: int = 0) -> float | None:
    """Moves/s of random legal 2-player OpenSpiel Hanabi from Python, or None."""
    played = random_play("hanabi", {"players": 2}, num_games, 2 if observe else 0, seed)
    return None if played is None else played[1] / played[0]


def simulate_rate(games: int, threads: int) -> tuple[float, float]:
    """(steps/s, games/s) of random 2-player games through ``vecgames.simulate``."""
    df = vecgames.simulate("hanabi", games, seed=1, summary=True, num_threads=threads)
    seconds = best_seconds(lambda: vecgames.simulate("hanabi", games, seed=1, summary=True,
                                                     num_threads=threads))
    return df["mean_turns"].iloc[0] * games / seconds, games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--openspiel-games", type=int, default=300)
    parser.add_argument("--jaxmarl-python", help="an interpreter with jaxmarl installed")
    parser.add_argument("--jax-envs", type=int, default=4096)
    parser.add_argument("--jax-steps", type=int, default=100)
    args = parser.parse_args()

    rows: list[tuple[str, str, str]] = []
    jm = jaxmarl_rate(args.jaxmarl_python, args.jax_envs, args.jax_steps)
    peer = jm["steps_per_s"] if jm else None
    if jm:
        rows.append((f"JaxMARL, jit+vmap {args.jax_envs} envs, obs of both agents",
                     f"{peer:,.0f} steps/s", "1x"))
        rows.append(("JaxMARL compile (reset + scanned step)", f"{jm['compile_s']:.1f} s", ""))
    else:
        rows.append(("JaxMARL (pip install jax jaxlib jaxmarl; --jaxmarl-python)",
                     "not available", ""))
    for observe in (False, True):
        rate = openspiel_rate(args.openspiel_games, observe)
        what = "with both observation tensors" if observe else "no observations"
        rows.append((f"OpenSpiel hanabi (HLE) from Python, {what}",
                     "not installed" if rate is None else f"{rate:,.0f} steps/s",
                     f"{rate / peer:.2f}x" if rate and peer else ""))

    def ratio(rate: float) -> str:
        return f"{rate / peer:,.0f}x" if peer else ""

    stepper = EnvStepper("hanabi", BATCH, observers="all")
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        steps, games = simulate_rate(args.games, threads)
        rows.append((f"vecgames.simulate, {threads} thread(s), game logic only",
                     f"{steps / 1e6:,.1f} M steps/s ({games / 1e6:.2f} M games/s)",
                     ratio(steps)))
        seconds = min(stepper.run(args.steps) for _ in range(3))
        rate = BATCH * args.steps / seconds
        rows.append((f"env.step, batch {BATCH}, jaxmarl obs of both players, {threads} "
                     f"thread(s)", f"{rate / 1e6:,.2f} M steps/s", ratio(rate)))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    print_table(("workload", "rate", "vs JaxMARL"), rows)


if __name__ == "__main__":
    main()
