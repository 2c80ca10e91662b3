"""OpenSpiel as a benchmark peer (optional: ``pip install open_spiel``)."""

from __future__ import annotations

import random
import time
from typing import Any


def random_play(game_name: str, params: dict[str, Any], num_games: int,
                observe_players: int = 0, seed: int = 0) -> tuple[float, int] | None:
    """(seconds, moves) of ``num_games`` OpenSpiel games driven from Python with uniform
    random legal moves and chance outcomes; with ``observe_players``, the observation tensors
    of that many players are computed before every move. None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(game_name, params)
    rnd = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
                continue
            for p in range(observe_players):
                state.observation_tensor(p)
            state.apply_action(rnd.choice(state.legal_actions()))
            moves += 1
    return time.perf_counter() - start, moves
