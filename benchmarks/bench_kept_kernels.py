"""Are the hand-written vector kernels worth keeping? Each beside the plain code it replaces,
in one run, as a ratio on the user-facing path it serves.

    python benchmarks/bench_kept_kernels.py [--hands 2000000] [--envs 16384]

- ``games/holdem/lockstep.py`` + ``core/lanes.py``: ``vecgames.simulate("holdem", ...)`` with
  random players at every seat plays eight hands at once in int64 lanes. Beside it, the same
  job on the scalar engine (``job.params["lockstep"] = False``, the path every other table
  takes). The two give the same table (tests/test_holdem_lockstep.py).
- ``core/simd.py``: Hanabi's observation encoder writes its rows as vector stores. Beside
  it, the same encoder module compiled with plain loops in their place (a copy of
  ``games/hanabi/observe.py`` whose ``write_fields``/``write_thermometer`` are the loops
  ``simd.py`` documents), encoding every seat's JaxMARL vector for a batch of mid-game states,
  as ``HanabiEnv.step`` does after each move. The two write the same floats (checked here).

Best of three runs each, after a compiling warm-up, alternating. Run it alone on the machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

import numpy as np
from numba import prange

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vecgames  # noqa: E402
from benchmarks.timing import best_seconds, print_table  # noqa: E402
from vecgames.core import jit as jit_module  # noqa: E402
from vecgames.core.jit import jit  # noqa: E402
from vecgames.games.hanabi import observe  # noqa: E402
from vecgames.games.holdem import simulate as holdem_sim  # noqa: E402


def holdem_rows(hands: int) -> list[list[str]]:
    rows = []
    for players in (2, 6):
        times = {}
        for lockstep in (True, False):
            job = holdem_sim.plan(hands, "random", 0, num_players=players)
            job.params["lockstep"] = lockstep
            warm = holdem_sim.plan(1000, "random", 0, num_players=players)
            warm.params["lockstep"] = lockstep
            holdem_sim.run(warm)  # compiles
            times[lockstep] = best_seconds(lambda job=job: holdem_sim.run(job))
        ratio = times[False] / times[True]
        rows.append([f"simulate holdem, random x {players}, {hands:,} hands",
                     f"{hands / times[True] / 1e6:.2f} M/s",
                     f"{hands / times[False] / 1e6:.2f} M/s",
                     f"{ratio:.2f}x"])
    return rows


# -- the plain loops simd.py replaces ---------------------------------------------------------
@jit(inline=True)
def _fields_loop(out, start, x, scale, n, w):
    mask = (np.int64(1) << w) - 1
    for m in range(n):
        out[start + m] = np.float32((x >> (w * m)) & mask) * scale


@jit(inline=True)
def _thermometer_loop(out, start, k, n):
    for m in range(n):
        out[start + m] = np.float32(1.0) if m < k else np.float32(0.0)


def scalar_observe_module():
    """A copy of games/hanabi/observe.py compiled with the plain loops (not cached)."""
    source = open(observe.__file__, encoding="utf-8").read()
    line = "from ...core.simd import write_fields, write_thermometer\n"
    assert line in source
    source = source.replace(line, "")
    spec = importlib.util.spec_from_loader("vecgames.games.hanabi._observe_loops", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "vecgames.games.hanabi"
    module.write_fields, module.write_thermometer = _fields_loop, _thermometer_loop
    cache, jit_module.CACHE = jit_module.CACHE, False  # compiled from a string: no file
    try:
        exec(compile(source, "observe_loops.py", "exec"), module.__dict__)
    finally:
        jit_module.CACHE = cache
    return module


def encode_kernel(observe_all):
    @jit(parallel=True)
    def encode(s, r, encoder, obs):
        for i in prange(obs.shape[0]):
            observe_all(s, i, r, encoder, obs[i])
    return encode


def hanabi_rows(envs: int) -> list[list[str]]:
    env = vecgames.make("hanabi", num_envs=envs, seed=0, obs="jaxmarl")
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):  # mid-game states: hints given, cards played and discarded
        mask = env.action_mask
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask], np.int64)
        env.step(actions)
    encoder = observe.ENCODERS.index("jaxmarl")
    n = env.rules.num_players
    shape = (envs, n, observe.obs_dim(encoder, n, env.rules.hand_size))
    fast = encode_kernel(observe.observe_all)
    plain = encode_kernel(scalar_observe_module().observe_all)
    out_fast, out_plain = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    fast(env.state, env.rules, encoder, out_fast)
    plain(env.state, env.rules, encoder, out_plain)
    assert np.array_equal(out_fast, out_plain), "the two encoders disagree"
    t_fast = best_seconds(lambda: fast(env.state, env.rules, encoder, out_fast))
    t_plain = best_seconds(lambda: plain(env.state, env.rules, encoder, out_plain))
    return [[f"Hanabi JaxMARL observation, {n} seats, {envs:,} envs",
             f"{envs / t_fast / 1e6:.2f} M envs/s", f"{envs / t_plain / 1e6:.2f} M envs/s",
             f"{t_plain / t_fast:.2f}x"]]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2_000_000)
    p.add_argument("--envs", type=int, default=16_384)
    a = p.parse_args(argv)
    rows = holdem_rows(a.hands) + hanabi_rows(a.envs)
    print_table(["path", "hand-written kernel", "plain code", "gain"], rows)
    print("keep a kernel where its gain is at least 1.3x (issue 25)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
