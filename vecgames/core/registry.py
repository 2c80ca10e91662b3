"""``vecgames.make`` and ``vecgames.simulate``: look a game up by name."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .vec_env import VecEnv

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# name -> (module, env class); modules are imported on first use so import stays fast.
GAMES: dict[str, tuple[str, str]] = {
    "zhajinhua": ("vecgames.games.zhajinhua", "ZhaJinHuaEnv"),
    "holdem": ("vecgames.games.holdem", "HoldemEnv"),
    "liars_dice": ("vecgames.games.liars_dice", "LiarsDiceEnv"),
    "hanabi": ("vecgames.games.hanabi", "HanabiEnv"),
    "dayaoguai": ("vecgames.games.dayaoguai", "DaYaoguaiEnv"),
}


def _module(name: str):
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {sorted(GAMES)}")
    return importlib.import_module(GAMES[name][0])


def simulation_module(name: str):
    """The game's ``simulate`` module (``plan``/``run``/``frame``, see ``core.simulation``)."""
    _module(name)
    return importlib.import_module(GAMES[name][0] + ".simulate")


def make(name: str, num_envs: int = 1, seed: int = 0, **options: Any) -> VecEnv:
    """A batch of ``num_envs`` tables of game ``name`` with the given rule options."""
    module = _module(name)
    return getattr(module, GAMES[name][1])(num_envs=num_envs, seed=seed, **options)


def simulate(name: str, num_games: int, policy: Any = "random", seed: int = 0,
             backend: str = "local", **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games of ``name`` inside the kernels.

    Further keywords go to the game's ``simulate`` (for Zha Jin Hua: ``summary``,
    ``record_actions``, ``first_game``, ``num_threads`` and the rule options); see
    ``vecgames.games.<name>.simulate``.
    ``backend="ray"`` splits the games into shards run on a Ray cluster, with the same result
    bit for bit; its own keywords (``address``, ``num_shards``, ...) are those of
    ``vecgames.distributed.simulate_ray``.
    """
    if backend == "ray":
        from ..distributed import simulate_ray

        return simulate_ray(name, num_games, policy=policy, seed=seed, **options)
    if backend != "local":
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    return _module(name).simulate(num_games, policy=policy, seed=seed, **options)
