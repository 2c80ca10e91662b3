"""One table with a person at it: the env (``num_envs=1``) and the seats that the terminal
(``vecgames play``) and the web app (``vecgames serve``) both play, built one way.

A person sits at ``seat`` and players sit at every other seat, or (``person=None``) players
sit everywhere for a spectator. The seats go through ``Table``, the runner's checks, so a
single table refuses what ``play_games`` refuses. Each problem is a :class:`TableError`
naming what was wrong (``part``: ``"options"``, ``"seat"``, ``"count"`` or ``"players"``),
which each front end words its own way (a command-line flag, an HTTP 400).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.validation import check_int
from ..games.catalog import make
from .mixed import Table


class TableError(ValueError):
    """A single table that cannot be built; ``part`` is what was wrong: ``"options"`` (the
    rule options), ``"seat"`` (the person's seat), ``"count"`` (not one player for all the
    other seats or one per seat) or ``"players"`` (a player itself)."""

    def __init__(self, part: str, message: str):
        super().__init__(message)
        self.part = part


@dataclass
class OneTable:
    """The built table: the runner's ``Table`` of every seat, the live one-env ``env``, the
    person's ``seat`` (None: a spectator's table) and each seat's label ("you" for the
    person)."""

    table: Table
    env: Any
    seat: int | None
    labels: list[str]

    @property
    def num_players(self) -> int:
        return len(self.labels)


def table_size(game: str, players: Sequence[Any], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the seat count a checkpoint among ``players`` was trained for, when the
    options do not set it and the players agree on one."""
    needs = {int(o["num_players"]) for o in (getattr(p, "env_options", None) or {}
                                              for p in players) if "num_players" in o}
    if "num_players" not in options and len(needs) == 1:
        return {**options, "num_players": needs.pop()}
    return dict(options)


def one_table(game: str, players: Sequence[Any], options: dict[str, Any], seed: int,
              person: Any = None, seat: Any = 0, cycle: bool = False) -> OneTable:
    """The table of ``game`` with ``person`` at ``seat`` (None: players at every seat) and
    ``players`` (built-in names or Players) at the other seats: one for all of them, or one per
    seat in seat order, or with ``cycle`` in turn over the seats. ``options``: rule options;
    ``seed``: the env's."""
    if not players:
        raise TableError("count", "give at least one player for the other seats")
    opts = table_size(game, players, options)
    try:
        n = make(game, num_envs=1, seed=0, **opts).num_players  # checks the options
    except (ValueError, TypeError) as exc:
        raise TableError("options", str(exc)) from None
    if person is not None:
        try:
            seat = check_int(seat, "seat", 0, n - 1)
        except (ValueError, TypeError) as exc:
            raise TableError("seat", str(exc)) from None
    at = None if person is None else int(seat)
    others = [p for p in range(n) if p != at]
    if cycle:
        chosen = [players[k % len(players)] for k in range(len(others))]
    elif len(players) == 1:
        chosen = list(players) * len(others)
    elif len(players) == len(others):
        chosen = list(players)
    else:
        raise TableError("count", f"give one player for all the other seats or one per other "
                                  f"seat ({len(others)}: seats {', '.join(map(str, others))}), "
                                  f"got {len(players)}")
    by_seat = dict(zip(others, chosen, strict=True))
    try:  # the runner's checks: names, checkpoints, games, env options, obs sizes
        table = Table(game, [person if p == at else by_seat[p] for p in range(n)],
                      {**opts, "num_players": n})
        env = make(game, num_envs=1, seed=seed, **table.env_options)
        table.check_env(env)
    except (ValueError, TypeError) as exc:
        raise TableError("players", str(exc)) from None
    labels = ["you" if p == at else label for p, label in enumerate(table.labels)]
    return OneTable(table, env, at, labels)
