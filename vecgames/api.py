"""The top of the library: ``vecgames.simulate`` (local or Ray), ``list_games`` and
``GameInfo``. Everything else it names comes from the layers below (docs/architecture.md)."""

from __future__ import annotations

import inspect
import types
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .core.simulation import numba_threads, run_with_progress, show_progress
from .games.catalog import game_names, rules_module, spec_of
from .games.spec import load_entry_point
from .policies.catalog import players
from .simulators import default_policy, simulation_module

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# Keywords of every env / simulate, not game-specific: left out of ``GameInfo``.
_COMMON_ENV_ARGS = frozenset({"self", "num_envs", "seed", "env_offset", "options"})
_COMMON_SIM_ARGS = frozenset({"num_games", "policy", "seed", "first_game", "num_threads",
                              "summary", "options"})


@dataclass(frozen=True)
class GameInfo:
    """What ``vecgames.list_games()`` reports about one game, read from the game's own modules.

    - ``name``: for ``make``/``simulate``; ``env_class``: the ``VecEnv`` class's path;
      ``gym_id``: its Gymnasium id (``gymnasium.make``/``make_vec``, adapters extra).
    - ``rule_options``: the rule keywords of ``make``/``simulate`` and their defaults
      (``rules.DEFAULT_OPTIONS``); ``num_players``: the default player count.
    - ``env_options``: the env's other keywords (observation layout, illegal-action mode...)
      with defaults; ``simulate_options``: ``simulate``'s game-specific keywords.
    - ``policies``: the players ``simulate`` takes (``policy=`` one name, or one per seat);
      ``default_policy``: the one it seats when ``policy`` is not given.
    - ``obs_dim``: observation size per observation layout (``{"default": n}`` for a game
      with one layout), ``num_actions``: action count; both under the default rules.
    """

    name: str
    env_class: str
    gym_id: str
    num_players: int
    rule_options: dict[str, Any]
    env_options: dict[str, Any]
    simulate_options: dict[str, Any]
    policies: tuple[str, ...]
    default_policy: str
    obs_dim: dict[str, int]
    num_actions: int


def _keyword_defaults(fn: Any, common: frozenset[str]) -> dict[str, Any]:
    return {p.name: p.default for p in inspect.signature(fn).parameters.values()
            if p.name not in common and p.default is not inspect.Parameter.empty}


def game_info(name: str) -> GameInfo:
    """``GameInfo`` of one game (see ``list_games``)."""
    spec = spec_of(name)
    env_class = spec.load("env")
    rules = spec.load("rules")
    variants: dict[str, dict[str, Any]] = {"default": {}}
    if spec.observation is not None:
        keyword, choices = spec.observation
        variants = {v: {keyword: v} for v in load_entry_point(choices)}
    obs_dim, num_actions = {}, 0
    for variant, kwargs in variants.items():
        env = env_class(num_envs=1, **kwargs)  # buffers only: no kernel runs before reset
        obs_dim[variant] = int(env._obs.shape[1])
        num_actions = int(env.num_actions)
    return GameInfo(
        name=name, env_class=f"{env_class.__module__}.{env_class.__qualname__}",
        gym_id=spec.gym_id,
        num_players=int(rules.DEFAULT_OPTIONS["num_players"]),
        rule_options=dict(rules.DEFAULT_OPTIONS),
        env_options=_keyword_defaults(env_class.__init__, _COMMON_ENV_ARGS),
        simulate_options=_keyword_defaults(simulation_module(name).simulate,
                                           _COMMON_SIM_ARGS),
        policies=tuple(players(name)), default_policy=default_policy(name),
        obs_dim=obs_dim, num_actions=num_actions)


def list_games() -> list[GameInfo]:
    """Every game: its rule options and defaults, env and simulate keywords, the players
    ``simulate`` takes, and observation/action sizes. One ``GameInfo`` per game;
    ``pandas.DataFrame(vecgames.list_games())`` makes it a table. Imports every game module
    (about 2 s on a cold start) but runs no kernel."""
    return [game_info(name) for name in game_names()]


def simulate(name: str, num_games: int, policy: Any = None, seed: int = 0,
             backend: str = "local", progress: bool | None = None, players: Any = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` whole games of ``name`` inside the kernels.

    ``players``: one player for every seat or one per seat, of any kind (a built-in name
    (``list_games()`` lists them), a checkpoint path, a Player or a plain callable ``(obs,
    action_mask) -> actions``; see ``vecgames.policies.protocol``); None: the game's default
    player (``default_policy(name)``). Built-in players only: the in-kernel run; any other
    mix plays through batched ``env.step`` (``vecgames.simulators.mixed.play_games``) and
    gives the same table. ``attrs["players"]`` holds the seat labels.
    ``policy``: deprecated alias of ``players`` for built-in names (same games, a
    DeprecationWarning).
    Further keywords go to the game's ``simulate`` (for Zha Jin Hua: ``summary``,
    ``record_actions``, ``first_game``, ``num_threads`` and the rule options); see
    ``vecgames.simulators.<name>.simulate``.
    ``backend="ray"`` splits the games into shards run on a Ray cluster, with the same result
    bit for bit; its own keywords (``address``, ``num_shards``, ...) are those of
    ``vecgames.distributed.simulate_ray``.
    ``progress``: a progress bar on stderr for a run that lasts over a second (None: when
    stderr is a terminal; False: never). The run then goes in consecutive chunks, with the
    same result bit for bit (``core.simulation.run_with_progress``).
    """
    show = show_progress(progress)
    if not isinstance(backend, str) or backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if players is not None:
        if policy is not None:
            raise ValueError("give policy or players, not both (players takes built-in names "
                             "too)")
        from .simulators.mixed import builtin_policy, play_games

        policy = builtin_policy(name, players)
        if policy is None:
            if backend != "local":
                raise ValueError("backend='ray' plays built-in players only; Python, torch "
                                 "and checkpoint players need backend='local'")
            return play_games(name, players, num_games, seed=seed, progress=show, **options)
        df = _simulate_builtin(name, num_games, policy, seed, backend, show, options)
        df.attrs["players"] = seat_names(name, policy, options)
        return df
    if policy is not None:
        warnings.warn("simulate(policy=...) is deprecated: use players=..., which takes the "
                      "same built-in names", DeprecationWarning, stacklevel=2)
    return _simulate_builtin(name, num_games, policy, seed, backend, show, options)


def _simulate_builtin(name: str, num_games: int, policy: Any, seed: int, backend: str,
                      show: bool, options: dict[str, Any]) -> pd.DataFrame:
    """``simulate`` of built-in ``policy`` (None: the game's default) inside the kernels."""
    if policy is None:
        policy = default_policy(name)
    if backend == "ray":
        from .distributed import simulate_ray

        return simulate_ray(name, num_games, policy=policy, seed=seed, progress=show,
                            **options)
    if not show:
        return simulation_module(name).simulate(num_games, policy=policy, seed=seed, **options)
    module = simulation_module(name)
    num_threads = options.pop("num_threads", None)
    job = module.plan(num_games, policy, seed, **options)
    with numba_threads(num_threads):
        return module.frame(job, run_with_progress(module.run, job, True, spec_of(name).unit))


def seat_names(name: str, policy: Any, options: dict[str, Any]) -> list[str]:
    """Built-in ``policy`` (one name or one per seat) as one label per seat."""
    if not isinstance(policy, str):
        return list(policy)
    count = options.get("num_players", rules_module(name).DEFAULT_OPTIONS["num_players"])
    return [policy] * int(count)


class CallableGames(types.ModuleType):
    """The class ``vecgames`` gives the ``vecgames.games`` package: ``vecgames.games()`` is
    ``list_games()``. (``vecgames.games`` cannot be both a function and the package Python
    binds to that name once any ``vecgames.games.<game>`` module is imported.)"""

    def __call__(self) -> list[GameInfo]:
        """Every game with its rule options, players and sizes (``vecgames.list_games()``)."""
        return list_games()
