"""Da Yaoguai 打妖怪: the policy gradient of ``pg`` with lambda-returns over each seat's own
decisions (a game runs up to ``max_steps`` env steps and rarely ends within a rollout, so
whole-game returns are neither available nor useful: hundreds of decisions of noise).

Run ``vecgames train dayaoguai --iterations 478`` (or ``python -m
vecgames.games.dayaoguai.train``). Training tables mix self-play and the learner against three
copies of a rule player (``--mix``); ``random``, ``weakest``, ``pickup`` and ``shed`` play
in a parallel kernel of this module, any other player through the player protocol.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange

from vecgames.games.dayaoguai.players import PLAN, POLICIES, policy_action
from vecgames.games.dayaoguai.rules import PLAYER
from vecgames.training import core, pg

KERNEL_PLAYERS = POLICIES[:PLAN]  # 'plan' searches (about 10^4 decisions/s): protocol only


@dataclass
class Config(pg.Config):
    """``pg.Config`` with Da Yaoguai's defaults."""

    game: str = "dayaoguai"
    players: int = 4
    out: str = "runs/dayaoguai"
    max_steps: int = 1000
    mix: str = "self=1,random=1,weakest=1,pickup=1"
    returns: str = "lambda"
    gamma: float = 0.95
    lam: float = 0.9
    reward_scale: float = 0.25
    eval_opponents: tuple[str, ...] = KERNEL_PLAYERS

    def env_kwargs(self) -> dict[str, Any]:
        return {"num_players": self.players, "max_steps": self.max_steps, **self.env_options}

    def kernel(self) -> tuple[tuple[str, ...], Any]:
        return KERNEL_PLAYERS, baseline_actions

    def scale(self, env: Any) -> float:
        return self.reward_scale / env.rules.base


# Not cached on disk (unlike vecgames' kernels): Numba's cache is keyed on this file alone, so
# a cached kernel would keep playing an old version of the policies after they change.
@njit(parallel=True, cache=False, nogil=True, error_model="numpy",  # type: ignore[call-overload]
      _nrt=False)  # ``_nrt`` is not in numba's stubs
def _baseline_kernel(s, r, seat_policy, actions):
    for i in prange(s.rng.shape[0]):
        pol = seat_policy[i, s.table[i, PLAYER]]
        if pol >= 0:
            actions[i] = policy_action(pol, s, i, r)


def baseline_actions(env: Any, seat_policy: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """Fill ``actions[i]`` with rule player ``KERNEL_PLAYERS[seat_policy[i, p]]`` of the seat p
    to act in env i; rows whose seat entry is -1 are left as they are. (``random`` draws from
    the env's own stream, as in ``vecgames.simulate``.)"""
    _baseline_kernel(env.state, env.rules, seat_policy, actions)
    return actions


def table_options(cfg: Config) -> dict[str, Any]:
    return {"num_players": cfg.players, "max_steps": cfg.max_steps}


TRAINER = core.Trainer(
    game="dayaoguai", title="Da Yaoguai", config=Config, build=pg.PolicyGradient,
    env_options=lambda cfg: {"num_players": cfg.players, **cfg.env_options},  # not max_steps
    evaluate=core.field_evaluation(table_options),
    description="Train a Da Yaoguai policy (REINFORCE + value baseline + KL penalty, "
                "lambda-returns over each seat's decisions) against self-play and rule "
                "players, and score it in the arena against 3 copies of each --eval-opponents.",
    help={**pg.HELP, "players": "seats per table (3..6)",
          "max_steps": "env steps after which a game is truncated (training and evaluation)",
          "reward_scale": "training reward = beans / base x this"},
    choices=pg.CHOICES, checks=pg.check_config,
    panels={"learner beans per game (training)": [f"vs_{p}" for p in KERNEL_PLAYERS],
            "entropy": ["entropy"], "KL(pi_old || pi_new)": list(pg.KL_KEYS)},
    postfix=("vs_random", "vs_pickup", "entropy"), counters=("samples",))


def main(argv: Sequence[str] | None = None, prog: str = "python -m vecgames.games.dayaoguai.train"
         ) -> int:
    """Command-line entry point; returns the exit code."""
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
