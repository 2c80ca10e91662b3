"""Da Yaoguai (RULES.md §5): the beating relation, properties over random play, the env."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.games.dayaoguai import beats, card_name
from vecgames.games.dayaoguai.players import policy_action
from vecgames.games.dayaoguai.rules import (
    DIAMOND_JACK,
    HAND,
    IN_PLAY,
    ON_TABLE,
    PASS,
    PLAYER,
    TABLE_N,
    TOP,
    field,
    legal_bits,
    make_rules,
    new_state,
    reset_one,
    step_one,
)

# Row: the card played (J Q K 3 8 5 10); column: the card under it. 1 = may be played on it.
#            J  Q  K  3  8  5  10
BEATS_TABLE = [
    [0, 0, 0, 0, 0, 0, 1],  # J: small monster takes only the master
    [1, 0, 0, 0, 0, 0, 1],  # Q
    [1, 1, 0, 0, 0, 0, 1],  # K
    [1, 1, 1, 0, 0, 0, 0],  # 3 沙僧
    [1, 1, 1, 1, 0, 0, 0],  # 8 八戒
    [1, 1, 1, 1, 1, 0, 0],  # 5 悟空
    [0, 0, 0, 1, 1, 1, 0],  # 10 唐僧 takes the disciples
]


def test_beating_relation_is_the_rulebook_table():
    for ra in range(7):
        for rb in range(7):
            for sa in range(4):
                for sb in range(4):
                    assert beats(4 * ra + sa, 4 * rb + sb) == bool(BEATS_TABLE[ra][rb])
    assert card_name(DIAMOND_JACK) == "J♦" and card_name(27) == "10♦"
    with pytest.raises(ValueError, match="card_a"):
        beats(28, 0)


def run_game(players, seed, policy, max_steps=300, must_beat=False):
    r = make_rules(num_players=players, max_steps=max_steps, must_beat=must_beat)
    s = new_state(1)
    s.rng[0] = np.uint64(seed) * np.uint64(2654435761) + np.uint64(1)
    reset_one(s, 0, r)
    t = s.table[0]
    assert t[PLAYER] == next(p for p in range(players) if (t[HAND + p] >> DIAMOND_JACK) & 1)
    assert legal_bits(t, r) == 1 << DIAMOND_JACK  # the forced lead
    dealt = sum(bin(int(t[HAND + p])).count("1") for p in range(players))
    total_beans = 0
    steps = 0
    while True:
        p = int(t[PLAYER])
        before_table = int(t[ON_TABLE])
        before_hand = int(t[HAND + p])
        top = int(t[TOP])
        a = int(policy_action(policy, s, 0, r))
        reward = np.zeros(6)
        legal, done, cut = step_one(s, 0, a, r, reward)
        assert legal
        steps += 1
        total_beans += reward.sum()
        if a == PASS:
            if must_beat:  # the seed's rule: a pickup only when no held card beats
                assert not any((before_hand >> c) & 1 and beats(c, top) for c in range(28))
            assert before_table and t[ON_TABLE] == 0 and t[TOP] == -1
            assert (t[HAND + p] & before_table) == before_table  # the table went to the picker
            n = bin(before_table).count("1")
            assert reward[p] == -n * (players - 1) and (np.delete(reward[:players], p) == n).all()
            assert t[PLAYER] == p  # the picker leads
        else:
            if top >= 0:
                assert beats(a, top)
            assert reward.sum() == 0
        hands = [int(t[HAND + q]) for q in range(players)]
        held = sum(bin(h).count("1") for h in hands) + int(t[TABLE_N])
        assert held == dealt  # cards conserved
        union = 0
        for h in hands + [int(t[ON_TABLE])]:
            assert union & h == 0  # no card twice
            union |= h
        if done or cut:
            break
    assert total_beans == 0 and steps <= max_steps
    in_play = int(t[IN_PLAY])
    assert done == (bin(in_play).count("1") <= 1) and cut == (not done)
    return done


@settings(max_examples=40)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), policy=st.integers(0, 3),
       must_beat=st.booleans())
def test_random_games_keep_the_invariants(players, seed, policy, must_beat):
    run_game(players, seed, policy, must_beat=must_beat)


def test_games_end_by_the_rules():
    ends = [run_game(4, seed, 1, max_steps=2000) for seed in range(40)]
    assert any(ends)  # some games end with at most one seat holding cards


def test_env_and_bad_input():
    env = vecgames.make("dayaoguai", num_envs=3, seed=1)
    obs, info = env.reset()
    assert obs.shape == (3, 215) and info["action_mask"].shape == (3, 29)
    assert (info["action_mask"].sum(axis=1) == 1).all() and info["action_mask"][:, 3].all()
    with pytest.raises(ValueError, match=r"dayaoguai env 0: action 28 .*legal actions: \[3\]"):
        env.step([PASS, 0, 3])  # only the 方块J may open
    env = vecgames.make("dayaoguai", num_envs=3, seed=1, illegal="penalty")
    env.reset()
    obs, reward, term, trunc, info = env.step([PASS, 0, 3])
    assert info["illegal"].tolist() == [True, True, False]
    assert info["action_mask"][2, PASS]  # a card on the table: passing picks it up
    before = env.state.table.copy()
    with pytest.raises(ValueError, match="actions must be in"):
        env.step([29, 0, 0])
    with pytest.raises(TypeError, match="integer"):
        env.step([0.5, 0, 0])
    with pytest.raises(ValueError, match="num_players"):
        vecgames.make("dayaoguai", num_players=2)
    with pytest.raises(ValueError, match="unknown option"):
        vecgames.make("dayaoguai", wild=True)
    np.testing.assert_array_equal(env.state.table, before)  # bad input changed nothing
    assert "table: J♦" in env.render(2)


def test_illegal_actions_change_nothing():
    env = vecgames.make("dayaoguai", num_envs=2, seed=4, illegal="penalty")
    env.reset()
    before = env.state.table.copy()
    obs, reward, term, trunc, info = env.step([PASS, 0])  # before the forced 方块J lead
    assert info["illegal"].all() and not reward.any()
    np.testing.assert_array_equal(env.state.table, before)


def test_same_results_on_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 Numba threads")
    runs = []
    for threads in (1, 2):
        df = vecgames.simulate("dayaoguai", 3000, seed=3, num_threads=threads,
                               policy=["weakest", "random", "pickup", "random"])
        env = vecgames.make("dayaoguai", num_envs=33, seed=3)
        numba.set_num_threads(threads)
        try:
            obs, info = env.reset()
            rng = np.random.default_rng(0)
            trace = []
            for _ in range(50):
                a = [rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]
                obs, reward, *_, info = env.step(a)
                trace += [obs.copy(), reward.copy()]
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        runs.append((df, trace))
    assert runs[0][0].equals(runs[1][0])
    for a, b in zip(runs[0][1], runs[1][1], strict=True):
        np.testing.assert_array_equal(a, b)


def test_simulate_columns_and_summary():
    df = vecgames.simulate("dayaoguai", 2000, seed=5, policy="weakest", max_steps=500)
    beans = df.filter(like="beans_").to_numpy()
    assert (beans.sum(axis=1) == 0).all()
    assert ((df["monsters_0"] + df["disciples_0"] + df["masters_0"]) == 7).all()
    assert (df["steps"] <= 500).all() and (df["truncated"] == (df["place_0"] == 0)).any()
    summary = vecgames.simulate("dayaoguai", 2000, seed=5, policy="weakest", max_steps=500,
                                summary=True)
    np.testing.assert_allclose(summary["mean_beans"], beans.mean(axis=0))
    assert summary.attrs["truncated"] == int(df["truncated"].sum())
    assert field(vecgames.make("dayaoguai", num_envs=1).state, "hand").shape == (1, 6)
