"""A small game's public tree, from its spec: the one path by which the solvers reach a game."""

from __future__ import annotations

from typing import Any

from ..core.tree import Tree
from ..games.catalog import spec_of


def game_tree(game: str, **options: Any) -> Tree:
    """The public tree of two-player ``game`` (its spec's ``tree`` part) under ``options``
    (Liar's Dice: ``dice``, ``variant``, ...; Kuhn and Leduc poker take none). A ValueError
    names the games that have one."""
    spec = spec_of(game)
    if not spec.has("tree"):
        from ..games.catalog import specs

        have = [name for name, s in specs().items() if s.has("tree")]
        raise ValueError(f"{spec.title} has no public tree for the solvers; the games with "
                         f"one: {have}")
    return spec.load("tree")(**options)  # type: ignore[no-any-return]
