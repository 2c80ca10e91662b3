"""No-limit Hold'em: the policy gradient of ``pg`` on ``vecgames.make("holdem")``; by default
half the tables self-play, half against random players, and the run is scored against random
players and the seed's ``call`` (check/call with probability 1/2, else fold). ``--mix`` also
seats the built-ins that bet exact amounts (``equity``, ``strength``...); ``--observation
equity`` adds Monte Carlo hand strength to what the network sees.

Run ``vecgames train holdem --iterations 189`` (or ``python -m vecgames.games.holdem.train``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vecgames.games.holdem.history import OBSERVATIONS
from vecgames.training import core, pg


@dataclass
class Config(pg.Config):
    """``pg.Config`` with Hold'em's defaults."""

    game: str = "holdem"
    out: str = "runs/holdem"
    mix: str = "random=1,self=1"
    eval_opponents: tuple[str, ...] = ("random", "call")
    observation: str = "default"  # the env's observation layout (HoldemEnv)

    def draws_random(self) -> bool:
        return True

    def env_kwargs(self) -> dict[str, Any]:
        layout = {} if self.observation == "default" else {"observation": self.observation}
        return {**super().env_kwargs(), **layout}


TRAINER = core.Trainer(
    game="holdem", title="No-limit Hold'em", config=Config, build=pg.PolicyGradient,
    env_options=lambda cfg: cfg.env_kwargs(), evaluate=core.field_evaluation(pg.table_options),
    description="Train a no-limit Hold'em policy (REINFORCE + baseline + KL penalty) and score "
                "it in the arena against --eval-opponents.",
    help={**pg.HELP, "players": "seats per table (2..10)"},
    choices={**pg.CHOICES, "observation": OBSERVATIONS},
    checks=pg.check_config,
    panels={"learner chips per hand (training)": ["vs_random", "vs_league"],
            "entropy": ["entropy"], "KL(pi_old || pi_new)": list(pg.KL_KEYS)},
    postfix=("vs_random", "entropy", *pg.KL_KEYS), counters=("samples",))


def best_response_args(player: str, args: Any) -> list[str]:
    """``vecgames exploit``: PPO against ``player`` at every other seat, on the equity
    observation."""
    return pg.best_response_args(player, args, ["--observation", "equity"])


def main(argv: Sequence[str] | None = None, prog: str = "python -m vecgames.games.holdem.train"
         ) -> int:
    """Command-line entry point; returns the exit code."""
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
