"""What a seat may see of a table, as JSON: the only place the web app reads hidden state.

``table_view(game, s, env, seat, reveal, shown)`` turns a one-env state (``row_state``) into
plain JSON values. ``seat`` is the viewer's seat (None: a spectator); ``reveal`` (spectators
only) shows every hand; ``shown`` are seats whose cards the game has revealed (a showdown).
Otherwise a seat sees what the game shows it and nothing else: its own cards (Zha Jin Hua:
after looking; Hanabi: never, only what hints told), other seats' cards only when the rules
reveal them. Hanabi's cards face outward, so a spectator sees every hand without
``reveal``. Every card is a dict with a ``card`` id, so a test can check every message.

Each game brings its view in its package (its spec's ``table_view`` part:
``table(s, env, seat, reveal, shown)``, ``group(env, move)``, and ``shown`` and
``final_state`` where the game needs them). The move list and the move log reuse the terminal
views (the spec's ``view``): their ``moves`` (legal ones only), ``narrate`` and
``game_over`` say only what every seat saw.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from ..games.catalog import rules_module, spec_of, specs
from ..games.view import View


def web_games() -> tuple[str, ...]:
    """The games the web app serves: those with a terminal view and a table view."""
    return tuple(name for name, spec in specs().items()
                 if spec.has("view") and spec.has("table_view"))


def title_of(game: str) -> str:
    return spec_of(game).title


def view_of(game: str) -> View:
    """The game's terminal view (its moves' names, log lines and results)."""
    return spec_of(game).load("view")  # type: ignore[no-any-return]


def _table_module(game: str) -> Any:
    return spec_of(game).load("table_view")


def table_view(game: str, s: Any, env: Any, seat: int | None, reveal: bool = False,
               shown: Collection[int] = ()) -> dict[str, Any]:
    """The table of one-env state ``s`` as ``seat`` sees it (see the module docstring)."""
    out = _table_module(game).table(s, env, seat, bool(reveal), frozenset(shown))
    out["player"] = int(env_player(game, s))
    return out


def final_state(game: str, before: Any, after: Any, env: Any, action: Any, info: Any) -> Any:
    """The one-env state a game ended in, to show at its end. The env deals the next game in
    the step that ends one (``after`` is that deal), keeping the finished game's table row in
    ``env.final_table`` (Liar's Dice: its penalty points in ``info``); the arrays a deal does
    not touch are taken from ``after`` (Hanabi's discard pile, Da Yaoguai's table cards), the
    ones it does from ``before`` (the deck a game was dealt from)."""
    own = getattr(_table_module(game), "final_state", None)
    if own is not None:  # a game that keeps it otherwise (Liar's Dice: per round)
        return own(before, after, env, action, info)
    final = getattr(env, "final_table", None)
    if final is None:  # pragma: no cover - every other game keeps it
        return before
    keep = getattr(_table_module(game), "KEEP_AFTER", ())
    return before._replace(table=np.array(final[0:1]),
                           **{name: np.array(getattr(after, name)) for name in keep})


def env_player(game: str, s: Any) -> int:
    return int(rules_module(game).field(s, "player")[0])


def showdown(game: str, before: Any, env: Any, action: Any, seat: int | None = None
             ) -> list[int]:
    """The seats whose cards the end of a game showed to everyone, and ``seat``'s own where
    the game may hide a seat's cards from itself until the end (``OWN_CARDS_AT_END``: Zha Jin
    Hua's blind seat)."""
    module = _table_module(game)
    fn = getattr(module, "shown", None)
    seats = fn(before, env, action) if fn is not None else []
    if seat is not None and getattr(module, "OWN_CARDS_AT_END", False):
        return sorted({*seats, seat})
    return list(seats)


def acting_only(game: str) -> tuple[str, ...]:
    """The keys of a table view that only the seat to act is shown (``ACTING_ONLY``)."""
    return tuple(getattr(_table_module(game), "ACTING_ONLY", ()))


def move_list(game: str, view: View, s: Any, env: Any, mask: np.ndarray) -> list[dict[str, Any]]:
    """The legal moves of the seat to act: id, label, and a group for the page's layout."""
    return [{"action": int(m.action), "label": m.text, "short": m.short,
             "group": _group(game, env, m)} for m in view.moves(s, env, mask) if m.legal]


def _group(game: str, env: Any, move: Any) -> str:
    return str(_table_module(game).group(env, move))
