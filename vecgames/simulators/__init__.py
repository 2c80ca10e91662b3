"""Each game's ``simulate``: whole games played inside the kernels by built-in players.

One module per game (``plan``/``run``/``frame``/``simulate``, see ``core.simulation``), its
recorded-game frames (``<game>_record``), Hold'em hand logs (``holdem_log``), and ``mixed``,
which plays any mix of players through batched ``env.step`` into the same frames.
"""

from __future__ import annotations

import inspect
from types import ModuleType

from ..games.catalog import spec_of


def simulation_module(name: str) -> ModuleType:
    """The game's ``simulate`` module (``plan``/``run``/``frame``, see ``core.simulation``)."""
    return spec_of(name).load("simulate")  # type: ignore[no-any-return]


def default_policy(name: str) -> str:
    """The player ``simulate(name, ...)`` seats when no ``policy`` is given."""
    default = inspect.signature(simulation_module(name).simulate).parameters["policy"].default
    return str(default)
