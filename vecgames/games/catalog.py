"""The game catalogue: the list of game packages, each game's ``GameSpec`` and ``make``.

Adding a game is one package (with its ``spec.py``) and one line in ``PACKAGES``. Specs are
read on first use, so ``import vecgames`` imports no game.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from ..core.vec_env import VecEnv
from .spec import GameSpec

# The games, in the order vecgames lists them: one package each.
PACKAGES: tuple[str, ...] = (
    "vecgames.games.zhajinhua",
    "vecgames.games.holdem",
    "vecgames.games.liars_dice",
    "vecgames.games.hanabi",
    "vecgames.games.dayaoguai",
    "vecgames.games.kuhn_poker",
    "vecgames.games.leduc_poker",
)


@cache
def specs() -> dict[str, GameSpec]:
    """Every game's spec by name, in catalogue order."""
    out: dict[str, GameSpec] = {}
    for package in PACKAGES:
        spec = importlib.import_module(f"{package}.spec").SPEC
        if spec.name != package.rpartition(".")[2]:
            raise ValueError(f"{package}: its spec is named {spec.name!r}, not the package's "
                             f"name")
        out[spec.name] = spec
    return out


def game_names() -> tuple[str, ...]:
    """The games' names (``make``/``simulate`` ids), in catalogue order."""
    return tuple(package.rpartition(".")[2] for package in PACKAGES)


def spec_of(name: str, aliases: bool = False) -> GameSpec:
    """The spec of game ``name`` (with ``aliases``, also of another spelling the command line
    takes, such as ``liars-dice``); ValueError names the games."""
    table = specs()
    if isinstance(name, str) and name in table:
        return table[name]
    for spec in table.values():
        if aliases and name in spec.aliases:
            return spec
    raise ValueError(f"unknown game {name!r}; available: {sorted(table)}")


def game_module(name: str) -> ModuleType:
    """The package of game ``name`` (``vecgames.games.<name>``); ValueError names the games."""
    return importlib.import_module(spec_of(name).parts["env"].partition(":")[0])


def guide_module(name: str) -> ModuleType:
    """Game ``name``'s text for a person: its rule options' labels and help, how to play."""
    return spec_of(name).load("guide")  # type: ignore[no-any-return]


def rules_module(name: str) -> ModuleType:
    """Game ``name``'s rules module (``DEFAULT_OPTIONS``, ``make_rules``, ``field``...)."""
    return spec_of(name).load("rules")  # type: ignore[no-any-return]


def gym_id(name: str) -> str:
    """The Gymnasium id of game ``name``, e.g. ``vecgames/Holdem-v0``."""
    return spec_of(name).gym_id


def env_takes(name: str, keyword: str) -> bool:
    """Whether game ``name``'s env takes the keyword ``keyword`` (e.g. ``observers``: the game
    can observe every seat at once); False for a name that is no game."""
    import inspect

    if not isinstance(name, str) or name not in specs():
        return False
    return keyword in inspect.signature(spec_of(name).load("env")).parameters


def make(name: str, num_envs: int = 1, seed: int = 0, **options: Any) -> VecEnv:
    """A batch of ``num_envs`` tables of game ``name`` with the given rule options."""
    return spec_of(name).load("env")(num_envs=num_envs, seed=seed, **options)  # type: ignore
