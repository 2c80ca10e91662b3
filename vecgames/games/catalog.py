"""The game catalogue: each game's name, package, env class and Gymnasium id, and ``make``.

Game packages are imported on first use, so ``import vecgames`` stays fast.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from ..core.vec_env import VecEnv

# name -> (module, env class); modules are imported on first use so import stays fast.
GAMES: dict[str, tuple[str, str]] = {
    "zhajinhua": ("vecgames.games.zhajinhua", "ZhaJinHuaEnv"),
    "holdem": ("vecgames.games.holdem", "HoldemEnv"),
    "liars_dice": ("vecgames.games.liars_dice", "LiarsDiceEnv"),
    "hanabi": ("vecgames.games.hanabi", "HanabiEnv"),
    "dayaoguai": ("vecgames.games.dayaoguai", "DaYaoguaiEnv"),
}
UNITS = {"holdem": "hands", "liars_dice": "matches"}  # what a simulate "game" is, for a bar
# name -> the name in its Gymnasium id, vecgames/<Name>-v0 (vecgames.adapters.registration)
GYM_NAMES: dict[str, str] = {"zhajinhua": "ZhaJinHua", "holdem": "Holdem",
                             "liars_dice": "LiarsDice", "hanabi": "Hanabi",
                             "dayaoguai": "DaYaoguai"}
# name -> (env keyword that picks the observation layout, module holding its choices, tuple)
OBSERVATION_CHOICES: dict[str, tuple[str, str, str]] = {
    "liars_dice": ("observation", "vecgames.games.liars_dice.observe", "OBSERVATIONS"),
    "holdem": ("observation", "vecgames.games.holdem.history", "OBSERVATIONS"),
    "hanabi": ("obs", "vecgames.games.hanabi.observe", "ENCODERS"),
    "zhajinhua": ("obs", "vecgames.games.zhajinhua.env", "OBSERVATIONS"),
}


def game_module(name: str) -> ModuleType:
    """The package of game ``name`` (``vecgames.games.<name>``); ValueError names the games."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {sorted(GAMES)}")
    return importlib.import_module(GAMES[name][0])


def guide_module(name: str) -> ModuleType:
    """Game ``name``'s text for a person (``vecgames.games.<name>.guide``): its rule options'
    labels and help, and how to play."""
    game_module(name)
    return importlib.import_module(f"{GAMES[name][0]}.guide")


def gym_id(name: str) -> str:
    """The Gymnasium id of game ``name``, e.g. ``vecgames/Holdem-v0``."""
    game_module(name)
    return f"vecgames/{GYM_NAMES[name]}-v0"


def make(name: str, num_envs: int = 1, seed: int = 0, **options: Any) -> VecEnv:
    """A batch of ``num_envs`` tables of game ``name`` with the given rule options."""
    module = game_module(name)
    return getattr(module, GAMES[name][1])(num_envs=num_envs, seed=seed, **options)
