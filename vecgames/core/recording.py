"""What every game's recorder shares: ``simulate``'s frame from games driven through ``env.step``.

A recorder (``vecgames.games.<game>.record.Recorder``) watches a batched env play games
``0 .. num_games - 1`` (``vecgames.simulators.mixed.play_games`` drives it) and fills the same
per-game output arrays as that game's ``simulate.run``, so the game's own ``simulate.frame``
builds the table: the columns, dtypes, row order and attrs are those of the in-kernel path by
construction. Per step the runner calls

- ``before_step(env, actions, game_ids)``: ``game_ids[i]`` is the game env i plays (-1: idle),
  ``actions[i]`` what it is about to be given (``WAIT`` = -1 for idle rows);
- ``after_step(env, reward, terminated, truncated, info, game_ids)``.

Same-step auto-reset deals the next game in the step that ends one, so a recorder reads a
finished game's last state from ``env.final_table`` (kept by the step kernels) and snapshots
in ``before_step`` the little it needs from the state before the move (only the rows acting).
Illegal actions under ``illegal="penalty"`` move nothing, and so are not recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .rng import check_seed
from .simulation import SimJob
from .validation import check_bool, check_int

Snapshot = dict[str, np.ndarray]
FrameFn = Callable[[SimJob, dict[str, np.ndarray]], pd.DataFrame]


class GameRecorder:
    """Base class: step bookkeeping and the frame; a game supplies the hooks below.

    ``first_game`` numbers the frame's games (``game`` = first_game + index) and ``seed`` is
    stamped in ``attrs``, as in ``simulate``. ``frame(**attrs)`` adds ``attrs`` to the table;
    ``players`` (seat labels) also becomes its policy attr (``policy``, Hold'em
    ``policies``), so the reports name the players who sat there.
    """

    game: str = ""
    policy_attr: str = "policy"
    records_actions: bool = False  # whether ``record_actions=True`` is accepted
    num_cols: int = 0  # the default outputs: ``cols``, int32 [num_games, num_cols]
    simulate_frame: FrameFn  # the game's ``simulate.frame`` (a staticmethod)

    def __init__(self, env: Any, num_games: int, record_actions: bool = False, *,
                 first_game: int = 0, seed: int = 0):
        if getattr(env, "name", None) != self.game:
            raise ValueError(f"a {self.game} recorder needs a {self.game} env, got "
                             f"{getattr(env, 'name', type(env).__name__)!r}")
        self.num_games = check_int(num_games, "num_games", 1, 2**40)
        self.record_actions = check_bool(record_actions, "record_actions")
        if self.record_actions and not self.records_actions:
            raise ValueError(f"record_actions is a Zha Jin Hua option; {self.game}'s frame has "
                             f"no action counts")
        self.first_game = check_int(first_game, "first_game", 0, 2**62)
        self.seed = int(check_seed(seed))
        self.rules = env.rules
        self.num_players: int = env.num_players
        self._ended = np.zeros(self.num_games, np.bool_)
        self._rows = np.zeros(0, np.int64)  # envs acting at this step
        self._games = np.zeros(0, np.int64)  # the games they play
        self._actions = np.zeros(0, np.int64)  # their actions
        self._snap: Snapshot = {}
        self.out: dict[str, np.ndarray] = self.outputs()

    # -- the runner's calls ----------------------------------------------------------------------
    def before_step(self, env: Any, actions: Any, game_ids: Any) -> None:
        acts = np.asarray(actions)
        ids = np.asarray(game_ids)
        rows = np.flatnonzero((ids >= 0) & (acts >= 0))
        games = ids[rows].astype(np.int64)
        if games.size and games.max() >= self.num_games:
            raise ValueError(f"game_ids must be below num_games ({self.num_games}), got "
                             f"{int(games.max())}")
        self._rows, self._games = rows, games
        self._actions = acts[rows].astype(np.int64)
        self._snap = self.snapshot(env, rows)

    def after_step(self, env: Any, reward: np.ndarray, terminated: np.ndarray,
                   truncated: np.ndarray, info: Mapping[str, Any], game_ids: Any) -> None:
        rows, games, actions, snap = self._rows, self._games, self._actions, self._snap
        illegal = info.get("illegal")
        if illegal is not None and illegal.any() and illegal[rows].any():  # they did not move
            keep = ~illegal[rows]
            rows, games, actions = rows[keep], games[keep], actions[keep]
            snap = {k: v[keep] for k, v in snap.items()}
        self.moved(env, rows, games, actions, snap, info)
        cut = np.asarray(truncated)[rows]
        end = np.asarray(terminated)[rows] | cut
        if end.any():
            self.ended(env, rows[end], games[end], cut[end], {k: v[end] for k, v in snap.items()},
                       info)
            self._ended[games[end]] = True

    def frame(self, **attrs: Any) -> pd.DataFrame:
        """The table of ``simulate`` for these games, with ``attrs`` added."""
        return self.part_frame(0, self.num_games, self.first_game, **attrs)

    def part_frame(self, lo: int, hi: int, first_game: int, **attrs: Any) -> pd.DataFrame:
        """The table of ``simulate`` for games ``lo .. hi - 1`` of these, numbered from
        ``first_game`` (one recorder can record several tables' games, each its own frame),
        with ``attrs`` added. Without ``record_actions``: its counts are not per game."""
        ended = self._ended[lo:hi]
        if not ended.all():
            missing = np.flatnonzero(~ended)
            raise ValueError(f"{missing.size} of {hi - lo} {self.game} games never "
                             f"ended (first: game {lo + int(missing[0])}); play them to the end")
        out = self.out
        if (lo, hi) != (0, self.num_games):
            if self.record_actions:
                raise ValueError("record_actions counts moves over all the games: a part of "
                                 "them has no frame of its own")
            # every output holds a fixed number of rows per game (Liar's Dice: per round)
            out = {k: v[lo * (len(v) // self.num_games):hi * (len(v) // self.num_games)]
                   for k, v in out.items()}
        job = SimJob(self.game, hi - lo, first_game, self.seed, False, self.params())
        df = self.simulate_frame(job, out)
        df.attrs[self.policy_attr] = labels(attrs.get("players"), self.num_players)
        df.attrs.update(attrs)
        return df

    # -- what a game supplies --------------------------------------------------------------------
    def outputs(self) -> dict[str, np.ndarray]:
        """The per-game arrays of the game's ``simulate.run`` (same names, shapes, dtypes);
        default: one int32 row of ``num_cols`` columns per game."""
        return {"cols": np.zeros((self.num_games, self.num_cols), np.int32)}

    def params(self) -> dict[str, Any]:
        """``SimJob.params`` as the game's ``simulate.frame`` reads them; the seat policies
        only name the seats, and ``frame`` names them after the players instead."""
        return {"rules": self.rules, "seat_policy": np.zeros(self.num_players, np.int64)}

    def snapshot(self, env: Any, rows: np.ndarray) -> Snapshot:
        """What the rows about to act need recorded from before the move (default: nothing)."""
        return {}

    def moved(self, env: Any, rows: np.ndarray, games: np.ndarray, actions: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        """Record the moves just made (default: nothing)."""

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:  # pragma: no cover - abstract
        """Record the games that ended (``cut``: truncated) at this step in envs ``rows``."""
        raise NotImplementedError


def labels(players: Sequence[Any] | None, num_players: int) -> list[str]:
    """Seat labels: the players' names, or ``seat p`` when none were given."""
    if players is None:
        return [f"seat {p}" for p in range(num_players)]
    return [str(p) for p in players]
