"""Arenas launched from the arena page: ``vecgames.arena`` in a background thread, played
at growing sizes (1/8, 1/4, 1/2 and all of the games per seat assignment, the same seed), so
the page's pairwise table and ratings fill in and tighten while it polls."""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from .sessions import Catalog, WebError, check_game, check_options, request_int

MAX_ARENA_GAMES = 20_000  # per seat assignment, from the page
MAX_ARENA_PLAYERS = 6
STAGES = (8, 4, 2, 1)  # the games of stage k: num_games / k


def records(df: Any) -> list[dict[str, Any]]:
    """A DataFrame as JSON rows (NaN as null)."""
    if df is None:
        return []
    out = []
    for row in df.to_dict(orient="records"):
        clean = {}
        for key, value in row.items():
            if hasattr(value, "item"):
                value = value.item()
            if isinstance(value, float) and not math.isfinite(value):
                value = None
            clean[str(key)] = value
        out.append(clean)
    return out


class ArenaJob:
    """One arena run in a thread; :meth:`message` is its progress and latest tables."""

    def __init__(self, catalog: Catalog, game: Any, players: Any, games: Any = None,
                 seed: Any = None, options: Any = None):
        self.game = check_game(game)
        if not isinstance(players, list) or not 1 <= len(players) <= MAX_ARENA_PLAYERS:
            raise WebError(f"players must be a list of 1 to {MAX_ARENA_PLAYERS} player names")
        self.names = [str(p) for p in players]
        self.specs = [catalog.player(self.game, name) for name in players]
        self.num_games = request_int(games, "games", 8, MAX_ARENA_GAMES, default=400)
        self.seed = request_int(seed, "seed", 0, 2**31 - 1, default=0)
        self.options = check_options(self.game, options)
        self.id = secrets.token_urlsafe(12)
        self.status = "running"
        self.error: str | None = None
        self.stages: list[dict[str, Any]] = []
        self.result: Any = None
        self.started = time.perf_counter()
        self._check()
        table_players = catalog.builtins(self.game, table=True)
        self.replayable = all(not isinstance(s, str) or s in table_players for s in self.specs)
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"arena-{self.id}")

    def _check(self) -> None:
        """The arena's own checks (players, options), on one game, before the thread starts."""
        from ..arena import arena

        try:
            arena(self.game, self.specs, 1, self.seed, num_threads=1, progress=False,
                  **self.options)
        except (ValueError, TypeError) as exc:
            raise WebError(f"arena: {exc}") from None

    def start(self) -> ArenaJob:
        self.thread.start()
        return self

    def _run(self) -> None:
        from ..arena import arena

        try:
            for k in STAGES:
                games = max(1, self.num_games // k)
                result = arena(self.game, self.specs, games, self.seed, num_threads=1,
                               progress=False, **self.options)
                self.result = result
                self.stages.append(self._tables(result, games))
            self.status = "done"
        except Exception as exc:  # pragma: no cover - the checks above catch bad input
            self.status, self.error = "error", f"{type(exc).__name__}: {exc}"

    def _tables(self, result: Any, games: int) -> dict[str, Any]:
        out: dict[str, Any] = {"games": games, "total_games": len(result.matches),
                               "seconds": round(time.perf_counter() - self.started, 2),
                               "unit": result.unit}
        if result.pairwise is not None:
            out["pairwise"] = records(result.pairwise)
            out["ratings"] = records(result.ratings)
            matrix = result.matrix()
            out["matrix"] = {"players": [str(p) for p in matrix.index],
                             "rows": [[None if v != v else float(v) for v in row]
                                      for row in matrix.to_numpy()]}
        else:
            out["selfplay"] = records(result.selfplay)
            out["crossplay"] = records(result.crossplay)
        return out

    def replay(self, row: Any) -> dict[str, Any]:
        """The replay of game ``row`` of the finished arena's matches."""
        from ..arena.replay import arena_replay

        if self.status != "done" or self.result is None:
            raise WebError("the arena has not finished", 409)
        if not self.replayable:
            raise WebError("a player of this arena plays in simulate's kernels only: its "
                           "games cannot be replayed move by move", 409)
        row = request_int(row, "row", 0, len(self.result.matches) - 1)
        return arena_replay(self.result, self.specs, row)

    def message(self) -> dict[str, Any]:
        games: list[dict[str, Any]] = []
        if self.status == "done" and self.result is not None and self.replayable:
            matches = self.result.matches
            step = max(1, len(matches) // 12)  # a few games to open as replays
            games = [{"row": int(r), "assignment": str(matches["assignment"].iloc[r]),
                      "deal": int(matches["deal"].iloc[r])}
                     for r in range(0, len(matches), step)][:12]
        return {"id": self.id, "game": self.game, "players": self.names,
                "num_games": self.num_games, "seed": self.seed, "status": self.status,
                "error": self.error, "stages": self.stages, "stage_count": len(STAGES),
                "latest": self.stages[-1] if self.stages else None, "games": games}


class ArenaStore:
    """Arena jobs by id; at most ``running`` at once."""

    def __init__(self, running: int = 2):
        self.running = running
        self._jobs: dict[str, ArenaJob] = {}
        self._lock = threading.Lock()

    def launch(self, job_args: Sequence[Any], catalog: Catalog, **kwargs: Any) -> ArenaJob:
        with self._lock:
            busy = sum(job.status == "running" for job in self._jobs.values())
            if busy >= self.running:
                raise WebError(f"{busy} arenas are running: wait for one to finish", 429)
        job = ArenaJob(catalog, *job_args, **kwargs)
        with self._lock:
            self._jobs[job.id] = job
        return job.start()

    def get(self, jid: str) -> ArenaJob:
        job = self._jobs.get(jid)
        if job is None:
            raise WebError("no such arena", 404)
        return job
