"""``vecgames.make`` and ``vecgames.simulate``: look a game up by name."""

from __future__ import annotations

import importlib
from typing import Any

import pandas as pd

from .vec_env import VecEnv

# name -> (module, env class); modules are imported on first use so import stays fast.
GAMES: dict[str, tuple[str, str]] = {
    "zhajinhua": ("vecgames.games.zhajinhua", "ZhaJinHuaEnv"),
}


def _module(name: str):
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {sorted(GAMES)}")
    return importlib.import_module(GAMES[name][0])


def make(name: str, num_envs: int = 1, seed: int = 0, **options: Any) -> VecEnv:
    """A batch of ``num_envs`` tables of game ``name`` with the given rule options."""
    module = _module(name)
    return getattr(module, GAMES[name][1])(num_envs=num_envs, seed=seed, **options)


def simulate(name: str, num_games: int, policy: Any = "random", seed: int = 0,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games of ``name`` inside the kernels; see the game's simulate."""
    return _module(name).simulate(num_games, policy=policy, seed=seed, **options)
