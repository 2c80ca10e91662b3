"""Hanabi's checkpoints (``vecgames.load_player``; its spec's ``checkpoint`` part): the player
class of a network trained on the ``conventions`` observation, and how to read a checkpoint
written before trainers recorded their game and env options."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...policies.checkpoint import CheckpointPlayer

# Config keys that only Hanabi's trainer wrote (its checkpoints had no "game" key before).
LEGACY_KEYS = frozenset({"end", "discard_at_max", "hint_target"})


class ViewPlayer(CheckpointPlayer):
    """A Hanabi network trained on the ``conventions`` observation: it reads the env itself
    (``act_env``), as the ``conventions`` player does, and writes what its clues mean into
    the state's memory before the env steps. ``player(obs, action_mask)`` and
    ``action_probs`` take that observation (``ConventionView.observe``)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        from .players_convention_view import ConventionView

        players = int(self.env_options["num_players"])
        self.view = ConventionView.for_obs_dim(players, self.obs_dim)

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        """Actions of the players to act in envs ``rows``, their clues' meaning recorded."""
        obs = self.view.observe(env, rows)
        actions = self(obs, env.action_mask[rows])
        self.view.record(env, rows, actions)
        return actions


def player_class(cfg: dict[str, Any]) -> type[CheckpointPlayer]:
    """The player of a checkpoint with trainer config ``cfg``."""
    return ViewPlayer if cfg.get("observation") == "conventions" else CheckpointPlayer


def legacy_env_options(cfg: dict[str, Any]) -> dict[str, Any]:
    """The env keywords of a checkpoint written before trainers stored them."""
    return {**{k: cfg[k] for k in LEGACY_KEYS if k in cfg}, "obs": "jaxmarl"}
