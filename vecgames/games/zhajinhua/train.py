"""Zha Jin Hua: the policy gradient of ``pg`` (REINFORCE with a value baseline and a
KL(pi_old || pi_new) penalty; ``--algo ppo`` for PPO's) against random players by default.

Run ``vecgames train zhajinhua --iterations 81`` (or ``python -m
vecgames.games.zhajinhua.train``); docs/training.md has the options and measured results.
All-random tables are the default because the evaluation is against random players (self-play
tables cost chips there).
``--recipe original`` trains as the original document 003 describes instead (``train_seed``;
``--recipe seed`` is its deprecated name).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from vecgames.training import config_cli, core, pg

from . import train_seed as seed_recipe

RECIPES = ("default", "original", "seed")
# "seed": the deprecated name of "original" (old commands and checkpoints still work).
ORIGINAL = ("original", "seed")


@dataclass
class Config(pg.Config):
    """``pg.Config`` with Zha Jin Hua's defaults, and the recipe."""

    game: str = "zhajinhua"
    out: str = "runs/zhajinhua"
    recipe: str = "default"  # "original": document 003's algorithm (train_seed.py)

    def draws_random(self) -> bool:
        return True


def build(cfg: Any, device: Any, gen: Any) -> core.Algorithm:
    if getattr(cfg, "recipe", "default") in ORIGINAL:
        return seed_recipe.SeedRecipe(cfg, device, gen)
    return pg.PolicyGradient(cfg, device, gen)


# Options of the default recipe that the original recipe has no use for.
NOT_IN_SEED_RECIPE = ("--steps", "--epochs", "--minibatches", "--entropy-coef", "--value-coef",
                      "--mix", "--workers", "--algo", "--returns")


def apply_recipe(cfg: Config, argv: Sequence[str] | None) -> Config:
    """``--recipe original`` sets its defaults where an option was not given (``seed``: its
    deprecated name, said on stderr)."""
    if cfg.recipe not in ORIGINAL:
        return cfg
    if cfg.recipe == "seed":
        print("--recipe seed is deprecated: it is now --recipe original", file=sys.stderr)
        cfg = replace(cfg, recipe="original")
    given = config_cli.given_flags(argv)
    unused = sorted(given & set(NOT_IN_SEED_RECIPE))
    if unused:
        raise SystemExit(f"--recipe original plays whole self-play games with one update per "
                         f"iteration; it takes none of {', '.join(unused)}")
    # one dict: pg.Config's fields are Any to mypy (vecgames.training is not on its path)
    recipe: dict[str, Any] = {"env_options": dict(seed_recipe.ENV_OPTIONS), "mix": "self=1",
                              "entropy_coef": 0.0, "value_coef": 0.0, "epochs": 1,
                              "minibatches": 1}
    recipe.update((k, v) for k, v in seed_recipe.DEFAULTS.items() if f"--{k}" not in given)
    return replace(cfg, **recipe)


TRAINER = core.Trainer(
    game="zhajinhua", title="Zha Jin Hua", config=Config, build=build,
    env_options=lambda cfg: cfg.env_kwargs(),
    evaluate=core.field_evaluation(pg.table_options),
    description="Train a Zha Jin Hua policy (REINFORCE + baseline + KL penalty against random "
                "players; --recipe original: the original document's self-play policy "
                "gradient) and score it in the arena against --eval-opponents.",
    help={**pg.HELP, "players": "seats per table (2..6)",
          "recipe": "'original': train as the original document 003 describes (self-play, "
                    "one trajectory per seat and game, a plain gradient step then a KL step, "
                    "no value or entropy "
                    f"term, obs='seed'; defaults {seed_recipe.DEFAULTS}); 'seed': its deprecated "
                    "name"},
    choices={**pg.CHOICES, "recipe": RECIPES}, checks=pg.check_config, finish=apply_recipe,
    panels={"learner payoff per game (training)": ["vs_random", "vs_league"],
            "entropy": ["entropy"], "KL(pi_old || pi_new)": list(pg.KL_KEYS)},
    postfix=("vs_random", "entropy", *pg.KL_KEYS), counters=("samples",))


def best_response_args(player: str, args: Any) -> list[str]:
    """``vecgames exploit``: PPO against ``player`` at every other seat."""
    return pg.best_response_args(player, args)


def main(argv: Sequence[str] | None = None,
         prog: str = "python -m vecgames.games.zhajinhua.train") -> int:
    """Command-line entry point; returns the exit code."""
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
