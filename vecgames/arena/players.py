"""The arena's players: each spec resolved once into a labelled entrant, built-in or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..policies.human import HumanPlayer
from ..policies.protocol import builtin_name, default_label, resolve_player


@dataclass(frozen=True, eq=False)
class Entrant:
    """One arena player: its ``label`` in the tables, and either the name of a built-in
    player (``builtin``: it plays inside the simulate kernels) or a Player object."""

    label: str
    builtin: str | None
    player: Any = None


def resolve_entrants(game: str, specs: list[Any]) -> list[Entrant]:
    """Entrants for ``specs`` (what ``vecgames.policies.protocol.resolve_player`` takes, but
    a person), labels made unique with ``#2``, ``#3``... An unknown name is a ValueError
    listing the built-in players."""
    entrants = [_entrant(game, spec) for spec in specs]
    return [Entrant(label, e.builtin, e.player)
            for e, label in zip(entrants, _unique([e.label for e in entrants]), strict=True)]


def _entrant(game: str, spec: Any) -> Entrant:
    name = builtin_name(game, spec)
    if name is not None:  # it plays inside the simulate kernels
        return Entrant(name, name)
    player = resolve_player(game, spec)
    if isinstance(player, HumanPlayer):
        raise ValueError("the arena plays many games without a person: 'human' (a "
                         "HumanPlayer) cannot be an arena player (use `vecgames play` to play "
                         "against players)")
    return Entrant(default_label(player), None, player)


def seat_spec(entrant: Entrant) -> Any:
    """What ``play_games`` seats for the entrant: its built-in name or its Player."""
    return entrant.builtin if entrant.builtin is not None else entrant.player


def players_rule_options(game: str, entrants: list[Entrant], options: dict[str, Any],
                         rule_keys: Any) -> dict[str, Any]:
    """The rule options (among ``rule_keys``) that the non-built-in players need and the call
    does not set, e.g. a checkpoint's ``num_players``: every table of the arena uses them. A
    player of another game, or two players needing different values, is a ValueError."""
    others = [e.player for e in entrants if e.builtin is None]
    if not others:
        return {}
    from ..simulators.mixed import merged_env_options

    merged = merged_env_options(game, others, options)
    return {key: value for key, value in merged.items()
            if key not in options and key in rule_keys}


def check_tables(game: str, tables: list[tuple[Entrant, ...]], options: dict[str, Any]) -> None:
    """Check every table that ``play_games`` will play (its players fit the game, the env and
    each other) before any game of the arena starts; each set of players once."""
    mixed = {frozenset(map(id, seats)): seats for seats in tables
             if any(e.builtin is None for e in seats)}
    if not mixed:
        return
    from ..games.catalog import make
    from ..simulators.mixed import Table

    for seats in mixed.values():
        table = Table(game, [seat_spec(e) for e in seats], options)
        table.check_env(make(game, num_envs=1, **table.env_options))


def _unique(labels: list[str]) -> list[str]:
    """The labels, a repeated one suffixed ``#2``, ``#3``... in order."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return out
