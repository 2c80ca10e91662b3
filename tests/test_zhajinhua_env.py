"""Zha Jin Hua env and simulate against the pure-Python reference engine (RULES.md §2).

Covers: step-by-step agreement with ``zhajinhua_reference`` (rewards, terminal flags, masks,
player to act, the whole observation, state fields), game invariants over random play,
determinism (seeds, thread counts, env_offset, first_game), input validation that leaves the
batch untouched, the rule options, and the baseline policies.
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zhajinhua_reference import (
    Game,
    Stream,
    hand_key,
    is_235,
    new_game_from_stream,
)

import vecgames
from vecgames.core.bits import pick_set_bit
from vecgames.core.rng import next_u64
from vecgames.games.zhajinhua.players import random_legal
from vecgames.games.zhajinhua.rules import field, legal_bits
from vecgames.poker import CATEGORY_NAMES, category_3, evaluate_3

GAME_RULES = ("num_players", "ante", "no_compare_rounds", "max_rounds", "a23", "special_235")
REF_DEFAULTS = {"num_players": 6, "ante": 1, "no_compare_rounds": 1, "max_rounds": 20,
                "a23": "lowest", "special_235": False}


# -- helpers ----------------------------------------------------------------------------------
def ref_rules(opts: dict) -> dict:
    return {k: opts.get(k, REF_DEFAULTS[k]) for k in GAME_RULES}


def game_from_env(env, i: int, opts: dict) -> Game:
    """The reference game for the deal env i shows now (cards and opener read from the env)."""
    n = env.num_players
    deck = env.state.deck[i]
    first = int(field(env.state, "first")[i])
    if opts.get("first_player") is not None:
        assert first == opts["first_player"]
    game = Game([deck[3 * p:3 * p + 3] for p in range(n)], first, **ref_rules(opts))
    strength = field(env.state, "strength")[i, :n]
    assert list(strength >> 12) == [k[0] for k in game.keys]
    return game


def bitmask(seats) -> int:
    return sum(1 << q for q in seats)


def assert_state_matches(env, i: int, g: Game) -> None:
    n = g.num_players

    def f(name):
        return field(env.state, name)[i]

    got = {"alive": f("alive"), "seen": f("seen"), "pot": f("pot"), "min_bet": f("min_bet"),
           "player": f("player"), "phase": f("phase"), "round": f("round"),
           "decisions": f("decisions"), "paid": list(f("paid")[:n]),
           "known": list(f("known")[:n])}
    want = {"alive": bitmask(g.alive), "seen": bitmask(g.seen), "pot": g.pot,
            "min_bet": g.min_bet, "player": g.player, "phase": int(g.phase == "action"),
            "round": g.round, "decisions": g.decisions, "paid": g.paid,
            "known": [bitmask(g.known[q]) for q in range(n)]}
    assert {k: int(v) if not isinstance(v, list) else [int(x) for x in v]
            for k, v in got.items()} == want, f"env {i}"


def assert_obs_equal(got: np.ndarray, want: np.ndarray, where: str) -> None:
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, (f"{where}: observation differs at {bad.tolist()[:10]}: "
                           f"env {got[bad[:10]].tolist()} ref {want[bad[:10]].tolist()}")


# rank patterns (0..12 = 2..A) that make ties, 2-3-5 against 豹子 and both A-2-3 rankings common
TIE_PATTERNS = [(0, 1, 3), (12, 1, 0), (12, 11, 10), (11, 10, 9), (2, 1, 0), (5, 5, 9),
                (7, 4, 2), (9, 9, 9), (12, 12, 12), (0, 0, 0), (3, 5, 9)]


def rigged_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """A deal where seats share a few rank patterns (suits random, cards distinct)."""
    patterns = rng.choice(len(TIE_PATTERNS), size=rng.integers(1, 4))
    free = set(range(52))
    hands = np.zeros((n, 3), np.int8)
    for p in range(n):
        ranks = TIE_PATTERNS[rng.choice(patterns)]
        for k, r in enumerate(ranks):
            options = sorted(c for c in free if c >> 2 == r) or sorted(free)
            hands[p, k] = rng.choice(options)
            free.discard(int(hands[p, k]))
    return hands


def rig_deal(env, i: int, hands: np.ndarray, a23: str) -> None:
    """Replace env i's fresh deal (no decision taken yet) by ``hands``."""
    n = hands.shape[0]
    assert field(env.state, "decisions")[i] == 0
    env.state.deck[i, :3 * n] = hands.ravel()
    field(env.state, "strength")[i, :n] = evaluate_3(hands, a23=a23)


def pick_actions(rng: np.random.Generator, mask: np.ndarray, illegal_p: float,
                 bet_bias: float) -> np.ndarray:
    """Random legal actions, sometimes the smallest legal bet, sometimes anything 0..14."""
    out = np.empty(mask.shape[0], np.int64)
    for i, m in enumerate(mask):
        legal = np.flatnonzero(m)
        bets = legal[legal >= 9]
        r = rng.random()
        if r < illegal_p:
            out[i] = rng.integers(15)
        elif bets.size and r < illegal_p + bet_bias:
            out[i] = bets[0]
        else:
            out[i] = rng.choice(legal)
    return out


def legal_actions_batch(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(1)


def snapshot(env) -> dict[str, np.ndarray]:
    s = env.state
    return {"table": s.table.copy(), "deck": s.deck.copy(), "rng": s.rng.copy(),
            "obs": env._obs.copy(), "mask": env.action_mask.copy(),
            "current": env.current_player.copy()}


def restore(env, snap: dict[str, np.ndarray]) -> None:
    s = env.state
    np.copyto(s.table, snap["table"])
    np.copyto(s.deck, snap["deck"])
    np.copyto(s.rng, snap["rng"])
    np.copyto(env._obs, snap["obs"])
    np.copyto(env.action_mask, snap["mask"])
    np.copyto(env.current_player, snap["current"])


def assert_snapshot_equal(env, snap: dict[str, np.ndarray]) -> None:
    now = snapshot(env)
    for k, v in snap.items():
        np.testing.assert_array_equal(now[k], v, err_msg=k)


# -- the reference engine's own evaluator agrees with evaluate_3 ------------------------------
@pytest.mark.parametrize("a23", ["lowest", "second"])
def test_evaluate_3_orders_hands_like_reference(a23):
    hands = np.array(list(itertools.combinations(range(52), 3)), np.int8)
    strength = evaluate_3(hands, a23=a23)
    keys = [hand_key(h, a23) for h in hands]
    # category counts of RULES.md §2
    counts = np.bincount(category_3(strength), minlength=6)
    assert counts[::-1].tolist() == [52, 48, 1096, 720, 3744, 16440]
    assert [k[0] for k in keys] == category_3(strength).tolist()
    order = np.argsort(strength, kind="stable")
    for a, b in itertools.pairwise(order):
        sa, sb, ka, kb = strength[a], strength[b], keys[a], keys[b]
        assert (sa < sb) == (ka < kb) and (sa == sb) == (ka == kb), (hands[a], hands[b])
    special = [h for h in hands if is_235(h)]
    assert len(special) == 60 and {evaluate_3(h).item() for h in special} == {784}
    assert len(CATEGORY_NAMES) == 6


# -- 1. env == reference, step by step --------------------------------------------------------
@st.composite
def rule_options(draw) -> dict:
    n = draw(st.integers(2, 6))
    opts = {
        "num_players": n,
        "ante": draw(st.integers(0, 3)),
        "no_compare_rounds": draw(st.integers(0, 3)),
        "max_rounds": draw(st.integers(1, 6)),
        "a23": draw(st.sampled_from(["lowest", "second"])),
        "special_235": draw(st.booleans()),
    }
    if draw(st.integers(0, 3)) == 0:
        opts["first_player"] = draw(st.integers(0, n - 1))
    return opts


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=rule_options(), seed=st.integers(0, 2**64 - 1), play_seed=st.integers(0, 2**32),
       illegal_p=st.sampled_from([0.0, 0.03, 0.15]), bet_bias=st.sampled_from([0.0, 0.5, 0.9]),
       rigged=st.booleans())
def test_env_matches_reference(opts, seed, play_seed, illegal_p, bet_bias, rigged):
    """With ``rigged``, every deal is replaced by one from ``rigged_hands`` (ties, 2-3-5 and
    豹子 at the same table, split pots with odd chips); a fresh deal's observation shows no
    cards, so the env's outputs of the terminal step stay valid. Illegal actions (penalty
    mode) leave the game as it was: the reference is not stepped for them."""
    num_envs = 3
    n = opts["num_players"]
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=seed, illegal="penalty",
                        illegal_penalty=1.5, **opts)
    obs, info = env.reset()
    rng = np.random.default_rng(play_seed)
    if rigged:
        for i in range(num_envs):
            rig_deal(env, i, rigged_hands(rng, n), opts["a23"])
    games = [game_from_env(env, i, opts) for i in range(num_envs)]
    for i, g in enumerate(games):
        assert_obs_equal(obs[i], g.observation(), f"reset env {i}")
        np.testing.assert_array_equal(info["action_mask"][i], g.legal_mask())
        assert info["current_player"][i] == g.player
    for step in range(120):
        actions = pick_actions(rng, info["action_mask"], illegal_p, bet_bias)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert reward.dtype == np.float32 and reward.shape == (num_envs, opts["num_players"])
        assert not truncated.any()
        for i in range(num_envs):
            where = f"step {step} env {i} action {actions[i]}"
            if not games[i].legal_mask()[actions[i]]:
                assert info["illegal"][i] and not terminated[i], where
                want = np.zeros(n, np.float32)
                want[games[i].player] = -1.5
                np.testing.assert_array_equal(reward[i], want, err_msg=where)
                assert_state_matches(env, i, games[i])
                assert_obs_equal(obs[i], games[i].observation(), where)
                continue
            assert not info["illegal"][i], where
            res = games[i].step(int(actions[i]))
            np.testing.assert_array_equal(reward[i], res.reward.astype(np.float32),
                                          err_msg=where)
            assert terminated[i] == res.done, where
            if res.done:
                if rigged:
                    rig_deal(env, i, rigged_hands(rng, n), opts["a23"])
                games[i] = game_from_env(env, i, opts)
            else:
                assert_state_matches(env, i, games[i])
            g = games[i]
            np.testing.assert_array_equal(info["action_mask"][i], g.legal_mask(), err_msg=where)
            assert info["current_player"][i] == g.player, where
            assert_obs_equal(obs[i], g.observation(), where)


# -- simulate == reference, replaying the random policies' draws -------------------------------
@pytest.mark.parametrize("opts, policy", [
    ({}, "random"),
    ({"num_players": 3, "max_rounds": 3, "no_compare_rounds": 0, "special_235": True},
     ["random", "uniform", "random"]),
    ({"num_players": 2, "ante": 0, "a23": "second", "first_player": 1, "max_rounds": 4},
     "random"),
    ({"num_players": 5, "ante": 3, "max_rounds": 2}, "uniform"),
])
def test_simulate_matches_reference(opts, policy):
    seed, start, num = 12345, 1000, 300
    df = vecgames.simulate("zhajinhua", num, policy=policy, seed=seed, first_game=start, **opts)
    n = opts.get("num_players", 6)
    policies = [policy] * n if isinstance(policy, str) else policy
    end_seen = set()
    for row in df.itertuples(index=False):
        stream = Stream(seed, row.game)
        g = new_game_from_stream(stream, **ref_rules(opts),
                                 first_player=opts.get("first_player"))
        while not g.done:
            if policies[g.player] == "random":
                g.step(stream.random_legal(g.legal()))
            else:
                g.step(stream.uniform())
        want = {"opener": g.first, "rounds": g.rounds_played, "decisions": g.decisions,
                "end": g.end, "pot": g.pot, "winners": bitmask(g.winners)}
        for p in range(n):
            want[f"chips_{p}"] = g.chips()[p]
            want[f"category_{p}"] = g.keys[p][0]
            want[f"looked_{p}"] = int(p in g.seen)
        got = {k: getattr(row, k) for k in want}
        assert got == want, f"game {row.game}"
        end_seen.add(g.end)
    assert df["game"].tolist() == list(range(start, start + num))
    assert len(end_seen) >= 2


def test_env_deal_is_the_stream_of_its_global_index():
    env = vecgames.make("zhajinhua", num_envs=5, seed=99, env_offset=7, num_players=4)
    env.reset()
    for i in range(5):
        stream = Stream(99, 7 + i)
        assert env.state.deck[i, :12].tolist() == stream.deal(12)


# -- 2. properties over random play -----------------------------------------------------------
@pytest.mark.parametrize("opts", [
    {},
    {"num_players": 2, "ante": 0, "max_rounds": 3, "no_compare_rounds": 0},
    {"num_players": 4, "ante": 3, "max_rounds": 2, "special_235": True, "a23": "second"},
    {"num_players": 3, "ante": 2, "max_rounds": 5, "first_player": 2},
])
def test_random_play_invariants(opts):
    num_envs, steps = 256, 400
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=5, illegal="penalty", **opts)
    n, ante = env.num_players, opts.get("ante", 1)
    max_rounds = opts.get("max_rounds", 20)
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    game_reward = np.zeros((num_envs, n))
    decisions = np.zeros(num_envs, np.int64)
    finished = 0
    for _ in range(steps):
        mask = info["action_mask"].copy()
        actions = legal_actions_batch(mask, rng)
        wild = rng.random(num_envs) < 0.02
        actions[wild] = rng.integers(0, 15, wild.sum())
        first_step = decisions == 0
        obs, reward, terminated, truncated, info = env.step(actions)
        moved = ~info["illegal"]  # a wild illegal action moved nothing (penalty 0)
        decisions += moved
        game_reward += reward
        # the first step of a game charges every seat its ante (the look phase pays nothing)
        fs = first_step & ~terminated & moved
        np.testing.assert_array_equal(reward[fs], np.full((fs.sum(), n), -ante, np.float32))
        # a game's rewards sum to zero; the bound on decisions holds
        assert np.all(game_reward[terminated].sum(axis=1) == 0)
        assert np.all(decisions <= 2 * n * max_rounds)
        finished += terminated.sum()
        game_reward[terminated] = 0
        decisions[terminated] = 0
        # the pot is what the seats paid; the mask matches the phase
        paid = field(env.state, "paid")[:, :n].sum(axis=1)
        np.testing.assert_array_equal(field(env.state, "pot"), paid)
        np.testing.assert_array_equal(field(env.state, "decisions"), decisions)
        assert not truncated.any()
        assert np.all(info["action_mask"].any(axis=1))
        assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
    assert finished > num_envs


@pytest.mark.parametrize("opts", [
    {"num_players": 6, "no_compare_rounds": 0},
    {"num_players": 3, "no_compare_rounds": 1, "max_rounds": 4},
])
def test_mask_legal_accepted_illegal_changes_nothing(opts):
    """Each of the 15 actions from the same states: masked-in ones are played as such (the
    actor stays in unless it folds or loses a compare), masked-out ones (penalty mode) change
    nothing but cost the actor the penalty (the env never puts a player out for them)."""
    num_envs = 128
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=11, illegal="penalty",
                        illegal_penalty=1.0, **opts)
    n = env.num_players
    env.reset()
    rng = np.random.default_rng(3)
    checked = np.zeros((2, 15), np.int64)  # [legal?, action] cases checked
    rows = np.arange(num_envs)
    for depth in range(6):
        for _ in range(depth * 3):
            env.step(legal_actions_batch(env.action_mask, rng))
        snap = snapshot(env)
        actor = snap["current"].astype(np.int64)
        mask = snap["mask"]
        first_step = field(env.state, "decisions") == 0
        ante_charge = np.where(first_step, opts.get("ante", 1), 0)
        min_bet = field(env.state, "min_bet").copy()
        seen = (field(env.state, "seen") >> actor) & 1
        phase = field(env.state, "phase").copy()
        for a in range(15):
            restore(env, snap)
            _, reward, terminated, _, info = env.step(np.full(num_envs, a))
            actor_paid = -reward[rows, actor] - ante_charge
            alive_after = (field(env.state, "alive") >> actor) & 1
            same_game = ~terminated
            legal = mask[:, a]
            # illegal: nothing moved, the penalty (and no ante: no step of the game was taken)
            np.testing.assert_array_equal(info["illegal"], ~legal)
            assert np.all(reward[~legal].sum(axis=1) == -1.0), a
            assert np.all(reward[rows, actor][~legal] == -1.0) and np.all(same_game[~legal]), a
            for key in ("table", "deck", "rng"):
                np.testing.assert_array_equal(getattr(env.state, key)[~legal],
                                              snap[key][~legal])
            if a in (0, 1):  # a legal look-phase choice: same player, action phase next
                ok = legal & same_game
                assert np.all(alive_after[ok] == 1)
                assert np.all(field(env.state, "phase")[ok] == 1)
                assert np.all(env.current_player[ok] == actor[ok])
                assert np.all(actor_paid[ok] == 0)
            elif a == 2:
                assert np.all(alive_after[legal & same_game] == 0)
            elif a < 9:  # (a won compare that ends the game also shows the payout)
                ok = legal & same_game
                assert np.all(actor_paid[ok] == 2 * min_bet[ok]), a
            else:
                units = 1 << (a - 9)
                assert np.all(alive_after[legal & same_game] == 1), a
                ok = legal & same_game
                assert np.all(actor_paid[ok] == units * (1 + seen[ok])), a
                assert np.all(field(env.state, "min_bet")[legal & same_game] == units)
            np.add.at(checked, (legal.astype(int), a), 1)
            assert np.all(legal <= (phase == (0 if a < 2 else 1)))
        restore(env, snap)
    # every action was seen legal (seats that exist) and illegal
    assert checked[1, :3 + n].min() > 0 and checked[0].min() > 0, checked


# -- 3. determinism ---------------------------------------------------------------------------
def run_env(num_envs=8, seed=3, steps=150, env_offset=0, num_threads=None, **opts):
    """Obs, rewards, flags, masks of a run whose actions depend only on (step, global env)."""
    previous = numba.get_num_threads()
    if num_threads is not None:
        numba.set_num_threads(num_threads)
    try:
        env = vecgames.make("zhajinhua", num_envs=num_envs, seed=seed, env_offset=env_offset,
                            **opts)
        obs, info = env.reset()
        out = [obs.copy()]
        gidx = np.arange(env_offset, env_offset + num_envs)
        for step in range(steps):
            mask = info["action_mask"]
            key = (step * 7919 + gidx * 104729) % 9973
            actions = np.array([np.flatnonzero(m)[k % m.sum()] for m, k in zip(mask, key,
                                                                             strict=True)])
            obs, reward, terminated, _, info = env.step(actions)
            out += [obs.copy(), reward.copy(), terminated.copy(), mask.copy(),
                    info["current_player"].copy()]
        return out
    finally:
        numba.set_num_threads(previous)


def same_run(a, b) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_env_determinism_seeds_threads_offset():
    base = run_env(seed=3, num_players=5)
    assert same_run(base, run_env(seed=3, num_players=5))
    assert not same_run(base, run_env(seed=4, num_players=5))
    assert same_run(base, run_env(seed=3, num_players=5, num_threads=1))
    assert same_run(base, run_env(seed=3, num_players=5, num_threads=2))
    part = run_env(num_envs=4, seed=3, env_offset=4, num_players=5)
    assert same_run([x[4:8] for x in base], part)


def test_reset_with_seed_restarts_the_streams():
    env = vecgames.make("zhajinhua", num_envs=4, seed=21, num_players=3)
    obs0 = env.reset()[0].copy()
    deck0 = env.state.deck.copy()
    env.step(np.zeros(4, np.int64))
    env.reset()  # no seed: the streams go on, new deals
    assert not np.array_equal(env.state.deck, deck0)
    obs, _ = env.reset(seed=21)
    np.testing.assert_array_equal(obs, obs0)
    np.testing.assert_array_equal(env.state.deck, deck0)


def test_simulate_determinism_threads_and_shards():
    opts = {"num_players": 4, "max_rounds": 6, "special_235": True}
    base = vecgames.simulate("zhajinhua", 3000, policy="random", seed=8, **opts)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = vecgames.simulate("zhajinhua", 3000, policy="random", seed=8, **opts)
        numba.set_num_threads(2)
        two = vecgames.simulate("zhajinhua", 3000, policy="random", seed=8, **opts)
    finally:
        numba.set_num_threads(previous)
    pd.testing.assert_frame_equal(base, one)
    pd.testing.assert_frame_equal(base, two)
    kw = vecgames.simulate("zhajinhua", 3000, policy="random", seed=8, num_threads=1, **opts)
    pd.testing.assert_frame_equal(base, kw)
    assert numba.get_num_threads() == previous
    shard = vecgames.simulate("zhajinhua", 1000, policy="random", seed=8, first_game=2000,
                              **opts)
    pd.testing.assert_frame_equal(base.iloc[2000:].reset_index(drop=True), shard)
    other = vecgames.simulate("zhajinhua", 3000, policy="random", seed=9, **opts)
    assert not base.equals(other)


# -- 4. bad input -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def started_env():
    env = vecgames.make("zhajinhua", num_envs=4, seed=2, num_players=4)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(legal_actions_batch(env.action_mask, rng))
    return env


@pytest.mark.parametrize("actions, exc, words", [
    (np.zeros(3, np.int64), ValueError, "shape"),
    (np.zeros((4, 1), np.int64), ValueError, "shape"),
    (np.zeros(5, np.int64), ValueError, "shape"),
    (np.zeros(4, np.float64), TypeError, "dtype"),
    (np.zeros(4, np.bool_), TypeError, "dtype"),
    ([0, 0, 15, 0], ValueError, "in [0, 15)"),
    ([0, -2, 0, 0], ValueError, "in [0, 15)"),
    (3, ValueError, "shape"),
    (["0", "1", "0", "1"], TypeError, "dtype"),
])
def test_bad_actions_raise_and_change_nothing(started_env, actions, exc, words):
    env = started_env
    snap = snapshot(env)
    reward = env._reward.copy()
    with pytest.raises(exc, match="actions") as err:
        env.step(actions)
    assert words in str(err.value)
    assert_snapshot_equal(env, snap)
    np.testing.assert_array_equal(env._reward, reward)


def test_bad_reset_seed_changes_nothing(started_env):
    env = started_env
    snap = snapshot(env)
    for seed, exc in [(-1, ValueError), (2**64, ValueError), (1.5, TypeError),
                      (True, TypeError)]:
        with pytest.raises(exc, match="seed"):
            env.reset(seed=seed)
        assert_snapshot_equal(env, snap)


@pytest.mark.parametrize("kwargs, exc, name", [
    ({"nonsense": 1}, ValueError, "nonsense"),
    ({"num_players": 1}, ValueError, "num_players"),
    ({"num_players": 7}, ValueError, "num_players"),
    ({"num_players": "6"}, TypeError, "num_players"),
    ({"num_players": 6.0}, TypeError, "num_players"),
    ({"a23": "highest"}, ValueError, "a23"),
    ({"a23": 1}, ValueError, "a23"),
    ({"seed": -1}, ValueError, "seed"),
    ({"seed": 2**64}, ValueError, "seed"),
    ({"ante": -1}, ValueError, "ante"),
    ({"max_rounds": 0}, ValueError, "max_rounds"),
    ({"no_compare_rounds": -1}, ValueError, "no_compare_rounds"),
    ({"special_235": 1}, TypeError, "special_235"),
    ({"first_player": 4, "num_players": 4}, ValueError, "first_player"),
    ({"num_envs": 0}, ValueError, "num_envs"),
    ({"env_offset": -1}, ValueError, "env_offset"),
])
def test_bad_options_raise_naming_the_argument(kwargs, exc, name):
    with pytest.raises(exc, match=name):
        vecgames.make("zhajinhua", **kwargs)


def test_bad_simulate_arguments():
    with pytest.raises(ValueError, match="num_players"):
        vecgames.simulate("zhajinhua", 10, num_players=7)
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate("zhajinhua", 10, policy="clever")
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate("zhajinhua", 10, policy=["random"] * 5)
    with pytest.raises(ValueError, match="unknown option"):
        vecgames.simulate("zhajinhua", 10, max_round=3)
    with pytest.raises(ValueError, match="num_games"):
        vecgames.simulate("zhajinhua", 0)


def test_step_before_reset():
    env = vecgames.make("zhajinhua", num_envs=2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))


# -- 5. rule options --------------------------------------------------------------------------
def play_to_showdown(special_235: bool, games: int = 25, num_envs: int = 4096):
    """Everyone stays blind and bets 1 with max_rounds=1, so each game is 12 steps and a
    showdown. Returns per game: hands [6, 3], opener, payout rewards [6]."""
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=77, max_rounds=1,
                        special_235=special_235)
    env.reset()
    out = []
    for _ in range(games):
        hands = env.state.deck[:, :18].reshape(num_envs, 6, 3).copy()
        first = field(env.state, "first").copy()
        total = np.zeros((num_envs, 6))
        for step in range(12):
            _, reward, terminated, _, info = env.step(np.full(num_envs, 0 if step % 2 == 0
                                                              else 9))
            total += reward
            assert terminated.all() == (step == 11)
        out.append((hands, first, total + 2))  # +2: the ante and the bet give the payout
    return out


def test_special_235_showdown():
    plain = play_to_showdown(False)
    special = play_to_showdown(True)
    hits = 0
    for (hands, first, payout), (hands2, _, payout2) in zip(plain, special, strict=True):
        np.testing.assert_array_equal(hands, hands2)  # same deals: options don't touch rng
        strength = evaluate_3(hands)
        trips = (strength >> 12 == 5).any(axis=1)
        has235 = (strength == 784).any(axis=1)
        both = np.flatnonzero(trips & has235)
        for i in both:
            winners_plain = set(np.flatnonzero(strength[i] == strength[i].max()))
            winners_special = set(np.flatnonzero(strength[i] == 784))
            assert set(np.flatnonzero(payout[i])) == winners_plain
            assert set(np.flatnonzero(payout2[i])) == winners_special
            g = Game(list(hands[i]), int(first[i]), max_rounds=1, special_235=True)
            for _ in range(6):
                g.step(0)
                g.step(9)
            np.testing.assert_array_equal(payout2[i], np.array(g.payout))
        others = np.flatnonzero(~(trips & has235))
        np.testing.assert_array_equal(payout[others], payout2[others])
        assert np.all(payout.sum(axis=1) == 12)  # the pot: 6 antes and 6 bets of 1
        hits += both.size
    assert hits >= 3


def test_special_235_compare_beats_trips_reference_semantics():
    # 2c 3d 5h against trips: the comparer with 2-3-5 wins only under special_235
    hands = [[0, 5, 14], [48, 49, 50]]  # 2c 3d 5h | Ac Ad Ah
    for special, loser in [(False, 0), (True, 1)]:
        env = vecgames.make("zhajinhua", num_envs=1, seed=0, num_players=2, first_player=0,
                            no_compare_rounds=0, special_235=special)
        env.reset()
        deck = env.state.deck
        deck[0, :6] = np.array(hands, np.int8).ravel()
        field(env.state, "strength")[0, :2] = evaluate_3(np.array(hands, np.int8))
        env.step(np.array([0]))
        _, reward, terminated, _, _ = env.step(np.array([4]))  # seat 0 compares with seat 1
        assert terminated[0]
        g = Game(hands, 0, num_players=2, no_compare_rounds=0, special_235=special)
        g.step(0)
        res = g.step(4)
        assert res.done and g.end == "compare"
        np.testing.assert_array_equal(reward[0], res.reward.astype(np.float32))
        assert g.payout[loser] == 0 and g.payout[1 - loser] == 4
        assert reward[0, 1 - loser] == 4 - (2 if 1 - loser == 0 else 0)


def test_first_player_fixed_and_random():
    env = vecgames.make("zhajinhua", num_envs=512, seed=4, num_players=5, first_player=3)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert np.all(field(env.state, "first") == 3)
        new_game = field(env.state, "decisions") == 0
        assert np.all(info["current_player"][new_game] == 3)
        _, _, _, _, info = env.step(legal_actions_batch(info["action_mask"], rng))
    env = vecgames.make("zhajinhua", num_envs=5000, seed=4, num_players=5)
    env.reset()
    counts = np.bincount(field(env.state, "first"), minlength=5)
    assert counts.min() > 850 and counts.max() < 1150, counts  # 1000 +- ~5 sigma
    np.testing.assert_array_equal(env.current_player, field(env.state, "first"))


def test_no_compare_rounds():
    for ncr, can in [(0, True), (1, False), (3, False)]:
        env = vecgames.make("zhajinhua", num_envs=64, seed=1, num_players=4,
                            no_compare_rounds=ncr)
        obs, info = env.reset()
        assert np.all(obs[:, 255] == can)
        obs, _, _, _, info = env.step(np.zeros(64, np.int64))  # stay blind
        mask = info["action_mask"]
        actor = info["current_player"].copy()
        compares = mask[:, 3:9]
        assert np.all(compares[np.arange(64), actor] == 0)
        assert np.all(compares[:, :4].all(axis=1) == 0)  # the actor is never a target
        assert np.all(compares[:, 4:] == 0)  # seats 4, 5 don't exist
        assert np.all(compares.sum(axis=1) == (3 if can else 0))
        if can:
            target = (actor + 1) % 4
            _, reward, terminated, _, _ = env.step(3 + target.astype(np.int64))
            assert not terminated.any()
            np.testing.assert_array_equal(reward[np.arange(64), actor], -2.0)
            alive = field(env.state, "alive")
            out = ((alive >> actor) & 1) + ((alive >> target) & 1)
            assert np.all(out == 1)  # exactly one of the two went out


def test_ante_zero_and_three():
    for ante in (0, 3):
        env = vecgames.make("zhajinhua", num_envs=16, seed=2, num_players=3, ante=ante)
        env.reset()
        assert np.all(field(env.state, "pot") == 3 * ante)
        _, reward, _, _, _ = env.step(np.zeros(16, np.int64))
        np.testing.assert_array_equal(reward, np.full((16, 3), -ante, np.float32))
        _, reward, _, _, _ = env.step(np.full(16, 9))
        actor_reward = reward.sum(axis=1)
        np.testing.assert_array_equal(actor_reward, -1.0)


# -- 6. policies ------------------------------------------------------------------------------
def test_random_policy_never_illegal_uniform_sometimes():
    df = vecgames.simulate("zhajinhua", 20_000, policy="random", seed=3)
    counts = df["end"].value_counts()
    assert counts.get("illegal", 0) == 0
    assert counts.get("fold", 0) > 0 and counts.get("compare", 0) > 0
    assert (df["decisions"] <= 2 * 6 * 20).all()
    chips = df[[f"chips_{p}" for p in range(6)]].to_numpy()
    assert (chips.sum(axis=1) == 0).all()
    df = vecgames.simulate("zhajinhua", 5_000, policy="uniform", seed=3)
    assert (df["end"] == "illegal").sum() > 0


def test_heuristic_beats_random():
    df = vecgames.simulate("zhajinhua", 50_000, seed=0,
                           policy=["heuristic"] + ["random"] * 5)
    chips = df["chips_0"].to_numpy(np.float64)
    mean, se = chips.mean(), chips.std(ddof=1) / np.sqrt(chips.size)
    assert mean - 1.96 * se > 0, (mean, se)


def test_simulate_summary_and_action_counts_match_games():
    opts = {"num_players": 3, "max_rounds": 4, "no_compare_rounds": 0}
    policy = ["random", "uniform", "heuristic"]
    games = vecgames.simulate("zhajinhua", 4000, policy=policy, seed=6, record_actions=True,
                              **opts)
    summary = vecgames.simulate("zhajinhua", 4000, policy=policy, seed=6, summary=True, **opts)
    one_thread = vecgames.simulate("zhajinhua", 4000, policy=policy, seed=6, summary=True,
                                   num_threads=1, **opts)
    pd.testing.assert_frame_equal(summary, one_thread)
    assert summary.attrs["end_counts"] == one_thread.attrs["end_counts"]
    chips = games[[f"chips_{p}" for p in range(3)]].to_numpy()
    np.testing.assert_allclose(summary["mean_chips"], chips.mean(axis=0))
    np.testing.assert_allclose(summary["std_chips"], chips.std(axis=0))
    bits = (games["winners"].to_numpy()[:, None] >> np.arange(3)) & 1
    np.testing.assert_allclose(summary["win_share"],
                               (bits / bits.sum(axis=1, keepdims=True)).mean(axis=0))
    ends = games["end"].value_counts()
    assert summary.attrs["end_counts"] == {k: int(ends.get(k, 0)) for k in
                                           ("fold", "compare", "showdown", "illegal")}
    assert summary.attrs["mean_decisions"] == pytest.approx(games["decisions"].mean())
    counts = games.attrs["action_counts"]
    assert counts.shape == (4, 2, 2, 15) and counts.sum() == games["decisions"].sum()
    # a look while seen is illegal and puts the seat out: at most once per seat and game
    assert counts[:, 0, 1, 1].sum() <= 3 * len(games)
    assert counts[0].sum() > counts[-1].sum() > 0


@numba.njit
def _both_picks(s, r, out):
    """For every env: the random policy's action, and the k-th legal action by bit order from
    the same draw (the random streams are left as they were)."""
    for i in range(s.rng.shape[0]):
        saved = s.rng[i]
        out[i, 0] = random_legal(s, i, r)
        s.rng[i] = saved
        out[i, 1] = pick_set_bit(legal_bits(s, i, r), next_u64(s.rng, i))
        s.rng[i] = saved


@pytest.mark.parametrize("opts", [{}, {"num_players": 2},
                                  {"num_players": 4, "no_compare_rounds": 0},
                                  {"num_players": 5, "no_compare_rounds": 3, "max_rounds": 6}])
def test_random_policy_is_the_uniform_pick_over_the_legal_bits(opts):
    # random_legal decodes its pick by kind (fold, compares, bets) for speed; it must equal
    # the k-th set bit of the legal mask for the same draw, in both phases and every round.
    env = vecgames.make("zhajinhua", num_envs=256, seed=11, **opts)
    env.reset()
    rng = np.random.default_rng(0)
    picks = np.zeros((env.num_envs, 2), np.int64)
    kinds = set()
    for _ in range(120):
        _both_picks(env.state, env.rules, picks)
        np.testing.assert_array_equal(picks[:, 0], picks[:, 1])
        kinds.update(np.digitize(picks[:, 0], [2, 3, 9]))  # look phase, fold, compare, bet
        mask = env.action_mask
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        env.step(actions)
    assert kinds == {0, 1, 2, 3}
