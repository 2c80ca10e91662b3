"""The model zoo: trained players shipped with the package, each a weight file (tensors and
plain data only, loaded with ``torch.load(weights_only=True)``) and a card.

A zoo player's name is ``"zoo:<name>"``; it works wherever a player name does
(``simulate(players=...)``, ``arena``, ``vecgames play --agent``, ``vecgames serve``,
``--mix``, ``--eval-opponents``). ``vecgames.zoo(game)`` lists them with their cards: the
command that trained each, its seeds, env steps, wall time and CPU, and its arena results.
Playing one needs torch (the ``train`` extra); listing does not.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PREFIX = "zoo:"
ZOO_DIR = Path(__file__).resolve().parent


@cache
def cards() -> dict[str, dict[str, Any]]:
    """Every zoo player's card, by name (without the prefix)."""
    out = {}
    for file in sorted(ZOO_DIR.glob("*.json")):
        card = json.loads(file.read_text(encoding="utf-8"))
        out[card["name"]] = card
    return out


def is_zoo_name(text: Any) -> bool:
    """Whether ``text`` names a zoo player (``"zoo:..."``; it may not exist)."""
    return isinstance(text, str) and text.startswith(PREFIX)


def zoo_names(game: str) -> list[str]:
    """The zoo players of ``game``, as player names (``"zoo:..."``)."""
    return [PREFIX + name for name, card in cards().items() if card["game"] == game]


def card_of(name: str) -> dict[str, Any]:
    """The card of zoo player ``name`` (with or without the prefix)."""
    if not isinstance(name, str):
        raise TypeError(f"a zoo name must be a str, got {type(name).__name__}")
    bare = name[len(PREFIX):] if name.startswith(PREFIX) else name
    if bare not in cards():
        known = ", ".join(PREFIX + n for n in cards()) or "none"
        raise ValueError(f"players: no zoo player {name!r}; the zoo holds {known}")
    return cards()[bare]


def zoo_path(name: str) -> Path:
    """The weight file of zoo player ``name`` (with or without the prefix)."""
    return ZOO_DIR / card_of(name)["file"]


def _cards_of(game: str | None) -> list[dict[str, Any]]:
    """The cards of ``game`` (None: every game); an unknown game is a ValueError."""
    if game is None:
        return list(cards().values())
    from ..games.catalog import game_module

    game_module(game)  # names the games
    return [c for c in cards().values() if c["game"] == game]


def zoo(game: str | None = None) -> Any:
    """The zoo players (of ``game``; None: every game) as a DataFrame: name, game, seats,
    what it is, its training budget and its arena results (``results``: one dict per
    opponent, the mean and 95% CI per game of the card's unit)."""
    import pandas as pd

    rows = [{"name": PREFIX + c["name"], "game": c["game"], "seats": c["seats"],
             "description": c["description"], "env_steps": c["env_steps"],
             "wall_time_s": c["wall_time_s"], "cpu": c["cpu"], "seeds": c["seeds"],
             "command": c["command"], "results": c["results"]}
            for c in _cards_of(game)]
    return pd.DataFrame(rows, columns=["name", "game", "seats", "description", "env_steps",
                                       "wall_time_s", "cpu", "seeds", "command", "results"])


def results(game: str | None = None) -> Any:
    """The cards' arena results, a row per zoo player and opponent: seats, games, the mean
    per game and its 95% CI (the card's unit), and the mean and standard deviation of that
    mean over the card's seed runs (``seed_spread``; NaN without one)."""
    import pandas as pd

    rows = []
    for card in _cards_of(game):
        spread = (card.get("seed_spread") or {}).get("by_opponent", {})
        for r in card["results"]:
            s = spread.get(r["opponent"], {})
            rows.append({"name": PREFIX + card["name"], "opponent": r["opponent"],
                         "seats": r["seats"], "games": r["games"], "mean": r["mean"],
                         "ci_low": r["ci95_low"], "ci_high": r["ci95_high"], "unit": r["unit"],
                         "seeds_mean": s.get("mean", float("nan")),
                         "seeds_std": s.get("std", float("nan"))})
    return pd.DataFrame(rows, columns=["name", "opponent", "seats", "games", "mean", "ci_low",
                                       "ci_high", "unit", "seeds_mean", "seeds_std"])
