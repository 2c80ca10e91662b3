"""Two Python threads calling vecgames at once give the single-thread results, on the
threading layer Numba falls back to without TBB or OpenMP (``workqueue``, which aborts the
process on a concurrent launch unless ``vecgames.core.jit`` serializes them). Each check runs
in a subprocess, as an abort would take pytest down with it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import threading

    import numba
    import numpy as np
    import pandas as pd

    import vecgames

    def sim(seed):
        return vecgames.simulate("liars_dice", 20_000, seed=seed, num_players=3)

    def steps(seed):
        env = vecgames.make("zhajinhua", num_envs=512, seed=seed, num_players=4)
        obs, info = env.reset()
        rng = np.random.default_rng(seed)
        total = np.zeros(4)
        for _ in range(200):
            mask = info["action_mask"]
            choice = (rng.random(mask.shape) * mask).argmax(axis=1)
            obs, reward, term, trunc, info = env.step(choice)
            total += reward.sum(axis=0)
        return total, obs.copy()

    def both_at_once(fn, seeds):
        out, errors = {}, []
        barrier = threading.Barrier(len(seeds))
        def work(seed):
            try:
                barrier.wait()
                for _ in range(3):  # a few launches each, so that they overlap
                    out[seed] = fn(seed)
            except BaseException as exc:
                errors.append(exc)
        threads = [threading.Thread(target=work, args=(s,)) for s in seeds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        return out

    seeds = (1, 2)
    alone = {s: sim(s) for s in seeds}
    together = both_at_once(sim, seeds)
    for s in seeds:
        pd.testing.assert_frame_equal(alone[s], together[s], check_exact=True)
    alone = {s: steps(s) for s in seeds}
    together = both_at_once(steps, seeds)
    for s in seeds:
        np.testing.assert_array_equal(alone[s][0], together[s][0])
        np.testing.assert_array_equal(alone[s][1], together[s][1])
    print("layer", numba.threading_layer())
""")


@pytest.mark.parametrize("layer", ["workqueue", "default"])
def test_two_threads_at_once(layer):
    env = {**os.environ, "NUMBA_THREADING_LAYER": layer, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    if layer == "workqueue":
        assert "layer workqueue" in done.stdout
