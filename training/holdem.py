"""No-limit Hold'em: the policy gradient of ``pg`` on ``vecgames.make("holdem")``; half the
tables self-play, half against random players. Scored against random players and the seed's
``call`` (check/call with probability 1/2, else fold).

Run ``vecgames train holdem --iterations 189`` (or ``python -m vecgames.training.holdem``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import vecgames

from . import core, pg
from .zhajinhua import check_config as pg_checks
from .zhajinhua import table_options


@dataclass
class Config(pg.Config):
    """``pg.Config`` with Hold'em's defaults."""

    game: str = "holdem"
    out: str = "runs/holdem"
    mix: str = "random=1,self=1"
    eval_opponents: tuple[str, ...] = ("random", "call")

    def draws_random(self) -> bool:
        return True


def check_config(cfg: Config) -> None:
    pg_checks(cfg)
    bets = [name for name, _ in pg.parse_mix(cfg.mix) if name in vecgames.players("holdem")
            and name != "random"]
    if bets:  # they bet exact chip amounts (env.step_amounts); the trainer steps action ids
        raise SystemExit(f"--mix: Hold'em's built-in players ({', '.join(bets)}) bet exact "
                         "amounts that this trainer's actions cannot carry; use random, self, "
                         "league or a checkpoint")


TRAINER = core.Trainer(
    game="holdem", title="No-limit Hold'em", config=Config, build=pg.PolicyGradient,
    env_options=lambda cfg: cfg.env_kwargs(), evaluate=core.field_evaluation(table_options),
    description="Train a no-limit Hold'em policy (REINFORCE + baseline + KL penalty) and score "
                "it in the arena against --eval-opponents.",
    help={**pg.HELP, "players": "seats per table (2..10)"}, choices=pg.CHOICES,
    checks=check_config,
    panels={"learner chips per hand (training)": ["vs_random", "vs_league"],
            "entropy": ["entropy"], "KL(pi_old || pi_new)": ["kl"]},
    postfix=("vs_random", "entropy", "kl"), counters=("samples",))


def main(argv: Sequence[str] | None = None, prog: str = "python -m vecgames.training.holdem"
         ) -> int:
    """Command-line entry point; returns the exit code."""
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
