"""Leduc Hold'em (vecgames/games/leduc_poker): the rules against OpenSpiel's game of that name,
the env contract, and simulate / its recorder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from vecgames.core.snapshot import row_arrays
from vecgames.games.leduc_poker import LeducPokerEnv, card_name, field, make_rules
from vecgames.games.leduc_poker.observe import INFO_STATE_DIM, OBS_DIM
from vecgames.games.leduc_poker.players import POLICIES, rows_actions
from vecgames.games.leduc_poker.record import Recorder
from vecgames.games.leduc_poker.rules import DONE, GAME, NUM_CARDS
from vecgames.games.leduc_poker.simulate import plan, run, simulate

ORACLE_GAMES = 3000


def _random_legal(mask: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A uniformly drawn legal action per row."""
    return np.argmax(gen.random(mask.shape) * mask, axis=1).astype(np.int64)


def test_every_step_matches_openspiel():
    """Env i plays one game; OpenSpiel gets the env's deal (seat 0's card, seat 1's, then the
    public card at its chance node) and the same random actions. Legal actions, the player
    to act, the terminal flag, rewards against returns and the information state tensor
    agree at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(GAME)  # OpenSpiel's name for it too
    gen = np.random.default_rng(2024)
    b = ORACLE_GAMES
    env = LeducPokerEnv(num_envs=b, seed=7)
    obs, info = env.reset()
    cards = field(env.state, "card")[:, :2].copy()
    public = field(env.state, "public").copy()
    assert ((cards[:, 0] != cards[:, 1]) & (cards[:, 0] != public)
            & (cards[:, 1] != public)).all()
    states = []
    for i in range(b):
        st = game.new_initial_state()
        for c in cards[i]:
            assert st.is_chance_node() and int(c) in dict(st.chance_outcomes())
            st.apply_action(int(c))
        states.append(st)
    active = np.ones(b, np.bool_)
    showdowns = folds = splits = 0
    while active.any():
        for i in np.flatnonzero(active):
            st = states[i]
            if st.is_chance_node():  # the public card: the env dealt it at reset
                assert int(public[i]) in dict(st.chance_outcomes())
                st.apply_action(int(public[i]))
            p = st.current_player()
            assert p == info["current_player"][i]
            assert st.legal_actions() == list(np.flatnonzero(info["action_mask"][i]))
            np.testing.assert_array_equal(obs[i, :INFO_STATE_DIM],
                                          st.information_state_tensor(p), err_msg=str(i))
        actions = np.where(active, _random_legal(info["action_mask"], gen), env.WAIT)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in np.flatnonzero(active):
            st = states[i]
            st.apply_action(int(actions[i]))
            assert st.is_terminal() == terminated[i]
            np.testing.assert_array_equal(reward[i], st.returns() if terminated[i] else 0.0)
            if terminated[i]:
                t = env.final_table[i]
                assert t[DONE] == 1
                folds += int(actions[i] == 0)
                showdowns += int(actions[i] != 0)
                splits += int(reward[i, 0] == 0)
        active &= ~terminated
    assert folds > 500 and showdowns > 500 and splits > 50  # every ending was reached
    seen = np.bincount(np.concatenate([cards.ravel(), public]), minlength=NUM_CARDS)
    assert (abs(seen / seen.sum() - 1 / NUM_CARDS) < 0.02).all()  # a uniform deal


def test_card_names_and_options():
    assert [card_name(c) for c in range(NUM_CARDS)] == ["Js", "Jh", "Qs", "Qh", "Ks", "Kh"]
    assert make_rules().num_players == 2
    with pytest.raises(ValueError, match="num_players"):
        LeducPokerEnv(num_players=3)
    with pytest.raises(TypeError, match="num_players"):
        LeducPokerEnv(num_players="2")
    with pytest.raises(ValueError, match="unknown option"):
        LeducPokerEnv(raise_size=3)
    with pytest.raises(ValueError, match="card"):
        card_name(6)


def _play(env: LeducPokerEnv, actions: list[np.ndarray]) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), info["action_mask"].copy()))
    return out


def test_same_seed_same_games_and_env_offset():
    gen = np.random.default_rng(1)
    a, b = LeducPokerEnv(num_envs=8, seed=5), LeducPokerEnv(num_envs=8, seed=5)
    shifted = LeducPokerEnv(num_envs=5, seed=5, env_offset=3)  # its env 0 is env 3 above
    a.reset()
    b.reset()
    shifted.reset()
    np.testing.assert_array_equal(shifted.state.table, a.state.table[3:])
    acts = []
    for _ in range(40):
        acts.append(_random_legal(a.action_mask, gen))
        a.step(acts[-1])
    b_out = _play(b, acts)
    np.testing.assert_array_equal(a.state.table, b.state.table)
    np.testing.assert_array_equal(b_out[-1][0], a._obs)
    fresh, other = LeducPokerEnv(num_envs=8, seed=5), LeducPokerEnv(num_envs=8, seed=6)
    fresh.reset()
    other.reset()
    assert not np.array_equal(field(other.state, "card"), field(fresh.state, "card"))
    a.reset(seed=5)  # reseeding deals the first games again
    np.testing.assert_array_equal(a.state.table, fresh.state.table)


def test_wait_illegal_and_auto_reset():
    env = LeducPokerEnv(num_envs=3, seed=2)
    obs, info = env.reset()
    assert obs.shape == (3, OBS_DIM) and obs.dtype == np.float32
    # at the first decision nothing is owed: fold is illegal
    assert env.legal_actions(0) == [1, 2]
    before = {k: v.copy() for k, v in row_arrays(env).items()}
    with pytest.raises(ValueError, match=rf"{GAME} env 1: action 0 \(fold\) is illegal"):
        env.step(np.array([1, 0, 1]))
    for k, v in row_arrays(env).items():
        if k != "_bad":  # the legality check's scratch
            np.testing.assert_array_equal(v, before[k], err_msg=k)
    # WAIT: env 1 stands still
    obs, reward, term, _, info = env.step(np.array([2, env.WAIT, 1]))
    np.testing.assert_array_equal(env.state.table[1], before["state.table"][1])
    np.testing.assert_array_equal(obs[1], before["_obs"][1])
    assert field(env.state, "player")[0] == 1 and env.legal_actions(0) == [0, 1, 2]
    # penalty mode: the illegal env does not move and is charged
    pen = LeducPokerEnv(num_envs=2, seed=2, illegal="penalty", illegal_penalty=0.5)
    pen.reset()
    table = pen.state.table.copy()
    _, reward, _, _, info = pen.step(np.array([0, 1]))
    assert info["illegal"].tolist() == [True, False] and reward[0].tolist() == [-0.5, 0.0]
    np.testing.assert_array_equal(pen.state.table[0], table[0])
    # env 0 raised; seat 1 folds: seat 0 wins the ante, the next game is dealt at once
    obs, reward, term, _, info = env.step(np.array([0, env.WAIT, env.WAIT]))
    assert term.tolist() == [True, False, False]
    assert reward[0].tolist() == [1.0, -1.0]
    assert env.final_table[0, DONE] == 1 and field(env.state, "done")[0] == 0
    assert info["current_player"][0] == 0 and env.legal_actions(0) == [1, 2]
    assert field(env.state, "round")[0] == 0 and field(env.state, "paid")[0].tolist() == [1, 1]
    assert "round 1, to act: seat 0" in env.render(0)


def test_snapshot_restore_replays():
    gen = np.random.default_rng(3)
    env = LeducPokerEnv(num_envs=4, seed=11)
    env.reset()
    snap = env.snapshot()
    acts = [_random_legal(env.action_mask, gen)]
    first = _play(env, acts)
    for _ in range(20):
        acts.append(_random_legal(env.action_mask, gen))
        first += _play(env, acts[-1:])
    env.restore(snap)
    for want, got in zip(first, _play(env, acts), strict=True):
        for x, y in zip(want, got, strict=True):
            np.testing.assert_array_equal(x, y)


def _through_env(num_games: int, seed: int, policy: list[str]) -> pd.DataFrame:
    """Games 0 .. num_games - 1 played through the env by built-in players, recorded."""
    env = LeducPokerEnv(num_envs=num_games, seed=seed)
    rec = Recorder(env, num_games, seed=seed)
    env.reset()
    game_ids = np.arange(num_games)
    active = np.ones(num_games, np.bool_)
    while active.any():
        actions = np.full(num_games, env.WAIT, np.int64)
        for seat, name in enumerate(policy):
            rows = np.flatnonzero(active & (env.current_player == seat))
            actions[rows] = rows_actions(env.state, env.rules, name, rows)
        rec.before_step(env, actions, game_ids)
        _, reward, term, trunc, info = env.step(actions)
        rec.after_step(env, reward, term, trunc, info, game_ids)
        active &= ~term
        game_ids[~active] = -1
    return rec.frame()


@pytest.mark.parametrize("policy", [["random", "random"], ["rule", "random"]])
def test_simulate_is_deterministic_zero_sum_and_matches_the_env(policy):
    df = simulate(1500, policy=policy, seed=9, num_threads=1)
    again = simulate(1500, policy=policy, seed=9, num_threads=2)
    pd.testing.assert_frame_equal(df, again)
    assert df.attrs == again.attrs
    assert df.attrs["game"] == GAME and df.attrs["policy"] == policy
    assert list(df.columns) == ["game", "steps", "rounds", "showdown", "winner", "public",
                                "chips_0", "chips_1", "card_0", "card_1"]
    assert (df.chips_0 + df.chips_1 == 0).all()
    assert ((df.winner == -1) == (df.chips_0 == 0)).all()
    assert (df.showdown | (df.winner >= 0)).all() and (df.rounds >= 1).all()
    assert df.chips_0.abs().max() <= 13
    recorded = _through_env(1500, 9, policy)
    pd.testing.assert_frame_equal(recorded, df)
    # a shard of the range is the same rows; the summary agrees with the rows
    part = simulate(100, policy=policy, seed=9, first_game=700)
    pd.testing.assert_frame_equal(part.reset_index(drop=True),
                                  df.iloc[700:800].reset_index(drop=True))
    summary = simulate(1500, policy=policy, seed=9, summary=True)
    np.testing.assert_allclose(summary.mean_chips, [df.chips_0.mean(), df.chips_1.mean()])
    np.testing.assert_allclose(summary.win_share,
                               [(df.winner == 0).mean(), (df.winner == 1).mean()])
    assert summary.attrs["showdowns"] == df.showdown.sum()


def test_rule_player_beats_random_and_bad_input():
    assert POLICIES == ("random", "rule")
    df = simulate(4000, policy=["rule", "random"], seed=1, summary=True)
    assert df.mean_chips[0] > 0.5  # folding a J to a bet and raising a K pay off
    with pytest.raises(ValueError, match="policy"):
        simulate(10, policy="shed")
    with pytest.raises(ValueError, match="num_games"):
        plan(0)
    with pytest.raises(ValueError, match="num_players"):
        plan(10, num_players=4)
    assert run(plan(10, summary=True))["cols"].shape[0] == 0
