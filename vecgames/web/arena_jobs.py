"""Arenas launched from the arena page: ``vecgames.arena`` in a background thread, played
at growing sizes (1/8, 1/4, 1/2 and all of the games per seat assignment, the same seed), so
the page's pairwise table and ratings fill in and tighten while it polls.

An arena's games in all (seat assignments x games, x rounds in Liar's Dice) are capped
(``MAX_ARENA_TOTAL``); a job can be cancelled (it stops before its next stage); a finished
one keeps its tables and the few games the page offers as replays, not the matches."""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from ..games.catalog import rules_module, spec_of
from .sessions import Catalog, WebError, check_game, check_options, request_int

MAX_ARENA_GAMES = 20_000  # per seat assignment, from the page
MAX_ARENA_PLAYERS = 6
MAX_ARENA_TOTAL = 100_000  # seat assignments x games (x Liar's Dice rounds) of one arena
MAX_FINISHED_JOBS = 20  # finished, failed or cancelled jobs kept (the oldest go)
STAGES = (8, 4, 2, 1)  # the games of stage k: num_games / k
REPLAY_GAMES = 12  # the games of a finished arena the page offers as replays


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
        self.result: Any = None  # the latest stage's; a slim copy once the arena is done
        self.started = time.perf_counter()
        self._cancel = threading.Event()
        self._check_size(self._seats(catalog))
        self._check_size(self._check())
        table_players = catalog.builtins(self.game, table=True)
        self.replayable = all(not isinstance(s, str) or s in table_players for s in self.specs)
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"arena-{self.id}")

    def _seats(self, catalog: Catalog) -> int:
        """The seat assignments at the table size the options ask for (the default size when
        a checkpoint sets it: the one-game check then gives the exact count)."""
        from ..arena.schedule import count_assignments, hanabi_assignments

        seats = self.options.get("num_players", rules_module(self.game).DEFAULT_OPTIONS[
            "num_players"])
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 16:
            return 1  # the arena's check names the bad value
        if spec_of(self.game).cooperative:  # self-play and cross-play tables
            return len(hanabi_assignments(len(self.specs), seats))
        return count_assignments(len(self.specs), seats)

    def _check_size(self, assignments: int) -> None:
        # a game of several rounds (num_rounds) plays that many per game
        defaults = rules_module(self.game).DEFAULT_OPTIONS
        rounds = self.options.get("num_rounds", 1) if "num_rounds" in defaults else 1
        rounds = rounds if isinstance(rounds, int) and rounds > 0 else 1
        total = assignments * self.num_games * rounds
        if total > MAX_ARENA_TOTAL:
            per = " x rounds" if rounds > 1 else ""
            raise WebError(f"arena: {assignments:,} seat assignments x {self.num_games:,} games"
                           f"{per} = {total:,}, above the server's {MAX_ARENA_TOTAL:,}; give "
                           f"fewer games or players")

    def _check(self) -> int:
        """The arena's own checks (players, options), on one game, before the thread starts;
        the number of seat assignments."""
        from ..arena import arena

        try:
            result = arena(self.game, self.specs, 1, self.seed, num_threads=1, progress=False,
                           **self.options)
        except (ValueError, TypeError) as exc:
            raise WebError(f"arena: {exc}") from None
        return len(result.matches)

    def cancel(self) -> None:
        """Stop before the next stage (the tables so far stay)."""
        if self.status == "running":
            self._cancel.set()
            self.status = "cancelled"

    def start(self) -> ArenaJob:
        self.thread.start()
        return self

    def _run(self) -> None:
        from ..arena import arena

        try:
            for k in STAGES:
                if self._cancel.is_set():
                    break
                games = max(1, self.num_games // k)
                result = arena(self.game, self.specs, games, self.seed, num_threads=1,
                               progress=False, **self.options)
                self.stages.append(self._tables(result, games))
                self.result = result
            if not self._cancel.is_set():
                self.result = self._slim(self.result)
                self.status = "done"
        except Exception as exc:  # pragma: no cover - the checks above catch bad input
            self.status, self.error = "error", f"{type(exc).__name__}: {exc}"
        finally:
            if self.status != "done":
                self.result = None

    def _slim(self, result: Any) -> Any:
        """What a finished arena keeps: the games it offers as replays, not every match."""
        rows = list(range(0, len(result.matches), max(1, len(result.matches) // REPLAY_GAMES)))
        return SimpleNamespace(game=result.game, players=result.players, seats=result.seats,
                               seed=result.seed, options=result.options,
                               matches=result.matches.iloc[rows[:REPLAY_GAMES]],
                               rows=rows[:REPLAY_GAMES])

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

        result = self.result
        if self.status != "done" or result is None:
            raise WebError("the arena has not finished", 409)
        if not self.replayable:
            raise WebError("a player of this arena plays in simulate's kernels only: its "
                           "games cannot be replayed move by move", 409)
        row = request_int(row, "row", 0, 2**62)
        if row not in result.rows:
            raise WebError(f"row must be one of the games listed ({result.rows})")
        return arena_replay(result, self.specs, result.rows.index(row))

    def message(self) -> dict[str, Any]:
        games: list[dict[str, Any]] = []
        result = self.result
        if self.status == "done" and result is not None and self.replayable:
            matches = result.matches
            games = [{"row": int(r), "assignment": str(matches["assignment"].iloc[k]),
                      "deal": int(matches["deal"].iloc[k])}
                     for k, r in enumerate(result.rows)]
        return {"id": self.id, "game": self.game, "players": self.names,
                "num_games": self.num_games, "seed": self.seed, "status": self.status,
                "error": self.error, "stages": self.stages, "stage_count": len(STAGES),
                "latest": self.stages[-1] if self.stages else None, "games": games}


class ArenaStore:
    """Arena jobs by id; at most ``running`` threads at once (a cancelled job's thread until
    its stage ends), at most ``MAX_FINISHED_JOBS`` ended ones kept."""

    def __init__(self, running: int = 2):
        self.running = running
        self._jobs: dict[str, ArenaJob] = {}
        self._lock = threading.Lock()

    def launch(self, job_args: Sequence[Any], catalog: Catalog, **kwargs: Any) -> ArenaJob:
        with self._lock:
            busy = sum(job.thread.is_alive() for job in self._jobs.values())
            if busy >= self.running:
                raise WebError(f"{busy} arenas are running: wait for one to finish or cancel "
                               f"it", 429)
        job = ArenaJob(catalog, *job_args, **kwargs)
        with self._lock:
            self._jobs[job.id] = job
            ended = [jid for jid, j in self._jobs.items() if j.status != "running"]
            for jid in ended[:max(0, len(ended) - MAX_FINISHED_JOBS)]:
                del self._jobs[jid]
        return job.start()

    def cancel(self, jid: str) -> ArenaJob:
        job = self.get(jid)
        job.cancel()
        return job

    def get(self, jid: str) -> ArenaJob:
        job = self._jobs.get(jid)
        if job is None:
            raise WebError("no such arena", 404)
        return job
