"""Replays on the server: arena games (``vecgames.arena.replay``) played back into frames,
one per move, that the page steps through forwards and backwards.

A replay is data, never code: its game is dealt again from its seed and deal and each
recorded action goes through the env's illegal-action contract; a record whose actions are
illegal, or whose rewards differ from the ones it claims, is refused.
"""

from __future__ import annotations

import secrets
import threading
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
from .sessions import GAMES, Store, WebError


class ReplayDoc:
    """One replay and its frames (built on first use, with and without every hand)."""

    def __init__(self, replay: Any, name: str):
        try:
            self.replay = check_replay(replay)
        except ValueError as exc:
            raise WebError(str(exc)) from None
        if self.replay["game"] not in GAMES:
            raise WebError(f"replay of an unknown game {self.replay['game']!r}")
        self.name = name
        self.id = secrets.token_urlsafe(12)
        self._frames: dict[bool, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.frames(True)  # plays it back now: a bad replay is refused when it is opened

    def summary(self) -> dict[str, Any]:
        r = self.replay
        return {"id": self.id, "name": self.name, "game": r["game"],
                "title": views.TITLES[r["game"]], "players": r["players"], "deal": r["deal"],
                "seed": r["seed"], "moves": len(r["actions"]), "rewards": r["rewards"]}

    def frames(self, reveal: bool) -> list[dict[str, Any]]:
        with self._lock:
            if reveal not in self._frames:
                try:
                    self._frames[reveal] = _play_back(self.replay, reveal)
                except (ValueError, TypeError, OverflowError) as exc:
                    raise WebError(f"the replay does not play back: {exc}") from None
            return self._frames[reveal]

    def message(self, reveal: bool) -> dict[str, Any]:
        return {**self.summary(), "reveal": reveal, "frames": self.frames(reveal)}


def _play_back(replay: dict[str, Any], reveal: bool) -> list[dict[str, Any]]:
    game = replay["game"]
    view = views.view_of(game)
    env = replay_env(game, replay["options"], replay["seed"], replay["deal"])
    n = env.num_players
    if len(replay["players"]) != n:
        raise ValueError(f"{len(replay['players'])} players for {n} seats")
    total = np.zeros(n)
    frames = [{"step": 0, "table": views.table_view(game, row_state(env.state, 0), env, None,
                                                    reveal),
               "lines": ["the deal"], "done": False}]
    actions = replay["actions"]
    draws = draws_of(replay)
    with numba_threads(1):
        for k, item in enumerate(actions):
            action = replay_action(item)
            seek(env, draws, k)
            before = row_state(env.state, 0)
            _, reward, terminated, truncated, info = apply_action(env, action)
            total += reward[0, :n]
            done = bool(terminated[0] or truncated[0])
            after = row_state(env.state, 0)
            lines = view.narrate(before, after, env, action, reward[0, :n], done)
            shown: list[int] = []
            if done:
                if k != len(actions) - 1:
                    raise ValueError(f"the game ended at move {k + 1} of {len(actions)}")
                shown = views.showdown(game, before, env, action)
                lines = [*lines, view.game_over(before, env, action, total, None,
                                                bool(truncated[0] and not terminated[0]))]
            shows = views.final_state(game, before, after, env, action, info) if done else after
            frames.append({"step": k + 1,
                           "table": views.table_view(game, shows, env, None, reveal, shown),
                           "seat": int(views.env_player(game, before)),
                           "lines": list(lines), "done": done})
    if not frames[-1]["done"]:
        raise ValueError("the recorded moves end before the game does")
    if not np.allclose(total, replay["rewards"]):
        raise ValueError(f"it pays {total.tolist()}, the record says {replay['rewards']}")
    return frames


class ReplayStore(Store[ReplayDoc]):
    """Replays by id: files from the ``--replays`` folder given at server start, games
    recorded from the arena page, uploads."""

    def __init__(self, limit: int = 500):
        super().__init__(limit, "replay")

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
