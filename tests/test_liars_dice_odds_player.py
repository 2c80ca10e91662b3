"""The Liar's Dice ``odds`` player: exact prior odds, the history it reads, legality through the
env, determinism across thread counts, honesty (hidden dice do not move it), and that it beats
``heuristic`` heads-up (small arena, fixed seed)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import vecgames
import vecgames.games.liars_dice  # noqa: F401  # before its policies (they import its rules)
from vecgames.games.liars_dice import bid_to_action
from vecgames.games.liars_dice import players as liars_dice
from vecgames.games.liars_dice.odds import bid_holds_probability
from vecgames.games.liars_dice.players_odds import PARAMS, _history, bid_odds, decide
from vecgames.games.liars_dice.players_odds_tables import HAND_MATCHES, HAND_PRIOR, HAND_START
from vecgames.games.liars_dice.rules import DICE, LAST, MAX_BIDS, PLAYER, TOTAL


def test_existing_players_keep_their_codes():
    assert liars_dice.POLICIES[:2] == ("random", "heuristic")
    assert liars_dice.POLICIES[liars_dice.ODDS] == "odds"
    assert "odds" in vecgames.players("liars_dice")


def test_hand_tables():
    for d in (1, 2, 5, 10):
        rows = slice(HAND_START[d], HAND_START[d + 1])
        assert abs(HAND_PRIOR[rows].sum() - 1.0) < 1e-12
        # every 斋 column (a face alone) sums to d over faces; a 飞 column counts ones too
        assert np.all(HAND_MATCHES[rows, 5:].sum(axis=1) == d)
        assert np.all(HAND_MATCHES[rows, :5] >= HAND_MATCHES[rows, 10:11])
    assert HAND_START[6] - HAND_START[5] == 252


def test_without_evidence_the_odds_are_the_odds_module():
    """At a round's first decision there is no bid: every P(holds) is the Binomial tail."""
    for players in (2, 3):
        env = vecgames.make("liars_dice", num_envs=64, seed=11, num_players=players)
        env.reset()
        r = env.rules
        out = np.empty(r.num_actions - 1)
        for i in range(env.num_envs):
            t = env.state.table[i]
            own = t[DICE + t[PLAYER]]
            bid_odds(env.state, i, r, PARAMS, out)
            exact = [bid_holds_probability(k, own, r.dice, r.total_dice)
                     for k in range(r.num_actions - 1)]
            np.testing.assert_allclose(out, exact, rtol=0, atol=1e-12)


def test_an_opponent_bid_is_evidence_for_its_face():
    env = vecgames.make("liars_dice", num_envs=32, seed=5)
    env.reset()
    r = env.rules
    before = np.empty(r.num_actions - 1)
    after = np.empty(r.num_actions - 1)
    bid = bid_to_action(("fei", 3, 6), 2)
    probe = bid_to_action(("fei", 6, 6), 2) - 1
    for i in range(env.num_envs):
        bid_odds(env.state, i, r, PARAMS, before)
    env.step(np.full(env.num_envs, bid))  # every opener bids three 6s
    for i in range(env.num_envs):
        bid_odds(env.state, i, r, PARAMS, after)
        t = env.state.table[i]
        own = t[DICE + t[PLAYER]]
        prior = bid_holds_probability(probe, own, r.dice, r.total_dice)
        if 0 < prior < 1:
            assert after[probe] > prior


def _play_actions(env, seat_policy):
    """Every env's action: seat p plays seat_policy[p]."""
    per_policy = {name: liars_dice.env_actions(env, name) for name in set(seat_policy)}
    player = env.state.table[:, PLAYER]
    return np.array([per_policy[seat_policy[player[i]]][i] for i in range(env.num_envs)])


@pytest.mark.parametrize("seats", [("odds", "odds"), ("odds", "random"),
                                   ("odds", "heuristic", "random"),
                                   ("odds", "random", "odds", "random", "odds", "random")])
def test_odds_plays_legally_through_the_env(seats):
    env = vecgames.make("liars_dice", num_envs=128, seed=3, num_players=len(seats))
    obs, info = env.reset()
    rounds = 0
    for _ in range(150):
        actions = _play_actions(env, seats)
        mask = info["action_mask"]
        assert mask[np.arange(env.num_envs), actions].all()
        obs, reward, terminated, truncated, info = env.step(actions)  # raises on illegal
        rounds += int(info["round_over"].sum())
    assert rounds > 1000


def test_history_is_the_order_of_play_for_rising_bids():
    """Where every bid is worth more than the one before (飞 count, 2 x 斋 count), the bids read
    back from the made-bid bits come out in the order they were made."""
    env = vecgames.make("liars_dice", num_envs=256, seed=9)
    env.reset()
    r = env.rules
    made: list[list[int]] = [[] for _ in range(env.num_envs)]
    seq = np.empty(MAX_BIDS, np.int64)
    checked = 0
    for _ in range(6):
        actions = _play_actions(env, ("random", "odds"))
        for i, a in enumerate(actions):
            made[i] = made[i] + [a - 1] if a else []
        env.step(actions)
        for i in range(env.num_envs):
            if not made[i] or env.state.table[i, LAST] == 0:
                made[i] = []
                continue
            values = [_value(b, r.total_dice) for b in made[i]]
            if all(x < y for x, y in zip(values[:-1], values[1:], strict=True)):
                n = _history(env.state.table[i], r, seq)
                assert list(seq[:n]) == made[i]
                checked += 1
    assert checked > 300


def _value(index, total):
    fei = 5 * total
    return index // 5 + 1 if index < fei else 2 * ((index - fei) // 6 + 1)


def test_same_games_on_one_and_two_threads():
    kwargs = dict(policy=["odds", "heuristic"], seed=4)
    one = vecgames.simulate("liars_dice", 3000, num_threads=1, **kwargs)
    two = vecgames.simulate("liars_dice", 3000, num_threads=2, **kwargs)
    pd.testing.assert_frame_equal(one, two)
    three = vecgames.simulate("liars_dice", 2000, policy=["odds", "random", "odds"], seed=4,
                              num_players=3, num_threads=2)
    pd.testing.assert_frame_equal(three, vecgames.simulate(
        "liars_dice", 2000, policy=["odds", "random", "odds"], seed=4, num_players=3,
        num_threads=1))


def test_hidden_dice_do_not_change_its_decision():
    """Rerolling every other seat's dice (and the table total) leaves each decision as it was."""
    rng = np.random.default_rng(0)
    for players in (2, 4):
        env = vecgames.make("liars_dice", num_envs=200, seed=21, num_players=players)
        env.reset()
        r = env.rules
        compared = 0
        for _ in range(5):
            for i in range(env.num_envs):
                t = env.state.table[i]
                action = decide(env.state, i, r, PARAMS)
                saved = t.copy()
                me = t[PLAYER]
                total = 0
                for q in range(players):
                    if q != me:
                        t[DICE + q] = _packed(rng.integers(1, 7, r.dice))
                    counts = [(t[DICE + q] >> (4 * f)) & 15 for f in range(6)]
                    total += sum(c << (8 * f) for f, c in enumerate(counts))
                t[TOTAL] = total
                assert decide(env.state, i, r, PARAMS) == action
                t[:] = saved
                compared += 1
            env.step(_play_actions(env, ("odds", "random") * (players // 2)))
        assert compared == 1000


def _packed(dice):
    return int(sum(1 << (4 * (f - 1)) for f in dice))


def test_odds_beats_heuristic_heads_up():
    result = vecgames.arena("liars_dice", ["odds", "heuristic"], 4000, seed=7)
    row = result.pairwise.set_index(["player", "opponent"]).loc[("odds", "heuristic")]
    assert row["ci_low"] > 0
