"""Every decision of a sample of games played through the env with any mix of players
(built-in, callable, checkpoint): the data behind the reports' per-player action tables, which
the simulate frames do not keep seat by seat.

>>> log = decision_log("hanabi", ["rules", "random"], 500)
>>> log[["game", "seat", "action"]]        # one row per decision, attrs["players"]: the labels

The games are played by ``vecgames.simulators.mixed`` (the runner of ``simulate(players=...)``);
a game's ``before(env, rows, actions)`` and ``after(env, rows, table, before)`` add columns
read from the state before the step and from the table after it (the finished game's table
for a game that ended).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.seat_players import player_seats, seat_labels

Columns = dict[str, np.ndarray]
Before = Callable[[Any, np.ndarray, np.ndarray], Columns]
After = Callable[[Any, np.ndarray, np.ndarray, Columns], Columns]


class DecisionRecorder:
    """The runner's step hooks: one row per decision with ``game``, ``seat``, ``action`` (the
    id the env steps with) and the columns of ``before`` and ``after``."""

    def __init__(self, before: Before | None = None, after: After | None = None):
        self.before, self.after = before, after
        self.parts: list[Columns] = []
        self.pending: Columns = {}

    def before_step(self, env: Any, actions: np.ndarray, game_ids: np.ndarray) -> None:
        rows = np.flatnonzero(game_ids >= 0)
        chosen = np.asarray(actions)[rows].astype(np.int64)
        self.pending = {"game": game_ids[rows], "seat": env.current_player[rows].astype(np.int64),
                        "action": chosen}
        if self.before is not None:
            self.pending |= self.before(env, rows, chosen)
        self.pending["_rows"] = rows

    def after_step(self, env: Any, reward: np.ndarray, terminated: np.ndarray,
                   truncated: np.ndarray, info: dict[str, Any], game_ids: np.ndarray) -> None:
        rows = self.pending.pop("_rows")
        if self.after is not None:
            ended = (terminated | truncated)[rows]
            table = np.where(ended[:, None], env.final_table[rows], env.state.table[rows])
            self.pending |= self.after(env, rows, table, self.pending)
        self.parts.append(self.pending)

    def frame(self) -> pd.DataFrame:
        """The decisions in game order, each game's in the order they were made."""
        if not self.parts:
            return pd.DataFrame(columns=["game", "seat", "action"])
        cols = {k: np.concatenate([part[k] for part in self.parts]) for k in self.parts[0]}
        return pd.DataFrame(cols).sort_values("game", kind="stable", ignore_index=True)


def decision_log(game: str, players: Any, num_games: int, before: Before | None = None,
                 after: After | None = None, seed: int = 0, num_envs: int = 1024,
                 **options: Any) -> pd.DataFrame:
    """Every decision of ``num_games`` games with ``players`` (one spec for every seat or one
    per seat, as ``simulate(players=...)``) and the rule options; ``attrs["players"]``: the
    seat labels, ``attrs["games"]``: ``num_games``."""
    import vecgames
    from vecgames.simulators.mixed import Table, play_rows

    table = Table(game, players, options)
    env = vecgames.make(game, num_envs=min(num_games, num_envs), seed=seed,
                        **table.env_options)
    table.check_env(env)
    recorder = DecisionRecorder(before, after)
    play_rows(env, table, recorder, seed, np.arange(num_games), None, None)
    log = recorder.frame()
    log.attrs.update(players=list(table.labels), games=num_games)
    return log


def kind_table(log: pd.DataFrame, column: str, kinds: Sequence[str]) -> pd.DataFrame:
    """Per player (seats grouped by ``log.attrs["players"]``): games (seat-games), decisions
    and the share of each kind (``log[column]`` holds kind indices into ``kinds``)."""
    rows = []
    for name, seats in player_seats(log.attrs["players"]).items():
        mine = log.loc[log["seat"].isin(seats).to_numpy(), column].to_numpy(np.int64)
        counts = np.bincount(mine, minlength=len(kinds))
        rows.append({"player": name, "games": int(log.attrs.get("games", 0)) * len(seats),
                     "decisions": mine.size,
                     **{k: counts[i] / mine.size if mine.size else np.nan
                        for i, k in enumerate(kinds)}})
    return pd.DataFrame(rows)


def frame_players(game: str, df: pd.DataFrame, players: Any = None) -> Any:
    """The player specs that play more games like ``df``'s: ``players`` when given, else the
    frame's seat labels when they are all built-in names; None when neither."""
    if players is not None:
        return players
    import vecgames

    labels = seat_labels(df, int(df.attrs.get("rules", {}).get("num_players", 0)))
    return labels if set(labels) <= set(vecgames.players(game)) else None


def log_like(game: str, df: pd.DataFrame, players: Any, num_games: int,
             before: Before | None = None, after: After | None = None,
             **options: Any) -> pd.DataFrame | None:
    """``decision_log`` of ``num_games`` games with the frame's rules and players (see
    ``frame_players``); None when there are no players to seat or no games to play."""
    spec = frame_players(game, df, players)
    if spec is None or num_games <= 0:
        return None
    rules = dict(df.attrs.get("rules", {})) | options
    return decision_log(game, spec, num_games, before, after, **rules)


def no_log_note(num_games: int) -> str:
    """Why a report has no decision table."""
    if num_games > 0:
        return ("No decision table: a seat holds other than a built-in player; pass `players=` "
                "(the seat specs) to `write_report` (the CLI does).")
    return ("No decision table: it plays more games through the env; pass "
            "`decision_games=N` to `write_report` (the CLI does: `--decision-games`).")
