"""No-limit Hold'em: the trainer of ``training/zhajinhua.py`` (REINFORCE with a value baseline
and a KL(pi_old || pi_new) penalty on the torch bridge) on ``vecgames.make("holdem")``.

Run ``python -m vecgames.training.holdem --minutes 5`` (or ``vecgames train holdem ...``). Training
tables mix self-play (every seat the current policy) and tables where the other seats play
uniformly at random (``--random-opponents``, default 0.5). The final policy is scored at one
rotating seat against five uniform-random players and against five of the seed's "call"
players (check/call with probability 1/2, else fold), with 95% confidence intervals.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from . import config_cli, runs
from . import zhajinhua as base

PROG = "python -m vecgames.training.holdem"
DESCRIPTION = ("Train a no-limit Hold'em policy (REINFORCE + baseline + KL penalty) and evaluate "
               "it against uniform-random-legal and 'call' opponents.")


@dataclass
class Config(base.Config):
    """The Zha Jin Hua trainer's Config with Hold'em's game, defaults and opponents."""

    game: str = "holdem"
    out: str = "runs/holdem"
    random_opponents: float = 0.5
    eval_opponents: tuple[str, ...] = ("random", "call")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    return config_cli.build_parser(Config, prog, DESCRIPTION, base.HELP,
                                   skip=("recipe", "eval_opponents"))


def parse_config(argv: list[str] | None = None, prog: str = PROG) -> Config:
    return config_cli.parse_config(Config, build_parser(prog), argv, base.check_config)


def load_policy(path: Any, device: Any = "cpu") -> base.PolicyNet:
    """The PolicyNet stored in a checkpoint written by this trainer (``weights_only``-safe)."""
    return base.load_policy(path, device)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Command-line entry point; returns the exit code (``vecgames train holdem`` calls it with
    ``prog="vecgames train holdem"``)."""
    try:
        cfg, command = runs.parse_cli(argv, prog, parse_config, build_parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = base.train(cfg, command)
    t = result["train"]
    scores = "; ".join(
        f"vs {name}: {r['mean']:+.3f} chips/hand, 95% CI [{r['ci95_low']:.3f}, "
        f"{r['ci95_high']:.3f}] over {r['games']} hands"
        for name, r in result["evals"].items())
    print(f"trained {t['iterations']} iterations in {t['seconds']:.0f} s; {scores}; "
          f"outputs in {cfg.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
