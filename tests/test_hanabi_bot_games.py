"""The Hanabi rule bots' games, pinned: a digest of every per-game column of
``simulate`` (seed 5, 2,000 games) for ``conventions``, ``hat`` and mixed tables, under the
default rules and the seed's. Work on the bots' speed must leave their games bit for bit as
they are; a change of play must update these digests on purpose (docs/hanabi.md's figures
with them)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import vecgames

SEED_RULES = {"end": "deck_empty", "discard_at_max": "capped", "hint_target": "next"}
COLUMNS = ["score", "fireworks", "turns", "lives", "info", "discards", "plays", "hints"]
# (players, num_players, seed's rules) -> (sha256 prefix of the columns, total score)
GAMES = {
    ("conventions", 2, False): ("eaa0edf982fb0410", 45752),
    ("conventions", 2, True): ("f6dfe90a5309355f", 44409),
    ("conventions", 3, False): ("ae9e1e07cf358d94", 42464),
    ("conventions", 3, True): ("df381d18b1adc61f", 40011),
    ("conventions", 4, False): ("3ba52f74e432b26c", 39692),
    ("conventions", 4, True): ("2a42c6ba33421d14", 36470),
    ("conventions", 5, False): ("d6d9869cb255a0a7", 36132),
    ("conventions", 5, True): ("a2af5a8dea691bcd", 31925),
    ("hat", 2, False): ("a9238aca6ba07a8d", 45034),
    ("hat", 2, True): ("1f46841fb2756935", 44060),
    ("hat", 3, False): ("13bea21074c2937e", 49590),
    ("hat", 3, True): ("046f22afd271c67c", 39847),
    ("hat", 4, False): ("1cfe849fb63f56a7", 49874),
    ("hat", 4, True): ("6cdea339cdd8dac8", 35245),
    ("hat", 5, False): ("a9207be777fdd70d", 49822),
    ("hat", 5, True): ("7556608527d691f9", 31910),
    ("conventions,hat,rules", 3, False): ("d41f81dea7360800", 25112),
    ("conventions,hat,rules", 3, True): ("c467debd92a23e62", 22717),
    ("hat,conventions", 2, False): ("90066e2bec6da621", 19315),
    ("hat,conventions", 2, True): ("624e084a2d1b8f98", 17883),
}


@pytest.mark.parametrize("players,num_players,seed_rules", list(GAMES))
def test_rule_bot_games_are_unchanged(players: str, num_players: int, seed_rules: bool):
    names = players.split(",")
    df = vecgames.simulate("hanabi", 2000, players=names if len(names) > 1 else players,
                           seed=5, num_players=num_players,
                           **(SEED_RULES if seed_rules else {}))
    table = df[COLUMNS].to_numpy(np.int64)
    digest = hashlib.sha256(table.tobytes()).hexdigest()[:16]
    assert (digest, int(df["score"].sum())) == GAMES[players, num_players, seed_rules]


def test_colour_state_numbers_every_board_once_and_stays_in_its_tables():
    from vecgames.games.hanabi.rules import (
        COLOUR_STATES,
        COPIES,
        DISCARDS,
        FIRE,
        NUM_FIELDS,
        colour_state,
    )

    t = np.zeros(NUM_FIELDS, np.int64)
    seen = set()
    for f in range(6):
        for d in np.ndindex(*(c + 1 for c in COPIES)):
            t[FIRE + 2] = f
            t[DISCARDS + 10:DISCARDS + 15] = d
            seen.add(colour_state(t, 2))
    assert seen == set(range(COLOUR_STATES))
    rng = np.random.default_rng(0)
    for _ in range(200):  # hand-built tables no game reaches: never outside the tables
        t[FIRE + 2] = rng.integers(-10, 10)
        t[DISCARDS + 10:DISCARDS + 15] = rng.integers(-50, 50, 5)
        assert 0 <= colour_state(t, 2) < COLOUR_STATES
