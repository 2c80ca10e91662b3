"""A first run says on stderr that it compiles kernels; a run from the disk cache says nothing."""

from __future__ import annotations

import os
import subprocess
import sys

NOTICE = "compiling kernels (first run only"
CODE = """
import numba
import vecgames
from vecgames.core.rng import mix64

numba.njit(lambda x: x + 1)(1)  # a user's own kernel: not vecgames', no notice of its own
print(mix64(3))
"""

LOUD = {k: v for k, v in os.environ.items() if k != "VECGAMES_QUIET"}  # conftest quiets tests


def run(cache: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                          check=True, env={**LOUD, "NUMBA_CACHE_DIR": cache, **env})


def test_a_cold_cache_says_it_compiles_and_a_warm_one_does_not(tmp_path):
    first = run(str(tmp_path))
    assert first.stderr.count(NOTICE) == 1, first.stderr
    second = run(str(tmp_path))
    assert NOTICE not in second.stderr and second.stdout == first.stdout


def test_quiet_silences_it(tmp_path):
    assert NOTICE not in run(str(tmp_path), VECGAMES_QUIET="1").stderr


def test_a_users_own_kernel_says_nothing(tmp_path):
    code = "import numba, vecgames\nnumba.njit(lambda x: x + 1)(1)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**LOUD, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert NOTICE not in out.stderr
