"""Liar's Dice's checkpoints (``vecgames.load_player``; its spec's ``checkpoint`` part): how
to read a checkpoint written before trainers recorded their env options."""

from __future__ import annotations

from typing import Any


def legacy_env_options(cfg: dict[str, Any]) -> dict[str, Any]:
    """The env keywords of a checkpoint written before trainers stored them."""
    return {"dice": cfg["dice"], "variant": cfg.get("variant", "zhai_fei"),
            "observation": cfg["observation"]}
