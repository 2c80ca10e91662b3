"""Compile the kernels a page needs when the server starts, not on the first request.

Numba compiles each game's env and built-in players on first use (cached on disk
afterwards), which took 20-95 s on a first request. :func:`warm_up` plays one watched game
per game with its default player, and a one-game arena, in a background thread while the
server already answers (``GET /api/games`` says ``"warming": true`` until it is done).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .sessions import GAMES, Catalog, Session

MAX_WARM_STEPS = 3000  # a watched game's moves (every game ends far sooner)
WARM_MOVES = 8  # moves of each other player: enough to compile what it calls
log = logging.getLogger("vecgames.web")


def warm_game(catalog: Catalog, game: str) -> None:
    """One watched game of ``game`` with its default player at every seat, a few moves of
    each other player that plays at a table (Hanabi's ``search`` took 96 s to its first
    move), and a one-game arena of the default player against ``random`` (the simulate
    kernels)."""
    from ..arena import arena

    session = Session(catalog, game, seat=None, seed=0)
    default = session.view.default_agent
    watch(session, MAX_WARM_STEPS)
    for name in catalog.builtins(game, table=True):
        if name != default:
            watch(Session(catalog, game, name, seat=None, seed=0), WARM_MOVES)
    if default != "random":
        with warnings.catch_warnings():  # (one game: the arena warns of its few units)
            warnings.simplefilter("ignore")
            arena(game, [default, "random"], 1, 0, num_threads=1, progress=False)


def watch(session: Session, moves: int) -> None:
    """Step a spectated session up to ``moves`` moves, and render it."""
    for _ in range(moves):
        if session.status != "playing":
            break
        session.advance()
    session.message(True)


def warm_up(catalog: Catalog, games: Sequence[str] = GAMES, out: TextIO | None = None,
            done: Callable[[], None] | None = None,
            warm: Callable[[Catalog, str], None] = warm_game) -> None:
    """Warm every game in turn, with a line per game on ``out`` (stderr by default), then
    call ``done``. A game that fails to warm is logged and skipped (its first request then
    compiles it)."""
    out = sys.stderr if out is None else out
    start = time.perf_counter()

    def say(text: str) -> None:
        try:
            print(text, file=out, flush=True)
        except (ValueError, OSError):  # the stream closed (the server is stopping)
            pass

    say("vecgames serve: compiling kernels (first run only); the page answers meanwhile")
    try:
        for k, game in enumerate(games, 1):
            try:
                warm(catalog, game)
            except Exception:  # a bug there must not stop the server
                log.exception("vecgames serve: warming %s failed", game)
            say(f"  {k}/{len(games)} {game} ready ({time.perf_counter() - start:.0f} s)")
    finally:
        if done is not None:
            done()


def start_warm_up(state: Any, out: TextIO | None = None,
                  warm: Callable[[Catalog, str], None] = warm_game) -> threading.Thread:
    """:func:`warm_up` in a daemon thread; ``state.warming`` is True until it ends."""
    state.warming = True

    def finished() -> None:
        state.warming = False

    thread = threading.Thread(target=warm_up, args=(state.catalog,),
                              kwargs={"out": out, "done": finished, "warm": warm},
                              daemon=True, name="vecgames-warm-up")
    thread.start()
    return thread
