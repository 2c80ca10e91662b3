"""Fuzzing the public entry points with a mix of valid and invalid arguments.

Every call either works or raises TypeError/ValueError whose message names one of the
arguments given (never an IndexError, KeyError, AttributeError, OverflowError, MemoryError,
a Numba error or a crash); a method of an existing env that refuses its arguments leaves every
array of the env (RNG streams included) as it was. The CLI answers bad arguments with exit
code 2 and one line ``vecgames: error: ...`` on stderr (``vecgames play liars-dice: error:``
for the game's own checks).

Sizes are kept small (a few hundred games, a few envs) so that each example is quick: the
kernels compile (or load from Numba's cache) once per process and are reused.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import math
import re
from collections.abc import Callable, Iterable
from typing import Any
from unittest import mock

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

import vecgames
from vecgames.api import simulation_module
from vecgames.cli import main as cli_main
from vecgames.cli import subcommands
from vecgames.games.catalog import spec_of
from vecgames.games.hanabi import jaxmarl
from vecgames.games.hanabi.rules import DECK_SIZE
from vecgames.games.holdem.facade import TexasPoker
from vecgames.games.liars_dice.view import VIEW as LIARS_DICE_VIEW
from vecgames.play.terminal import Match

GAMES = ("zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai")
DEFAULT_PLAYERS = {"zhajinhua": 6, "holdem": 6, "liars_dice": 2, "hanabi": 2, "dayaoguai": 4}
POLICIES = {"zhajinhua": ("random", "uniform", "heuristic", "percentile"),
            "holdem": ("random", "call", "raise", "check", "strength", "raise-uniform", "equity"),
            "liars_dice": ("random", "heuristic", "odds"),
            "hanabi": ("random", "rules", "hat", "conventions"),
            "dayaoguai": ("random", "weakest", "pickup", "shed", "plan")}


def fuzz(examples: int) -> settings:
    """Settings of a fuzz test: no deadline (the first example may compile kernels)."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# Values no argument of the API accepts (or only some do): each example mixes them in.
BAD_VALUES: list[Any] = [
    None, True, False, 0.0, 1.5, -2.5, math.nan, math.inf, -1, -(2**70), 2**64, 2**70, 10**30,
    10**400, -(10**400), np.float32(math.nan),
    "", "x", "2", "random ", b"2", [], [1], [None], {}, (), {"a": 1}, object(), complex(1, 1),
    np.int64(-3), np.float64(2.0), np.bool_(True), np.array(2), np.array([1, 2]),
    np.uint64(2**63), np.array(["random"]), range(3),
]
BAD = st.sampled_from(BAD_VALUES)
BAD_GAMES = st.sampled_from([None, "", "Holdem", "poker", "zhajinhua ", 5, [], ["holdem"],
                             ("holdem",), b"holdem", object()])
# Messages that come from Python or numpy rather than from an argument check.
NOT_OURS = ("object is not iterable", "unhashable type", "truth value of an array",
            "not subscriptable", "has no attribute", "invalid literal", "not supported between",
            "cannot be interpreted as an integer", "has no len()", "argument of type",
            "unexpected keyword argument", "required positional argument",
            "could not convert", "Cannot cast", "only integer scalar", "ufunc")

# Valid values of every rule option (what ``make`` and ``simulate`` take).
OPTIONS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "zhajinhua": {"num_players": st.integers(2, 6), "ante": st.integers(0, 3),
                  "no_compare_rounds": st.integers(0, 3), "max_rounds": st.integers(1, 20),
                  "a23": st.sampled_from(["lowest", "second"]), "special_235": st.booleans(),
                  "first_player": st.none() | st.integers(0, 1)},
    "holdem": {"num_players": st.integers(2, 10), "stack": st.integers(1, 300),
               "small_blind": st.integers(0, 2), "big_blind": st.integers(2, 4),
               "button": st.sampled_from(["random", "rotate"]),
               "short_stack": st.sampled_from(["all-in", "fold"]),
               "min_raise": st.sampled_from(["standard", "call"])},
    "liars_dice": {"num_players": st.integers(2, 8), "dice": st.integers(2, 5),
                   "num_rounds": st.integers(1, 3), "forbid_repeat_bids": st.booleans(),
                   "reward": st.sampled_from(["zero_sum", "seed"]),
                   "variant": st.sampled_from(["zhai_fei", "basic"]),
                   "max_round_steps": st.integers(1, 200),
                   "min_first_count": st.one_of(st.none(), st.integers(1, 4))},
    "hanabi": {"num_players": st.integers(2, 5), "random_start": st.booleans(),
               "end": st.sampled_from(["final_round", "deck_empty"]),
               "discard_at_max": st.sampled_from(["forbidden", "capped"]),
               "hint_target": st.sampled_from(["any", "next"])},
    "dayaoguai": {"num_players": st.integers(3, 6), "base": st.integers(1, 3),
                  "max_steps": st.integers(1, 300), "must_beat": st.booleans()},
}
ENV_OPTIONS = {"hanabi": {"obs": st.sampled_from(["jaxmarl", "hle", "seed1680"]),
                          "observers": st.sampled_from(["current", "all"])}}
UNKNOWN_OPTIONS = ("bogus", "players", "Num_players", "numPlayers", "stack_size")


def test_fuzzed_options_are_the_games_options() -> None:
    for game in GAMES:
        rules = spec_of(game).load("rules")
        assert sorted(OPTIONS[game]) == sorted(rules.DEFAULT_OPTIONS), game


class Mixer:
    """Draws each argument valid, or (with the example's probability) invalid."""

    def __init__(self, draw: Callable[..., Any]):
        self.draw = draw
        self.p_bad = draw(st.sampled_from([0, 0, 10, 30, 60]))  # percent of arguments made bad

    def bad(self) -> bool:
        return self.p_bad > 0 and self.draw(st.integers(0, 99)) < self.p_bad

    def __call__(self, valid: st.SearchStrategy[Any],
                 bad: st.SearchStrategy[Any] = BAD) -> Any:
        return self.draw(bad if self.bad() else valid)

    def options(self, game: str, extra: dict[str, st.SearchStrategy[Any]] | None = None
                ) -> dict[str, Any]:
        known = {**OPTIONS[game], **(extra or {})}
        names = self.draw(st.lists(st.sampled_from(sorted(known)), max_size=3, unique=True))
        out = {name: self(known[name]) for name in names}
        if self.bad() and self.bad():
            out[self.draw(st.sampled_from(UNKNOWN_OPTIONS))] = self.draw(st.integers(0, 3))
        return out


def players_of(game: str, options: dict[str, Any]) -> int:
    n = options.get("num_players", DEFAULT_PLAYERS[game])
    return n if type(n) is int and 1 <= n <= 10 else DEFAULT_PLAYERS[game]


def policy_strategy(game: str, n: int) -> st.SearchStrategy[Any]:
    names = st.sampled_from(POLICIES[game])
    return st.one_of(names, st.lists(names, min_size=n, max_size=n),
                     st.lists(names, min_size=n, max_size=n).map(tuple))


def bad_policy_strategy(game: str, n: int) -> st.SearchStrategy[Any]:
    names = st.sampled_from(POLICIES[game])
    return st.one_of(
        BAD, st.sampled_from(["Random", "nope", "random,call", " random"]),
        st.lists(names, min_size=0, max_size=12).filter(lambda seats: len(seats) != n),
        st.lists(names | BAD, min_size=n, max_size=n).filter(
            lambda seats: not all(isinstance(s, str) and s in POLICIES[game] for s in seats)),
        st.just({name: name for name in POLICIES[game]}),
        st.just(np.array(POLICIES[game][:1] * n)), st.just([np.array([1, 2])] * n))


# ---------------------------------------------------------------- helpers


REFUSED = object()


def call(fn: Callable[..., Any], names: Iterable[str], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``: its result, or REFUSED when it raised TypeError/ValueError
    with a message of ours naming one of ``names`` or of the keywords given. Anything else
    fails the test."""
    try:
        out = fn(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        check_message(exc, [*names, *kwargs])
        note_event("refused")
        return REFUSED
    note_event("accepted")  # --hypothesis-show-statistics: how often the valid path ran
    return out


def note_event(text: str) -> None:
    if currently_in_test_context():
        event(text)


def check_message(exc: BaseException, names: Iterable[str]) -> None:
    msg = str(exc)
    assert msg.strip(), f"{type(exc).__name__} without a message"
    assert len(msg) < 500, f"a message too long to read: {msg[:200]!r}..."
    assert not any(part in msg for part in NOT_OURS), f"unclear message: {msg!r}"
    names = list(names)
    assert any(name in msg for name in names), f"message names none of {names}: {msg!r}"


def snapshot(obj: Any) -> dict[str, Any]:
    """Every array (and scalar setting) an object holds, copied, by attribute path."""
    out: dict[str, Any] = {}

    def walk(path: str, value: Any, depth: int) -> None:
        if isinstance(value, np.ndarray):
            out[path] = (value.dtype, value.shape, value.tobytes())
        elif isinstance(value, (int, float, str, bool, np.generic)) or value is None:
            out[path] = value
        elif isinstance(value, np.random.Generator):
            out[path] = repr(value.bit_generator.state)
        elif depth < 5 and isinstance(value, tuple):
            for k, item in enumerate(value):
                walk(f"{path}[{k}]", item, depth + 1)
        elif depth < 5 and isinstance(value, dict):
            for k, item in value.items():
                walk(f"{path}[{k!r}]", item, depth + 1)
        elif depth < 5 and hasattr(value, "__dict__") and not callable(value):
            for k, item in vars(value).items():
                walk(f"{path}.{k}", item, depth + 1)

    walk("", obj, 0)
    return out


def assert_unchanged(before: dict[str, Any], obj: Any) -> None:
    after = snapshot(obj)
    assert before.keys() == after.keys()
    changed = [k for k in before if not _same(before[k], after[k])]
    assert not changed, f"a refused call changed {changed}"


def _same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)


_ENVS: dict[str, Any] = {}


def env_of(game: str) -> Any:
    """One small env per game, reused by every example (the calls fuzzed here must not
    change it when they refuse their arguments)."""
    if game not in _ENVS:
        env = vecgames.make(game, num_envs=3, seed=1)
        env.reset()
        _ENVS[game] = env
    return _ENVS[game]


# ---------------------------------------------------------------- make


@st.composite
def make_calls(draw: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
    mix = Mixer(draw)
    game = draw(st.sampled_from(GAMES))
    kwargs = mix.options(game, ENV_OPTIONS.get(game))
    if draw(st.booleans()):
        kwargs["num_envs"] = mix(st.integers(1, 5), BAD | st.sampled_from([0, 2**40, 10**18]))
    if draw(st.booleans()):
        kwargs["seed"] = mix(st.integers(0, 2**64 - 1), BAD | st.sampled_from([-1, 2**64]))
    if draw(st.booleans()):
        kwargs["env_offset"] = mix(st.integers(0, 2**40), BAD | st.just(2**63))
    return (draw(BAD_GAMES) if mix.bad() else game), kwargs


@fuzz(150)
@given(make_calls())
def test_make(spec: tuple[Any, dict[str, Any]]) -> None:
    game, kwargs = spec
    env = call(vecgames.make, ["game", "name"], game, **kwargs)
    if env is not REFUSED:
        obs, info = env.reset()
        assert obs.shape[0] == kwargs.get("num_envs", 1)
        assert info["action_mask"].any(axis=1).all()
        assert isinstance(env.render(0), str)


# ---------------------------------------------------------------- env methods


# The per-env views of each game and the argument they take (an env or an action index).
VIEWS: dict[str, list[tuple[str, str]]] = {
    "zhajinhua": [("render", "i"), ("legal_actions", "i")],
    "holdem": [("render", "i"), ("legal_actions", "i"), ("raise_bounds", "i")],
    "liars_dice": [("render", "i"), ("legal_actions", "i"), ("dice", "i"), ("last_round", "i"),
                   ("bid", "action")],
    "hanabi": [("render", "i"), ("legal_actions", "i"), ("action_name", "action")],
    "dayaoguai": [("render", "i"), ("legal_actions", "i"), ("action_name", "action")],
}


@fuzz(100)
@given(game=st.sampled_from(GAMES),
       i=st.integers(0, 2) | BAD | st.sampled_from([3, -4, 2**63, np.int64(1), np.uint8(2), 10**6]),
       seed=st.integers(0, 2**64 - 1) | BAD | st.sampled_from([-1, 2**64]))
def test_env_methods(game: str, i: Any, seed: Any) -> None:
    env = env_of(game)
    before = snapshot(env)
    for method, arg in VIEWS[game]:
        call(getattr(env, method), [arg], i)
        assert_unchanged(before, env)  # a view never changes the env
    if call(env.reset, ["seed"], seed=seed) is REFUSED:
        assert_unchanged(before, env)


def test_env_before_reset() -> None:
    env = vecgames.make("zhajinhua", num_envs=2)
    for method in (env.render, env.legal_actions):
        with pytest.raises(RuntimeError, match="reset"):
            method(0)


# ---------------------------------------------------------------- simulate


@st.composite
def simulate_calls(draw: Callable[..., Any]) -> tuple[Any, Any, dict[str, Any]]:
    mix = Mixer(draw)
    game = draw(st.sampled_from(GAMES))
    kwargs = mix.options(game)
    n = players_of(game, kwargs)
    if draw(st.booleans()):
        kwargs["policy"] = mix(policy_strategy(game, n), bad_policy_strategy(game, n))
    if draw(st.booleans()):
        kwargs["seed"] = mix(st.integers(0, 2**64 - 1), BAD | st.sampled_from([-1, 2**64]))
    if draw(st.booleans()):
        kwargs["summary"] = mix(st.booleans())
    if draw(st.booleans()):
        kwargs["first_game"] = mix(st.integers(0, 2**62 - 1000), BAD | st.just(2**63))
    if draw(st.booleans()):
        kwargs["num_threads"] = mix(st.none() | st.integers(1, numba.config.NUMBA_NUM_THREADS),
                                    BAD | st.sampled_from([0, 10**6]))
    if draw(st.booleans()):
        kwargs["backend"] = mix(st.just("local"), BAD | st.sampled_from(["Local", "dask"]))
    if game == "liars_dice" and draw(st.booleans()):
        kwargs["threshold"] = mix(st.none() | st.floats(0, 1), BAD)
    if game == "zhajinhua" and draw(st.booleans()):
        kwargs["record_actions"] = mix(st.booleans())
    num_games = mix(st.integers(1, 300), BAD | st.sampled_from([0, -1, 2**41, 10**18]))
    return (draw(BAD_GAMES) if mix.bad() else game), num_games, kwargs


@fuzz(150)
@given(simulate_calls())
def test_simulate(spec: tuple[Any, Any, dict[str, Any]]) -> None:
    game, num_games, kwargs = spec
    threads = numba.get_num_threads()
    df = call(vecgames.simulate, ["game", "name", "num_games"], game, num_games, **kwargs)
    assert numba.get_num_threads() == threads
    if df is not REFUSED and not kwargs.get("summary", False) and game != "liars_dice":
        assert len(df) == num_games


class Connected(ConnectionError):
    """Raised in place of connecting to Ray: every argument before it was accepted."""


@st.composite
def ray_keywords(draw: Callable[..., Any]) -> dict[str, Any]:
    mix = Mixer(draw)
    choices: dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]] = {
        "address": (st.sampled_from([None, "auto", "local", "10.0.0.1:6379", "ray://head:10001"]),
                    BAD | st.sampled_from(["nowhere", "head:0", "head:99999", ":1", "ray://"])),
        "num_shards": (st.none() | st.integers(1, 8), BAD | st.just(0)),
        "cpus_per_shard": (st.integers(1, 2), BAD | st.sampled_from([0, 10**9])),
        "max_retries": (st.integers(0, 3), BAD),
        "cache": (st.booleans(), BAD),
        "warm": (st.booleans(), BAD),
        "progress": (st.none() | st.booleans(), BAD),
    }
    names = draw(st.lists(st.sampled_from(sorted(choices)), max_size=4, unique=True))
    return {name: mix(*choices[name]) for name in names}


@fuzz(80)
@given(simulate_calls(), ray_keywords())
def test_simulate_ray_checks_before_connecting(spec: tuple[Any, Any, dict[str, Any]],
                                               ray_kwargs: dict[str, Any]) -> None:
    cluster = pytest.importorskip("vecgames.distributed.cluster")
    game, num_games, kwargs = spec
    kwargs = {**kwargs, **ray_kwargs, "backend": "ray"}
    with mock.patch.object(cluster, "connect", side_effect=Connected):
        try:
            call(vecgames.simulate, ["game", "name", "num_games"], game, num_games, **kwargs)
        except Connected:
            note_event("connecting")


@fuzz(60)
@given(cells=st.lists(st.tuples(st.sampled_from(["AA", "72o", "AKs", "XX", ""]),
                                st.integers(-1, 9)), max_size=3) | BAD,
       samples=st.integers(1, 10**6) | BAD, seed=st.integers(0, 2**64 - 1) | BAD,
       extra=ray_keywords(),
       assignments=st.sampled_from([np.zeros((2, 2, 2), np.int64), np.zeros((0, 2, 2)),
                                    np.zeros((3, 2)), [[[1, 2], [3, 4]]], [[1], [2, 3]],
                                    np.zeros((1, 2, 2)), "AA", None]))
def test_ray_tables_check_before_connecting(cells: Any, samples: Any, seed: Any,
                                            extra: dict[str, Any], assignments: Any) -> None:
    tables = pytest.importorskip("vecgames.distributed.tables")
    cluster = pytest.importorskip("vecgames.distributed.cluster")
    extra = {k: v for k, v in extra.items() if k not in ("cache", "warm")}
    with mock.patch.object(cluster, "connect", side_effect=Connected):
        for fn, args in ((tables.random_equities_ray, (cells, samples, seed)),
                         (tables.count_boards_ray, (assignments,))):
            try:
                call(fn, ["cells", "samples", "seed", "assignments"], *args, **extra)
            except Connected:
                note_event("connecting")


def test_simulate_without_policy_names_it() -> None:
    """A game module needs a player; ``vecgames.simulate`` reads None as the default one."""
    for game in GAMES:
        module = spec_of(game).load("simulate")
        with pytest.raises(TypeError, match="policy"):
            module.simulate(2, policy=None)


# Values that have slipped past checks before (a float conversion overflowing, NaN
# comparisons, numpy's ragged-array error): every keyword of every game gets each of them.
EXTREMES: list[Any] = [10**400, -(10**400), math.nan, -math.inf, np.float32(math.nan), None,
                       "1", np.array([1, 2]), [[1], [2, 3]], object()]


def keywords(fn: Callable[..., Any], skip: tuple[str, ...]) -> list[str]:
    return [name for name, p in inspect.signature(fn).parameters.items()
            if name not in skip and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


@pytest.mark.parametrize("game", GAMES)
def test_every_keyword_refuses_extremes(game: str) -> None:
    env_class = type(env_of(game))
    env_keywords = keywords(env_class.__init__, ("self",)) + list(OPTIONS[game])
    sim_keywords = sorted({*keywords(simulation_module(game).simulate, ("num_games",)),
                           *keywords(vecgames.simulate, ("name", "num_games")), *OPTIONS[game]})
    for value in EXTREMES:
        for name in env_keywords:
            call(vecgames.make, [], game, **{"num_envs": 2, name: value})
        for name in sim_keywords:
            call(vecgames.simulate, [], game, 2, **{name: value})
        call(vecgames.simulate, ["num_games"], game, value)


def test_constructors_refuse_extremes() -> None:
    torch_bridge = pytest.importorskip("vecgames.torch_bridge")
    env = env_of("hanabi")
    targets: list[tuple[Callable[..., Any], tuple[Any, ...], tuple[str, ...]]] = [
        (jaxmarl.HanabiJaxMARL, (), ("self",)), (jaxmarl.make, (), ()),
        (TexasPoker, ([Caller(), Caller()],), ("self", "agents")),
        (torch_bridge.TorchBridge, (env,), ("self", "env")),
        (Match, (LIARS_DICE_VIEW,), ("self", "view"))]
    for kind in ("GymEnv", "VecGymEnv", "AECGameEnv", "ParallelGameEnv", "TorchRLEnv"):
        targets.append((_adapter(kind), ("liars_dice",), ("self", "game")))
    for fn, args, skip in targets:
        for name in keywords(fn, skip):
            for value in EXTREMES:
                call(fn, [], *args, **{name: value})


# ---------------------------------------------------------------- Hanabi decks and facade


def _deck_ids() -> np.ndarray:
    return np.array([5 * c + r for c in range(5) for r in range(5)
                     for _ in range((3, 2, 2, 2, 1)[r])], np.int64)


@st.composite
def decks(draw: Callable[..., Any]) -> Any:
    ids = np.array(draw(st.permutations(_deck_ids().tolist())), np.int64)
    kind = draw(st.sampled_from(["ids", "batch", "onehot", "onehot_batch", "bad_value",
                                 "not_a_deck", "dtype", "shape", "onehot_bad", "other"]))
    if kind == "ids":
        return ids
    if kind == "batch":
        return np.stack([ids, ids[::-1]]).tolist() if draw(st.booleans()) else np.stack(
            [ids, ids[::-1]])
    onehot = np.eye(25, dtype=np.int64)[ids].reshape(DECK_SIZE, 5, 5)
    if kind == "onehot":
        return onehot.astype(draw(st.sampled_from([np.int64, np.float32, np.bool_, np.uint8])))
    if kind == "onehot_batch":
        return np.stack([onehot, onehot])
    if kind == "bad_value":
        k = draw(st.integers(0, DECK_SIZE - 1))
        ids[k] = draw(st.sampled_from([-1, 25, 2**40, -(2**62)]))
        return ids
    if kind == "not_a_deck":
        k = draw(st.integers(0, DECK_SIZE - 1))
        ids[k] = (ids[k] + draw(st.integers(1, 24))) % 25
        return ids
    if kind == "dtype":
        return ids.astype(draw(st.sampled_from([np.float64, np.uint64, np.int8, np.uint8,
                                                np.bool_, object, str])))
    if kind == "shape":
        return draw(st.sampled_from([ids[:49], np.concatenate([ids, ids[:1]]), ids[None],
                                     np.stack([ids] * 3), ids.reshape(5, 10), ids[:0],
                                     np.stack([ids, ids])[None], ids.reshape(2, 25)]))
    if kind == "onehot_bad":
        bad = onehot.copy()
        bad[draw(st.integers(0, DECK_SIZE - 1))] = draw(st.sampled_from([0, 2, -1]))
        return bad if draw(st.booleans()) else onehot[:, :4]
    return draw(BAD | st.just([[1, 2], [3]]) | st.just(np.zeros((2, 50, 5, 5))))


@fuzz(120)
@given(deck=decks(), players=st.integers(2, 5))
def test_hanabi_reset_from_deck(deck: Any, players: int) -> None:
    key = f"hanabi{players}"
    if key not in _ENVS:
        _ENVS[key] = vecgames.make("hanabi", num_envs=2, num_players=players, seed=3)
        _ENVS[key].reset()
    env = _ENVS[key]
    before = snapshot(env)
    if call(env.reset_from_deck, ["deck"], deck) is REFUSED:
        assert_unchanged(before, env)
    else:
        given_ids = np.asarray(deck)
        if given_ids.ndim >= 3:
            given_ids = given_ids.reshape(*given_ids.shape[:-2], 25).argmax(axis=-1)
        expect = np.broadcast_to(given_ids, (2, DECK_SIZE))
        assert np.array_equal(env.state.deck, expect)


@fuzz(80)
@given(data=st.data(), players=st.integers(2, 4))
def test_holdem_reset_from_deck(data: st.DataObject, players: int) -> None:
    key = f"holdem{players}"
    if key not in _ENVS:
        _ENVS[key] = vecgames.make("holdem", num_envs=2, num_players=players, seed=3)
        _ENVS[key].reset()
    env = _ENVS[key]
    need = 2 * players + 5
    rows = [data.draw(st.permutations(range(52))) for _ in range(2)]
    width = data.draw(st.sampled_from([need, 52, need - 1, 53]))
    deck: Any = np.array([row[:width] for row in rows])
    kind = data.draw(st.sampled_from(["ok", "repeat", "value", "dtype", "shape", "ragged"]))
    if kind == "repeat":
        deck[0, 1] = deck[0, 0]
    elif kind == "value":
        deck[1, 0] = data.draw(st.sampled_from([-1, 52, 2**40]))
    elif kind == "dtype":
        deck = deck.astype(data.draw(st.sampled_from([np.float64, np.uint8, np.bool_, str])))
    elif kind == "shape":
        deck = data.draw(st.sampled_from([deck[0], deck[:1], deck[None], np.stack([deck[0]] * 3)]))
    elif kind == "ragged":
        deck = [rows[0][:need], rows[1][:need + 1]]
    button = data.draw(st.integers(0, players - 1) | st.lists(st.integers(0, players - 1),
                                                               min_size=2, max_size=2)
                       | BAD | st.sampled_from([players, -1, [0, 0, 0], [[0], [1]]]))
    before = snapshot(env)
    if call(env.reset_from_deck, ["deck", "button"], deck, button) is REFUSED:
        assert_unchanged(before, env)


@st.composite
def jaxmarl_calls(draw: Callable[..., Any]) -> tuple[bool, dict[str, Any]]:
    mix = Mixer(draw)
    kwargs = mix.options("hanabi")
    kwargs.pop("num_players", None)
    if draw(st.booleans()):
        kwargs["num_agents"] = mix(st.integers(2, 5), BAD | st.sampled_from([1, 6]))
    if draw(st.booleans()):
        kwargs["num_envs"] = mix(st.integers(1, 4), BAD | st.just(0))
    if draw(st.booleans()):
        kwargs["seed"] = mix(st.integers(0, 100))
    if draw(st.booleans()):
        kwargs["obs"] = mix(st.sampled_from(["jaxmarl", "hle"]), BAD | st.just("JAXMARL"))
    use_make = draw(st.booleans())
    if use_make and draw(st.booleans()):
        kwargs["env_id"] = mix(st.sampled_from(["hanabi", "Hanabi"]),
                               BAD | st.just("hanabi_v0"))
    return use_make, kwargs


@fuzz(60)
@given(spec=jaxmarl_calls(), agent=st.none() | st.sampled_from(["agent_0", "agent_1"]) | BAD)
def test_hanabi_jaxmarl(spec: tuple[bool, dict[str, Any]], agent: Any) -> None:
    use_make, kwargs = spec
    env = call(jaxmarl.make if use_make else jaxmarl.HanabiJaxMARL, [], **kwargs)
    if env is REFUSED:
        return
    obs, state = env.reset(key=object())
    assert set(obs) == set(env.agents)
    assert all(v.shape == (env.num_envs, env.obs_size) for v in obs.values())
    for space in (env.observation_space, env.action_space):
        call(space, ["agent"], agent)


# ---------------------------------------------------------------- Hold'em facade


class Caller:
    def action(self, last: int, lowerbound: int | None) -> int:
        return last


@st.composite
def poker_calls(draw: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
    mix = Mixer(draw)
    kwargs = mix.options("holdem")
    kwargs.pop("num_players", None)
    if draw(st.booleans()):
        kwargs["seed"] = mix(st.integers(0, 100))
    agents = mix(st.lists(st.just(Caller()), min_size=2, max_size=10),
                 BAD | st.lists(st.just(Caller()), max_size=1) | st.just([Caller()] * 11)
                 | st.just([Caller(), object()]) | st.just([Caller(), None])
                 | st.just(iter([Caller(), Caller()])) | st.just("ab") | st.just({"a": 1}))
    return agents, kwargs


@fuzz(60)
@given(poker_calls())
def test_texas_poker(spec: tuple[Any, dict[str, Any]]) -> None:
    agents, kwargs = spec
    table = call(TexasPoker, ["agents", "agent", "TexasPoker"], agents, **kwargs)
    if table is not REFUSED and len(agents) == 2:  # a hand at a larger table takes ~1 s
        chips = table.game()
        assert len(chips) == len(agents)


# ---------------------------------------------------------------- torch bridge


@fuzz(60)
@given(env=st.sampled_from(GAMES) | BAD,
       device=st.sampled_from(["cpu", "cpu:0", "cuda", "cuda:0", "cuda:99", "tpu", "meta", "",
                               "gpu", -1, 0, 10**20, None, 1.5, b"cpu", []]),
       info_keys=st.lists(st.sampled_from(["score", "legal_moves", "illegal", "obs", "nope"])
                          | BAD, max_size=3) | BAD)
def test_torch_bridge(env: Any, device: Any, info_keys: Any) -> None:
    bridge_module = pytest.importorskip("vecgames.torch_bridge")
    torch = pytest.importorskip("torch")
    if isinstance(env, str) and env in GAMES:
        env = env_of(env)
    try:
        bridge = call(bridge_module.TorchBridge, ["env", "device", "info_keys"], env,
                      device=device, info_keys=info_keys)
    except RuntimeError as exc:  # a CUDA device on a machine without one
        assert "cuda" in str(exc) and not torch.cuda.is_available()
        return
    if bridge is not REFUSED:
        obs, info = bridge.reset()
        assert obs.shape[0] == env.num_envs


# ---------------------------------------------------------------- adapters


@st.composite
def adapter_calls(draw: Callable[..., Any]) -> tuple[str, Any, dict[str, Any]]:
    mix = Mixer(draw)
    kind = draw(st.sampled_from(["GymEnv", "VecGymEnv", "AECGameEnv", "ParallelGameEnv",
                                 "TorchRLEnv"]))
    game = draw(st.sampled_from(GAMES))
    kwargs = mix.options(game)
    if kind in ("GymEnv", "VecGymEnv") and draw(st.booleans()):
        kwargs["seat"] = mix(st.integers(0, 1), BAD | st.sampled_from([-1, 99]))
    if kind in ("GymEnv", "VecGymEnv") and draw(st.booleans()):
        kwargs["opponents"] = mix(st.just("random"), BAD | st.just("heuristic"))
    if kind in ("VecGymEnv", "TorchRLEnv") and draw(st.booleans()):
        kwargs["num_envs"] = mix(st.integers(1, 3), BAD | st.just(0))
    if kind == "TorchRLEnv" and draw(st.booleans()):
        kwargs["device"] = mix(st.just("cpu"), BAD | st.just("tpu"))
    if kind in ("GymEnv", "AECGameEnv", "ParallelGameEnv") and draw(st.booleans()):
        kwargs["render_mode"] = mix(st.sampled_from([None, "ansi"]), BAD | st.just("human"))
    if draw(st.booleans()):
        kwargs["seed"] = mix(st.integers(0, 2**32), BAD | st.just(-1))
    return kind, (draw(BAD_GAMES) if mix.bad() else game), kwargs


def _adapter(kind: str) -> Any:
    if kind in ("GymEnv", "VecGymEnv"):
        module = pytest.importorskip("vecgames.adapters.gym_env")
    elif kind == "TorchRLEnv":
        module = pytest.importorskip("vecgames.adapters.torchrl_env")
    else:
        module = pytest.importorskip("vecgames.adapters.pz_env")
    return getattr(module, kind)


@fuzz(80)
@given(adapter_calls())
def test_adapter_constructors(spec: tuple[str, Any, dict[str, Any]]) -> None:
    kind, game, kwargs = spec
    adapter = call(_adapter(kind), ["game", "name"], game, **kwargs)
    if adapter is not REFUSED and kind in ("GymEnv", "VecGymEnv", "ParallelGameEnv"):
        adapter.reset(seed=0)


@fuzz(60)
@given(kind=st.sampled_from(["GymEnv", "VecGymEnv", "AECGameEnv", "ParallelGameEnv"]),
       seed=st.integers(0, 2**64 - 1) | BAD | st.sampled_from([-1, 2**64]))
def test_adapter_reset_seed(kind: str, seed: Any) -> None:
    if kind not in _ENVS:
        _ENVS[kind] = _adapter(kind)("liars_dice", seed=1)
        _ENVS[kind].reset(seed=0)
    adapter = _ENVS[kind]
    before = snapshot(adapter)
    if call(adapter.reset, ["seed"], seed=seed) is REFUSED:
        assert_unchanged(before, adapter)


# ---------------------------------------------------------------- CLI


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    note_event(f"exit code {code}")
    return code, out.getvalue(), err.getvalue()


def assert_usage_error(argv: list[str], code: int, err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, f"{argv}: exit code {code}, stderr {err!r}"
    assert len(lines) == 1 and re.match(r"vecgames( [\w-]+)*: error: \S", lines[0]), (argv, err)
    assert "Traceback" not in err


BAD_NUMBERS = ["x", "", "-1", "0", "1.5", "1e3", "nan", "-0", "0x10", "1_000_000_000_000_000",
               str(10**18), str(10**30), " 3"]
SIM_FLAGS: dict[str, tuple[list[str], list[str]]] = {  # flag: (valid values, bad values)
    "--policy": (["random", "random,random", "heuristic", "call", "rules", "weakest"],
                 ["nope", "", ",", "random,", "Random", "random,nope"]),
    "--seed": (["0", "7", str(2**64 - 1)], ["-1", str(2**64), "x", "1.5"]),
    "--threads": (["1", str(numba.config.NUMBA_NUM_THREADS)], ["0", "-1", "999", "x"]),
    "--num-players": (["2", "3", "4"], ["1", "0", "99", "x", "-3"]),
    "--players": (["random", "random,random"], ["nope", "", "random,nope"]),
    "--ante": (["0", "1", "2"], ["-1", "x"]),
    "--max-rounds": (["1", "5"], ["0", "x", str(10**9)]),
    "--no-compare-rounds": (["0", "2"], ["-1", "x"]),
    "--a23": (["lowest", "second"], ["third", ""]),
    "--first-player": (["0", "1"], ["-1", "99", "x"]),
    "--stack": (["10", "100"], ["0", "-5", str(10**12)]),
    "--small-blind": (["0", "1"], ["-1", "x"]),
    "--big-blind": (["2", "3"], ["0", "x"]),
    "--dice": (["2", "3"], ["0", "1", "99"]),
    "--rounds": (["1", "2"], ["0", "-1"]),
    "--base": (["1", "2"], ["0", "-1"]),
    "--max-steps": (["50", "300"], ["0", "-1"]),
    "--backend": (["local"], ["dask", "", "LOCAL"]),
    "--shards": ([], ["2", "0", "x"]),
    "--address": ([], ["auto", "localhost:1"]),
    "--cpus-per-shard": (["1"], ["2", "0", "x"]),
    "--bogus": ([], ["1"]),
    # never written (no folder can be made under a file): a valid path is no fuzz
    "--csv": ([], ["/dev/null/x.csv", "."]),
    "--report": ([], ["/dev/null/r.md", "."]),
}
SIM_SWITCHES = ["--summary", "--special-235"]


@st.composite
def simulate_argv(draw: Callable[..., Any]) -> list[str]:
    mix = Mixer(draw)
    game = mix(st.sampled_from(GAMES), st.sampled_from(["poker", "", "Hanabi", "liars-dice"]))
    games = mix(st.integers(1, 300).map(str), st.sampled_from(BAD_NUMBERS))
    argv = ["simulate", game, "--games", games]
    for flag in draw(st.lists(st.sampled_from(sorted(SIM_FLAGS)), max_size=4, unique=True)):
        valid, bad = SIM_FLAGS[flag]
        value = draw(st.sampled_from(bad)) if not valid or mix.bad() else draw(
            st.sampled_from(valid))
        argv += [flag, value]
    argv += draw(st.lists(st.sampled_from(SIM_SWITCHES), max_size=2, unique=True))
    return argv


@fuzz(120)
@given(simulate_argv())
def test_cli_simulate(argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    if code == 0:
        assert not err.strip() or "error" not in err
    else:
        assert_usage_error(argv, code, err)


# Arguments each of which alone makes the command a usage error, whatever comes before it
# (so that no example starts a long computation or an interactive game).
PREFLOP_VALID = [["--out", "m.npz"], ["--backend", "local"], ["--cpus-per-shard", "1"]]
PREFLOP_BAD = [["--backend", "dask"], ["--shards", "2"], ["--address", "auto"],
               ["--cpus-per-shard", "2"], ["--cpus-per-shard", "x"], ["--bogus"],
               ["--shards", "x"], ["extra"], ["--out", "/dev/null/m.npz"], ["--out", "."]]
PLAY_VALID = [["--num-players", "3"], ["--rounds", "2"], ["--dice", "3"], ["--seat", "1"],
              ["--agent", "random"], ["--variant", "basic"], ["--seed", "5"], ["--games", "2"],
              ["--allow-repeat-bids"]]
PLAY_BAD = [["--num-players", "1"], ["--num-players", "99"], ["--players", "x"], ["--rounds", "0"],
            ["--dice", "0"], ["--dice", "99"], ["--seat", "-1"], ["--seat", "9"],
            ["--agent", "nope"], ["--agent", "/dev/null/agent.pt"], ["--threshold", "0.3"],
            ["--render"], ["--variant", "zhai"], ["--seed", "-1"], ["--seed", "x"],
            ["--seed", str(2**64)], ["--bogus"]]


@fuzz(80)
@given(command=st.sampled_from(["preflop-matrix", "play", "list", "other"]),
       valid=st.lists(st.integers(0, 8), max_size=3), bad=st.integers(0, 16),
       game=st.sampled_from(["liars-dice", "liars_dice", "poker", ""]))
def test_cli_other_commands(command: str, valid: list[int], bad: int, game: str) -> None:
    if command == "list" and "list" not in subcommands():
        pytest.skip("no list command")
    if command == "preflop-matrix":
        argv = ["preflop-matrix", *[a for k in valid for a in PREFLOP_VALID[k % 3]],
                *PREFLOP_BAD[bad % len(PREFLOP_BAD)]]
    elif command == "play":
        argv = ["play", game, *[a for k in valid for a in PLAY_VALID[k]], *PLAY_BAD[bad]]
    elif command == "list":
        argv = ["list", "--bogus"]
    else:
        argv = [["", "nope", "--players", "simulate"][bad % 4]]
    code, _, err = run_cli(argv)
    assert_usage_error(argv, code, err)
