"""Playing the arena's matches: one job per seat assignment (or a piece of one), each giving
the seats' payoffs game by game. A job of built-in players only runs in the game's
``simulate`` kernels; any other runs through ``vecgames.simulators.mixed.play_games``. Game g of a
job depends on (seed, g) only, so any split of a job gives the same payoffs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..core.simulation import even_bounds
from ..simulators import simulation_module
from .payoffs import seat_payoffs
from .players import Entrant, seat_spec


@dataclass(frozen=True)
class MatchJob:
    """Games ``first_game .. first_game + num_games - 1`` of ``game`` under ``seed`` with
    ``seats`` (one entrant per seat), the rule ``options`` and the env-only
    ``env_options`` (for tables played through ``play_games``: built-ins do not read them).
    Picklable (for Ray) when its players are."""

    game: str
    seats: tuple[Entrant, ...]
    seed: int
    first_game: int
    num_games: int
    options: Mapping[str, Any]
    env_options: Mapping[str, Any] = field(default_factory=dict)

    def split(self, parts: int) -> list[MatchJob]:
        """Consecutive pieces of the job's games (at most ``parts``, none empty)."""
        bounds = even_bounds(self.num_games, max(1, min(parts, self.num_games)))
        return [replace(self, first_game=self.first_game + lo, num_games=hi - lo)
                for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def play_match(job: MatchJob) -> np.ndarray:
    """``[num_games, seats]`` float64 payoffs of the job's games (``payoffs.seat_payoffs``)."""
    n = len(job.seats)
    if all(seat.builtin is not None for seat in job.seats):
        module = simulation_module(job.game)
        plan = module.plan(job.num_games, [seat.builtin for seat in job.seats], job.seed,
                           first_game=job.first_game, **job.options)
        df = module.frame(plan, module.run(plan))
    else:
        from ..simulators.mixed import play_games

        df = play_games(job.game, [seat_spec(seat) for seat in job.seats], job.num_games,
                        seed=job.seed, first_game=job.first_game, progress=False,
                        **job.options, **job.env_options)
    return seat_payoffs(job.game, df, n)
