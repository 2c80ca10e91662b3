"""Kuhn poker (``vecgames.games.kuhn_poker``): OpenSpiel's ``kuhn_poker`` as the oracle of
the rules and of the observation, the env contract, ``simulate`` (against the exact
expectations, enumerated here) and its recorder."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import pandas as pd
import pytest

from vecgames.core.simulation import merge_outputs, numba_threads
from vecgames.games.kuhn_poker import (
    ACTION_NAMES,
    DEFAULT_OPTIONS,
    HISTORIES,
    NUM_ACTIONS,
    OBS_DIM,
    KuhnPokerEnv,
    field,
    make_rules,
    rules_to_options,
)
from vecgames.games.kuhn_poker import players as kuhn_players
from vecgames.games.kuhn_poker import simulate as sim
from vecgames.games.kuhn_poker.env import render_table
from vecgames.games.kuhn_poker.observe import INFO_STATE_DIM
from vecgames.games.kuhn_poker.record import Recorder
from vecgames.games.kuhn_poker.rules import GAME, legal_bits, step_one


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    """Small batches: on a loaded 2-core machine a parallel launch on one thread is the
    quicker (results never depend on it)."""
    with numba_threads(1):
        yield


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly drawn legal action per env."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64)


def final_field(env: KuhnPokerEnv, name: str) -> np.ndarray:
    """``field`` of the finished games' rows (``env.final_table``)."""
    return field(env.state._replace(table=env.final_table), name)


# -- OpenSpiel as the oracle ------------------------------------------------------------------
def test_matches_openspiel_move_for_move() -> None:
    """3,000 games of random legal moves, each dealt in OpenSpiel as the env dealt it: the
    same player to act, legal actions, information state tensor, rewards, terminal flag and
    returns at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(GAME)
    envs, wanted = 600, 3000
    env = KuhnPokerEnv(num_envs=envs, seed=7)
    obs, info = env.reset()
    rng = np.random.default_rng(0)

    def dealt(i: int):  # env i's deal as OpenSpiel's chance outcomes: seat 0's card first
        state = game.new_initial_state()
        for card in field(env.state, "card")[i]:
            assert state.is_chance_node()
            state.apply_action(int(card))
        return state

    states = [dealt(i) for i in range(envs)]
    finished, histories, deals = 0, set(), set()
    while finished < wanted:
        for i, state in enumerate(states):
            assert state.current_player() == info["current_player"][i]
            assert state.legal_actions() == np.flatnonzero(info["action_mask"][i]).tolist()
            np.testing.assert_array_equal(obs[i, :INFO_STATE_DIM],
                                          state.information_state_tensor())
        actions = random_actions(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            assert state.is_terminal() == bool(terminated[i])
            assert reward[i].tolist() == state.rewards()
            if terminated[i]:
                assert final_field(env, "result")[i].tolist() == state.returns()
                assert legal_bits(env.final_table[i]) == 0 and state.legal_actions() == []
                histories.add("".join("pb"[a] for a in state.history()[2:]))
                deals.add(tuple(state.history()[:2]))
                states[i] = dealt(i)
                finished += 1
    assert histories == set(HISTORIES)  # every way a game can go, on every deal
    assert len(deals) == 6


def test_the_rules_refuse_a_move_after_the_end() -> None:
    env = KuhnPokerEnv(num_envs=1, seed=0)
    env.reset()
    env.step(np.array([1]))
    env.step(np.array([1]))  # bet, call: over
    state = env.state._replace(table=env.final_table.copy())
    before = state.table.copy()
    for a in (0, 1, 2, -1):
        assert step_one(state, 0, a, env.rules) == (False, False)
    np.testing.assert_array_equal(state.table, before)


# -- the env contract -------------------------------------------------------------------------
def test_same_seed_same_games_and_env_offset_picks_the_stream() -> None:
    a = KuhnPokerEnv(num_envs=8, seed=5)
    b = KuhnPokerEnv(num_envs=8, seed=5)
    tail = KuhnPokerEnv(num_envs=4, seed=5, env_offset=4)
    other = KuhnPokerEnv(num_envs=8, seed=6)
    outs = [e.reset()[0].copy() for e in (a, b, tail, other)]
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0][4:], outs[2])
    rng = np.random.default_rng(1)
    differs = False
    for _ in range(30):
        acts = random_actions(a.action_mask, rng)
        ra = [x.copy() for x in a.step(acts)[:4]]
        rb = b.step(acts)[:4]
        rt = tail.step(acts[4:])[:4]
        for x, y, z in zip(ra, rb, rt, strict=True):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(x[4:], z)
        np.testing.assert_array_equal(a.state.table, b.state.table)
        other.step(random_actions(other.action_mask, rng))
        differs |= not np.array_equal(field(a.state, "card"), field(other.state, "card"))
    assert differs
    a.reset(seed=6)  # reseeding replays the other seed's first deals
    np.testing.assert_array_equal(a._obs, outs[3])


def test_waiting_envs_stand_still() -> None:
    env = KuhnPokerEnv(num_envs=6, seed=2)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(12):
        wait = rng.random(6) < 0.5
        before = {"obs": env._obs.copy(), "mask": env.action_mask.copy(),
                  "table": env.state.table.copy(), "rng": env.state.rng.copy()}
        acts = np.where(wait, KuhnPokerEnv.WAIT, random_actions(env.action_mask, rng))
        obs, reward, terminated, truncated, info = env.step(acts)
        np.testing.assert_array_equal(obs[wait], before["obs"][wait])
        np.testing.assert_array_equal(info["action_mask"][wait], before["mask"][wait])
        np.testing.assert_array_equal(env.state.table[wait], before["table"][wait])
        np.testing.assert_array_equal(env.state.rng[wait], before["rng"][wait])
        assert not reward[wait].any() and not terminated[wait].any()
        assert (field(env.state, "steps")[~wait] != field(
            env.state._replace(table=before["table"]), "steps")[~wait]).all()


def test_bad_actions_are_refused_before_anything_changes() -> None:
    env = KuhnPokerEnv(num_envs=3, seed=4)
    env.reset()
    env.step(np.array([0, 1, 0]))
    kept = [env.state.table.copy(), env.state.rng.copy(), env._obs.copy(),
            env._reward.copy(), env.action_mask.copy(), env.current_player.copy()]
    cases = [(np.array([0, 2, 0]), ValueError, r"actions must be in \[0, 2\)"),
             (np.array([0, -2, 0]), ValueError, "env 1 got -2"),
             (np.ones(3), TypeError, "actions must be integers"),
             (np.zeros(4, np.int64), ValueError, "shape"),
             ([True] * 3, TypeError, "integers")]
    for actions, error, text in cases:
        with pytest.raises(error, match=text):
            env.step(actions)
        for now, then in zip([env.state.table, env.state.rng, env._obs, env._reward,
                              env.action_mask, env.current_player], kept, strict=True):
            np.testing.assert_array_equal(now, then)
    assert env.action_mask.all()  # both actions are legal at every decision of Kuhn poker
    with pytest.raises(ValueError, match="illegal_penalty"):
        KuhnPokerEnv(illegal_penalty=1.0)
    with pytest.raises(ValueError, match="illegal must be one of"):
        KuhnPokerEnv(illegal="ignore")
    penalty = KuhnPokerEnv(num_envs=2, illegal="penalty", illegal_penalty=1.0)
    penalty.reset()
    assert not penalty.step(np.array([1, 0]))[4]["illegal"].any()


def test_game_end_resets_in_the_same_step() -> None:
    env = KuhnPokerEnv(num_envs=2, seed=9)
    env.reset()
    cards = field(env.state, "card").copy()
    env.step(np.array([0, 1]))  # env 0 checks, env 1 bets
    obs, reward, terminated, _, info = env.step(np.array([1, 0]))  # a bet; a fold
    assert terminated.tolist() == [False, True]
    assert reward[1].tolist() == [1.0, -1.0] and not reward[0].any()
    assert final_field(env, "winner")[1] == 0 and final_field(env, "folded")[1] == 1
    np.testing.assert_array_equal(final_field(env, "card")[1], cards[1])
    assert final_field(env, "history")[1].tolist() == [1, 0, -1]
    # env 1 already shows the next game's first decision
    assert info["current_player"][1] == 0 and field(env.state, "steps")[1] == 0
    assert field(env.state, "history")[1].tolist() == [-1, -1, -1]
    assert not obs[1, 5:11].any() and obs[1, 0] == 1.0
    obs, reward, terminated, _, _ = env.step(np.array([1, 0]))  # env 0: check, bet, call
    assert terminated[0] and abs(reward[0, 0]) == 2.0 and reward[0].sum() == 0.0
    assert "game over" in render_table(env.final_table[0], 0)
    assert "to act: seat 0" in env.render(0)


def test_snapshot_restores_bit_for_bit() -> None:
    env = KuhnPokerEnv(num_envs=4, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    env.step(random_actions(env.action_mask, rng))
    snap = env.snapshot()
    actions = [random_actions(env.action_mask, rng) for _ in range(10)]
    first = [[x.copy() for x in env.step(a)[:4]] + [env.state.table.copy()] for a in actions]
    env.restore(snap)
    for a, want in zip(actions, first, strict=True):
        got = list(env.step(a)[:4]) + [env.state.table]
        for x, y in zip(want, got, strict=True):
            np.testing.assert_array_equal(x, y)


def test_options_and_names() -> None:
    assert make_rules() == make_rules(num_players=2)
    assert rules_to_options(make_rules()) == DEFAULT_OPTIONS
    with pytest.raises(ValueError, match="num_players must be 2"):
        KuhnPokerEnv(num_players=3)
    with pytest.raises(TypeError, match="num_players must be an int"):
        make_rules(num_players="2")
    with pytest.raises(ValueError, match="unknown option"):
        make_rules(players=2)
    env = KuhnPokerEnv(num_envs=2)
    assert (env.num_actions, env.obs_dim, env.num_players) == (NUM_ACTIONS, OBS_DIM, 2)
    assert ACTION_NAMES == ("pass", "bet")
    with pytest.raises(RuntimeError, match="reset"):
        env.render(0)
    env.reset()
    assert env.legal_actions(1) == [0, 1]
    with pytest.raises(ValueError, match="i must be in"):
        env.render(2)


# -- simulate and the recorder ----------------------------------------------------------------
Policy = Callable[[int, str], float]  # (own card, history so far) -> probability of a bet
RANDOM: Policy = lambda card, history: 0.5  # noqa: E731
RULE: Policy = lambda card, history: 1.0 if card == 2 else 0.0  # noqa: E731


def exact_mean(seats: Sequence[Policy]) -> float:
    """Seat 0's expected return, by enumeration of the 6 deals and of every action sequence
    (the rules restated from OpenSpiel's documentation, independently of the kernels)."""
    def value(cards: tuple[int, int], history: str) -> float:
        showdown = 1.0 if cards[0] > cards[1] else -1.0
        ends = {"pp": showdown, "pbb": 2 * showdown, "bb": 2 * showdown, "bp": 1.0,
                "pbp": -1.0}
        if history in ends:
            return ends[history]
        seat = len(history) % 2
        bet = seats[seat](cards[seat], history)
        return bet * value(cards, history + "b") + (1 - bet) * value(cards, history + "p")

    deals = list(itertools.permutations(range(3), 2))
    return sum(value(d, "") for d in deals) / len(deals)


def test_exact_expectations() -> None:
    assert exact_mean([RANDOM, RANDOM]) == pytest.approx(1 / 8)
    assert exact_mean([RULE, RULE]) == pytest.approx(0.0)  # K takes 1, else a fair showdown


@pytest.mark.parametrize(("names", "seats"), [(["random", "random"], [RANDOM, RANDOM]),
                                              (["rule", "random"], [RULE, RANDOM]),
                                              (["random", "rule"], [RANDOM, RULE])])
def test_mean_return_is_the_exact_expectation(names: list[str], seats: list[Policy]) -> None:
    games = 200_000
    df = sim.simulate(games, names, seed=11, summary=True)
    exact = exact_mean(seats)
    bound = 5 * df["std_chips"][0] / np.sqrt(games)  # 5 standard errors
    assert abs(df["mean_chips"][0] - exact) < bound, (df["mean_chips"][0], exact)
    assert df["mean_chips"][1] == -df["mean_chips"][0]
    assert df.attrs["policy"] == names


def test_frame_is_deterministic_and_consistent() -> None:
    df = sim.simulate(30_000, ["random", "rule"], seed=3)
    pd.testing.assert_frame_equal(df, sim.simulate(30_000, ["random", "rule"], seed=3))
    assert not df.equals(sim.simulate(30_000, ["random", "rule"], seed=4))
    tail = sim.simulate(100, ["random", "rule"], seed=3, first_game=500)
    pd.testing.assert_frame_equal(tail, df.iloc[500:600].reset_index(drop=True))
    assert list(df.columns) == ["game", "steps", "showdown", "winner", "history", "chips_0",
                                "chips_1", "card_0", "card_1"]
    assert df.attrs == {"game": GAME, "seed": 3, "num_games": 30_000,
                        "policy": ["random", "rule"], "rules": {"num_players": 2}}
    assert (df["chips_0"] + df["chips_1"] == 0).all()
    won = np.where(df["winner"] == 0, df["chips_0"], df["chips_1"])
    assert (won > 0).all()
    history = df["history"].astype(str)
    assert (df["steps"] == history.str.len()).all()
    assert (df["showdown"] == history.isin(["pp", "pbb", "bb"])).all()
    assert (df["chips_0"].abs() == np.where(history.isin(["pbb", "bb"]), 2, 1)).all()
    shown = df[df["showdown"]]
    assert ((shown["card_0"] > shown["card_1"]) == (shown["winner"] == 0)).all()
    # the 6 deals, uniformly: each near 1/6 (5000 expected, sd ~65)
    counts = df.groupby(["card_0", "card_1"]).size()
    assert len(counts) == 6 and (abs(counts - 5000) < 400).all()
    summary = sim.simulate(30_000, ["random", "rule"], seed=3, summary=True)
    np.testing.assert_allclose(summary["mean_chips"], [df["chips_0"].mean(),
                                                       df["chips_1"].mean()])
    np.testing.assert_allclose(summary["std_chips"], [df["chips_0"].std(ddof=0),
                                                      df["chips_1"].std(ddof=0)])
    np.testing.assert_allclose(summary["win_share"], [(df["winner"] == 0).mean(),
                                                      (df["winner"] == 1).mean()])
    assert summary.attrs["showdowns"] == df["showdown"].sum()
    assert summary.attrs["mean_steps"] == pytest.approx(df["steps"].mean())


def test_any_split_of_a_job_is_the_whole_run() -> None:
    job = sim.plan(1001, "random", seed=8, first_game=7)
    whole = sim.frame(job, sim.run(job))
    parts = merge_outputs([sim.run(j) for j in job.split(3)])
    pd.testing.assert_frame_equal(sim.frame(job, parts), whole)


def test_bad_simulate_input() -> None:
    with pytest.raises(ValueError, match="num_games"):
        sim.simulate(0)
    with pytest.raises(TypeError, match="num_games"):
        sim.simulate(10.0)
    with pytest.raises(ValueError, match="policy must be one of"):
        sim.simulate(10, "cfr")
    with pytest.raises(ValueError, match="one per seat"):
        sim.simulate(10, ["random"] * 3)
    with pytest.raises(ValueError, match="num_players"):
        sim.simulate(10, num_players=3)
    with pytest.raises(TypeError, match="seed"):
        sim.simulate(10, seed=-1.5)


def play_through_env(names: list[str], num_games: int, seed: int,
                     first_game: int) -> pd.DataFrame:
    """Games first_game .. first_game + num_games - 1 stepped through the env (one wave, the
    finished envs wait), each seat's built-in player drawing from its env's stream."""
    env = KuhnPokerEnv(num_envs=num_games, seed=seed, env_offset=first_game)
    rec = Recorder(env, num_games, first_game=first_game, seed=seed)
    env.reset(seed=seed)
    ids = np.arange(num_games)
    codes = [kuhn_players.POLICIES.index(name) for name in names]
    while (ids >= 0).any():
        actions = np.full(num_games, KuhnPokerEnv.WAIT, np.int64)
        for seat, code in enumerate(codes):
            rows = np.flatnonzero((env.current_player == seat) & (ids >= 0))
            out = np.empty(rows.size, np.int64)
            kuhn_players.rows_actions_kernel(env.state, env.rules, code, rows, out)
            actions[rows] = out
        rec.before_step(env, actions, ids)
        _, reward, terminated, truncated, info = env.step(actions)
        rec.after_step(env, reward, terminated, truncated, info, ids)
        ids[terminated | truncated] = -1
    return rec.frame(players=names)


@pytest.mark.parametrize("names", [["random", "random"], ["rule", "random"]])
def test_env_games_give_simulates_frame(names: list[str]) -> None:
    df = play_through_env(names, 300, seed=7, first_game=3)
    ref = sim.simulate(300, names, seed=7, first_game=3)
    pd.testing.assert_frame_equal(df, ref)
    assert set(df.attrs) == set(ref.attrs) | {"players"}
    assert {k: df.attrs[k] for k in ref.attrs} == ref.attrs
    assert df.attrs["players"] == names
