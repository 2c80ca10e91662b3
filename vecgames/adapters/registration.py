"""Gymnasium ids for every game: ``gymnasium.make("vecgames/Holdem-v0")`` (one table, a
``GymEnv``) and ``gymnasium.make_vec("vecgames/Holdem-v0", num_envs=4096)`` (one
``VecGymEnv`` batch of tables, not ``num_envs`` sub-envs). Keywords (``seat``, ``opponents``,
``seed``, rule options such as ``num_players``) go to the adapter.

Importing this module registers the ids (idempotently). ``import vecgames`` has it imported
without importing Gymnasium itself: at once when Gymnasium is already imported, otherwise
right after it is (``vecgames.adapters.register_gymnasium_ids``). Gymnasium 1.x no longer
reads the ``gymnasium.envs`` entry-point group, so a package entry point would not do it;
``gymnasium.make("vecgames:vecgames/Holdem-v0")`` also works without importing vecgames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register, registry

from ..games.catalog import game_names, gym_id

if TYPE_CHECKING:  # pragma: no cover
    from .gym_env import VecGymEnv


def make_vec(game: str, num_envs: int = 1, **kwargs: Any) -> VecGymEnv:
    """Gymnasium's ``vector_entry_point``: the whole batch as one ``VecGymEnv``, stepped by
    the Numba kernels over all tables at once (``make_vec(..., vectorization_mode="sync")``
    would build ``num_envs`` one-table envs instead, far slower)."""
    from .gym_env import VecGymEnv

    return VecGymEnv(game, num_envs=num_envs, **kwargs)


def register_envs() -> list[str]:
    """Register every game's id (again: a no-op); returns the ids."""
    ids = []
    for game in game_names():
        env_id = gym_id(game)
        if env_id not in registry:
            register(id=env_id, entry_point="vecgames.adapters.gym_env:GymEnv",
                     vector_entry_point="vecgames.adapters.registration:make_vec",
                     kwargs={"game": game})
        ids.append(env_id)
    return ids


register_envs()
