"""Liar's Dice rules (RULES.md §3): bid comparisons, action ids, the env kernel against a
Python reading of the rules, and properties over random play."""

from __future__ import annotations

import math
from fractions import Fraction

import numba
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.games.liars_dice import (
    action_to_bid,
    bid_beats,
    bid_to_action,
    format_bid,
    num_actions,
    parse_bid,
)
from vecgames.games.liars_dice.odds import TAIL, tail_probability
from vecgames.games.liars_dice.players import env_actions
from vecgames.games.liars_dice.rules import field

# ---------------------------------------------------------------- bid comparisons (the seed's)

BEATS = [
    # same mode, 飞: count first, then face 2<3<4<5<6
    (("fei", 4, 5), ("fei", 5, 2), True),
    (("fei", 4, 5), ("fei", 4, 6), True),
    (("fei", 4, 5), ("fei", 4, 5), False),
    (("fei", 4, 5), ("fei", 4, 3), False),
    (("fei", 4, 5), ("fei", 3, 6), False),
    # same mode, 斋: face order 2<3<4<5<6<1
    (("zhai", 3, 6), ("zhai", 3, 1), True),
    (("zhai", 3, 1), ("zhai", 3, 6), False),
    (("zhai", 3, 1), ("zhai", 4, 2), True),
    (("zhai", 3, 2), ("zhai", 3, 3), True),
    (("zhai", 3, 1), ("zhai", 3, 1), False),
    # 斋 after 飞: count >= ceil(previous / 2), face ignored
    (("fei", 4, 5), ("zhai", 2, 3), True),
    (("fei", 5, 6), ("zhai", 3, 2), True),
    (("fei", 5, 6), ("zhai", 2, 1), False),
    (("fei", 7, 2), ("zhai", 4, 2), True),
    (("fei", 7, 2), ("zhai", 3, 1), False),
    # 飞 after 斋: count >= 2 x previous, face ignored
    (("zhai", 2, 3), ("fei", 4, 2), True),
    (("zhai", 2, 1), ("fei", 4, 2), True),
    (("zhai", 2, 1), ("fei", 3, 6), False),
    (("zhai", 5, 6), ("fei", 10, 2), True),
    (("zhai", 5, 6), ("fei", 9, 6), False),
]


@pytest.mark.parametrize(("prev", "bid", "expected"), BEATS)
def test_bid_beats_table(prev, bid, expected):
    assert bid_beats(prev, bid) is expected


def test_the_seed_cycle_is_legal_bid_by_bid():
    # 飞 4x5 < 斋 2x3 < 飞 4x2 < 飞 4x5: why repeats must be forbidden
    cycle = [("fei", 4, 5), ("zhai", 2, 3), ("fei", 4, 2), ("fei", 4, 5)]
    assert all(bid_beats(a, b) for a, b in zip(cycle, cycle[1:], strict=False))


@pytest.mark.parametrize(("players", "count", "expected"),
                         [(2, 2, False), (2, 3, True), (5, 5, False), (5, 6, True)])
def test_first_bid_needs_count_above_players(players, count, expected):
    for bid in (("fei", count, 4), ("zhai", count, 1)):
        assert bid_beats(None, bid, num_players=players) is expected


def test_bad_bids_are_named():
    with pytest.raises(ValueError, match="face 1 cannot be bid in 飞"):
        bid_beats(("fei", 3, 4), ("fei", 4, 1))
    with pytest.raises(ValueError, match="mode must be 'fei' or 'zhai'"):
        bid_beats(("fei", 3, 4), ("wild", 4, 2))
    with pytest.raises(ValueError, match="bid face"):
        bid_to_action(("zhai", 3, 7), 2)
    with pytest.raises(ValueError, match="bid count"):
        bid_to_action(("zhai", 11, 2), 2)  # 2 players x 5 dice
    with pytest.raises(TypeError, match="tuple"):
        bid_beats(None, "fei 3 4", num_players=2)
    with pytest.raises(ValueError, match="num_players is required"):
        bid_beats(None, ("fei", 3, 4))
    with pytest.raises(ValueError, match="action"):
        action_to_bid(111, 2)


def test_chinese_mode_names_and_text():
    assert bid_to_action(("飞", 3, 4), 2) == bid_to_action(("fei", 3, 4), 2)
    assert bid_to_action(("斋", 3, 1), 2) == bid_to_action(("zhai", 3, 1), 2)
    assert parse_bid("fei 7 4") == ("fei", 7, 4)
    assert parse_bid("3x1 zhai") == ("zhai", 3, 1)
    assert parse_bid("c") is None
    assert format_bid(("zhai", 3, 1)) == "3 x 1 (zhai)"
    with pytest.raises(ValueError, match="cannot read a bid"):
        parse_bid("seven fours")


@pytest.mark.parametrize(("players", "dice"), [(2, 5), (3, 5), (4, 2), (6, 3)])
def test_action_ids_round_trip_in_bid_order(players, dice):
    n = num_actions(players, dice)
    assert n == 1 + 11 * players * dice
    assert action_to_bid(0, players, dice) is None
    bids = [action_to_bid(a, players, dice) for a in range(1, n)]
    assert len(set(bids)) == n - 1
    for a, bid in enumerate(bids, start=1):
        assert bid_to_action(bid, players, dice) == a
    # within a mode a larger id is a larger bid
    for a, b in zip(bids, bids[1:], strict=False):
        if a[0] == b[0]:
            assert bid_beats(a, b) and not bid_beats(b, a)
    assert bids[0] == ("fei", 1, 2) and bids[5 * players * dice] == ("zhai", 1, 2)
    assert bids[-1] == ("zhai", players * dice, 1)


# ---------------------------------------------------------------- the env against the rules


def legal_by_rules(last_bid, made, players, dice, basic=False):
    """The legal action ids by bid_beats and the no-repeat rule (``basic``: 飞 bids only)."""
    legal = [0] if last_bid is not None else []
    for a in range(1, num_actions(players, dice)):
        bid = action_to_bid(a, players, dice)
        if basic and bid[0] == "zhai":
            continue
        if bid_beats(last_bid, bid, num_players=players) and bid not in made:
            legal.append(a)
    return legal


def counted(dice_by_seat, bid):
    mode, _, face = bid
    faces = [d for seat in dice_by_seat for d in seat]
    return sum(d == face or (mode == "fei" and d == 1) for d in faces)


def play_checked(players, dice, rounds, seed, steps, env_seed_mix=0, variant="zhai_fei"):
    """Drive 8 envs with random legal actions (and some illegal ones), checking each step
    against a Python model of the rules."""
    env = vecgames.make("liars_dice", num_envs=8, num_players=players, dice=dice,
                        num_rounds=rounds, seed=seed, illegal="penalty", variant=variant)
    obs, info = env.reset()
    rng = np.random.default_rng(seed + env_seed_mix)
    history = [[] for _ in range(8)]  # bids of the round, per env
    points = [[0] * players for _ in range(8)]
    for _ in range(steps):
        mask = info["action_mask"].copy()
        player = info["current_player"].copy()
        dice_before = [env.dice(i) for i in range(8)]
        for i in range(8):
            last = history[i][-1] if history[i] else None
            expected = legal_by_rules(last, history[i], players, dice, variant == "basic")
            assert np.flatnonzero(mask[i]).tolist() == expected
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        illegal = rng.random(8) < 0.2
        for i in np.flatnonzero(illegal):
            bad = np.flatnonzero(~mask[i])
            actions[i] = rng.choice(bad)
        table_before = env.state.table.copy()
        obs, reward, term, trunc, info = env.step(actions)
        assert not trunc.any()
        np.testing.assert_allclose(reward.sum(axis=1), 0.0, atol=1e-6)
        for i in range(8):
            p = int(player[i])
            assert info["illegal"][i] == illegal[i]
            if illegal[i]:  # penalty mode: nothing moves, not even the step count
                np.testing.assert_array_equal(env.state.table[i], table_before[i])
                assert info["current_player"][i] == p
                assert not info["round_over"][i] and reward[i].tolist() == [0.0] * players
                continue
            a = int(actions[i])
            if a != 0:
                history[i].append(action_to_bid(a, players, dice))
                assert info["current_player"][i] == (p + 1) % players
                assert not info["round_over"][i]
                continue
            bid = history[i][-1]
            holds = counted(dice_before[i], bid) >= bid[1]
            loser = p if holds else (p - 1) % players
            assert info["round_over"][i] and info["loser"][i] == loser
            assert reward[i, loser] == -1.0
            points[i][loser] += 1
            history[i] = []
            if term[i]:
                assert info["final_penalty_points"][i].tolist() == points[i]
                assert sum(points[i]) == rounds
                points[i] = [0] * players
            else:
                assert info["current_player"][i] == loser  # the loser opens the next round
                assert info["penalty_points"][i].tolist() == points[i]
    return env


@pytest.mark.parametrize(("players", "dice", "rounds"), [(2, 5, 1), (3, 2, 3), (4, 3, 2)])
def test_env_follows_the_rules(players, dice, rounds):
    play_checked(players, dice, rounds, seed=players * 7 + dice, steps=120)


def test_illegal_action_changes_nothing():
    env = vecgames.make("liars_dice", num_envs=4, seed=3, illegal="penalty",
                        illegal_penalty=0.5)
    obs, info = env.reset()
    before_obs = obs.copy()
    before = env.state.table.copy()
    obs, reward, term, trunc, info = env.step(np.zeros(4, np.int64))  # challenge with no bid
    assert info["illegal"].all() and not term.any()
    np.testing.assert_array_equal(env.state.table, before)  # not even the step count
    np.testing.assert_array_equal(obs, before_obs)
    p = info["current_player"]
    assert (reward[np.arange(4), p] == -0.5).all()
    assert reward.sum() == pytest.approx(-2.0)


def test_rewards_options():
    env = vecgames.make("liars_dice", num_envs=64, num_players=3, seed=5, reward="seed")
    _, info = env.reset()
    seen = 0
    for _ in range(60):
        _, reward, term, _, info = env.step(env_actions(env, "random"))
        for i in np.flatnonzero(info["round_over"]):
            loser = info["loser"][i]
            assert reward[i, loser] == -1 and (np.delete(reward[i], loser) == 1.0).all()
            seen += 1
    assert seen > 0
    env = vecgames.make("liars_dice", num_envs=64, num_players=3, seed=5)
    env.reset()
    for _ in range(60):
        _, reward, term, _, info = env.step(env_actions(env, "random"))
        for i in np.flatnonzero(info["round_over"]):
            assert sorted(reward[i].tolist()) == [-1.0, 0.5, 0.5]


def test_repeat_cycle_and_truncation():
    cycle = [bid_to_action(b, 2) for b in
             (("fei", 4, 5), ("zhai", 2, 3), ("fei", 4, 2), ("fei", 4, 5))]
    env = vecgames.make("liars_dice", num_envs=1, seed=0)
    env.reset()
    for a in cycle[:3]:
        _, _, _, _, info = env.step([a])
        assert not info["illegal"][0]
    with pytest.raises(ValueError, match="liars_dice env 0: action"):
        env.step([cycle[3]])  # a bid already made this round
    # without the no-repeat rule the cycle runs until the step cap truncates the match
    env = vecgames.make("liars_dice", num_envs=1, seed=0, forbid_repeat_bids=False,
                        max_round_steps=10)
    env.reset()
    for k in range(10):
        _, reward, term, trunc, info = env.step([cycle[k % 3]])
        assert not info["illegal"][0] and not term[0]
        assert trunc[0] == (k == 9) and (reward == 0).all()
    assert field(env.state, "bids")[0] == 0  # a new match


def test_first_player_of_a_match_is_random():
    env = vecgames.make("liars_dice", num_envs=4000, num_players=4, seed=9)
    _, info = env.reset()
    counts = np.bincount(info["current_player"], minlength=4)
    assert counts.min() > 850  # 1000 expected per seat


def test_rolls_are_uniform():
    env = vecgames.make("liars_dice", num_envs=20000, num_players=2, seed=1)
    env.reset()
    seats = field(env.state, "dice")[:, :2]
    faces = np.array([[(seats >> (4 * f)) & 15 for f in range(6)]]).sum(axis=(0, 2, 3))
    assert faces.sum() == 20000 * 10
    expected = 20000 * 10 / 6
    chi2 = ((faces - expected) ** 2 / expected).sum()
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


# ---------------------------------------------------------------- properties


@settings(max_examples=25)
@given(players=st.integers(2, 5), dice=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_rounds_end_within_the_bound(players, dice, seed):
    df = vecgames.simulate("liars_dice", 200, seed=seed, num_players=players, dice=dice)
    assert (df["end"] == "challenge").all()
    assert df["bids"].max() <= 11 * players * dice
    assert ((df["loser"] == df["challenger"]) == (df["actual"] >= df["count"])).all()


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_masks_match_bid_beats_over_random_play(seed, players):
    play_checked(players, 2, 2, seed=seed, steps=25)


def test_same_results_on_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 Numba threads")
    runs = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        try:
            env = vecgames.make("liars_dice", num_envs=257, num_players=3, num_rounds=2, seed=4)
            obs, _ = env.reset()
            trace = [obs.copy()]
            for _ in range(30):
                obs, reward, *_ = env.step(env_actions(env, "random"))
                trace += [obs.copy(), reward.copy()]
            df = vecgames.simulate("liars_dice", 3000, seed=4, num_players=3, num_rounds=2)
            runs.append((trace, df))
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for a, b in zip(runs[0][0], runs[1][0], strict=True):
        np.testing.assert_array_equal(a, b)
    assert runs[0][1].equals(runs[1][1])
    df = vecgames.simulate("liars_dice", 3000, seed=4, num_players=3, num_rounds=2,
                           num_threads=1)
    assert df.equals(runs[0][1])


def test_simulate_shards_are_the_run():
    whole = vecgames.simulate("liars_dice", 500, seed=2, num_rounds=3)
    a = vecgames.simulate("liars_dice", 200, seed=2, num_rounds=3)
    b = vecgames.simulate("liars_dice", 300, seed=2, num_rounds=3, first_game=200)
    assert pd.concat([a, b], ignore_index=True).equals(whole)


def test_simulate_summary_agrees_with_rows():
    rows = vecgames.simulate("liars_dice", 20000, seed=6, num_players=3, num_rounds=2,
                             policy=["random", "heuristic", "random"])
    summary = vecgames.simulate("liars_dice", 20000, seed=6, num_players=3, num_rounds=2,
                                policy=["random", "heuristic", "random"], summary=True)
    lost = rows["loser"].value_counts().sort_index()
    assert summary["rounds_lost"].tolist() == lost.tolist()
    per_match = rows.pivot_table(index="game", columns="loser", aggfunc="size",
                                 fill_value=0).reindex(columns=range(3), fill_value=0)
    np.testing.assert_allclose(summary["std_penalty"], per_match.std(ddof=0), rtol=1e-9)
    assert summary.attrs["mean_bids"] == pytest.approx(rows["bids"].mean())
    # the heuristic seat loses far fewer rounds than its share
    assert summary["loss_rate"][1] < 0.1


# ---------------------------------------------------------------- observations


def seed_features(dice, players, history, total):
    own = [dice.count(f) for f in range(1, 7)]
    out = own + [players] + [0.0] * 15
    if not history:
        return out
    mode, count, face = history[-1]
    out[7] = count / total
    out[8 + face - 1] = 1.0
    out[14 + (mode == "zhai")] = 1.0
    out[16] = len(history) / total
    out[17] = sum(b[1] for b in history) / len(history) / total
    out[18] = max(b[1] for b in history) / total
    mine = sum(d == face or (mode == "fei" and d == 1) for d in dice)
    p = Fraction(1, 3) if mode == "fei" else Fraction(1, 6)
    unknown = total - len(dice)
    need = count - mine
    out[19] = float(sum(math.comb(unknown, j) * p**j * (1 - p) ** (unknown - j)
                        for j in range(max(need, 0), unknown + 1)))
    if len(history) > 1:
        out[20] = (count - history[-2][1]) / total
        out[21] = float(mode != history[-2][0])
    return out


def test_seed_observation_matches_its_definition():
    env = vecgames.make("liars_dice", num_envs=16, num_players=3, seed=8, observation="seed")
    obs, info = env.reset()
    assert obs.shape == (16, 22)
    history = [[] for _ in range(16)]
    for _ in range(40):
        for i in range(16):
            p = info["current_player"][i]
            expected = seed_features(env.dice(i)[p], 3, history[i], 15)
            np.testing.assert_allclose(obs[i], expected, rtol=1e-6, atol=1e-6)
        actions = env_actions(env, "random")
        for i, a in enumerate(actions):
            history[i] = [] if a == 0 else history[i] + [env.bid(int(a))]
        obs, *_, info = env.step(actions)


def test_full_observation_layout():
    env = vecgames.make("liars_dice", num_envs=4, num_players=2, num_rounds=3, seed=2)
    obs, info = env.reset()
    assert env.obs_dim == 8 + 4 + 2 * 110 and obs.shape == (4, env.obs_dim)
    a = np.array([bid_to_action(("fei", 4, 5), 2)] * 4)
    obs, *_, info = env.step(a)
    made, last = 12, 12 + 110
    assert (obs[:, made + a[0] - 1] == 1).all() and (obs[:, last + a[0] - 1] == 1).all()
    assert obs[:, made:made + 110].sum() == 4 and obs[:, last:last + 110].sum() == 4
    for i in range(4):
        p = info["current_player"][i]
        own = env.dice(i)[p]
        np.testing.assert_allclose(obs[i, :6], [own.count(f) / 5 for f in range(1, 7)])
        assert obs[i, 6 + p] == 1 and obs[i, 6:8].sum() == 1


# ---------------------------------------------------------------- odds


def test_tail_table_is_exact():
    for mode in (0, 1):
        for n in (0, 1, 5, 13, 40):
            for k in range(-1, n + 3):
                exact = tail_probability(mode, n, k)
                assert TAIL[mode, n, min(max(k, 0), n + 1)] == pytest.approx(float(exact),
                                                                             abs=1e-12)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("options", "error", "match"), [
    ({"num_players": 1}, ValueError, "num_players"),
    ({"num_players": 9}, ValueError, "num_players"),
    ({"dice": 1}, ValueError, "dice"),
    ({"dice": 11}, ValueError, "dice"),
    ({"num_rounds": 0}, ValueError, "num_rounds"),
    ({"reward": "sum"}, ValueError, "reward"),
    ({"variant": "classic"}, ValueError, "variant"),
    ({"variant": 1}, ValueError, "variant"),
    ({"illegal": "penalty", "illegal_penalty": -1}, ValueError, "illegal_penalty"),
    ({"illegal": "penalty", "illegal_penalty": "x"}, TypeError, "illegal_penalty"),
    ({"illegal_penalty": 1.0}, ValueError, "illegal='penalty'"),
    ({"forbid_repeat_bids": 1}, TypeError, "forbid_repeat_bids"),
    ({"observation": "pixels"}, ValueError, "observation"),
    ({"max_round_steps": 0}, ValueError, "max_round_steps"),
    ({"wild": True}, ValueError, "unknown option"),
])
def test_bad_options_are_named(options, error, match):
    with pytest.raises(error, match=match):
        vecgames.make("liars_dice", num_envs=2, **options)


def test_bad_actions_leave_the_batch_unchanged():
    env = vecgames.make("liars_dice", num_envs=3, seed=1)
    env.reset()
    before = env.state.table.copy()
    with pytest.raises(ValueError, match=r"actions must be in \[0, 111\)"):
        env.step([1, 2, 111])
    with pytest.raises(ValueError, match="shape"):
        env.step([1, 2])
    with pytest.raises(TypeError, match="integer"):
        env.step([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(env.state.table, before)
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate("liars_dice", 10, policy="smart")
    with pytest.raises(ValueError, match="threshold"):
        vecgames.simulate("liars_dice", 10, threshold=1.5)


def test_render_and_views():
    env = vecgames.make("liars_dice", num_envs=2, num_players=3, seed=1)
    env.reset()
    text = env.render(1)
    assert "seat 2: dice" in text and "last bid none yet" in text
    assert all(len(d) == 5 and d == sorted(d) for d in env.dice(0))
    assert env.last_round(0) is None
    legal = env.legal_actions(0)
    assert 0 not in legal and all(action_to_bid(a, 3)[1] > 3 for a in legal)


def test_last_round_survives_the_match_reset():
    env = vecgames.make("liars_dice", num_envs=1, seed=12)
    env.reset()
    dice = env.dice(0)
    opener = int(env.current_player[0])
    env.step([bid_to_action(("zhai", 3, 1), 2)])
    _, reward, term, _, info = env.step([0])
    assert term[0]
    last = env.last_round(0)
    ones = sum(d == 1 for seat in dice for d in seat)
    assert last["dice"] == dice and last["actual"] == ones
    assert last["challenger"] == 1 - opener and last["bid"] == ("zhai", 3, 1)
    assert last["loser"] == (last["challenger"] if ones >= 3 else opener)


def test_cli_simulate(capsys, tmp_path):
    from vecgames.cli import main

    csv = tmp_path / "rounds.csv"
    assert main(["simulate", "liars_dice", "--games", "2000", "--rounds", "2", "--dice", "3",
                 "--policy", "heuristic,random", "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "2,000 matches, 2 players" in out and "4,000 rounds" in out
    assert len(pd.read_csv(csv)) == 4000
    assert main(["simulate", "liars_dice", "--games", "2000", "--summary"]) == 0
    assert "rounds_lost" in capsys.readouterr().out
    assert main(["simulate", "liars_dice", "--games", "10", "--dice", "1"]) == 2
    assert "argument --dice" in capsys.readouterr().err


def test_random_policy_is_uniform_over_the_legal_actions():
    cycle = [bid_to_action(b, 2) for b in (("fei", 4, 5), ("zhai", 2, 3), ("fei", 4, 2))]
    env = vecgames.make("liars_dice", num_envs=60000, seed=21)
    env.reset()
    for a in cycle:
        _, _, _, _, info = env.step(np.full(60000, a))
    legal = np.flatnonzero(info["action_mask"][0])
    assert (info["action_mask"] == info["action_mask"][0]).all()
    assert cycle[0] not in legal and 0 in legal  # 飞 4x5 was made: a repeat
    picks = env_actions(env, "random")
    assert np.isin(picks, legal).all()
    counts = np.bincount(picks, minlength=env.num_actions)[legal]
    expected = 60000 / len(legal)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < len(legal) + 5 * np.sqrt(2 * len(legal))  # about 5 sigma


def test_reset_starts_new_matches_and_reseeds():
    env = vecgames.make("liars_dice", num_envs=64, num_rounds=5, seed=3)
    obs0, info = env.reset()
    obs0 = obs0.copy()
    rolls = field(env.state, "dice").copy()
    for _ in range(40):
        env.step(env_actions(env, "random"))
    assert info["penalty_points"].any()
    obs, info = env.reset()
    assert not info["penalty_points"].any() and not field(env.state, "round").any()
    assert not (field(env.state, "dice") == rolls).all()  # the streams moved on
    obs, _ = env.reset(seed=3)
    np.testing.assert_array_equal(obs, obs0)
    np.testing.assert_array_equal(field(env.state, "dice"), rolls)
