"""Replays on the server: arena games (``vecgames.arena.replay``) played back into frames,
one per move, that the page steps through forwards and backwards.

A replay is data, never code: its game is dealt again from its seed and deal and each
recorded action goes through the env's illegal-action contract; a record whose actions are
illegal, or whose rewards differ from the ones it claims, is refused. A web replay holds at
most ``MAX_REPLAY_MOVES`` moves; its frames are rendered when asked for (a page of them at a
time) and never kept, and the store holds at most ``MAX_STORED_MOVES`` moves in all.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import numpy as np

from ..arena.replay import (
    apply_action,
    check_replay,
    draws_of,
    load_replay,
    replay_action,
    replay_env,
    seek,
)
from ..core.simulation import numba_threads
from ..policies.human import row_state
from . import views
from .sessions import GAMES, Store, WebError, request_int

MAX_REPLAY_MOVES = 10_000  # twice Da Yaoguai's default step cap (the longest games)
MAX_STORED_MOVES = 200_000  # the moves of every replay the server holds (the oldest go)
MAX_FRAMES_PER_PAGE = 500


class ReplayDoc:
    """One replay: checked by playing it back once when it is added; its frames are
    rendered on request (:meth:`frames`), a range of moves at a time."""

    def __init__(self, replay: Any, name: str):
        moves = replay.get("actions") if isinstance(replay, dict) else None
        if isinstance(moves, list) and len(moves) > MAX_REPLAY_MOVES:  # before any work
            raise WebError(f"a replay of {len(moves):,} moves: the server plays back at most "
                           f"{MAX_REPLAY_MOVES:,}", 413)
        try:
            self.replay = check_replay(replay)
        except ValueError as exc:
            raise WebError(str(exc)) from None
        if self.replay["game"] not in GAMES:
            raise WebError(f"replay of an unknown game {self.replay['game']!r}")
        self.name = name
        self.id = secrets.token_urlsafe(12)
        self.moves = len(self.replay["actions"])
        self.frames(False, 0, 0)  # plays it back now: a bad replay is refused when it is opened

    def summary(self) -> dict[str, Any]:
        r = self.replay
        return {"id": self.id, "name": self.name, "game": r["game"],
                "title": views.title_of(r["game"]), "players": r["players"], "deal": r["deal"],
                "seed": r["seed"], "moves": len(r["actions"]), "rewards": r["rewards"]}

    def frames(self, reveal: bool, start: int = 0,
               stop: int | None = None) -> list[dict[str, Any]]:
        """Frames ``start`` to ``stop`` (inclusive; frame k: the table after k moves; None:
        to the end), rendered now: the whole game is stepped, only these frames drawn."""
        last = self.moves if stop is None else min(stop, self.moves)
        try:
            return _play_back(self.replay, reveal, start, last)
        except (ValueError, TypeError, OverflowError) as exc:
            raise WebError(f"the replay does not play back: {exc}") from None

    def message(self, reveal: bool) -> dict[str, Any]:
        """Every frame (the replay is at most MAX_REPLAY_MOVES moves)."""
        return {**self.summary(), "reveal": reveal, "frames": self.frames(reveal)}

    def page(self, reveal: bool, start: Any, count: Any) -> dict[str, Any]:
        """``count`` frames from frame ``start`` (``GET /api/replays/{id}/frames``)."""
        start = request_int(start, "start", 0, self.moves)
        count = request_int(count, "count", 1, MAX_FRAMES_PER_PAGE)
        return {**self.summary(), "reveal": reveal, "start": start, "steps": self.moves,
                "frames": self.frames(reveal, start, start + count - 1)}


def _play_back(replay: dict[str, Any], reveal: bool, first: int,
               last: int) -> list[dict[str, Any]]:
    """The replay played to its end and checked; the frames ``first`` to ``last`` drawn."""
    game = replay["game"]
    view = views.view_of(game)
    env = replay_env(game, replay["options"], replay["seed"], replay["deal"])
    n = env.num_players
    if len(replay["players"]) != n:
        raise ValueError(f"{len(replay['players'])} players for {n} seats")
    total = np.zeros(n)
    frames = [{"step": 0, "table": views.table_view(game, row_state(env.state, 0), env, None,
                                                    reveal),
               "lines": ["the deal"], "done": False}] if first == 0 else []
    actions = replay["actions"]
    draws = draws_of(replay)
    ended = False
    with numba_threads(1):
        for k, item in enumerate(actions):
            action = replay_action(item)
            seek(env, draws, k)
            drawn = first <= k + 1 <= last
            before = row_state(env.state, 0) if drawn else None
            _, reward, terminated, truncated, info = apply_action(env, action)
            total += reward[0, :n]
            ended = done = bool(terminated[0] or truncated[0])
            if done and k != len(actions) - 1:
                raise ValueError(f"the game ended at move {k + 1} of {len(actions)}")
            if not drawn:
                continue
            after = row_state(env.state, 0)
            lines = view.narrate(before, after, env, action, reward[0, :n], done)
            shown: list[int] = []
            if done:
                shown = views.showdown(game, before, env, action)
                lines = [*lines, view.game_over(before, env, action, total, None,
                                                bool(truncated[0] and not terminated[0]))]
            shows = views.final_state(game, before, after, env, action, info) if done else after
            frames.append({"step": k + 1,
                           "table": views.table_view(game, shows, env, None, reveal, shown),
                           "seat": int(views.env_player(game, before)),
                           "lines": list(lines), "done": done})
    if not ended:
        raise ValueError("the recorded moves end before the game does")
    if not np.allclose(total, replay["rewards"]):
        raise ValueError(f"it pays {total.tolist()}, the record says {replay['rewards']}")
    return frames


class ReplayStore(Store[ReplayDoc]):
    """Replays by id: files from the ``--replays`` folder given at server start, games
    recorded from the arena page, uploads; the oldest go beyond ``limit`` replays or
    ``max_moves`` moves in all."""

    def __init__(self, limit: int = 500, max_moves: int = MAX_STORED_MOVES):
        super().__init__(limit, "replay")
        self.max_moves = max_moves

    def add(self, item: ReplayDoc) -> ReplayDoc:
        super().add(item)
        with self._lock:
            total = sum(doc.moves for doc in self._items.values())
            while total > self.max_moves and len(self._items) > 1:
                key, doc = self._items.popitem(last=False)
                self._used.pop(key, None)
                total -= doc.moves
        return item

    def load_folder(self, folder: str) -> int:
        """Every ``*.json`` replay in ``folder`` (a bad file is skipped with a warning)."""
        import warnings

        count = 0
        for path in sorted(Path(folder).glob("*.json")):
            try:
                self.add(ReplayDoc(load_replay(path), path.name))
                count += 1
            except (ValueError, WebError, OSError) as exc:
                warnings.warn(f"{path}: not loaded: {exc}", stacklevel=2)
        return count

    def listing(self) -> list[dict[str, Any]]:
        return [doc.summary() for doc in self.values()]
