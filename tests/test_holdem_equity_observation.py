"""The Hold'em ``observation="equity"`` layout: the default block unchanged, then Monte Carlo
hand strength that sees only the viewer's cards and the board, the pot odds and the players
still in."""

import numpy as np

import vecgames
from vecgames.core.cards import parse_cards
from vecgames.games.holdem import hand_equity as he
from vecgames.games.holdem.observe import OBS_DIM


def _deal(deck: str, players: int = 2) -> np.ndarray:
    env = vecgames.make("holdem", num_envs=1, num_players=players, observation="equity", seed=0)
    env.reset()
    obs, _ = env.reset_from_deck(parse_cards(deck)[None, :], button=0)
    return obs[0].copy()


def test_the_layout_is_the_default_one_plus_four_values():
    default = vecgames.make("holdem", num_envs=64, num_players=3, seed=4)
    equity = vecgames.make("holdem", num_envs=64, num_players=3, observation="equity", seed=4)
    assert equity.obs_dim == he.EQUITY_DIM == OBS_DIM + 4
    a, _ = default.reset()
    b, _ = equity.reset()
    np.testing.assert_array_equal(a, b[:, :OBS_DIM])  # the first hands are the same deals
    assert ((b[:, OBS_DIM:] >= 0) & (b[:, OBS_DIM:] <= 1)).all()
    np.testing.assert_allclose(b[:, he.IN_HAND], 2 / 9)


def test_strength_follows_the_own_cards_only():
    aces = _deal("AhAd 2c7d 3s8h9c Jd 4c")  # seat 0 (the button, first to act) holds AA
    assert abs(aces[he.W_FIELD] - 0.852) < 0.1  # AA against a random hand, preflop
    assert aces[he.W_ONE] == aces[he.W_FIELD]  # heads-up: the same value
    other = _deal("AhAd 7h2s 3s8h9c Jd 4c")  # the opponent's cards do not move it
    assert abs(other[he.W_FIELD] - aces[he.W_FIELD]) < 0.1
    trash = _deal("7c2d AhAd 3s8h9c Jd 4c")
    assert abs(trash[he.W_FIELD] - 0.346) < 0.1  # 72o against a random hand
    # the button owes the half of the big blind it has not paid: 1 / (3 + 1) with blinds 1/2
    rules = vecgames.make("holdem", num_players=2).rules
    sb, bb = rules.small_blind, rules.big_blind
    assert abs(aces[he.POT_ODDS] - (bb - sb) / (2 * bb)) < 1e-6
    assert aces[he.IN_HAND] == np.float32(1 / 9)


def test_against_more_players_a_hand_wins_less_often():
    # six seats, the button at seat 0: seat 3 acts first preflop, and holds AA
    six = _deal("2c7d 3c8d 4c9d AhAd 5cTd 6cJc " + "3s8h9c Jd 4s", players=6)
    assert abs(six[he.W_ONE] - 0.852) < 0.1
    assert abs(six[he.W_FIELD] - 0.49) < 0.1  # AA against five random hands


def test_a_seed_gives_the_same_observations():
    runs = []
    for _ in range(2):
        env = vecgames.make("holdem", num_envs=16, num_players=2, observation="equity", seed=9)
        env.reset()
        obs, *_ = env.step(np.ones(16, np.int64))
        runs.append(obs.copy())
    np.testing.assert_array_equal(*runs)


def test_a_waiting_env_keeps_its_equity_and_its_stream():
    """The equity block draws its deals from the env's stream: an env given WAIT (in
    ``step``, or ``wait=`` in ``step_amounts``) keeps both, as the env contract says."""
    env = vecgames.make("holdem", num_envs=3, observation="equity", seed=1)
    obs, _ = env.reset()
    before, streams = obs.copy(), env._rng.copy()
    obs, *_ = env.step(np.full(3, -1))
    np.testing.assert_array_equal(obs, before)
    np.testing.assert_array_equal(env._rng, streams)
    obs, *_ = env.step_amounts(np.ones(3, np.int64), np.zeros(3, np.int64),
                               wait=np.array([True, False, True]))
    np.testing.assert_array_equal(obs[[0, 2]], before[[0, 2]])
    np.testing.assert_array_equal(env._rng[[0, 2]], streams[[0, 2]])
    assert env._rng[1] != streams[1]  # the one that moved drew its new equity
