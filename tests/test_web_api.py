"""The web app's API without a browser (httpx against the ASGI app): hidden information,
the illegal-action contract, sessions, spectating, replays, arenas, 200 concurrent games."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from vecgames.web.app import create_app  # noqa: E402

GAMES = {"zhajinhua": {"num_players": 3}, "holdem": {"num_players": 3},
         "liars_dice": {"num_rounds": 2}, "hanabi": {}, "dayaoguai": {"num_players": 3},
         "kuhn_poker": {}, "leduc_poker": {}}  # the last two: games with no page of their own
JSON = {"content-type": "application/json"}
TEST_KEY = b"vecgames tests"  # the server's deal key: the same deals in every run
POKER_CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


class Api:
    """Synchronous calls into the app through httpx's ASGI transport."""

    def __init__(self, app: Any):
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                        base_url="http://127.0.0.1")

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        if path.endswith("/action") and isinstance(body, dict) and "version" not in body:
            try:  # the version of the session's last message, as the page sends it
                body = {**body, "version": self.session(path.split("/")[3]).version}
            except Exception:  # no such session: the request gets its 404
                pass
        kwargs = {} if body is None else {"json": body}
        return self.loop.run_until_complete(self.client.request(method, path, **kwargs))

    def ok(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        res = self.call(method, path, body)
        assert res.status_code == 200, res.text
        return res.json()

    def session(self, sid: str) -> Any:
        return self.app.state.vecgames.sessions.get(sid)

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


@pytest.fixture(scope="module")
def api():
    client = Api(create_app(sessions_per_minute=10_000, deal_key=TEST_KEY))
    yield client
    client.close()


def walk(value: Any, key: str) -> list[Any]:
    """Every value under ``key`` anywhere in a JSON document."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == key] + [
            x for v in value.values() for x in walk(v, key)]
    if isinstance(value, list):
        return [x for v in value for x in walk(v, key)]
    return []


# ---------------------------------------------------------------- hidden information


def hidden_cards(game: str, session: Any, seat: int) -> tuple[set[int], list[int]]:
    """From the server's own state: the card ids ``seat`` must not see now, and the seats
    whose hand (dice) it must not see."""
    from vecgames.policies.human import row_state

    s = row_state(session.env.state, 0)
    n = session.num_players
    if game == "zhajinhua":
        from vecgames.games.zhajinhua.rules import field

        seen, known = int(field(s, "seen")[0]), int(field(s, "known")[0, seat])
        secret = [p for p in range(n) if not (p == seat and (seen >> p) & 1)
                  and not (known >> p) & 1]
        return {int(c) for p in secret for c in s.deck[0, 3 * p:3 * p + 3]}, secret
    if game == "holdem":
        from vecgames.games.holdem.rules import field

        street = int(field(s, "street")[0])
        board = 0 if street == 0 else min(street + 2, 5)
        secret = [p for p in range(n) if p != seat]
        cards = {int(c) for p in secret for c in s.deck[0, 2 * p:2 * p + 2]}
        return cards | {int(c) for c in s.deck[0, 2 * n + board:2 * n + 5]}, secret
    if game in ("kuhn_poker", "leduc_poker"):  # the other card; Leduc's public card until shown
        from vecgames.games.catalog import rules_module

        field = rules_module(game).field
        secret = [p for p in range(n) if p != seat]
        cards = {int(field(s, "card")[0, p]) for p in secret}
        if game == "leduc_poker" and int(field(s, "round")[0]) == 0:
            cards.add(int(field(s, "public")[0]))
        return cards, secret
    if game == "dayaoguai":
        from vecgames.games.dayaoguai.rules import field

        secret = [p for p in range(n) if p != seat]
        cards = set()
        for p in secret:  # what it picked up from the table everyone saw
            hidden = int(field(s, "hand")[0, p]) & ~int(field(s, "known")[0, p])
            cards |= {c for c in range(28) if (hidden >> c) & 1}
        return cards, secret
    return set(), [p for p in range(n) if p != seat]  # dice; Hanabi: checked by structure


def check_message(game: str, msg: dict[str, Any], session: Any, seat: int) -> None:
    """Nothing in a message to ``seat`` that the seat may not see."""
    table = msg["table"]
    assert not walk(msg, "strength")  # the state's hand values are not sent
    if msg["status"] == "playing":
        cards, secret = hidden_cards(game, session, seat)
        ids = {v for v in walk(table, "card") if isinstance(v, int)}
        assert not cards & ids, (game, cards & ids)
        for p in secret:
            seat_view = table["seats"][p]
            if game == "liars_dice":
                assert seat_view["dice"] is None
            elif game in ("zhajinhua", "holdem", "kuhn_poker", "leduc_poker"):
                assert seat_view["cards"] is None
            elif game == "dayaoguai":
                assert seat_view["hand"] is None
        if game == "hanabi":  # your own hand: never, only what the hints told
            assert not walk(table["seats"][seat], "card")
            for p in secret:
                assert all("card" in slot for slot in table["seats"][p]["slots"])
        if game in ("zhajinhua", "holdem"):  # no hidden card named in the move log either
            from vecgames.core.cards import format_cards

            names = {format_cards([c]) for c in cards}
            text = " ".join(line["text"] for line in msg["log"][-30:])
            last_game = text.rsplit("--- game", 1)[-1]
            assert not names & set(POKER_CARD.findall(last_game))
    else:  # the end: the cards shown are the showdown's (never a folded hand)
        shown = set(msg["result"]["shown"]) | {seat}
        if game == "zhajinhua":  # and the hands this seat saw by comparing
            from vecgames.games.zhajinhua.rules import field

            known = int(field(session._final, "known")[0, seat])
            shown |= {p for p in range(session.num_players) if (known >> p) & 1}
        key = {"zhajinhua": "cards", "holdem": "cards", "dayaoguai": "hand",
               "kuhn_poker": "cards", "leduc_poker": "cards"}.get(game)
        if key:
            for p, seat_view in enumerate(table["seats"]):
                assert seat_view[key] is None or p in shown
        if game == "holdem":
            for p in msg["result"]["shown"]:
                assert table["seats"][p]["status"] != "folded"
            if not msg["result"]["shown"]:  # a fold ended it: the board as the log dealt it
                from vecgames.core.cards import format_cards

                text = [line["text"] for line in msg["log"]]
                game_log = text[max([k for k, t in enumerate(text) if t.startswith("--- game")],
                                    default=0):]
                boards = [t for t in game_log if t.startswith("--- ") and "board" in t]
                board = POKER_CARD.findall(boards[-1]) if boards else []
                assert [format_cards([c["card"]]) for c in table["board"]] == board


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_never_receives_hidden_information(api, game):
    rng = random.Random(7)
    for k in range(3):
        seat = k % 2
        msg = api.ok("POST", "/api/sessions", {"game": game, "options": GAMES[game],
                                               "seat": seat, "seed": 100 + k, "games": 2})
        session = api.session(msg["id"])
        check_message(game, msg, session, seat)
        for _ in range(2000):
            if msg["status"] == "finished":
                break
            if msg["status"] == "over":
                msg = api.ok("POST", f"/api/sessions/{msg['id']}/next")
            else:
                assert msg["your_turn"] and msg["moves"]
                move = rng.choice(msg["moves"])
                msg = api.ok("POST", f"/api/sessions/{msg['id']}/action",
                             {"action": move["action"]})
            check_message(game, msg, session, seat)
            check_message(game, api.ok("GET", f"/api/sessions/{msg['id']}"), session, seat)
        assert msg["status"] == "finished"
        assert len(msg["results"]) == 2
        assert np.allclose(np.sum(msg["results"], axis=0), msg["score"])


def test_a_player_may_not_ask_for_every_hand(api):
    msg = api.ok("POST", "/api/sessions", {"game": "holdem", "seed": 1})
    res = api.call("GET", f"/api/sessions/{msg['id']}?reveal=1")
    assert res.status_code == 403
    assert "never shows" in res.json()["error"]


# ---------------------------------------------------------------- illegal moves


def legal_ids(msg: dict[str, Any]) -> set[int]:
    return {m["action"] for m in msg["moves"]}


@pytest.mark.parametrize("game", list(GAMES))
def test_an_illegal_move_is_refused_and_changes_nothing(api, game):
    msg = api.ok("POST", "/api/sessions", {"game": game, "options": GAMES[game], "seed": 5})
    sid = msg["id"]
    env = api.session(sid).env
    # (Kuhn poker: every action is legal at every decision, so only bad ids are left)
    illegal = next((a for a in range(env.num_actions) if a not in legal_ids(msg)), None)
    state = [a.copy() for a in env.state]
    for body in ({"action": env.num_actions if illegal is None else illegal},
                 {"action": env.num_actions}, {"action": -1},
                 {"action": "1"}, {"action": 1.0}, {"action": True}, {}, [1]):
        res = api.call("POST", f"/api/sessions/{sid}/action", body)
        assert res.status_code == 400, (body, res.text)
        assert res.json()["error"]
    if illegal is not None:
        res = api.call("POST", f"/api/sessions/{sid}/action", {"action": illegal})
        assert "illegal" in res.json()["error"] and "legal actions" in res.json()["error"]
    assert all(np.array_equal(a, b) for a, b in zip(state, env.state, strict=True))
    assert api.ok("GET", f"/api/sessions/{sid}") == msg  # the same message, version included


def test_holdem_raise_outside_the_slider_range_is_refused(api):
    msg = api.ok("POST", "/api/sessions", {"game": "holdem", "options": {"num_players": 2},
                                           "seed": 3})
    bounds = msg["table"]["raise"]
    assert bounds and bounds["min"] <= bounds["max"]
    sid = msg["id"]
    for amount in (bounds["min"] - 1, bounds["max"] + 1):
        res = api.call("POST", f"/api/sessions/{sid}/action", {"kind": 2, "amount": amount})
        assert res.status_code == 400 and "raise" in res.json()["error"]
    assert api.ok("GET", f"/api/sessions/{sid}") == msg
    amount = (bounds["min"] + bounds["max"]) // 2  # any amount in the range, as the slider
    after = api.ok("POST", f"/api/sessions/{sid}/action", {"kind": 2, "amount": amount})
    assert any(f"{amount}" in line["text"] for line in after["log"])
    assert api.call("POST", f"/api/sessions/{sid}/action",
                    {"kind": "2", "amount": 4}).status_code in (400, 409)


def test_moves_out_of_turn_and_bad_requests(api):
    msg = api.ok("POST", "/api/sessions", {"game": "liars_dice", "seed": 2})
    sid = msg["id"]
    while msg["status"] == "playing":
        msg = api.ok("POST", f"/api/sessions/{sid}/action", {"action": msg["moves"][0]["action"]})
    assert api.call("POST", f"/api/sessions/{sid}/action", {"action": 0}).status_code == 409
    assert api.call("POST", f"/api/sessions/{sid}/next").status_code == 409
    assert api.call("POST", f"/api/sessions/{sid}/step").status_code == 409
    assert api.call("GET", "/api/sessions/nope").status_code == 404
    for body, word in (({"game": "chess"}, "game must be"),
                       ({"game": "holdem", "options": {"stack": -5}}, "stack"),
                       ({"game": "holdem", "options": {"bogus": 1}}, "unknown rule option"),
                       ({"game": "holdem", "opponents": ["nobody"]}, "unknown player"),
                       ({"game": "holdem", "seat": 9}, "seat"),
                       ({"game": "holdem", "extra": 1}, "unknown field")):
        res = api.call("POST", "/api/sessions", body)
        assert res.status_code == 400 and word in res.json()["error"], (body, res.text)
    bad = api.loop.run_until_complete(api.client.post("/api/sessions", content=b"{not json",
                                                      headers=JSON))
    assert bad.status_code == 400


def test_checkpoints_load_only_from_the_command_line(api, tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(b"not loaded")
    res = api.call("POST", "/api/sessions", {"game": "zhajinhua", "opponents": [str(path)]})
    assert res.status_code == 400
    assert "vecgames serve --checkpoint" in res.json()["error"]
    res = api.call("POST", "/api/arena", {"game": "zhajinhua", "players": [str(path), "random"]})
    assert res.status_code == 400


def test_sessions_have_unguessable_ids_and_stay_apart(api):
    a = api.ok("POST", "/api/sessions", {"game": "zhajinhua", "seed": 1})
    b = api.ok("POST", "/api/sessions", {"game": "zhajinhua", "seed": 1})
    assert a["id"] != b["id"] and min(len(a["id"]), len(b["id"])) >= 24
    api.ok("POST", f"/api/sessions/{a['id']}/action", {"action": a["moves"][0]["action"]})
    assert api.ok("GET", f"/api/sessions/{b['id']}") == b
    assert api.ok("DELETE", f"/api/sessions/{a['id']}")["ok"]
    assert api.call("GET", f"/api/sessions/{a['id']}").status_code == 404


def test_requests_for_another_host_are_refused(api):
    res = api.loop.run_until_complete(api.client.get("/api/games",
                                                     headers={"Host": "evil.example"}))
    assert res.status_code == 400


# ---------------------------------------------------------------- spectating


@pytest.mark.parametrize("game", list(GAMES))
def test_spectating_steps_move_by_move_and_shows_hands_on_request(api, game):
    msg = api.ok("POST", "/api/sessions", {"game": game, "options": GAMES[game], "seat": None,
                                           "seed": 11})
    sid = msg["id"]
    assert msg["mode"] == "watch" and not msg["moves"]
    public = api.ok("GET", f"/api/sessions/{sid}?reveal=0")["table"]
    everything = api.ok("GET", f"/api/sessions/{sid}?reveal=1")["table"]
    assert walk(everything, "card") or walk(everything, "dice")
    if game == "hanabi":  # cards face outward: an onlooker sees every hand
        assert all("card" in slot for seat in public["seats"] for slot in seat["slots"])
    elif game != "dayaoguai":
        assert not walk(public, "card")
    if game == "dayaoguai":  # only the cards everyone saw picked up
        assert all(s["hand"] is None for s in public["seats"])
    steps = 0
    while msg["status"] != "finished":
        before = msg["version"]
        msg = api.ok("POST", f"/api/sessions/{sid}/step?reveal=1")
        assert msg["version"] in (before, before + 1)
        steps += 1
        assert steps < 5000
    assert msg["result"] and len(msg["log"]) >= 1


# ---------------------------------------------------------------- replays and the arena


@pytest.fixture(scope="module")
def arena_replays():
    import vecgames
    from vecgames.arena.replay import arena_replay

    out = []
    for game, players, options in (("zhajinhua", ["heuristic", "random"], {"num_players": 2}),
                                   ("holdem", ["strength", "call"], {"num_players": 2})):
        result = vecgames.arena(game, players, 6, seed=4, **options)
        for row in (0, 7):
            out.append((result, row, arena_replay(result, players, row)))
    return out


def test_a_replay_is_the_arena_game(arena_replays, tmp_path):
    from vecgames.arena.replay import load_replay, save_replay

    for result, row, replay in arena_replays:
        match = result.matches.iloc[row]
        labels = str(match["assignment"]).split(" | ")
        scale = 100 / 2 if result.game == "holdem" else 1  # bb/100 at big blind 2
        for seat, label in enumerate(labels):
            assert replay["rewards"][seat] * scale == pytest.approx(match[f"payoff_{label}"])
        path = tmp_path / f"{result.game}-{row}.json"
        save_replay(replay, path)
        assert load_replay(path) == json.loads(json.dumps(replay))
        assert path.stat().st_size < 2000  # compact: seed, deal and actions


def test_replays_play_back_and_tampering_is_refused(api, arena_replays):
    replay = arena_replays[0][2]
    doc = api.ok("POST", "/api/replays", replay)
    frames = api.ok("GET", f"/api/replays/{doc['id']}")["frames"]
    assert len(frames) == len(replay["actions"]) + 1 and frames[-1]["done"]
    hidden = api.ok("GET", f"/api/replays/{doc['id']}?reveal=0")["frames"]
    assert not walk(hidden[0]["table"], "card") and walk(frames[0]["table"], "card")
    assert api.ok("GET", f"/api/replays/{doc['id']}/file") == replay
    assert any(r["id"] == doc["id"] for r in api.ok("GET", "/api/replays")["replays"])
    for change in ({"rewards": [5.0, -5.0]}, {"actions": replay["actions"][:-1]},
                   {"actions": [99] + replay["actions"][1:]}, {"format": "x"},
                   {"seed": "0"}):
        res = api.call("POST", "/api/replays", {**replay, **change})
        assert res.status_code == 400, change


def test_the_arena_page_fills_in_and_opens_replays(api):
    import time

    job = api.ok("POST", "/api/arena", {"game": "zhajinhua", "players": ["heuristic", "random"],
                                        "games": 16, "options": {"num_players": 2}})
    for _ in range(600):
        job = api.ok("GET", f"/api/arena/{job['id']}")
        if job["status"] != "running":
            break
        time.sleep(0.1)
    assert job["status"] == "done", job
    assert [s["games"] for s in job["stages"]] == [2, 4, 8, 16]
    latest = job["latest"]
    assert {r["player"] for r in latest["ratings"]} == {"heuristic", "random"}
    assert latest["matrix"]["players"] and latest["pairwise"]
    doc = api.ok("POST", f"/api/arena/{job['id']}/replay", {"row": job["games"][1]["row"]})
    assert api.ok("GET", f"/api/replays/{doc['id']}")["frames"][-1]["done"]
    res = api.call("POST", "/api/arena", {"game": "zhajinhua", "players": ["heuristic"]})
    assert res.status_code == 400


# ---------------------------------------------------------------- load


def test_200_concurrent_games_keep_their_own_state():
    """200 games at once through one app, their requests interleaved; each ends exactly as
    the same seed and moves give when played alone."""
    app = create_app(sessions_per_minute=1000)
    games = list(GAMES)

    async def play(client: Any, k: int, moves: list[int] | None) -> tuple[list[int], Any]:
        game = games[k % len(games)]
        res = await client.post("/api/sessions", json={"game": game, "options": GAMES[game],
                                                       "seed": k})
        msg = res.json()
        chosen: list[int] = []
        while msg["status"] == "playing":
            if moves is None:
                action = msg["moves"][(k * 7 + len(chosen)) % len(msg["moves"])]["action"]
            else:
                action = moves[len(chosen)]
            chosen.append(action)
            res = await client.post(f"/api/sessions/{msg['id']}/action",
                                    json={"action": action, "version": msg["version"]})
            assert res.status_code == 200, res.text
            msg = res.json()
        return chosen, (msg["score"], [line["text"] for line in msg["log"]])

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            together = await asyncio.gather(*(play(c, k, None) for k in range(200)))
            for k in range(0, 200, 7):  # alone, with the same moves
                moves, outcome = together[k]
                assert await play(c, k, moves) == (moves, outcome)

    asyncio.run(run())
    assert len(app.state.vecgames.sessions) == 200 + len(range(0, 200, 7))


# ---------------------------------------------------------------- packaging and the command


def test_importing_vecgames_does_not_import_the_web_server():
    code = ("import sys, vecgames, vecgames.web, vecgames.web.sessions; "
            "assert 'starlette' not in sys.modules and 'uvicorn' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_serve_without_the_extra_names_the_install_line(monkeypatch, capsys):
    from vecgames import cli

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    assert cli.main(["serve"]) == 1
    assert 'pip install -e ".[web]"' in capsys.readouterr().err


def test_serve_binds_this_machine_and_prints_the_url(monkeypatch, capsys):
    import uvicorn

    from vecgames import cli

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8123
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out
    assert cli.main(["serve", "--checkpoint", "no/such/file.pt"]) == 2
    assert cli.main(["serve", "--port", "0"]) == 2


def test_a_checkpoint_loaded_at_start_is_offered_and_seated():
    from vecgames.web.sessions import Catalog

    class Loaded:  # what load_player gives, as far as the server is concerned
        name, game = "tiny", "liars_dice"

        def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
            return action_mask.argmax(axis=1)  # the first legal action

    catalog = Catalog()
    catalog.checkpoints["tiny"] = Loaded()
    client = Api(create_app(catalog, deal_key=TEST_KEY))
    try:
        listed = {g["name"]: g for g in client.ok("GET", "/api/games")["games"]}
        assert listed["liars_dice"]["checkpoints"] == ["tiny"]
        assert listed["holdem"]["checkpoints"] == []
        msg = client.ok("POST", "/api/sessions", {"game": "liars_dice", "opponents": ["tiny"],
                                                  "seat": 1, "seed": 3})
        assert msg["labels"] == ["tiny", "you"]
        res = client.call("POST", "/api/sessions", {"game": "holdem", "opponents": ["tiny"]})
        assert res.status_code == 400
    finally:
        client.close()


# ---------------------------------------------------------------- review: hardening


def test_json_that_python_refuses_is_a_400_and_changes_nothing(api):
    from vecgames.web.app import MAX_BODY

    msg = api.ok("POST", "/api/sessions", {"game": "zhajinhua", "seed": 8})
    sid = msg["id"]

    def raw(path: str, content: bytes) -> httpx.Response:
        return api.loop.run_until_complete(api.client.post(path, content=content, headers=JSON))

    for body in (b'{"action": ' + b"9" * 5000 + b"}",  # above Python's 4300-digit int limit
                 b"[" * 50_000 + b"]" * 50_000,  # deeper than the JSON parser recurses
                 b'{"action": 1e999}', b'{"action": NaN}', b"\xff\xfe"):
        res = raw(f"/api/sessions/{sid}/action", body)
        assert res.status_code == 400 and res.json()["error"], (body[:20], res.text)
    res = raw(f"/api/sessions/{sid}/action", b" " * (MAX_BODY + 1))
    assert res.status_code == 413
    assert api.ok("GET", f"/api/sessions/{sid}") == msg
    res = raw("/api/sessions", b'{"game": "holdem", "games": ' + b"9" * 5000 + b"}")
    assert res.status_code == 400


def test_a_player_asking_for_every_hand_changes_nothing(api):
    msg = api.ok("POST", "/api/sessions", {"game": "liars_dice", "seed": 4, "games": 2})
    sid = msg["id"]
    while msg["status"] == "playing":
        msg = api.ok("POST", f"/api/sessions/{sid}/action", {"action": msg["moves"][0]["action"]})
    assert msg["status"] == "over"
    for path in (f"/api/sessions/{sid}/next?reveal=1", f"/api/sessions/{sid}/step?reveal=1",
                 f"/api/sessions/{sid}?reveal=1"):
        res = api.call("GET" if "?reveal" in path and "/next" not in path and "/step" not in path
                       else "POST", path)
        assert res.status_code in (403, 409), (path, res.text)
    assert api.ok("GET", f"/api/sessions/{sid}") == msg  # still game 1, over


def test_a_replay_with_out_of_range_numbers_or_other_rules_is_refused(api, arena_replays):
    replay = arena_replays[2][2]  # Hold'em
    for change in ({"actions": [10**30] + replay["actions"][1:]},
                   {"actions": [[2, 10**30]] + replay["actions"][1:]},
                   {"options": {**replay["options"], "illegal": "penalty"}},
                   {"options": {**replay["options"], "num_envs": 10**6}},
                   {"players": [{"x": 1}, "call"]}, {"rewards": ["1", 0]},
                   {"deal": 2**80}, {"seed": -1}):
        res = api.call("POST", "/api/replays", {**replay, **change})
        assert res.status_code == 400 and res.json()["error"], (change, res.text)


# ---------------------------------------------------------------- review: the end of a game


def end_table(api: Api, game: str, options: dict[str, Any], seed: int,
              opponents: Any = None) -> dict[str, Any]:
    body = {"game": game, "options": options, "seed": seed}
    if opponents is not None:
        body["opponents"] = opponents
    msg = api.ok("POST", "/api/sessions", body)
    k = 0
    while msg["status"] == "playing":  # the last move of the list: bets, raises, bids
        moves = msg["moves"]
        msg = api.ok("POST", f"/api/sessions/{msg['id']}/action",
                     {"action": moves[(k * 5) % len(moves)]["action"]})
        k += 1
    return msg


@pytest.mark.parametrize("seed", [1, 2])
def test_the_table_at_the_end_is_the_one_the_last_move_left(api, seed):
    """The end shows the finished game (the env has already dealt the next one): who is
    out, the penalty points, the fireworks and lives as the result says."""
    zjh = end_table(api, "zhajinhua", {"num_players": 4}, seed)
    still_in = [p for p, s in enumerate(zjh["table"]["seats"]) if s["in"]]
    winners = [p for p, r in enumerate(zjh["result"]["rewards"]) if r > 0]
    assert set(winners) <= set(still_in)
    assert len(still_in) == (len(zjh["result"]["shown"]) or 1)

    dice = end_table(api, "liars_dice", {"num_rounds": 2}, seed)
    penalties = [s["penalty"] for s in dice["table"]["seats"]]
    assert sum(penalties) == 2  # both rounds' losers, the last one included
    last = dice["table"]["last_round"]
    assert last and penalties[last["loser"]] >= 1
    assert last["dice"] == [s["dice"] for s in dice["table"]["seats"]]  # the challenge showed

    hanabi = end_table(api, "hanabi", {}, seed)
    t = hanabi["table"]
    assert t["score"] == sum(f["height"] for f in t["fireworks"])
    if "lives ran out" in hanabi["result"]["text"]:
        assert t["life"] == 0
    else:
        assert t["score"] == round(hanabi["result"]["rewards"][0])

    dyg = end_table(api, "dayaoguai", {"num_players": 3}, seed, "random")
    holding = [p for p, s in enumerate(dyg["table"]["seats"]) if s["count"]]
    assert len(holding) == 1 or dyg["result"]["truncated"]
    assert all(s["hand"] is None for p, s in enumerate(dyg["table"]["seats"]) if p != 0)


def test_a_replay_ends_on_the_final_table(api, arena_replays):
    for _, _, replay in arena_replays:
        doc = api.ok("POST", "/api/replays", replay)
        frames = api.ok("GET", f"/api/replays/{doc['id']}")["frames"]
        last, said = frames[-1]["table"], " ".join(frames[-1]["lines"])
        winners = {p for p, r in enumerate(replay["rewards"]) if r > 0}
        if replay["game"] == "zhajinhua":
            still_in = {p for p, s in enumerate(last["seats"]) if s["in"]}
            assert winners <= still_in
            assert len(still_in) > 1 if "Showdown" in said else len(still_in) == 1
        else:  # Hold'em: the folded seats, the last fold included
            left = {p for p, s in enumerate(last["seats"]) if s["status"] != "folded"}
            assert winners <= left
            assert len(left) > 1 if "Showdown" in said else len(left) == 1
            if "Showdown" not in said:  # a fold deals nothing: no card the hand never dealt
                for reveal in ("0", "1"):
                    ends = api.ok("GET", f"/api/replays/{doc['id']}?reveal={reveal}")["frames"]
                    assert ends[-1]["table"]["board"] == ends[-2]["table"]["board"]


# ---------------------------------------------------------------- review: a real checkpoint


def test_a_trained_checkpoint_given_at_start_plays_a_whole_match(tmp_path, monkeypatch):
    """A real (tiny) trained checkpoint through ``vecgames serve --checkpoint``: offered by
    name for its game only, seated at its table size, a whole match played over HTTP; its
    path in a request is refused."""
    pytest.importorskip("torch")
    import uvicorn

    from vecgames import cli
    from vecgames.games.zhajinhua import train as zhajinhua

    out = tmp_path / "run"
    zhajinhua.main(["--iterations", "1", "--envs", "16", "--steps", "8", "--hidden", "16",
                    "--eval-games", "12", "--out", str(out), "--no-progress"])
    checkpoint = next(out.glob("*.pt"))
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    assert cli.main(["serve", "--port", "8124", "--checkpoint", str(checkpoint)]) == 0
    client = Api(served[0])
    try:
        listed = {g["name"]: g for g in client.ok("GET", "/api/games")["games"]}
        # the zoo's players are offered too; the one loaded at start is not a zoo: name
        (name,) = [c for c in listed["zhajinhua"]["checkpoints"] if not c.startswith("zoo:")]
        assert all(c.startswith("zoo:") for n, g in listed.items() if n != "zhajinhua"
                   for c in g["checkpoints"])
        for spec in (str(checkpoint), str(checkpoint.relative_to(tmp_path)),
                     f"../{checkpoint.name}", checkpoint.name):
            if spec == name:
                continue
            res = client.call("POST", "/api/sessions", {"game": "zhajinhua", "opponents": [spec]})
            assert res.status_code == 400 and "--checkpoint" in res.json()["error"], spec
        msg = client.ok("POST", "/api/sessions", {"game": "zhajinhua", "opponents": [name],
                                                  "seat": 1, "seed": 9, "games": 3})
        session = client.session(msg["id"])
        n = session.num_players
        assert msg["labels"] == [name if p != 1 else "you" for p in range(n)]
        rng = random.Random(3)
        moved_by_checkpoint = 0
        while msg["status"] != "finished":
            check_message("zhajinhua", msg, session, 1)
            if msg["status"] == "over":
                msg = client.ok("POST", f"/api/sessions/{msg['id']}/next")
                continue
            before = len(msg["log"])
            msg = client.ok("POST", f"/api/sessions/{msg['id']}/action",
                            {"action": rng.choice(msg["moves"])["action"]})
            moved_by_checkpoint += sum(line["seat"] not in (None, 1)
                                       for line in msg["log"][before:])
        assert len(msg["results"]) == 3 and moved_by_checkpoint > 0
        assert np.allclose(np.sum(msg["results"], axis=0), msg["score"])
        assert abs(sum(msg["score"])) < 1e-6  # zero-sum chips
        watch = client.ok("POST", "/api/sessions", {"game": "zhajinhua", "seat": None,
                                                    "opponents": [name], "seed": 2})
        while watch["status"] != "finished":
            watch = client.ok("POST", f"/api/sessions/{watch['id']}/step")
    finally:
        client.close()


def test_a_replay_ended_by_a_fold_shows_no_card_it_did_not_deal(api):
    from vecgames.arena.replay import record_game

    for deal in range(40):  # the first hand a fold ends after the flop
        replay = record_game("holdem", ["random", "random"], 3, deal, num_players=2)
        if replay["actions"][-1] in (0, [0, 0]) and len(replay["actions"]) > 3:
            break
    doc = api.ok("POST", "/api/replays", replay)
    for reveal in ("0", "1"):
        frames = api.ok("GET", f"/api/replays/{doc['id']}?reveal={reveal}")["frames"]
        assert "folded" in frames[-1]["lines"][-1]
        assert frames[-1]["table"]["board"] == frames[-2]["table"]["board"]
        assert len(frames[-1]["table"]["board"]) < 5


def test_a_replay_with_random_draws_plays_back(api):
    """A ``random`` seat draws from the game's stream, from which Hanabi draws its next cards:
    the replay's ``draws`` put the stream back, so it plays back to its record."""
    import vecgames
    from vecgames.arena.replay import arena_replay

    result = vecgames.arena("hanabi", ["rules", "random"], 2, seed=5)
    for row in range(len(result.matches)):
        replay = arena_replay(result, ["rules", "random"], row)
        doc = api.ok("POST", "/api/replays", replay)
        frames = api.ok("GET", f"/api/replays/{doc['id']}")["frames"]
        assert len(frames) == len(replay["actions"]) + 1 and frames[-1]["done"]
    assert "draws" in replay
    bad = {**replay, "draws": [[len(replay["actions"]), 1]]}
    assert api.call("POST", "/api/replays", bad).status_code == 400


# ---------------------------------------------------------------- what the page is told


def test_the_lobby_gets_labels_help_choices_caps_and_how_to_play(api):
    from vecgames.games.catalog import spec_of

    for game in api.ok("GET", "/api/games")["games"]:
        docs = game["option_docs"]
        assert list(docs) == list(game["options"])
        assert all(d["label"] and d["help"] for d in docs.values())
        for name, cap in spec_of(game["name"]).web_limits.items():
            assert docs[name]["max"] == cap
        assert game["how_to_play"] and all(len(part) == 2 for part in game["how_to_play"])
    zjh = next(g for g in api.ok("GET", "/api/games")["games"] if g["name"] == "zhajinhua")
    assert zjh["option_docs"]["a23"]["choices"] == ["lowest", "second"]


def test_hanabi_hint_badges_carry_what_hints_ruled_out(api):
    """After a colour hint, the hinted cards know their colour and the others know they are
    not that colour: the page is sent both."""
    msg = api.ok("POST", "/api/sessions", {"game": "hanabi", "seat": None, "seed": 4,
                                           "opponents": ["rules"]})
    sid = msg["id"]
    for _ in range(40):
        know = [slot["know"] for seat in msg["table"]["seats"] for slot in seat["slots"]]
        if any(k["not_colors"] or k["not_ranks"] for k in know):
            break
        msg = api.ok("POST", f"/api/sessions/{sid}/step")
    else:
        pytest.fail("no hint with negative information in 40 moves")
    for k in know:  # a colour (rank) known is not also listed as ruled out
        assert not (k["color"] and k["not_colors"]) and not (k["rank"] and k["not_ranks"])
        assert k["color"] not in k["not_colors"] and k["rank"] not in k["not_ranks"]


def test_liars_dice_result_box_agrees_with_the_match_score(api):
    """Each game's result names that game's points; over a match they add up to the score
    column."""
    msg = api.ok("POST", "/api/sessions", {"game": "liars_dice", "seat": None, "seed": 3,
                                           "games": 2, "options": {"num_rounds": 2}})
    sid, totals = msg["id"], [0.0, 0.0]
    for game_no in (1, 2):
        while msg["status"] == "playing":
            msg = api.ok("POST", f"/api/sessions/{sid}/step")
        text = msg["result"]["text"]
        assert text.startswith("Game over after 2 rounds. Points this game:"), text
        points = [float(x) for x in re.findall(r"seat \d+ ([+-][\d.]+)", text)]
        assert points == msg["result"]["rewards"]
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        assert msg["score"] == pytest.approx(totals)
        if game_no == 1:
            msg = api.ok("POST", f"/api/sessions/{sid}/step")  # the next game
