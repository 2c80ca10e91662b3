"""``play_games``: whole games with any mix of players, through batched ``env.step``.

Games are played in waves of ``num_envs``: env i of the wave that starts at game w plays
global game ``first_game + w + i`` from that game's random stream (``env_offset``), and an env
whose game ended waits (``WAIT``) for the rest of its wave. So game g depends on the seed and
g only: not on ``num_envs``, the thread count or a shard split. Built-in players draw from
each env's stream as ``simulate``'s kernels do, so a table of built-ins gives ``simulate``'s
frame bit for bit in every game (Hold'em's rotating button is set at each wave's start). The
game's Recorder (``vecgames.games.<game>.record``) builds that frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from ..core.rng import check_seed
from ..core.simulation import numba_threads, progress_bar, show_progress
from ..core.validation import check_bool, check_int, check_list
from ..games.catalog import make, rules_module, spec_of
from ..policies.builtin import BuiltinPlayer, takes_threshold
from ..policies.human import HumanPlayer
from ..policies.protocol import builtin_name, resolve_items, unique_labels

WAIT = -1
DEFAULT_ENVS = 2048  # tables stepped together (fewer when there are fewer games)
# Numba threads of the env steps unless num_threads is given: a step's kernels are light next
# to a player's forward, and a parallel launch per step is what costs on a busy machine
# (Hold'em, 2048 tables, a torch MLP, 2 loaded cores: 16 ms per kernel on 2 threads; 77k
# decisions/s on 1 thread against 19k on 2, benchmarks/bench_players.py).
ENV_THREADS = 1
# Keywords that would change what a game is or how an illegal action is handled: the runner
# owns them (illegal="raise" is the contract a player's illegal action falls under).
RUNNER_KEYWORDS = ("env_offset", "illegal", "illegal_penalty", "observers", "summary")


def play_games(game: str, players: Any, num_games: int, seed: int = 0, first_game: int = 0,
               num_envs: int | None = None, progress: bool | None = None,
               record_actions: bool = False, **options: Any) -> pd.DataFrame:
    """Play games ``first_game .. first_game + num_games - 1`` of ``game`` with ``players``
    (one spec for every seat or one per seat, as in ``resolve_players``) and return the
    frame of ``vecgames.simulate(game, ...)`` for those games, with ``attrs["players"]`` the
    seat labels. ``options``: the game's rule and env options, ``num_threads`` (Numba threads
    of the env steps; default ``ENV_THREADS``, None: all), and for Liar's Dice the built-in
    heuristic's ``threshold``. Bad input raises before any game starts.
    """
    table = Table(game, players, options)
    num_games = check_int(num_games, "num_games", 1, 2**40)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    seed = int(check_seed(seed))
    record = check_bool(record_actions, "record_actions")
    envs = min(num_games, DEFAULT_ENVS if num_envs is None else
               check_int(num_envs, "num_envs", 1, 2**24))
    show = show_progress(progress)
    env = make(game, num_envs=envs, seed=seed, **table.env_options)
    table.check_env(env)
    recorder = new_recorder(game, env, num_games, record, first_game, seed)
    with numba_threads(table.num_threads), progress_bar(num_games, "games", show) as bar:
        play_rows(env, table, recorder, seed, first_game + np.arange(num_games), None, bar)
    return recorder.frame(players=list(table.labels), **table.frame_attrs)


def play_tables(game: str, tables: Sequence[Any], num_games: int, seed: int = 0,
                first_game: int | Sequence[int] = 0, num_envs: int | None = None,
                progress: bool | None = None, on_games: Callable[[int], None] | None = None,
                **options: Any) -> list[pd.DataFrame]:
    """``play_games`` at several tables at once: table t (a players spec, as ``play_games``
    takes) plays games ``first_game[t] .. first_game[t] + num_games - 1`` (``first_game``:
    one per table, or one for all: the same deals at every table), and its frame is the one
    ``play_games`` gives for those games, bit for bit (for players that draw from their own
    generator, as a sampling checkpoint does: the same distribution, not the same draws).

    Every table's games share one env and its waves, so a player seated at several tables
    answers for all of them in one call (one forward pass of a network over the rows where it
    acts at any table). The tables' env options (the call's merged with their players') must
    agree. ``on_games(n)``: called as each wave's n games end (a caller's own progress).
    Bad input raises before any game starts."""
    specs = check_list(tables, "tables", "tables (one players spec each)")
    if not specs:
        raise ValueError("tables must hold at least one table")
    built = [Table(game, spec, options) for spec in specs]
    for table in built:
        for player, label, _ in table.groups:
            if isinstance(player, HumanPlayer):
                raise ValueError(f"play_tables plays many tables without a person: the human "
                                 f"player {label!r} can sit at one table (play_games)")
    first = built[0]
    for table in built[1:]:
        key = different_option(first.env_options, table.env_options)
        if key is not None:
            raise ValueError(f"the tables' players need different {key!r} "
                             f"({first.env_options.get(key)!r} and "
                             f"{table.env_options.get(key)!r}): play them in separate calls")
    num_games = check_int(num_games, "num_games", 1, 2**40)
    firsts = ([first_game] * len(built) if isinstance(first_game, (int, np.integer)) else
              check_list(first_game, "first_game", "one first game per table"))
    if len(firsts) != len(built):
        raise ValueError(f"first_game must be one int or one per table ({len(built)}), got "
                         f"{len(firsts)}")
    firsts = [check_int(f, "first_game", 0, 2**62) for f in firsts]
    seed = int(check_seed(seed))
    total = num_games * len(built)
    envs = min(total, DEFAULT_ENVS if num_envs is None else
               check_int(num_envs, "num_envs", 1, 2**24))
    env = make(game, num_envs=envs, seed=seed, **first.env_options)
    for table in built:
        table.check_env(env)
    recorder = new_recorder(game, env, total, False, 0, seed)
    games = (np.asarray(firsts, np.int64)[:, None] + np.arange(num_games)).ravel()
    with numba_threads(first.num_threads), \
            progress_bar(total, "games", show_progress(progress)) as bar:
        play_rows(env, Seating(built), recorder, seed, games,
                  np.repeat(np.arange(len(built)), num_games), bar, on_games)
    return [recorder.part_frame(t * num_games, (t + 1) * num_games, f,
                                players=list(table.labels), **table.frame_attrs)
            for t, (table, f) in enumerate(zip(built, firsts, strict=True))]


def different_option(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """The first env option on which ``a`` and ``b`` differ (one missing counts), or None."""
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b or not same_option(a[key], b[key]):
            return key
    return None


def builtin_policy(game: str, spec: Any) -> str | list[str] | None:
    """``spec`` as ``simulate``'s ``policy`` (a name, or one per seat) when it seats built-in
    players only (``builtin_name``), else None: then only ``play_games`` can seat it."""
    if isinstance(spec, (str, BuiltinPlayer)):
        return builtin_name(game, spec)
    if not isinstance(spec, (list, tuple)):
        return None
    seats = [builtin_name(game, item) for item in spec]
    return None if not seats or None in seats else [str(s) for s in seats]


class Table:
    """The validated seats of a ``play_games`` call: one Player per seat, their labels, the
    env keywords (the call's merged with what the players need) and the runner's options."""

    def __init__(self, game: str, spec: Any, options: dict[str, Any]):
        options = dict(options)
        for key in RUNNER_KEYWORDS:
            if key in options:
                raise ValueError(f"play_games does not take {key!r}: the runner sets it "
                                 f"(illegal actions raise; the observation is the acting "
                                 f"seat's; summary=True is for built-in players only)")
        self.num_threads: int | None = options.pop("num_threads", ENV_THREADS)
        threshold = options.pop("threshold", None) if takes_threshold(game) else None
        items, single = resolve_items(game, spec)
        self.env_options = merged_env_options(game, items, options)
        num_players = self.env_options.get("num_players", default_players(game))
        if single:
            items = items * num_players
        elif len(items) != num_players:
            raise ValueError(f"players must be one player or a list of {num_players} (one "
                             f"per seat, num_players={num_players}), got {len(items)}")
        if threshold is not None:  # the heuristic's threshold for the built-ins without one
            swap = {id(p): BuiltinPlayer(game, p.builtin, threshold) for p in items
                    if isinstance(p, BuiltinPlayer) and p.threshold is None}
            items = [swap.get(id(p), p) for p in items]
        self.frame_attrs = {} if threshold is None else {"threshold": float(threshold)}
        for p in items:
            if getattr(p, "kernel_only", False):
                raise ValueError(f"{game}'s built-in player {p.name!r} plays only in "
                                 f"simulate's kernels (with built-in players only)")
        self.game, self.seats = game, items
        self.seats_count = len(items)
        # distinct players in seat order, each with the seats it holds (equal built-ins are
        # one player: one kernel call, one label)
        keys = [player_key(p) for p in items]
        distinct = dict(zip(keys, items, strict=True))
        self.players = list(distinct.values())
        labels = dict(zip(distinct, unique_labels(self.players), strict=True))
        self.labels = [labels[k] for k in keys]
        self.groups = [(p, labels[k], np.array([q == k for q in keys] + [False], np.bool_))
                       for k, p in distinct.items()]  # the extra False: a WAIT row's seat
        for player, label, seats in self.groups:
            if isinstance(player, HumanPlayer) and seats.sum() > 1:
                raise ValueError(f"players: the human player {label!r} sits at "
                                 f"{int(seats.sum())} seats, and one person would see every "
                                 f"one of their hidden cards; seat 'human' once (or give "
                                 f"each seat its own HumanPlayer with its own input and "
                                 f"output)")

    def check_env(self, env: Any) -> None:
        """Each player's ``obs_dim`` (and ``num_actions``, where it has one) fits the env's
        (before any game starts)."""
        for player, label, _ in self.groups:
            if hasattr(player, "act_env"):
                continue
            dim = getattr(player, "obs_dim", None)
            if dim is not None and dim != env.obs_dim:
                raise ValueError(f"player {label!r} reads observations of {dim} values, but "
                                 f"{self.game} with these options has {env.obs_dim} (the "
                                 f"expected size; env options {self.env_options})")
            actions = getattr(player, "num_actions", None)
            if actions is not None and actions != env.num_actions:
                raise ValueError(f"player {label!r} chooses among {actions} actions, but "
                                 f"{self.game} with these options has {env.num_actions} (the "
                                 f"expected count; env options {self.env_options})")


class Seating:
    """Several tables' players in one env: each distinct player (``player_key``) once, and
    per table the seats it holds there (``seats[t, group]``, with the extra False column of
    a ``WAIT`` row's seat)."""

    def __init__(self, tables: list[Table]):
        index: dict[Any, int] = {}
        self.players: list[Any] = []
        labels: list[str] = []  # a player's label at the first table that seats it
        for table in tables:
            for player, label, _ in table.groups:
                if index.setdefault(player_key(player), len(self.players)) == len(self.players):
                    self.players.append(player)
                    labels.append(label)
        self.labels = labels
        self.seats = np.zeros((len(tables), len(self.players), tables[0].seats_count + 1),
                              np.bool_)
        for t, table in enumerate(tables):
            for player, _, seats in table.groups:
                self.seats[t, index[player_key(player)]] = seats

    def rows(self, row_tables: np.ndarray) -> Any:
        """The seats of a wave whose env i plays at table ``row_tables[i]``: an object with
        ``players`` and ``groups`` (player, label, bool ``[envs, seats + 1]``), as ``choose``
        reads a ``Table``'s."""
        per_row = self.seats[row_tables]  # [envs, groups, seats + 1]
        groups = [(p, label, per_row[:, g]) for g, (p, label)
                  in enumerate(zip(self.players, self.labels, strict=True))]
        return SimpleNamespace(players=self.players, groups=groups)


def player_key(player: Any) -> Any:
    """What makes two seats one player: equal built-ins, else the same object."""
    return player if isinstance(player, BuiltinPlayer) else id(player)


def default_players(game: str) -> int:
    return int(rules_module(game).DEFAULT_OPTIONS["num_players"])


def merged_env_options(game: str, players: list[Any], options: dict[str, Any]
                       ) -> dict[str, Any]:
    """The call's env keywords with those the players need (``env_options``); a conflict, or
    a player of another game, raises a ValueError naming both sides."""
    merged = dict(options)
    source = dict.fromkeys(options, "the call")
    for player, label in zip(players, unique_labels(players), strict=True):
        other = getattr(player, "game", None)
        if other is not None and other != game:
            raise ValueError(f"player {label!r} plays {other}, not {game}")
        for key, value in (getattr(player, "env_options", None) or {}).items():
            if key in merged and not same_option(merged[key], value):
                raise ValueError(f"player {label!r} needs {key}={value!r}, but {source[key]} "
                                 f"has {key}={merged[key]!r}")
            merged[key] = value
            source[key] = f"player {label!r}"
    return merged


def same_option(a: Any, b: Any) -> bool:
    """Whether two values of one option mean the same: numbers compare as numbers, and
    sequences of numbers (tuple, list, array) element by element, so ``(0.5, 1.0)``,
    ``[0.5, 1]`` and ``np.array([0.5, 1.0])`` agree; anything else compares with ``==``."""
    numeric_a, numeric_b = _numbers(a), _numbers(b)
    if numeric_a is not None and numeric_b is not None:
        return numeric_a.shape == numeric_b.shape and bool(np.all(numeric_a == numeric_b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. arrays of different shapes
        return False


def _numbers(value: Any) -> np.ndarray | None:
    """``value`` as a float64 array when it is a number or a flat sequence of numbers (not a
    bool, a string or a mapping), else None."""
    if isinstance(value, (str, bytes, dict)) or value is None:
        return None
    items = value if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if isinstance(value, np.ndarray) and value.ndim != 1:
        return None
    if not all(isinstance(x, (int, float, np.integer, np.floating))
               and not isinstance(x, (bool, np.bool_)) for x in items):
        return None
    return np.asarray(items, np.float64).reshape(np.shape(value))


def new_recorder(game: str, env: Any, num_games: int, record_actions: bool, first_game: int,
                 seed: int) -> Any:
    """The game's Recorder (its spec's ``record`` part), building simulate's frame."""
    module = spec_of(game).load("record")
    return module.Recorder(env, num_games, record_actions=record_actions,
                           first_game=first_game, seed=seed)


# -- waves ---------------------------------------------------------------------------------
def play_rows(env: Any, seated: Any, recorder: Any, seed: int, games: np.ndarray,
              row_tables: np.ndarray | None, bar: Any,
              on_games: Callable[[int], None] | None = None) -> None:
    """Recorder ids ``0 .. len(games) - 1``, id k the global game ``games[k]``, in waves of
    ``env.num_envs``; ``seated``: a ``Table``, or a ``Seating`` whose table
    ``row_tables[k]`` plays id k. ``bar`` (a progress bar, or None) and ``on_games`` hear
    of each wave's games."""
    total, b = len(games), env.num_envs
    for start in range(0, total, b):
        count = min(b, total - start)
        ids = np.minimum(start + np.arange(b), total - 1)  # idle envs: a dealt game, unrecorded
        if row_tables is None:
            wave = seated
            dealt = games[start] + np.arange(b)  # (contiguous: env i the stream of game + i)
        else:
            wave = seated.rows(row_tables[ids])
            dealt = games[ids]
        play_wave(env, wave, recorder, seed, dealt, start, count)
        if bar is not None:
            bar.update(count)
        if on_games is not None:
            on_games(count)


def play_wave(env: Any, table: Any, recorder: Any, seed: int, dealt: np.ndarray, start: int,
              count: int) -> None:
    """Recorder ids ``start .. start + count - 1`` in envs ``0 .. count - 1``, env i dealt
    global game ``dealt[i]``; the other envs wait."""
    b = env.num_envs
    obs, info = env.deal(dealt, seed=seed)
    # a game whose simulate deals a wave in its own way (Hold'em's rotating button) says how
    begin = getattr(spec_of(env.name).load("simulate"), "wave_start", None)
    if begin is not None:
        obs, info = begin(env, dealt)
    game_ids = np.where(np.arange(b) < count, start + np.arange(b), -1)
    active = game_ids >= 0
    while active.any():
        actions, exact = choose(env, table, obs, info, active)
        recorder.before_step(env, actions, game_ids)
        if exact is None:
            obs, reward, terminated, truncated, info = env.step(actions)
        else:
            obs, reward, terminated, truncated, info = env.step_amounts(
                *exact, wait=actions == WAIT)
        recorder.after_step(env, reward, terminated, truncated, info, game_ids)
        ended = np.flatnonzero(active & (terminated | truncated))
        if ended.size:
            active[ended] = False
            game_ids[ended] = -1
            for player in table.players:
                reset = getattr(player, "reset_games", None)
                if reset is not None:
                    reset(ended)


def choose(env: Any, table: Any, obs: np.ndarray, info: dict[str, Any],
           active: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """Every acting row's action from its seat's player (``WAIT`` elsewhere); for a Hold'em
    table where a player answered with exact (kind, amount) pairs, also (kinds, amounts)
    for ``env.step_amounts``. ``table``: a ``Table`` (its groups' seats the same in every
    env) or ``Seating.rows`` (per env)."""
    mask = info["action_mask"]
    current = np.where(active, info["current_player"], env.num_players)
    every = np.arange(env.num_envs)
    actions = np.full(env.num_envs, WAIT, np.int64)
    exact_rows, exact_pairs = [], []
    for player, label, seats in table.groups:
        rows = np.flatnonzero(seats[current] if seats.ndim == 1 else seats[every, current])
        if rows.size == 0:
            continue
        ids, pairs = checked_answer(env, player, player_answer(player, env, rows, obs, mask),
                                    rows, label)
        if pairs is not None:
            exact_rows.append(rows)
            exact_pairs.append(pairs)
        actions[rows] = ids
    if not exact_rows:
        return actions, None
    return actions, exact_actions(env, actions, np.concatenate(exact_rows),
                                  np.concatenate(exact_pairs))


def player_answer(player: Any, env: Any, rows: np.ndarray, obs: Any, mask: Any,
                  index: Any = None) -> np.ndarray:
    """What ``player`` answers for envs ``rows``: its ``act_env(env, rows)`` where it has one,
    else ``player(obs[index], mask[index])`` (``index``: ``rows`` unless given, e.g. as a
    torch tensor for observations on a device; only those rows leave it), as a numpy array (a
    torch tensor comes off its device). Unchecked: see ``checked_actions`` and
    ``checked_pairs``."""
    act_env = getattr(player, "act_env", None)
    if act_env is not None:
        chosen = act_env(env, rows)
    else:
        at = rows if index is None else index
        chosen = player(_numpy(obs[at]), _numpy(mask[at]))
    return np.asarray(_numpy(chosen))


def _numpy(values: Any) -> Any:
    """A torch tensor as a numpy array (from any device); anything else as it is."""
    return values.detach().cpu().numpy() if hasattr(values, "detach") else values


def checked_answer(env: Any, player: Any, chosen: np.ndarray, rows: np.ndarray, label: str
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    """A player's answer for ``rows``, checked (``checked_actions``, ``checked_pairs``): (its
    action ids, or the kinds of its exact Hold'em pairs; the pairs, or None)."""
    if is_exact(env, chosen):
        # built-ins' amounts are legal by construction (the env checks them anyway)
        pairs = (chosen if isinstance(player, BuiltinPlayer) else
                 checked_pairs(env, chosen, rows, label))
        return pairs[:, 0], pairs
    return checked_actions(env, chosen, rows, label), None


def is_exact(env: Any, chosen: np.ndarray) -> bool:
    """Whether an answer is Hold'em's exact form: one (kind, amount) pair per row."""
    return hasattr(env, "step_amounts") and chosen.ndim == 2 and chosen.shape[1] == 2


def checked_actions(env: Any, chosen: Any, rows: np.ndarray, label: str) -> np.ndarray:
    """A player's actions for ``rows`` as int64, refused (before anything moves) when they are
    not integers, of the wrong length, or illegal: the env's illegal-action contract."""
    if hasattr(chosen, "detach"):  # a torch tensor, on any device
        chosen = chosen.detach().cpu().numpy()
    arr = np.asarray(chosen)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"player {label!r} must return integer actions, got dtype {arr.dtype}")
    if arr.shape != rows.shape:
        if hasattr(env, "step_amounts") and arr.shape == (rows.size, 2):  # e.g. training
            raise ValueError(f"player {label!r} answered (kind, amount) pairs, which this "
                             f"runner does not take: it steps action ids (simulate and the "
                             f"arena take pairs)")
        exact = (" or one (kind, amount) pair per row, shape (n, 2)"
                 if hasattr(env, "step_amounts") else "")
        raise ValueError(f"player {label!r} must return {rows.size} actions (one per row"
                         f"{exact}), got shape {arr.shape}")
    arr = arr.astype(np.int64)
    ok = (arr >= 0) & (arr < env.num_actions)
    ok[ok] = env.action_mask[rows[ok], arr[ok]]
    if not ok.all():
        k = int(np.flatnonzero(~ok)[0])
        i, a = int(rows[k]), int(arr[k])
        what = env._action_text(a) if 0 <= a < env.num_actions else f"action {a}"
        raise ValueError(f"player {label!r}: {env._illegal_message(i, what)}")
    return arr


def checked_pairs(env: Any, chosen: np.ndarray, rows: np.ndarray, label: str) -> np.ndarray:
    """A Hold'em player's exact actions for ``rows``: int64 ``[n, 2]`` of (kind, amount), kind
    0 fold, 1 check/call, 2 bet/raise to ``amount`` chips (this street's total bet), refused
    before anything moves when they are not integers, not one pair per row, or illegal by the
    rules (``HoldemEnv.first_illegal_amount``): a ValueError naming the player and the env."""
    if chosen.dtype == np.bool_ or not np.issubdtype(chosen.dtype, np.integer):
        raise TypeError(f"player {label!r} must return integer (kind, amount) pairs, got dtype "
                        f"{chosen.dtype}")
    if chosen.shape != (rows.size, 2):
        raise ValueError(f"player {label!r} must return {rows.size} (kind, amount) pairs (one "
                         f"per row), got shape {chosen.shape}")
    if chosen.size and (chosen.min() < -(2**62) or chosen.max() > 2**62):
        raise ValueError(f"player {label!r}: (kind, amount) out of range")
    pairs = chosen.astype(np.int64)
    bad = env.first_illegal_amount(rows, pairs[:, 0], pairs[:, 1])
    if bad >= 0:
        kind, amount = int(pairs[bad, 0]), int(pairs[bad, 1])
        names = {0: "fold", 1: "check/call", 2: f"bet/raise to {amount}"}
        what = names.get(kind, f"kind {kind} (0 fold, 1 check/call, 2 bet/raise)")
        raise ValueError(f"player {label!r}: {env._illegal_message(int(rows[bad]), what)}")
    return pairs


# -- what a game needs beyond reset/step ---------------------------------------------------
def exact_actions(env: Any, actions: np.ndarray, rows: np.ndarray, pairs: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(kinds, amounts) of every env for ``env.step_amounts`` (a game whose players may bet
    exact amounts): the exact pairs at ``rows``, the discrete actions converted by the game's
    ``simulate.exact_actions``."""
    convert = getattr(spec_of(env.name).load("simulate"), "exact_actions", None)
    if convert is None:
        raise ValueError(f"{env.name}'s players choose action ids only, not (kind, amount) "
                         f"pairs")
    return convert(env, actions, rows, pairs)  # type: ignore[no-any-return]
