"""Games in progress on the server: a person against players, or players alone (spectating).

The server is the authority. A :class:`Session` owns a one-table env and the players of the
other seats (``vecgames.simulators.mixed.Table``, the runner's checks); a person's move is
refused with a :class:`WebError` (HTTP 4xx) unless it is their turn and the env's
illegal-action contract takes it (a ``ValueError`` there changes nothing). Everything sent
to a browser comes from :meth:`Session.message`, which renders only what the session's seat
may see (``views.table_view``). Sessions live in a :class:`SessionStore` under ids from
``secrets.token_urlsafe``; players come from a :class:`Catalog`: built-in names, or
checkpoints loaded when the server started (never a path from a request).

A seated session's deal comes from its seed mixed with a key the server draws at start
(:func:`deal_seed`), and its messages carry no seed until the match is over: the seed a
person chose (or saw) never rebuilds the deal through ``vecgames.make``, a spectator session
or an arena.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from ..arena.replay import Action, apply_action
from ..core.guide import describe_options
from ..core.simulation import numba_threads
from ..games.catalog import guide_module, rules_module, spec_of
from ..policies.human import row_state
from . import views

GAMES = views.web_games()
MAX_GAMES_PER_MATCH = 1000
MAX_STEPS_PER_GAME = 20_000  # a guard: a game still going then ends as truncated
LOG_LINES = 300  # the move log kept per session (the latest lines)
SERVER_KEY = secrets.token_bytes(32)  # drawn per process (an app draws its own)


def deal_seed(seed: int, game: str, key: bytes) -> int:
    """The env seed of a seated session: ``seed`` mixed with the server's key (HMAC-SHA256),
    so that the same seed gives the same deal on this server and reveals nothing elsewhere."""
    digest = hmac.new(key, f"{game}:{seed}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFF_FFFF


class GameTooLong(Exception):
    """A session's game passed MAX_STEPS_PER_GAME moves (it ends as truncated)."""


class WebError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the text says why."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def check_game(game: Any) -> str:
    if not isinstance(game, str) or game not in GAMES:
        raise WebError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    return game


def check_options(game: str, options: Any) -> dict[str, Any]:
    """Rule options from a request: only the game's rule keys (the env checks the values)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise WebError("options must be an object of rule options")
    defaults = rules_module(game).DEFAULT_OPTIONS
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise WebError(f"unknown rule option(s) {unknown} for {game}; the options are "
                       f"{sorted(defaults)}")
    out = {}
    limits = spec_of(game).web_limits
    for key, value in options.items():
        if not (value is None or isinstance(value, (bool, int, str))):
            raise WebError(f"rule option {key!r} must be a number, a word or true/false")
        top = limits.get(key)
        if top is not None and isinstance(value, int) and not isinstance(value, bool) \
                and value > top:
            raise WebError(f"rule option {key!r} is at most {top:,} on the web server, got "
                           f"{value:,}")
        out[str(key)] = value
    return out


def request_int(value: Any, name: str, lo: int, hi: int, default: int | None = None) -> int:
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise WebError(f"{name} must be in [{lo}, {hi}], got {value}")
    return value


@dataclass
class Catalog:
    """The players a request may name: every game's built-in players, and the checkpoints
    loaded at server start (``load``), by name."""

    checkpoints: dict[str, Any] = field(default_factory=dict)  # name -> Player
    paths: dict[str, str] = field(default_factory=dict)  # name -> the path it came from

    def load_zoo(self) -> None:
        """Offer every zoo player (``vecgames.zoo``) by its ``zoo:`` name, when torch is
        installed (without it the zoo cannot play and is not offered)."""
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            return
        from ..policies.protocol import load_zoo_player
        from ..zoo import zoo_names

        for game in GAMES:
            for name in zoo_names(game):
                self.checkpoints[name] = load_zoo_player(game, name)
                self.paths[name] = name

    def load(self, paths: Sequence[str]) -> None:
        """Load each checkpoint (``vecgames.load_player``); a bad one raises ValueError."""
        from ..policies.checkpoint import load_player

        for path in paths:
            player = load_player(path)
            name = f"{player.name}"
            k = 2
            while name in self.checkpoints:
                name, k = f"{player.name}#{k}", k + 1
            self.checkpoints[name] = player
            self.paths[name] = str(path)

    def builtins(self, game: str, table: bool = False) -> dict[str, str]:
        """The built-in players (``table``: only those that play at a table through the
        env; the others play in simulate's kernels only)."""
        from ..policies.builtin import BuiltinPlayer
        from ..policies.catalog import players

        return {name: text for name, text in players(game).items()
                if not (table and BuiltinPlayer(game, name).kernel_only)}

    def checkpoint_names(self, game: str) -> list[str]:
        return [n for n, p in self.checkpoints.items() if getattr(p, "game", None) == game]

    def player(self, game: str, name: Any) -> Any:
        """A seat's player from a request: a built-in name or a loaded checkpoint's name."""
        if isinstance(name, str):
            builtins = self.builtins(game)
            if name in builtins:  # the runner makes the built-in player of this name
                return name
            if name in self.checkpoint_names(game):
                return self.checkpoints[name]
        loaded = ", ".join(self.checkpoint_names(game)) or "none loaded"
        raise WebError(f"unknown player {name!r} for {game}: a built-in player "
                       f"({', '.join(self.builtins(game))}) or a checkpoint given to "
                       f"`vecgames serve --checkpoint` ({loaded})")

    @staticmethod
    def _option_docs(game: str, docs: Any) -> dict[str, dict[str, Any]]:
        """The labels, help and choices of the rule options, with the web's caps as ``max``."""
        out = describe_options(docs)
        for name, cap in spec_of(game).web_limits.items():
            out[name]["max"] = cap
        return out

    def describe(self) -> list[dict[str, Any]]:
        """Every game with its rule options, players and default opponent (``/api/games``)."""
        out = []
        for game in GAMES:
            view, rules, guide = views.view_of(game), rules_module(game), guide_module(game)
            out.append({"name": game, "title": views.title_of(game),
                        "options": rules.DEFAULT_OPTIONS,
                        "option_docs": self._option_docs(game, guide.OPTION_DOCS),
                        "how_to_play": [list(part) for part in guide.HOW_TO_PLAY],
                        "players": self.builtins(game, table=True),
                        "arena_players": self.builtins(game),
                        "checkpoints": self.checkpoint_names(game),
                        "default": view.default_agent,
                        "num_players_range": (rules.MIN_PLAYERS, rules.MAX_PLAYERS)})
        return out


class Person:
    """The seat a person plays in a session: never asked by the runner (the server steps the
    env with the person's move itself)."""

    name = "you"

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any:
        raise RuntimeError("a person's move comes from their browser")  # pragma: no cover


class Session:
    """A match of ``games`` games of ``game`` at one table: a person at ``seat`` against
    ``opponents`` (a name per other seat, or one for all), or with ``seat=None`` players at
    every seat for a spectator (``opponents``: one per seat, or one for all)."""

    def __init__(self, catalog: Catalog, game: Any, opponents: Any = None,
                 seat: int | None = 0, options: Any = None, games: Any = None,
                 seed: Any = None, key: bytes = SERVER_KEY):
        from ..simulators.one_table import TableError, one_table

        self.game = check_game(game)
        self.view = views.view_of(self.game)
        self.options = check_options(self.game, options)
        self.games = request_int(games, "games", 1, MAX_GAMES_PER_MATCH, default=1)
        self.seed = request_int(seed, "seed", 0, 2**31 - 1, default=secrets.randbits(31))
        names = opponents if opponents is not None else self.view.default_agent
        names = list(names) if isinstance(names, (list, tuple)) else [names]
        specs = [catalog.player(self.game, name) for name in names]
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise WebError(f"seat must be an integer, got {seat!r}")
        # a person's deal hangs on the server's key too (the seed alone never rebuilds it)
        self.deal_seed = self.seed if seat is None else deal_seed(self.seed, self.game, key)
        try:
            seated = one_table(self.game, specs, self.options, self.deal_seed,
                               person=None if seat is None else Person(), seat=seat)
        except TableError as exc:
            where = {"seat": "", "count": "opponents: ", "options": "options: "}
            raise WebError(f"{where.get(exc.part, 'players: ')}{exc}") from None
        self.table, self.env, self.seat = seated.table, seated.env, seated.seat
        self.num_players, self.labels = seated.num_players, seated.labels
        self.id = secrets.token_urlsafe(18)
        self.lock = threading.Lock()
        self.version = 0
        self.game_no = 1
        self.status = "playing"  # "over": a game ended (next), "finished": the match did
        self.score = np.zeros(self.num_players)
        self.results: list[list[float]] = []
        self.log: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self._game_reward = np.zeros(self.num_players)
        self._final: Any = None  # the state the last game ended in (shown until the next)
        self._shown: list[int] = []
        self._stopped = False  # a game ended by the server mid-way: the env deals afresh
        with numba_threads(1):
            self._obs, self._info = self.env.reset()
            self._guarded(self._run_players)

    # -- moves -------------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return int(self.env.current_player[0])

    def act(self, body: Any) -> None:
        """The person's move: ``{"action": id}``, or in Hold'em ``{"kind": 0|1|2, "amount":
        raise_to}``; then the other seats play until it is the person's turn again or the
        game ends."""
        if self.seat is None:
            raise WebError("a spectated game has no person's seat: step it instead", 409)
        if self.status != "playing":
            raise WebError(f"the game is over ({self.status}): start the next one", 409)
        if self.to_act != self.seat:  # pragma: no cover - the players move before replying
            raise WebError("it is not your turn", 409)
        action = parse_action(self.game, body)
        self.check_version(body, required=True)
        with numba_threads(1):
            try:
                self._step(action)
            except (ValueError, TypeError) as exc:  # the env's contract: nothing changed
                raise WebError(f"illegal move: {exc}", 400) from None
            except Exception:
                self._stop_game("the server stopped this game: a move failed")
                raise
            self._guarded(self._run_players)

    def check_version(self, body: Any, required: bool = False) -> None:
        """The ``version`` a request saw (the last message's): a 409 when the session has
        moved since, so a repeated or crossed request never plays twice."""
        seen = body.get("version") if isinstance(body, Mapping) else None
        if seen is None:
            if required:
                raise WebError("version: give the version of the last message (a move is "
                               "played only on the state it was chosen on)")
            return
        if isinstance(seen, bool) or not isinstance(seen, int):
            raise WebError(f"version must be an integer, got {seen!r}")
        if seen != self.version:
            raise WebError(f"the game has moved on (version {self.version}, your request "
                           f"saw {seen}): reload it", 409)

    def _guarded(self, run: Any) -> None:
        """``run()`` (the seats' moves); a game that fails or runs past the guard ends as
        truncated, so the session never stays "playing" on a broken game."""
        try:
            run()
        except GameTooLong:
            self._stop_game(f"the game passed {MAX_STEPS_PER_GAME:,} moves: ended as truncated")
        except Exception:
            self._stop_game("the server stopped this game: a move failed")
            raise

    def _stop_game(self, text: str) -> None:
        """End the current game as truncated where it stands (the payoffs so far count)."""
        if self.status != "playing":
            return
        state = row_state(self.env.state, 0)
        total = self._game_reward.copy()
        self._game_reward[:] = 0
        self.score += total
        self.results.append([float(x) for x in total])
        self._final, self._shown = state, []
        self.result = {"rewards": [float(x) for x in total], "text": text, "truncated": True,
                       "shown": []}
        self.log.append({"seat": None, "text": text})
        self._stopped = True
        self.version += 1
        self.status = "finished" if self.game_no >= self.games else "over"

    def advance(self) -> None:
        """A spectated game: the next move of the player to act (or the next game)."""
        if self.seat is not None:
            raise WebError("only a spectated game is stepped; play your move", 409)
        if self.status == "finished":
            raise WebError("the match is over", 409)
        with numba_threads(1):
            if self.status == "over":
                self._next_game()
                return
            self._guarded(lambda: self._step(self._player_move()))

    def next_game(self) -> None:
        if self.status != "over":
            raise WebError("the current game is not over" if self.status == "playing" else
                           "the match is over", 409)
        with numba_threads(1):
            self._next_game()
            self._guarded(self._run_players)

    def _next_game(self) -> None:
        if self._stopped:  # the env still holds the stopped game: deal the next one
            self._obs, self._info = self.env.reset()
            self._stopped = False
        self.version += 1
        self.game_no += 1
        self.status = "playing"
        self.result, self._final, self._shown = None, None, []
        self.log.append({"seat": None, "text": f"--- game {self.game_no} of {self.games} ---"})

    def _run_players(self) -> None:
        """The other seats' moves until the person's turn or the end of the game."""
        if self.seat is None:
            return
        for _ in range(MAX_STEPS_PER_GAME):
            if self.status != "playing" or self.to_act == self.seat:
                return
            self._step(self._player_move())
        raise GameTooLong

    def _player_move(self) -> Action:
        from ..simulators.mixed import choose

        ids, exact = choose(self.env, self.table, self._obs, self._info, np.ones(1, np.bool_))
        return int(ids[0]) if exact is None else (int(exact[0][0]), int(exact[1][0]))

    def _step(self, action: Action) -> None:
        p = self.to_act
        before = row_state(self.env.state, 0)
        obs, reward, terminated, truncated, info = apply_action(self.env, action)
        self._obs, self._info = obs, info
        self.version += 1
        done = bool(terminated[0] or truncated[0])
        n = self.num_players
        self._game_reward += reward[0, :n]
        after = row_state(self.env.state, 0)
        for line in self.view.narrate(before, after, self.env, action, reward[0, :n], done):
            self.log.append({"seat": p, "text": line})
        if done:
            final = views.final_state(self.game, before, after, self.env, action, info)
            self._end_game(before, final, action, bool(truncated[0] and not terminated[0]))
        del self.log[:-LOG_LINES]

    def _end_game(self, before: Any, final: Any, action: Action, truncated: bool) -> None:
        total = self._game_reward.copy()
        self._game_reward[:] = 0
        self.score += total
        self.results.append([float(x) for x in total])
        self._final = final  # the table as the last move left it (shown until the next game)
        self._shown = views.showdown(self.game, before, self.env, action, self.seat)
        text = self.view.game_over(before, self.env, action, total, self.seat, truncated)
        self.result = {"rewards": [float(x) for x in total], "text": text,
                       "truncated": truncated, "shown": list(self._shown)}
        for player in self.table.players:
            reset = getattr(player, "reset_games", None)
            if reset is not None:
                reset(np.zeros(1, np.int64))
        self.status = "finished" if self.game_no >= self.games else "over"

    # -- what a browser receives -------------------------------------------------------------
    def check_reveal(self, reveal: bool) -> None:
        """Every hand is a spectator's to see, never a player's (403)."""
        if reveal and self.seat is not None:
            raise WebError("a player's view never shows the other hands", 403)

    def message(self, reveal: bool = False) -> dict[str, Any]:
        """The session as its seat may see it (a spectator: every hand with ``reveal``)."""
        self.check_reveal(reveal)
        playing = self.status == "playing"
        s = row_state(self.env.state, 0) if playing else self._final
        table = views.table_view(self.game, s, self.env, self.seat, reveal,
                                 () if playing else self._shown)
        moves: list[dict[str, Any]] = []
        your_turn = playing and self.seat is not None and self.to_act == self.seat
        if your_turn:
            moves = views.move_list(self.game, self.view, s, self.env, self.env.action_mask[0])
        if not your_turn:  # what only the seat to act is shown (Hold'em's raise range)
            table.update(dict.fromkeys(views.acting_only(self.game)))
        # a seat learns the seed (the env's: it rebuilds the deals) once the match is over
        seed = self.deal_seed if self.seat is None or self.status == "finished" else None
        return {"id": self.id, "game": self.game, "title": views.title_of(self.game),
                "mode": "watch" if self.seat is None else "play", "seat": self.seat,
                "labels": self.labels, "status": self.status, "game_no": self.game_no,
                "games": self.games, "seed": seed, "version": self.version,
                "to_act": self.to_act if playing else None, "your_turn": your_turn,
                "table": table, "moves": moves, "log": list(self.log),
                "result": self.result, "score": [float(x) for x in self.score],
                "results": self.results, "reveal": bool(reveal),
                # the rule options this table plays by: the defaults and those asked for
                "rules": {**rules_module(self.game).DEFAULT_OPTIONS, **self.options,
                          "num_players": self.num_players}}


def parse_action(game: str, body: Any) -> Action:
    """A move from a request body (checked for type here, for legality by the env)."""
    if not isinstance(body, Mapping):
        raise WebError("the move must be a JSON object: {\"action\": id}")
    if "kind" in body:
        if not hasattr(spec_of(game).load("env"), "step_amounts"):
            raise WebError(f"kind/amount moves are exact bets, which {game} has not: send "
                           f"{{\"action\": id}}")
        kind = body.get("kind")
        amount = body.get("amount", 0)
        for name, v in (("kind", kind), ("amount", amount)):
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 2**31:
                raise WebError(f"{name} must be an integer, got {v!r}")
        return (int(kind), int(amount))  # type: ignore[arg-type]
    action = body.get("action")
    if isinstance(action, bool) or not isinstance(action, int) or abs(action) > 2**31:
        raise WebError(f"action must be an integer action id, got {action!r}")
    if action < 0:
        raise WebError(f"action {action}: an action id is 0 or more")
    return action


T = TypeVar("T")


class Store(Generic[T]):
    """Items (with an ``id``) by id, at most ``limit``: beyond it the least recently used goes
    if no request touched it for ``keep_active`` seconds; else the new item is refused (503),
    so a flood of new items never pushes out the ones in use."""

    def __init__(self, limit: int, what: str = "item", keep_active: float = 0.0):
        self.limit, self.what, self.keep_active = limit, what, keep_active
        self._items: OrderedDict[str, T] = OrderedDict()
        self._used: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, item: T) -> T:
        key: str = item.id  # type: ignore[attr-defined]
        now = time.monotonic()
        with self._lock:
            while len(self._items) >= self.limit:
                oldest = next(iter(self._items))
                if now - self._used[oldest] < self.keep_active:
                    raise WebError(f"the server holds {len(self._items):,} {self.what}s in use: "
                                   f"try again later", 503)
                self._items.popitem(last=False)
                del self._used[oldest]
            self._items[key] = item
            self._used[key] = now
        return item

    def get(self, key: str) -> T:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                raise WebError(f"no such {self.what} (it ended, or the server restarted)", 404)
            self._items.move_to_end(key)
            self._used[key] = time.monotonic()
            return item

    def remove(self, key: str) -> None:
        with self._lock:
            self._items.pop(key, None)
            self._used.pop(key, None)

    def values(self) -> list[T]:
        with self._lock:
            return list(self._items.values())

    def __len__(self) -> int:
        return len(self._items)
