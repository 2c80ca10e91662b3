"""Every example in examples/ runs end to end, shortened (a couple of updates)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHORT = {
    "gymnasium_ppo_zhajinhua.py": ["--updates", "2", "--num-envs", "32", "--num-steps", "8",
                                   "--eval-games", "200"],
    "pettingzoo_selfplay_liars_dice.py": ["--updates", "2", "--matches-per-update", "8",
                                          "--eval-matches", "50"],
    "torchrl_selfplay_liars_dice.py": ["--updates", "2", "--num-envs", "32", "--steps", "8",
                                       "--eval-steps", "20"],
}


def test_every_example_is_covered():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(SHORT)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_example_runs(name):
    pytest.importorskip("torch")
    pytest.importorskip({"gym": "gymnasium", "pet": "pettingzoo", "tor": "torchrl"}[name[:3]])
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *SHORT[name]],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "before" in done.stdout and "after" in done.stdout
