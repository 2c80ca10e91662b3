"""The pages in a real browser: Playwright driving headless Chromium against ``vecgames serve``'s
app under uvicorn (one server and one browser for the module). One complete game per game,
played by clicks, its result on the page checked against the server's record; a replay
stepped back and forth; an arena filling in. Screenshots go to ``$VECGAMES_WEB_SCREENSHOTS``
(default: a temporary folder), for CI artifacts and the docs.

Playwright's own Chromium is used when installed, else the system one (Debian's package
``chromium``: ``/usr/bin/chromium``). Without either the tests skip, unless
``VECGAMES_WEB_REQUIRE_BROWSER=1`` (CI sets it) makes that a failure."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

# the games with several rule options (Kuhn and Leduc poker have one: the seat count)
GAMES_WITH_OPTIONS = ("zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai")
REQUIRED = os.environ.get("VECGAMES_WEB_REQUIRE_BROWSER") == "1"
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
# game -> rule options for a short complete game, and the move a test clicks first if offered
GAMES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "zhajinhua": ({"num_players": 3}, ("bet", "turn", "compare")),
    "holdem": ({"num_players": 2}, ("call",)),
    "liars_dice": ({}, ("fei", "zhai", "challenge")),
    "hanabi": ({}, ("play", "discard", "hint")),
    "dayaoguai": ({"num_players": 3}, ("card", "pass")),
    "leduc_poker": ({}, ("bet",)),  # no page of its own: the plain table from its JSON view
}


def _missing(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"VECGAMES_WEB_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("VECGAMES_WEB_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("web-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server():
    """The app under uvicorn on a free local port, in a thread."""
    from vecgames.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("no playwright: pip install playwright")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch()
        except Exception:  # no browser downloaded by `playwright install`: the system one
            path = os.environ.get("CHROMIUM") or next(
                (c for c in SYSTEM_CHROMIUM if shutil.which(c)), None)
            if path is None:
                _missing("no Chromium: `playwright install chromium` or the chromium package")
            b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def server_json(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path) as res:
        return json.loads(res.read())


def wait_version(page: Any, before: str | None) -> None:
    """Until the game section shows a new server message."""
    page.wait_for_function(
        "v => { const g = document.querySelector('#game'); "
        "return g && g.dataset.version !== v; }", arg=before, timeout=15_000)


def click_and_wait(page: Any, selector: str) -> None:
    """Click ``selector`` and wait for the server's answer to show."""
    version = page.get_attribute("#game", "data-version")
    page.click(selector)
    wait_version(page, version)


def session_id(page: Any) -> str:
    """The session the page shows (the last part of ``#/play/ID`` or ``#/watch/ID``)."""
    return page.evaluate("location.hash").rsplit("/", 1)[1]


def start_from_lobby(page: Any, base: str, game: str, seed: int, watch: bool = False) -> None:
    """Open the lobby (``watch``: the spectators' one), pick ``game`` and ``seed``, start."""
    page.goto(base + ("/#/watch" if watch else "/#/"))
    page.select_option("#game-select", game)
    page.fill('#lobby [name="seed"]', str(seed))
    page.click("#start")


def click_a_move(page: Any, prefer: tuple[str, ...]) -> None:
    for group in prefer:
        buttons = page.locator(f'.move-group[data-group="{group}"] button.move')
        if buttons.count():
            buttons.first.click()
            return
    page.locator("button.move").first.click()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_complete_game_by_clicks(server, page, shots, game):
    base, _ = server
    options, prefer = GAMES[game]
    page.goto(base + "/#/")
    page.select_option("#game-select", game)
    for key, value in options.items():
        page.fill(f'#lobby [name="{key}"]', str(value))
        page.dispatch_event(f'#lobby [name="{key}"]', "change")
    page.fill('#lobby [name="seed"]', "5")
    page.click("#start")
    page.wait_for_selector("#game")
    sid = session_id(page)
    page.screenshot(path=str(shots / f"{game}_start.png"))
    clicks = 0
    while page.get_attribute("#game", "data-status") == "playing":
        version = page.get_attribute("#game", "data-version")
        page.wait_for_selector("button.move")
        if clicks == 3:
            page.screenshot(path=str(shots / f"{game}_table.png"))
        click_a_move(page, prefer)
        wait_version(page, version)
        clicks += 1
        assert clicks < 400, "the game did not end"
    page.wait_for_selector("#result")
    page.screenshot(path=str(shots / f"{game}_result.png"), full_page=True)
    record = server_json(base, f"/api/sessions/{sid}")
    assert record["status"] == "finished" and record["result"]
    shown_rewards = json.loads(page.get_attribute("#result", "data-rewards"))
    assert shown_rewards == record["result"]["rewards"]
    assert page.inner_text("#result pre").strip() == record["result"]["text"].strip()
    scores = [float(x) for x in page.locator("#score td[data-score]").evaluate_all(
        "tds => tds.map(td => td.dataset.score)")]
    assert scores == record["score"]
    log = page.locator("#log li").all_inner_texts()
    assert log == [line["text"].strip() for line in record["log"]]


def test_holdem_raise_by_the_slider(server, page):
    base, _ = server
    page.goto(base + "/#/")
    page.select_option("#game-select", "holdem")
    page.fill('#lobby [name="num_players"]', "2")
    page.dispatch_event('#lobby [name="num_players"]', "change")
    page.fill('#lobby [name="seed"]', "3")
    page.click("#start")
    page.wait_for_selector("#raise-slider")
    low = int(page.get_attribute("#raise-slider", "min"))
    high = int(page.get_attribute("#raise-slider", "max"))
    assert low < high
    # Heads-up the button posts the small blind; preflop a bet is faced, so the slider raises.
    chips = page.locator(".felt .button-chip").all_inner_texts()
    assert sorted(chips) == ["BB", "D", "SB"]
    assert page.inner_text("#raise-button") == "Raise"
    page.fill("#raise-slider", str(low + 1))  # a range input takes the value
    assert page.inner_text("#raise-value") == str(low + 1)
    click_and_wait(page, "#raise-button")
    assert f"to {low + 1}" in page.inner_text("#log")


def test_spectate_with_every_hand(server, page, shots):
    base, _ = server
    start_from_lobby(page, base, "holdem", 2, watch=True)
    page.wait_for_selector("#game")
    assert page.locator(".card.back").count() > 0  # public view: hands face down
    page.check("#reveal")
    page.wait_for_function("() => document.querySelectorAll('.card.back').length === 0")
    click_and_wait(page, "#step")
    assert page.locator("#log li").count() >= 1
    page.screenshot(path=str(shots / "watch_holdem.png"))


def test_a_replay_steps_back_and_forth(server, page, shots):
    import vecgames
    from vecgames.arena.replay import arena_replay

    base, app = server
    result = vecgames.arena("holdem", ["strength", "call"], 4, seed=1, num_players=2)
    replay = arena_replay(result, ["strength", "call"], 1)
    from vecgames.web.replays import ReplayDoc

    doc = app.state.vecgames.replays.add(ReplayDoc(replay, "test"))
    frames = doc.frames(True)
    page.goto(base + f"/#/replay/{doc.id}")
    page.wait_for_selector("#replay")
    seen = [page.inner_html(".felt")]
    for k in range(1, len(frames)):
        page.click("#forward")
        page.wait_for_selector(f'#replay[data-step="{k}"]')
        said = " · ".join(frames[k]["lines"])
        assert page.inner_text("#now").split() == said.split()
        seen.append(page.inner_html(".felt"))
    assert page.is_disabled("#forward")
    page.screenshot(path=str(shots / "replay_holdem.png"))
    for k in range(len(frames) - 2, -1, -1):
        page.click("#back")
        page.wait_for_selector(f'#replay[data-step="{k}"]')
        assert page.inner_html(".felt") == seen[k]  # the same table as on the way forward
    assert page.is_disabled("#back")


def test_a_long_replay_comes_in_windows(server, page):
    """A replay of 575 moves: the page asks for windows of frames as the position reaches
    them, never for the whole replay; the log numbers the moves it shows by their move."""
    import warnings

    import vecgames
    from vecgames.arena.replay import arena_replay
    from vecgames.web.replays import ReplayDoc

    base, app = server
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few deals: this arena only supplies a game
        result = vecgames.arena("dayaoguai", ["random", "shed"], 2, seed=1, num_players=3)
    doc = app.state.vecgames.replays.add(ReplayDoc(arena_replay(result, ["random", "shed"], 1),
                                                   "long"))
    assert doc.moves > 400
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/replays/" in r.url else None)
    page.goto(base + f"/#/replay/{doc.id}")
    page.wait_for_selector("#replay")
    page.click("#last")
    page.wait_for_selector(f'#replay[data-step="{doc.moves}"]')
    last = doc.frames(True, doc.moves, doc.moves)[-1]
    assert page.inner_text("#now").split() == " · ".join(last["lines"]).split()
    assert page.locator("#log li[value]").last.get_attribute("value") == str(doc.moves)
    page.click("#back")
    page.wait_for_selector(f'#replay[data-step="{doc.moves - 1}"]')
    assert asked and all("/frames?" in url for url in asked), asked
    assert len(asked) <= 4  # windows 0, the last two, maybe one more: not one per move


def test_the_arena_page_fills_in(server, page, shots):
    base, _ = server
    page.goto(base + "/#/arena")
    page.select_option("#arena-game", "zhajinhua")
    page.locator('#arena-players input[type="checkbox"]').evaluate_all(
        "xs => xs.forEach(x => { x.checked = ['heuristic', 'random'].includes(x.value); })")
    page.fill('#arena-form [name="num_players"]', "2")
    page.fill("#arena-games", "64")
    page.click("#arena-start")
    page.wait_for_selector('#arena-status[data-status="done"]', timeout=60_000)
    assert page.locator("#ratings tr").count() == 3  # a header and two players
    page.screenshot(path=str(shots / "arena_zhajinhua.png"), full_page=True)
    page.locator("#arena-games a").first.click()
    page.wait_for_selector("#replay")


def test_the_lobby_sends_the_players_and_rules_chosen(server, page):
    """Players picked stay picked when the table size changes (the change event of a typed
    number comes on blur); a rule option whose default is None takes a number."""
    base, _ = server
    page.goto(base + "/#/")
    page.select_option("#game-select", "zhajinhua")
    page.select_option('#lobby [name="seat-1"]', "random")
    page.fill('#lobby [name="num_players"]', "3")
    page.fill('#lobby [name="first_player"]', "2")  # blurs num_players: its change event
    page.select_option('#lobby [name="seat-2"]', "percentile")
    page.click("#start")
    page.wait_for_selector("#game")
    sid = session_id(page)
    record = server_json(base, f"/api/sessions/{sid}")
    assert record["labels"] == ["you", "random", "percentile"]
    assert page.inner_text("#error") == ""


def test_a_double_click_plays_one_move(server, page):
    """The move buttons are disabled while a move is in flight, and the move carries the
    version it was chosen on: a double-click on a Hanabi hint gives one hint."""
    base, _ = server
    page.goto(base + "/#/")
    page.select_option("#game-select", "hanabi")
    page.click("#start")
    page.wait_for_selector("#game")
    sid = session_id(page)
    assert "seed shown when the match ends" in page.inner_text("#game h2")
    version = page.get_attribute("#game", "data-version")
    page.locator('.move-group[data-group="hint"] button.move').first.dblclick()
    wait_version(page, version)
    page.wait_for_selector("button.move")
    record = server_json(base, f"/api/sessions/{sid}")
    mine = [line for line in record["log"] if line["seat"] == 0]
    assert len(mine) == 1, mine
    assert page.inner_text("#error") == ""


def test_a_running_arena_can_be_cancelled(server, page, monkeypatch):
    """The Cancel button stops a running arena (its stages are held until the click, so the
    arena is surely running then)."""
    arena_module = sys.modules["vecgames.arena"]  # the package (vecgames.arena is the function)
    gate, real = threading.Event(), arena_module.arena

    def held(game: str, players: Any, games: int, *args: Any, **kwargs: Any) -> Any:
        if games > 1:  # a stage, not the one-game check before the job starts
            gate.wait(30)
        return real(game, players, games, *args, **kwargs)

    monkeypatch.setattr(arena_module, "arena", held)
    base, _ = server
    page.goto(base + "/#/arena")
    page.select_option("#arena-game", "zhajinhua")
    page.fill("#arena-games", "64")
    page.click("#arena-start")
    page.wait_for_selector("#arena-cancel")
    page.click("#arena-cancel")
    page.wait_for_selector('#arena-status[data-status="cancelled"]')
    gate.set()
    assert page.locator("#arena-cancel").count() == 0


def test_the_move_log_numbers_moves_only(server, page):
    """A game separator takes no move number, and the list leaves room for three digits."""
    base, _ = server
    page.goto(base + "/#/watch")
    page.select_option("#game-select", "zhajinhua")
    page.fill('#lobby [name="games"]', "2")
    page.click("#start")
    page.wait_for_selector("#game")
    for _ in range(400):  # step game 1 to its end, then open game 2
        if page.locator("#next-game").count():
            click_and_wait(page, "#next-game")
            break
        click_and_wait(page, "#step")
    assert page.locator("#log li.sep").count() >= 1
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('#log li:not(.sep)')].map((li) => li.value)")
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    pad, font = page.evaluate("() => { const s = getComputedStyle(document.querySelector('#log'));"
                              " return [parseFloat(s.paddingLeft), parseFloat(s.fontSize)]; }")
    assert pad >= 3 * font  # "100." fits


def test_the_lobby_keeps_the_table_size_legal(server, page):
    """99 players in Hanabi are clamped to its 5 seats: four opponent dropdowns, not 98."""
    base, _ = server
    page.goto(base + "/#/")
    page.select_option("#game-select", "hanabi")
    size = page.locator('#lobby [name="num_players"]')
    assert size.get_attribute("max") == "5" and size.get_attribute("min") == "2"
    size.fill("99")
    size.dispatch_event("change")
    assert page.locator("#lobby select.player").count() == 4
    assert size.input_value() == "5"


def test_a_ten_is_written_10(server, page):
    """Poker cards (Zha Jin Hua, Hold'em) write the ten as Da Yaoguai does: "10", not "T"."""
    base, _ = server
    page.goto(base + "/#/")
    page.wait_for_selector("#lobby")
    text = page.evaluate("() => cardEl({card: 32, r: 'T', s: 's'}).textContent")
    assert text.startswith("10"), text


def test_rule_options_show_labels_choices_and_help(server, page, shots):
    """No raw option names in free-text boxes: a label, a list where the values are a fixed
    few, a checkbox for on/off, and a line of help under each."""
    base, _ = server
    page.goto(base + "/#/")
    page.wait_for_selector("#lobby")
    for game in GAMES:
        page.select_option("#game-select", game)
        fields = page.locator("#lobby .options label.option")
        assert fields.count() >= (4 if game in GAMES_WITH_OPTIONS else 1)
        assert page.locator('#lobby .options input[type="text"]').count() == 0
        for label, help_line in zip(fields.locator(".option-label").all_inner_texts(),
                                    fields.locator(".help").all_inner_texts(), strict=True):
            assert label and "_" not in label and help_line
        assert page.locator("#how-to-play summary").inner_text().startswith("How to play")
    page.select_option("#game-select", "zhajinhua")
    page.click("#how-to-play summary")
    page.screenshot(path=str(shots / "lobby_zhajinhua.png"), full_page=True)
    a23 = page.locator('#lobby [data-option="a23"]')
    assert a23.locator(".option-label").inner_text() == "A-2-3 straight"
    assert a23.locator("option").all_inner_texts() == ["lowest", "second"]
    page.select_option('#lobby [name="a23"]', "second")
    page.click("#start")
    page.wait_for_selector("#game")
    assert server_json(base, f"/api/sessions/{session_id(page)}")["rules"]["a23"] == "second"


def test_the_page_explains_the_game(server, page):
    base, _ = server
    page.goto(base + "/#/")
    page.select_option("#game-select", "liars_dice")
    page.click("#how-to-play summary")
    text = page.inner_text("#how-to-play")
    assert "飞 fei" in text and "斋 zhai" in text and "Challenge" in text
    page.click("#start")
    page.wait_for_selector("#game #how-to-play")  # on the table's page too, folded


def test_liars_dice_bids_by_count_and_face(server, page, shots):
    """A count × face picker, not one button per bid: the mode, then a count, then a die."""
    base, _ = server
    start_from_lobby(page, base, "liars_dice", 1)
    page.wait_for_selector("#bid-count")
    assert page.locator("#moves button").count() <= 7  # challenge (maybe) and at most 6 faces
    modes = page.locator("#bid-mode option").evaluate_all("os => os.map(o => o.value)")
    assert set(modes) == {"fei", "zhai"}
    page.select_option("#bid-mode", "zhai")
    counts = page.locator("#bid-count option").evaluate_all("os => os.map(o => o.value)")
    page.select_option("#bid-count", counts[-1])
    page.screenshot(path=str(shots / "liars_dice_bid.png"))
    face = page.locator("#bid-faces button").last
    action = face.get_attribute("data-action")
    record = server_json(base, f"/api/sessions/{session_id(page)}")
    bid = next(m for m in record["moves"] if str(m["action"]) == action)
    assert bid["short"].startswith(f"zhai {counts[-1]} ")
    click_and_wait(page, "#bid-faces button:last-child")
    assert f"bids {bid['label']}" in page.inner_text("#log")


def test_a_hidden_da_yaoguai_hand_shows_as_many_cards_as_it_holds(server, page):
    """A seat that picked up cards: those face up, the rest face down, 21 cards in all."""
    base, _ = server
    page.goto(base + "/#/")
    page.wait_for_selector("#lobby")
    counts = page.evaluate("""() => {
      const known = Array.from({ length: 19 }, (_, c) => ({ card: c, r: "J", s: "h" }));
      const seat = (hand, count, k) => ({ name: "", count, beans: 0, place: 0, hand, known: k });
      const msg = { game: "dayaoguai", seat: 0, status: "playing", labels: ["you", "a"],
        table: { step: 3, table: [], player: 0,
                 seats: [seat([known[0]], 1, []), seat(null, 21, known)] } };
      const felt = TABLES.dayaoguai(msg);
      const other = felt.querySelector('[data-seat="1"]');
      return [other.querySelectorAll(".card").length, other.querySelectorAll(".card.back").length];
    }""")
    assert counts == [21, 2]


def test_spectating_hanabi_shows_the_hands_and_labels_the_tokens(server, page):
    base, _ = server
    start_from_lobby(page, base, "hanabi", 3, watch=True)
    page.wait_for_selector("#game")
    assert page.locator(".hcard").count() == 10
    assert page.locator(".hcard.hidden").count() == 0  # no "?" cards for an onlooker
    assert page.locator("#reveal").count() == 0
    assert page.inner_text("#hint-tokens") == "hints 8/8"
    assert page.inner_text("#lives") == "lives 3/3"
    badge = page.evaluate("""() => hanabiCard({ slot: 2, know: { color: null, rank: 4,
        not_colors: ["R", "G"], not_ranks: [] } }).textContent""")
    assert "?4" in badge and "not RG" in badge
