"""``vecgames.exploitability``: how much any player gives away to a best response, exactly, on
a game small enough for the solver to walk its whole tree.

The game's spec names its judge (the part ``judge``), which reads the player at every
information set of the game's tree and walks the best responses; this module is the front
door, by the game's name, and the result every judge returns.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..games.catalog import spec_of, specs


class Exploitability(NamedTuple):
    """The exact exploitability of ``player`` on ``variant``.

    ``best_response[s]``: the value, to seat ``s``, of a best response at seat ``s`` against
    the player at the other seat; ``exploitability`` = NashConv / 2 = their mean (the game is
    zero-sum, so the player's own values cancel); ``value``: seat 0's payoff when the player
    sits at both seats."""

    player: str
    variant: str
    exploitability: float
    best_response: tuple[float, float]
    value: float
    read: str  # how the strategy was read: "kernel", "uniform", "action_probs", "sampled 64x"...
    seconds: float

    @property
    def nash_conv(self) -> float:
        return 2.0 * self.exploitability


def judged_games() -> tuple[str, ...]:
    """The games whose spec names a judge (exact exploitability on their small variants)."""
    return tuple(name for name, spec in specs().items() if spec.has("judge"))


def exploitability(game: str, player: Any, **options: Any) -> Exploitability:
    """The exact exploitability (NashConv / 2) of ``player`` on a small variant of ``game``.

    ``player``: a built-in name, a zoo name or checkpoint path, a Player with
    ``action_probs``, or a callable ``(obs, action_mask) -> actions`` read as deterministic,
    or with ``samples=k`` as the share of k calls per information set. ``options``: the
    variant's rule options (Liar's Dice: ``dice``, ``variant``, ``min_first_count``,
    ``forbid_repeat_bids``, ``max_round_steps``, ``opener``), ``samples``, and ``tree`` (a tree
    already built for that variant). A game without a judge is a ValueError naming those with
    one.
    """
    games = judged_games()
    if not isinstance(game, str) or game not in games:
        raise ValueError(f"game: exact exploitability covers {games} (small variants); got "
                         f"{game!r}")
    return spec_of(game).load("judge")(player, **options)  # type: ignore[no-any-return]
