"""A Speed-table benchmark whose peer is not installed prints a "not installed" row (issue 34,
item 2): the peer's import is blocked in a subprocess."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_blocked(script: str, blocked: list[str], *args: str) -> subprocess.CompletedProcess:
    block = "".join(f"sys.modules[{m!r}] = None; " for m in blocked)
    code = (f"import runpy, sys; {block}sys.argv = [{script!r}, *{list(args)!r}]; "
            f"runpy.run_path({script!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "VECGAMES_QUIET": "1"})


@pytest.mark.parametrize("peer", ["eval7", "phevaluator"])
def test_bench_poker_without_a_peer(peer):
    done = run_blocked("benchmarks/bench_poker.py", [peer], "--quick")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith(peer))
    assert "not installed" in row and '".[dev]"' in row


def test_bench_holdem_without_pokerkit():
    done = run_blocked("benchmarks/bench_holdem.py", ["pokerkit", "rlcard"], "--games", "2000",
                       "--steps", "2")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("pokerkit"))
    assert "not installed" in row and '".[dev]"' in row
    assert "M hands/s" in done.stdout  # vecgames' own rows still come
