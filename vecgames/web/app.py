"""The ASGI app of ``vecgames serve`` (Starlette): JSON routes over the sessions, replays and
arenas, and the page (plain HTML/JS/CSS in ``static/``, no build step).

Routes (every error is ``{"error": text}`` with a 4xx status):

- ``GET /api/games``: games, rule options, players, loaded checkpoints;
- ``POST /api/sessions`` ``{game, seat (null: spectate), opponents, options, games, seed}``;
  ``GET /api/sessions/{id}[?reveal=1]`` (reveal: spectators only);
  ``POST /api/sessions/{id}/action`` ``{action}`` or Hold'em ``{kind, amount}``;
  ``POST /api/sessions/{id}/step`` (spectate: one move); ``POST /api/sessions/{id}/next``;
- ``GET /api/replays``; ``POST /api/replays`` (a replay file's JSON);
  ``GET /api/replays/{id}[?reveal=0]`` (frames); ``GET /api/replays/{id}/file``;
- ``POST /api/arena`` ``{game, players, games, seed, options}``; ``GET /api/arena/{id}``;
  ``POST /api/arena/{id}/replay`` ``{row}``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .arena_jobs import ArenaStore
from .replays import ReplayDoc, ReplayStore
from .sessions import Catalog, Session, Store, WebError

MAX_BODY = 1_000_000  # bytes of a request body (a replay upload is the largest)
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
log = logging.getLogger("vecgames.web")
Handler = Callable[[Request], Awaitable[Response]]


def static_dir() -> str:
    return str(resources.files("vecgames.web") / "static")


class State:
    """What the app holds: the players it may seat, sessions, replays, arenas."""

    def __init__(self, catalog: Catalog, max_sessions: int = 2000):
        self.catalog = catalog
        self.sessions: Store[Session] = Store(max_sessions, "session")
        self.replays = ReplayStore()
        self.arenas = ArenaStore()


def _flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "0").lower() in ("1", "true", "yes")


async def _body(request: Request) -> Any:
    """The request's JSON, read up to MAX_BODY bytes (a longer body is refused unread)."""
    too_long = WebError(f"request body above {MAX_BODY} bytes", 413)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise too_long
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_long
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, a 5000-digit number, [[[[...
        raise WebError("the request body must be JSON (plain numbers, at most 4300 digits, "
                       "nested less than 1000 deep)") from None


def _route(fn: Callable[[State, Request], Awaitable[Any]], state: State) -> Handler:
    async def handler(request: Request) -> Response:
        try:
            out = await fn(state, request)
        except WebError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except Exception:  # a bug: logged here, a plain 500 to the page (no state, no trace)
            log.exception("vecgames serve: %s %s failed", request.method, request.url.path)
            return JSONResponse({"error": "internal error (the server logged it)"},
                                status_code=500)
        return out if isinstance(out, Response) else JSONResponse(out)

    return handler


# ---------------------------------------------------------------- handlers


async def games(state: State, request: Request) -> Any:
    return {"games": state.catalog.describe()}


async def new_session(state: State, request: Request) -> Any:
    body = await _body(request)
    if not isinstance(body, dict):
        raise WebError("the request body must be a JSON object")
    known = {"game", "seat", "opponents", "options", "games", "seed"}
    if set(body) - known:
        raise WebError(f"unknown field(s) {sorted(set(body) - known)}; fields: {sorted(known)}")
    session = Session(state.catalog, body.get("game"), body.get("opponents"),
                      body.get("seat", 0), body.get("options"), body.get("games"),
                      body.get("seed"))
    state.sessions.add(session)
    return session.message()


async def get_session(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    with session.lock:
        return session.message(_flag(request, "reveal"))


async def act(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    body = await _body(request)
    with session.lock:
        session.act(body)
        return session.message()


async def step(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    reveal = _flag(request, "reveal")
    with session.lock:
        session.check_reveal(reveal)  # before the move: a refused request changes nothing
        session.advance()
        return session.message(reveal)


async def next_game(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    reveal = _flag(request, "reveal")
    with session.lock:
        session.check_reveal(reveal)
        session.next_game()
        return session.message(reveal)


async def end_session(state: State, request: Request) -> Any:
    state.sessions.remove(request.path_params["sid"])
    return {"ok": True}


async def list_replays(state: State, request: Request) -> Any:
    return {"replays": state.replays.listing()}


async def upload_replay(state: State, request: Request) -> Any:
    body = await _body(request)
    doc = state.replays.add(ReplayDoc(body, "uploaded"))
    return doc.summary()


async def get_replay(state: State, request: Request) -> Any:
    doc = state.replays.get(request.path_params["rid"])
    return doc.message(request.query_params.get("reveal", "1") != "0")


async def replay_file(state: State, request: Request) -> Any:
    doc = state.replays.get(request.path_params["rid"])
    name = f"replay-{doc.replay['game']}-{doc.replay['deal']}.json"
    return JSONResponse(doc.replay, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


async def new_arena(state: State, request: Request) -> Any:
    body = await _body(request)
    if not isinstance(body, dict):
        raise WebError("the request body must be a JSON object")
    job = state.arenas.launch([body.get("game"), body.get("players")], state.catalog,
                              games=body.get("games"), seed=body.get("seed"),
                              options=body.get("options"))
    return job.message()


async def get_arena(state: State, request: Request) -> Any:
    return state.arenas.get(request.path_params["aid"]).message()


async def arena_replay(state: State, request: Request) -> Any:
    job = state.arenas.get(request.path_params["aid"])
    body = await _body(request)
    row = body.get("row") if isinstance(body, dict) else None
    replay = job.replay(row)
    doc = state.replays.add(ReplayDoc(replay, f"arena {job.game}, game {row}"))
    return doc.summary()


async def index(state: State, request: Request) -> Any:
    return FileResponse(f"{static_dir()}/index.html")


# ---------------------------------------------------------------- the app


def create_app(catalog: Catalog | None = None, replays: str | None = None,
               allowed_hosts: Sequence[str] = LOCAL_HOSTS, max_sessions: int = 2000) -> Starlette:
    """The app: ``catalog`` holds the checkpoints loaded at start, ``replays`` a folder of
    replay files to list; requests are answered only for ``allowed_hosts`` (the Host header:
    a page elsewhere cannot reach a local server through DNS rebinding)."""
    state = State(catalog or Catalog(), max_sessions)
    if replays:
        state.replays.load_folder(replays)

    def r(path: str, fn: Callable[[State, Request], Awaitable[Any]],
          methods: Sequence[str] = ("GET",)) -> Route:
        return Route(path, _route(fn, state), methods=list(methods))

    routes = [
        r("/", index),
        r("/api/games", games),
        r("/api/sessions", new_session, ["POST"]),
        r("/api/sessions/{sid}", get_session),
        r("/api/sessions/{sid}", end_session, ["DELETE"]),
        r("/api/sessions/{sid}/action", act, ["POST"]),
        r("/api/sessions/{sid}/step", step, ["POST"]),
        r("/api/sessions/{sid}/next", next_game, ["POST"]),
        r("/api/replays", list_replays),
        r("/api/replays", upload_replay, ["POST"]),
        r("/api/replays/{rid}", get_replay),
        r("/api/replays/{rid}/file", replay_file),
        r("/api/arena", new_arena, ["POST"]),
        r("/api/arena/{aid}", get_arena),
        r("/api/arena/{aid}/replay", arena_replay, ["POST"]),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    hosts = list(allowed_hosts) + [h.strip("[]") for h in allowed_hosts]
    app = Starlette(routes=routes,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    app.state.vecgames = state
    return app
