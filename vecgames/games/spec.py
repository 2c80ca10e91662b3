"""What a game is, as one record: ``GameSpec``. Each game package exports its ``SPEC``
(``vecgames.games.<game>.spec``), the catalogue lists the packages, and every layer reads the
game from the record instead of a table keyed by the game's name.

A spec is plain data and imports nothing of the game. The parts that live in other layers (its
players, its ``simulate``, its terminal view, its report, its trainer...) are named as entry
points, ``"module"`` or ``"module:attribute"``, and the layer that uses a part imports it
(``spec.load(part)``), as a packaging entry point is resolved by its consumer. So the record
can name a module above the games layer without the games layer importing it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# (frame, seats, rules) -> [games, seats] float64: what each seat won in each game of a frame
Payoffs = Callable[["pd.DataFrame", int, Mapping[str, Any]], np.ndarray]

# The parts a spec may name, with what each holds (``spec.load(part)``).
PARTS: dict[str, str] = {
    "env": "the VecEnv class",
    "rules": "the rules module (DEFAULT_OPTIONS, make_rules, field, ...)",
    "guide": "the text for a person: option labels and help, how to play",
    "players": "the built-in players' module (POLICIES, DESCRIPTIONS, rows_actions_kernel)",
    "simulate": "simulate's module (plan, run, frame, simulate)",
    "record": "the module recording env-step games as simulate's frame",
    "view": "the terminal view (a policies.human.View)",
    "table_view": "the web's JSON view of one seat's table",
    "summary": "the `vecgames simulate --summary` printer (args, df, startup, elapsed)",
    "report": "the report module (write_report)",
    "trainer": "the trainer module (main, TRAINER)",
    "tree": "the game as a public tree for the solver (public_tree(**options))",
    "judge": "a player's exact exploitability on the game's small variants "
             "(exploitability(player, **options), vecgames.exploitability)",
    "action_heads": "a factored Q network's layout (head_layout(num_actions) -> [actions, "
                    "heads] of 0/1; the DQN trainer's --head four)",
    "checkpoint": "what load_player needs of the game's checkpoints (player_class(cfg), "
                  "LEGACY_KEYS, legacy_env_options(cfg); vecgames.policies.checkpoint)",
    "strategy": "a strategy table file (.npz) as a player: load(path, name, seed, greedy)",
    "best_response": "the trainer's command line against one frozen player, for vecgames "
                     "exploit (best_response_args(player, args) -> argv)",
}


@dataclass(frozen=True)
class GameSpec:
    """One game, as every layer sees it.

    - ``name``: the id of ``make``/``simulate`` (the package's name); ``aliases``: other
      spellings the command line takes (``liars-dice``).
    - ``title``: for people; ``gym_name``: its Gymnasium id is ``vecgames/<gym_name>-v0``.
    - ``unit``: what one ``simulate`` game is (a progress bar's unit); ``payoff_unit``: the
      arena's unit, of ``payoffs``; ``cooperative``: every seat scores the team's result.
    - ``observation``: (env keyword, entry point of the tuple of its choices), for a game
      with several observation layouts.
    - ``network``: the torch network a checkpoint of this game holds when the checkpoint does
      not say (``vecgames.policies.checkpoint.NETWORKS``).
    - ``duplicate_deals``: None when a deal can be shared between seat assignments (the arena's
      duplicate deals), else a function of the rules that says why not (None: it can).
    - ``web_limits``: the most the web app allows of the rule options that set how long a
      game may run (the library takes more), so a request cannot make a game run for minutes.
    - ``parts``: entry points, see ``PARTS``.
    """

    name: str
    title: str
    gym_name: str
    payoffs: Payoffs
    payoff_unit: str
    parts: Mapping[str, str]
    unit: str = "games"
    cooperative: bool = False
    aliases: tuple[str, ...] = ()
    observation: tuple[str, str] | None = None
    network: str | None = None
    duplicate_deals: Callable[[Mapping[str, Any]], str | None] | None = None
    web_limits: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.parts) - set(PARTS))
        if unknown:
            raise ValueError(f"{self.name}: unknown parts {unknown}; parts are {sorted(PARTS)}")
        for part in ("env", "rules", "players", "simulate"):
            if part not in self.parts:
                raise ValueError(f"{self.name}: a game needs the part {part!r}")

    @property
    def gym_id(self) -> str:
        return f"vecgames/{self.gym_name}-v0"

    def has(self, part: str) -> bool:
        return part in self.parts

    def load(self, part: str) -> Any:
        """The object (or module) part ``part`` names; ValueError for a part this game lacks."""
        if part not in self.parts:
            have = ", ".join(sorted(self.parts))
            raise ValueError(f"{self.title} has no {part} ({PARTS.get(part, part)}); it has: "
                             f"{have}")
        return load_entry_point(self.parts[part])

    def no_duplicate_reason(self, rules: Mapping[str, Any]) -> str | None:
        return self.duplicate_deals(rules) if self.duplicate_deals is not None else None


def load_entry_point(entry: str) -> Any:
    """``"package.module"`` -> the module; ``"package.module:name"`` -> its attribute."""
    module, _, attribute = entry.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def seat_columns(column: str) -> Payoffs:
    """Payoffs read from per-seat columns ``<column>_<seat>`` (chips, beans...)."""
    def payoffs(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
        return np.stack([df[f"{column}_{p}"].to_numpy(np.float64) for p in range(n)], axis=1)
    return payoffs


def team_score(column: str) -> Payoffs:
    """A cooperative game's payoffs: column ``column``, the same for every seat."""
    def payoffs(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
        score = df[column].to_numpy(np.float64)
        return np.repeat(score[:, None], n, axis=1)
    return payoffs
