"""The web app attacked as issue 34 attacked it: the seed's leak of the deal, replay and arena
floods, CPU work on the event loop, double moves, cross-site writes, session eviction and
the security headers. Every check here failed on the app before the fixes."""

from __future__ import annotations

import asyncio
import io
import threading
from typing import Any

import numpy as np
import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from vecgames.web import sessions as sessions_module  # noqa: E402
from vecgames.web.app import SECURITY_HEADERS, create_app  # noqa: E402

JSON = {"content-type": "application/json"}


def run(app: Any, *requests: tuple[Any, ...]) -> list[Any]:
    """The requests ``(method, path, json[, headers])`` sent at once; their responses."""

    async def go() -> list[Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://127.0.0.1") as client:
            return await asyncio.gather(*(client.request(
                r[0], r[1], json=r[2], headers=r[3] if len(r) > 3 else None)
                for r in requests))

    return asyncio.run(go())


def one(app: Any, method: str, path: str, body: Any = None, headers: Any = None) -> Any:
    return run(app, (method, path, body, headers))[0]


def ok(app: Any, method: str, path: str, body: Any = None) -> Any:
    res = one(app, method, path, body)
    assert res.status_code == 200, res.text
    return res.json()


# ---------------------------------------------------------------- 1. the seed


def deal_table(env: Any) -> Any:
    from vecgames.policies.human import row_state
    from vecgames.web import views

    return views.table_view("liars_dice", row_state(env.state, 0), env, None, True)


def test_a_seated_player_cannot_rebuild_the_deal_from_the_seed():
    import vecgames
    from vecgames.arena.replay import replay_env

    app = create_app()
    seed = 1234
    msg = ok(app, "POST", "/api/sessions", {"game": "liars_dice", "seed": seed})
    session = app.state.vecgames.sessions.get(msg["id"])
    assert msg["seed"] is None  # the seat never reads a seed while the match runs
    seated = vecgames.make("liars_dice", num_envs=1, seed=session.deal_seed)
    seated.reset()
    dealt = deal_table(seated)  # the seated player's deal, every hand shown
    # route 1: vecgames.make with the seed the person chose
    plain = vecgames.make("liars_dice", num_envs=1, seed=seed)
    plain.reset()
    assert deal_table(plain) != dealt
    # route 2: a spectator session with that seed, every hand shown
    watch = ok(app, "POST", "/api/sessions", {"game": "liars_dice", "seat": None, "seed": seed})
    watched = ok(app, "GET", f"/api/sessions/{watch['id']}?reveal=1")
    assert watched["table"] == deal_table(plain) != dealt  # the route works, not on the seat
    # route 3: an arena with that seed, its deal-0 replay with every hand
    job = ok(app, "POST", "/api/arena", {"game": "liars_dice", "players": ["heuristic", "random"],
                                         "games": 8, "seed": seed})
    app.state.vecgames.arenas.get(job["id"]).thread.join(120)
    job = ok(app, "GET", f"/api/arena/{job['id']}")
    row = next(g["row"] for g in job["games"] if g["deal"] == 0)
    doc = ok(app, "POST", f"/api/arena/{job['id']}/replay", {"row": row})
    frame = ok(app, "GET", f"/api/replays/{doc['id']}/frames?start=0&count=1&reveal=1")
    arena_env = replay_env("liars_dice", {}, seed, 0)
    assert frame["frames"][0]["table"] == deal_table(arena_env) != dealt
    # the seed comes at the end of the match: the env's own, which rebuilds the deals
    sid = msg["id"]
    while msg["status"] == "playing":
        assert msg["seed"] is None
        msg = ok(app, "POST", f"/api/sessions/{sid}/action",
                 {"action": msg["moves"][0]["action"], "version": msg["version"]})
    assert msg["status"] == "finished" and msg["seed"] == session.deal_seed


# ---------------------------------------------------------------- 2. replays


def long_replay(moves: int) -> dict[str, Any]:
    from vecgames.arena.replay import record_game

    replay = record_game("dayaoguai", ["random"] * 4, 0, 0)
    return {**replay, "actions": (replay["actions"] * (moves // len(replay["actions"]) + 1))
            [:moves]}


def test_a_replay_of_99999_moves_is_refused_before_it_plays():
    from vecgames.web.replays import MAX_REPLAY_MOVES

    app = create_app()
    res = one(app, "POST", "/api/replays", long_replay(99_999))
    assert res.status_code == 413 and f"{MAX_REPLAY_MOVES:,}" in res.json()["error"]
    assert len(app.state.vecgames.replays) == 0


def test_replay_frames_come_a_page_at_a_time_and_the_store_is_bounded_in_moves():
    from vecgames.arena.replay import record_game
    from vecgames.web.replays import ReplayDoc, ReplayStore

    app = create_app()
    replay = record_game("dayaoguai", ["random"] * 4, 0, 1)
    doc = ok(app, "POST", "/api/replays", replay)
    every = ok(app, "GET", f"/api/replays/{doc['id']}?reveal=0")["frames"]
    page = ok(app, "GET", f"/api/replays/{doc['id']}/frames?start=3&count=4&reveal=0")
    assert page["frames"] == every[3:7] and page["steps"] == len(replay["actions"])
    assert one(app, "GET", f"/api/replays/{doc['id']}/frames?count=100000").status_code == 400
    moves = len(replay["actions"])
    store = ReplayStore(limit=100, max_moves=3 * moves)
    docs = [store.add(ReplayDoc(replay, f"r{k}")) for k in range(5)]
    assert [d.id for d in store.values()] == [d.id for d in docs[-3:]]


# ---------------------------------------------------------------- 3. the event loop


def test_a_long_request_does_not_block_the_others(monkeypatch):
    """A move held inside its handler (an Event, no timing): /api/games still answers."""
    app = create_app()
    msg = ok(app, "POST", "/api/sessions", {"game": "zhajinhua", "seed": 1})
    inside, release = threading.Event(), threading.Event()
    real_act = sessions_module.Session.act

    def slow_act(self: Any, body: Any) -> None:
        inside.set()
        assert release.wait(60), "the other request never came through"
        real_act(self, body)

    monkeypatch.setattr(sessions_module.Session, "act", slow_act)

    async def go() -> tuple[Any, Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://127.0.0.1") as client:
            move = asyncio.ensure_future(client.post(
                f"/api/sessions/{msg['id']}/action",
                json={"action": msg["moves"][0]["action"], "version": msg["version"]}))
            while not inside.is_set():
                await asyncio.sleep(0.01)
            try:
                games = await asyncio.wait_for(client.get("/api/games"), 60)
            finally:
                release.set()
            return games, await move

    games, move = asyncio.run(go())
    assert games.status_code == 200 and move.status_code == 200


def test_the_server_warms_up_while_it_answers():
    from vecgames.web.warmup import start_warm_up

    app = create_app()
    gate = threading.Event()
    out = io.StringIO()
    thread = start_warm_up(app.state.vecgames, out, warm=lambda catalog, game: gate.wait(60))
    assert ok(app, "GET", "/api/games")["warming"] is True
    gate.set()
    thread.join(60)
    assert ok(app, "GET", "/api/games")["warming"] is False
    text = out.getvalue()
    n = len(sessions_module.GAMES)
    assert "compiling kernels (first run only)" in text and f"{n}/{n}" in text


@pytest.mark.parametrize("body", [
    {"game": "liars_dice", "players": ["heuristic", "random"], "options": {"num_rounds": 10**6}},
    {"game": "holdem", "players": ["call", "fold", "random", "raise", "strength"],
     "options": {"num_players": 7}},
    {"game": "zhajinhua", "players": ["heuristic", "random", "call"], "games": 20_000}])
def test_arenas_beyond_the_total_cap_are_refused(body):
    app = create_app()
    res = one(app, "POST", "/api/arena", body)
    assert res.status_code == 400, res.text
    assert not app.state.vecgames.arenas._jobs


# ---------------------------------------------------------------- 4. arena jobs


def test_an_arena_can_be_cancelled_and_a_finished_one_keeps_only_its_tables(monkeypatch):
    from vecgames.web.arena_jobs import ArenaJob

    app = create_app()
    arenas = app.state.vecgames.arenas
    in_stage, release = threading.Event(), threading.Event()
    real_tables = ArenaJob._tables

    def held_tables(self: Any, result: Any, games: int) -> Any:  # the first stage waits
        in_stage.set()
        assert release.wait(60)
        return real_tables(self, result, games)

    monkeypatch.setattr(ArenaJob, "_tables", held_tables)
    job = ok(app, "POST", "/api/arena", {"game": "zhajinhua", "players": ["heuristic", "random"],
                                         "games": 1000, "options": {"num_players": 2}})
    assert in_stage.wait(120)
    res = one(app, "DELETE", f"/api/arena/{job['id']}")
    assert res.status_code == 200 and res.json()["status"] == "cancelled"
    release.set()
    thread = arenas.get(job["id"]).thread
    thread.join(120)
    assert not thread.is_alive() and arenas.get(job["id"]).result is None
    cancelled = ok(app, "GET", f"/api/arena/{job['id']}")
    assert cancelled["status"] == "cancelled" and len(cancelled["stages"]) == 1
    monkeypatch.setattr(ArenaJob, "_tables", real_tables)
    done = ok(app, "POST", "/api/arena", {"game": "zhajinhua", "players": ["heuristic", "random"],
                                          "games": 16})
    arenas.get(done["id"]).thread.join(120)
    done = ok(app, "GET", f"/api/arena/{done['id']}")
    assert done["status"] == "done" and len(done["stages"]) == 4 and done["games"]
    assert len(arenas.get(done["id"]).result.matches) <= 12  # not the 32 games played
    assert one(app, "POST", f"/api/arena/{done['id']}/cancel", {}).status_code == 200


# ---------------------------------------------------------------- 5. a game that runs on


def test_a_game_past_the_step_guard_ends_truncated(monkeypatch):
    app = create_app()
    res = one(app, "POST", "/api/sessions", {"game": "dayaoguai", "opponents": "weakest",
                                             "seed": 3, "options": {"max_steps": 10_000_000}})
    assert res.status_code == 400 and "max_steps" in res.json()["error"]
    monkeypatch.setattr(sessions_module, "MAX_STEPS_PER_GAME", 2)  # three bots move in turn
    msg = ok(app, "POST", "/api/sessions", {"game": "dayaoguai", "opponents": "weakest",
                                            "seed": 3, "games": 2})
    for _ in range(50):
        if msg["status"] != "playing":
            break
        msg = ok(app, "POST", f"/api/sessions/{msg['id']}/action",
                 {"action": msg["moves"][0]["action"], "version": msg["version"]})
    assert msg["status"] == "over" and msg["result"]["truncated"]
    monkeypatch.setattr(sessions_module, "MAX_STEPS_PER_GAME", 20_000)
    msg = ok(app, "POST", f"/api/sessions/{msg['id']}/next")
    assert msg["status"] == "playing" and msg["game_no"] == 2 and msg["your_turn"]


def test_a_move_that_fails_leaves_no_session_playing(monkeypatch):
    app = create_app(deal_key=b"fixed key: the same deal every run")
    msg = ok(app, "POST", "/api/sessions", {"game": "liars_dice", "seed": 4})
    bid = next(m["action"] for m in msg["moves"] if m["group"] != "challenge")  # a bot answers

    def broken(self: Any) -> Any:
        raise RuntimeError("a bug in a player")

    monkeypatch.setattr(sessions_module.Session, "_player_move", broken)
    res = one(app, "POST", f"/api/sessions/{msg['id']}/action",
              {"action": bid, "version": msg["version"]})
    after = ok(app, "GET", f"/api/sessions/{msg['id']}")
    assert res.status_code == 500 and after["status"] == "finished"
    assert after["result"]["truncated"]


# ---------------------------------------------------------------- 6. double moves


def test_two_identical_moves_at_once_play_once():
    app = create_app()
    msg = ok(app, "POST", "/api/sessions", {"game": "hanabi", "seed": 2})
    body = {"action": msg["moves"][-1]["action"], "version": msg["version"]}
    path = f"/api/sessions/{msg['id']}/action"
    first, second = run(app, ("POST", path, body), ("POST", path, body))
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    assert one(app, "POST", path, {"action": body["action"]}).status_code == 400  # no version
    session = app.state.vecgames.sessions.get(msg["id"])
    assert sum(line["seat"] == 0 for line in session.log) == 1


# ---------------------------------------------------------------- 7. cross-site writes


def test_writes_must_be_json_from_our_own_origin():
    app = create_app()
    replay_body = b'{"format": "x"}'
    plain = run(app, ("POST", "/api/sessions", None, {"content-type": "text/plain"}))[0]
    assert plain.status_code == 200 or plain.status_code in (400, 415)

    async def raw(headers: dict[str, str], body: bytes = replay_body) -> Any:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://127.0.0.1") as client:
            return await client.post("/api/replays", content=body, headers=headers)

    assert asyncio.run(raw({"content-type": "text/plain"})).status_code == 415
    assert asyncio.run(raw({})).status_code == 415
    foreign = {**JSON, "origin": "http://evil.example"}
    assert asyncio.run(raw(foreign)).status_code == 403
    assert asyncio.run(raw({**JSON, "origin": "null"})).status_code == 403
    assert asyncio.run(raw({**JSON, "sec-fetch-site": "cross-site"})).status_code == 403
    same = {**JSON, "origin": "http://127.0.0.1"}
    assert asyncio.run(raw(same)).status_code == 400  # through, and refused as no replay
    msg = ok(app, "POST", "/api/sessions", {"game": "zhajinhua", "seed": 1, "seat": None})
    nobody = one(app, "POST", f"/api/sessions/{msg['id']}/step", None,
                 {"origin": "http://evil.example"})
    assert nobody.status_code == 403
    assert app.state.vecgames.sessions.get(msg["id"]).version == 0


# ---------------------------------------------------------------- 8. eviction


def test_a_flood_of_new_sessions_evicts_no_live_one():
    app = create_app()
    live = [ok(app, "POST", "/api/sessions", {"game": "liars_dice", "seed": k}) for k in range(3)]
    codes = [r.status_code for r in run(app, *[("POST", "/api/sessions", {"game": "liars_dice"})
                                                for _ in range(2100)])]
    assert codes.count(429) >= 2000
    for msg in live:
        assert one(app, "GET", f"/api/sessions/{msg['id']}").status_code == 200
    small = create_app(max_sessions=5, sessions_per_minute=10_000)
    kept = [ok(small, "POST", "/api/sessions", {"game": "liars_dice"}) for _ in range(5)]
    res = one(small, "POST", "/api/sessions", {"game": "liars_dice"})
    assert res.status_code == 503
    assert all(one(small, "GET", f"/api/sessions/{m['id']}").status_code == 200 for m in kept)


# ---------------------------------------------------------------- 9. headers


def test_every_response_carries_the_security_headers():
    app = create_app()
    for method, path in (("GET", "/"), ("GET", "/static/app.js"), ("GET", "/api/games"),
                         ("GET", "/api/sessions/nope"), ("POST", "/api/sessions")):
        res = one(app, method, path, {"game": "nope"} if method == "POST" else None)
        for key, value in SECURITY_HEADERS.items():
            assert res.headers.get(key) == value, (path, key)
    csp = SECURITY_HEADERS["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert np.all([SECURITY_HEADERS["x-frame-options"] == "DENY"])
