"""The ASGI app of ``vecgames serve`` (Starlette): JSON routes over the sessions, replays and
arenas, and the page (plain HTML/JS/CSS in ``static/``, no build step).

Routes (every error is ``{"error": text}`` with a 4xx status):

- ``GET /api/games``: games, rule options (with ``option_docs``: label, help, choices and
  the web's cap), ``how_to_play``, players, loaded checkpoints, ``warming`` (the server
  still compiles its kernels);
- ``POST /api/sessions`` ``{game, seat (null: spectate), opponents, options, games, seed}``;
  ``GET /api/sessions/{id}[?reveal=1]`` (reveal: spectators only);
  ``POST /api/sessions/{id}/action`` ``{action, version}`` or Hold'em ``{kind, amount,
  version}``; ``POST /api/sessions/{id}/step`` and ``/next`` (``{version}`` optional);
- ``GET /api/replays``; ``POST /api/replays`` (a replay file's JSON);
  ``GET /api/replays/{id}[?reveal=0]`` (every frame);
  ``GET /api/replays/{id}/frames?start=k&count=n[&reveal=0]`` (n frames from frame k);
  ``GET /api/replays/{id}/file``;
- ``POST /api/arena`` ``{game, players, games, seed, options}``; ``GET /api/arena/{id}``;
  ``DELETE /api/arena/{id}`` (cancel); ``POST /api/arena/{id}/replay`` ``{row}``.

Every write (POST, DELETE) with a body must be ``application/json`` (415) and one with an
``Origin`` header must come from the server's own origin (403); CPU work (moves, replays,
arenas) runs in a bounded pool of worker threads, off the event loop (503 when it is full);
every response carries the security headers of ``SECURITY_HEADERS``.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .arena_jobs import ArenaStore
from .replays import ReplayDoc, ReplayStore
from .sessions import Catalog, Session, Store, WebError

MAX_BODY = 1_000_000  # bytes of a request body (a replay upload is the largest)
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
WORKERS = 4  # threads that run CPU work (moves, replays, arena checks)
WORK_QUEUE = 512  # requests waiting for a worker beyond which the server answers 503
SESSIONS_PER_MINUTE = 60  # new sessions per client address (429 beyond)
KEEP_ACTIVE_SECONDS = 600  # a session used this recently is never evicted for a new one
# The page is plain JS and CSS from /static: no inline script, no frames, no other origin.
# (Inline style attributes are allowed: the page sets colours per card and cell.)
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
log = logging.getLogger("vecgames.web")
Handler = Callable[[Request], Awaitable[Response]]


def static_dir() -> str:
    return str(resources.files("vecgames.web") / "static")


class Workers:
    """CPU work in at most ``threads`` threads off the event loop; beyond ``queue`` requests
    waiting, a 503 (the server never piles up unbounded work)."""

    def __init__(self, threads: int = WORKERS, queue: int = WORK_QUEUE):
        self.limiter = anyio.CapacityLimiter(threads)
        self.queue = queue
        self.pending = 0  # running and waiting (touched on the event loop only)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.pending >= self.queue + self.limiter.total_tokens:
            raise WebError("the server is busy: try again in a moment", 503)
        self.pending += 1
        try:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self.limiter)
        finally:
            self.pending -= 1


class RateLimit:
    """At most ``per_minute`` events per client address in any 60 s (429 beyond)."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self._seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def check(self, client: str, what: str) -> None:
        now = time.monotonic()
        with self._lock:
            seen = self._seen[client]
            while seen and now - seen[0] > 60:
                seen.popleft()
            if len(seen) >= self.per_minute:
                raise WebError(f"at most {self.per_minute} {what} a minute from one address: "
                               f"try again in a minute", 429)
            seen.append(now)
            if len(self._seen) > 10_000:  # forget quiet addresses
                for key in [k for k, v in self._seen.items() if not v]:
                    del self._seen[key]


class State:
    """What the app holds: the players it may seat, sessions, replays, arenas, the worker
    pool, and whether the kernels are still compiling (``warming``)."""

    def __init__(self, catalog: Catalog, max_sessions: int = 2000,
                 sessions_per_minute: int = SESSIONS_PER_MINUTE, workers: int = WORKERS,
                 deal_key: bytes | None = None):
        self.catalog = catalog
        self.deal_key = secrets.token_bytes(32) if deal_key is None else deal_key
        self.sessions: Store[Session] = Store(max_sessions, "session", KEEP_ACTIVE_SECONDS)
        self.replays = ReplayStore()
        self.arenas = ArenaStore()
        self.workers = Workers(workers)
        self.new_sessions = RateLimit(sessions_per_minute)
        self.warming = False


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


def check_write(request: Request) -> None:
    """A write from this server's own page: JSON (a form or ``text/plain`` post from another
    site needs no preflight, a JSON one does) and, when the browser names its origin, ours."""
    has_body = request.headers.get("content-length", "0") != "0" or \
        "transfer-encoding" in request.headers
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if has_body and kind != "application/json":
        raise WebError(f"a request body must be JSON (Content-Type: application/json), got "
                       f"{kind or 'none'!r}", 415)
    origin = request.headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        if origin == "null" or parts.netloc.lower() != request.headers.get("host", "").lower():
            raise WebError(f"a write from another origin ({origin}) is refused", 403)
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise WebError("a write from another site is refused", 403)


def _route(fn: Callable[[State, Request], Awaitable[Any]], state: State) -> Handler:
    async def handler(request: Request) -> Response:
        try:
            if request.method in ("POST", "PUT", "PATCH", "DELETE"):
                check_write(request)
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
    return {"games": state.catalog.describe(), "warming": state.warming}


async def _object(request: Request) -> dict[str, Any]:
    body = await _body(request)
    if not isinstance(body, dict):
        raise WebError("the request body must be a JSON object")
    return body


async def new_session(state: State, request: Request) -> Any:
    body = await _object(request)
    known = {"game", "seat", "opponents", "options", "games", "seed"}
    if set(body) - known:
        raise WebError(f"unknown field(s) {sorted(set(body) - known)}; fields: {sorted(known)}")
    state.new_sessions.check(request.client.host if request.client else "?", "new games")

    def create() -> Any:
        session = Session(state.catalog, body.get("game"), body.get("opponents"),
                          body.get("seat", 0), body.get("options"), body.get("games"),
                          body.get("seed"), state.deal_key)
        state.sessions.add(session)
        return session.message()

    return await state.workers.run(create)


async def get_session(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    reveal = _flag(request, "reveal")

    def read() -> Any:
        with session.lock:
            return session.message(reveal)

    return await state.workers.run(read)


async def act(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    body = await _body(request)

    def move() -> Any:
        with session.lock:
            session.act(body)
            return session.message()

    return await state.workers.run(move)


async def step(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    reveal = _flag(request, "reveal")
    body = await _body(request)

    def move() -> Any:
        with session.lock:
            session.check_reveal(reveal)  # before the move: a refused request changes nothing
            session.check_version(body)
            session.advance()
            return session.message(reveal)

    return await state.workers.run(move)


async def next_game(state: State, request: Request) -> Any:
    session = state.sessions.get(request.path_params["sid"])
    reveal = _flag(request, "reveal")
    body = await _body(request)

    def move() -> Any:
        with session.lock:
            session.check_reveal(reveal)
            session.check_version(body)
            session.next_game()
            return session.message(reveal)

    return await state.workers.run(move)


async def end_session(state: State, request: Request) -> Any:
    state.sessions.remove(request.path_params["sid"])
    return {"ok": True}


async def list_replays(state: State, request: Request) -> Any:
    return {"replays": state.replays.listing()}


async def upload_replay(state: State, request: Request) -> Any:
    body = await _body(request)
    doc = await state.workers.run(ReplayDoc, body, "uploaded")
    state.replays.add(doc)
    return doc.summary()


async def get_replay(state: State, request: Request) -> Any:
    doc = state.replays.get(request.path_params["rid"])
    return await state.workers.run(doc.message, request.query_params.get("reveal", "1") != "0")


async def replay_frames(state: State, request: Request) -> Any:
    doc = state.replays.get(request.path_params["rid"])
    query = request.query_params

    def number(name: str, default: str) -> Any:
        text = query.get(name, default)
        return int(text) if text.isdigit() and len(text) < 10 else text

    return await state.workers.run(doc.page, query.get("reveal", "1") != "0",
                                   number("start", "0"), number("count", "100"))


async def replay_file(state: State, request: Request) -> Any:
    doc = state.replays.get(request.path_params["rid"])
    name = f"replay-{doc.replay['game']}-{doc.replay['deal']}.json"
    return JSONResponse(doc.replay, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


async def new_arena(state: State, request: Request) -> Any:
    body = await _object(request)

    def launch() -> Any:
        job = state.arenas.launch([body.get("game"), body.get("players")], state.catalog,
                                  games=body.get("games"), seed=body.get("seed"),
                                  options=body.get("options"))
        return job.message()

    return await state.workers.run(launch)


async def get_arena(state: State, request: Request) -> Any:
    return state.arenas.get(request.path_params["aid"]).message()


async def cancel_arena(state: State, request: Request) -> Any:
    return state.arenas.cancel(request.path_params["aid"]).message()


async def arena_replay(state: State, request: Request) -> Any:
    job = state.arenas.get(request.path_params["aid"])
    body = await _body(request)
    row = body.get("row") if isinstance(body, dict) else None

    def record() -> Any:
        replay = job.replay(row)
        return ReplayDoc(replay, f"arena {job.game}, game {row}")

    doc = await state.workers.run(record)
    state.replays.add(doc)
    return doc.summary()


async def index(state: State, request: Request) -> Any:
    return FileResponse(f"{static_dir()}/index.html")


# ---------------------------------------------------------------- the app


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every response (pages, API, static files,
    errors)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.decode("latin-1").lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(catalog: Catalog | None = None, replays: str | None = None,
               allowed_hosts: Sequence[str] = LOCAL_HOSTS, max_sessions: int = 2000,
               sessions_per_minute: int = SESSIONS_PER_MINUTE,
               workers: int = WORKERS, deal_key: bytes | None = None) -> Starlette:
    """The app: ``catalog`` holds the checkpoints loaded at start, ``replays`` a folder of
    replay files to list; requests are answered only for ``allowed_hosts`` (the Host header:
    a page elsewhere cannot reach a local server through DNS rebinding); ``max_sessions``
    sessions at most, ``sessions_per_minute`` new ones per client address, CPU work on
    ``workers`` threads; a seated session's deal hangs on ``deal_key`` too (None: a key drawn
    now; give one only to repeat deals across runs, in tests)."""
    state = State(catalog or Catalog(), max_sessions, sessions_per_minute, workers, deal_key)
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
        r("/api/replays/{rid}/frames", replay_frames),
        r("/api/replays/{rid}/file", replay_file),
        r("/api/arena", new_arena, ["POST"]),
        r("/api/arena/{aid}", get_arena),
        r("/api/arena/{aid}", cancel_arena, ["DELETE"]),
        r("/api/arena/{aid}/cancel", cancel_arena, ["POST"]),
        r("/api/arena/{aid}/replay", arena_replay, ["POST"]),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    hosts = list(allowed_hosts) + [h.strip("[]") for h in allowed_hosts]
    app = Starlette(routes=routes,
                    middleware=[Middleware(SecurityHeaders),
                                Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    app.state.vecgames = state
    return app
