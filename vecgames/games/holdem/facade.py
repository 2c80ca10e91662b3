"""A single-table facade in the seed's vocabulary, so agents written for the original engine
move over: ``TexasPoker(agents).game()`` plays one hand and returns every player's chips after
it (the seed's score list).

An agent is any object with ``action(last, lowerbound) -> int``: ``last`` is the chips it must
add to call (0 when it may check), ``lowerbound`` the chips it must add for the smallest raise
(``None`` when it may not raise). It returns the chips it adds now: less than ``last`` folds
(or checks when ``last`` is 0), exactly ``last`` calls, more raises. A raise smaller than the
minimum becomes the minimum; more than its stack is all-in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .env import HoldemEnv
from .rules import BET, CALL, FOLD, RAISE


class TexasPoker:
    def __init__(self, agents: Sequence[Any], seed: int = 0, **options: Any):
        if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
            raise TypeError(f"agents must be a list of 2..10 agents, got "
                            f"{type(agents).__name__}")
        if not 2 <= len(agents) <= 10:
            raise ValueError(f"TexasPoker needs 2..10 agents, got {len(agents)}")
        for k, agent in enumerate(agents):
            if not callable(getattr(agent, "action", None)):
                raise TypeError(f"agent {k} has no action(last, lowerbound) method")
        if "num_players" in options:
            raise TypeError("TexasPoker takes the number of players from the agents; "
                            "drop num_players")
        if "num_envs" in options:
            raise TypeError("TexasPoker plays one table; drop num_envs")
        self.agents = list(agents)
        self.env = HoldemEnv(num_envs=1, num_players=len(agents), seed=seed, **options)
        self._dealt = False

    def game(self) -> list[int]:
        """Play one hand; every player's chips after it."""
        env = self.env
        if not self._dealt:
            env.reset()
            self._dealt = True
        while True:
            p = int(env.current_player[0])
            to_call, lo, hi = env.raise_bounds(0)
            bet = int(env.state.table[0, BET + p])
            lowerbound = lo - bet if lo <= hi else None
            amount = int(self.agents[p].action(to_call, lowerbound))
            if amount < to_call:
                kind, raise_to = (FOLD, 0) if to_call > 0 else (CALL, 0)
            elif amount == to_call or lo > hi:
                kind, raise_to = CALL, 0
            else:
                kind, raise_to = RAISE, min(max(bet + amount, lo), hi)
            _, reward, terminated, _, _ = env.step_amounts(np.array([kind]), np.array([raise_to]))
            if terminated[0]:
                return [int(s + r) for s, r in zip(env.stacks, reward[0], strict=True)]
