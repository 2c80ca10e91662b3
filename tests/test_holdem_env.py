"""The Hold'em env: contract, both action interfaces, determinism, replays from a deck."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.core.cards import parse_cards
from vecgames.games.holdem import rules as R
from vecgames.games.holdem.observe import OBS_DIM


def _random_play(env, steps, seed):
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    table = env.state.table
    n = env.num_players
    starts = np.array(env.stacks)
    history = []
    for _ in range(steps):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        np.testing.assert_array_equal(reward.sum(axis=1), 0)  # chips only change hands
        stacks = table[:, R.STACK:R.STACK + n] + table[:, R.PAID:R.PAID + n]
        np.testing.assert_array_equal(stacks, np.broadcast_to(starts, stacks.shape))
        assert (table[:, R.STACK:R.STACK + n] >= 0).all()
        history.append((actions.copy(), reward.copy(), terminated.copy(), obs.copy()))
    return history


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1),
       st.lists(st.integers(3, 300), min_size=10, max_size=10))
def test_random_play_conserves_chips_and_masks_are_legal(n, seed, stacks):
    env = vecgames.make("holdem", num_envs=8, num_players=n, stack=stacks[:n], seed=seed)
    _random_play(env, 60, seed)


def test_same_games_on_one_and_two_threads():
    runs = []
    before = numba.get_num_threads()
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            env = vecgames.make("holdem", num_envs=64, num_players=6, seed=11)
            runs.append(_random_play(env, 40, 3))
    finally:
        numba.set_num_threads(before)
    for (a1, r1, t1, o1), (a2, r2, t2, o2) in zip(*runs, strict=True):
        np.testing.assert_array_equal(a1, a2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(t1, t2)
        np.testing.assert_array_equal(o1, o2)


def test_replay_from_a_deck():
    env = vecgames.make("holdem", num_envs=1, num_players=2, stack=[100, 60], seed=0)
    deck = parse_cards("AhAd KhKd 2c 7d 9s Jc 3h")  # seat 0, seat 1, board
    obs, info = env.reset_from_deck(deck[None, :], button=0)
    assert obs.shape == (1, OBS_DIM) and info["current_player"][0] == 0  # button acts first
    env.step_amounts([R.RAISE], [100])  # seat 0 all-in
    obs, reward, terminated, _, _ = env.step_amounts([R.CALL], [0])  # seat 1 calls 60
    assert terminated[0]
    assert reward[0].tolist() == [60.0, -60.0]


def test_exact_interface_rejects_illegal_actions_and_changes_nothing():
    env = vecgames.make("holdem", num_envs=3, num_players=4, seed=5)
    env.reset()
    before = env.state.table.copy()
    to_call, lo, hi = env.raise_bounds(1)
    with pytest.raises(ValueError, match=r"env 1: .*outside the legal range"):
        env.step_amounts([R.CALL, R.RAISE, R.CALL], [0, lo - 1, 0])
    with pytest.raises(ValueError, match="env 0: .*unknown action kind"):
        env.step_amounts([5, R.CALL, R.CALL], [0, 0, 0])
    with pytest.raises(ValueError, match="kinds must be 3 integers"):
        env.step_amounts([R.CALL], [0])
    np.testing.assert_array_equal(env.state.table, before)
    env.step_amounts([R.CALL, R.RAISE, R.RAISE], [0, lo, hi])


def test_discrete_interface_rejects_illegal_actions():
    env = vecgames.make("holdem", num_envs=2, num_players=3, seed=2)
    obs, info = env.reset()
    before = env.state.table.copy()
    illegal = [a for a in range(env.num_actions) if not info["action_mask"][0, a]]
    legal = env.legal_actions(1)[0]
    if illegal:
        with pytest.raises(ValueError, match="env 0: action"):
            env.step([illegal[0], legal])
        np.testing.assert_array_equal(env.state.table, before)
    with pytest.raises(ValueError):
        env.step([0, 99])


def test_render_and_options():
    env = vecgames.make("holdem", num_envs=1, num_players=3, seed=0, raise_fractions=[0.75])
    env.reset()
    assert env.action_names == ("fold", "check/call", "raise 0.75 pot", "min-raise", "all-in")
    text = env.render(0)
    assert "preflop" in text and "seat 2" in text
    with pytest.raises(ValueError, match="raise_fractions"):
        vecgames.make("holdem", raise_fractions=[-1])
    with pytest.raises(ValueError, match="exceed the big blind"):
        vecgames.make("holdem", num_players=2, stack=[2, 100])
    with pytest.raises(ValueError, match="button"):
        vecgames.make("holdem", button="left")
    with pytest.raises(ValueError, match="decks"):
        env.reset_from_deck(np.zeros((1, 3), np.int64))
    with pytest.raises(ValueError, match="repeats"):
        env.reset_from_deck(np.zeros((1, 11), np.int64))


def test_simulate_is_deterministic_and_conserves_chips():
    runs = [vecgames.simulate("holdem", 3000, seed=4, num_threads=t) for t in (1, 2)]
    assert runs[0].equals(runs[1])
    chips = runs[0].filter(like="chips_")
    assert list(chips.columns) == [f"chips_{p}" for p in range(6)]
    assert (chips.sum(axis=1) == 0).all()
    assert (chips >= -100).all().all()
    # hand g is a function of (seed, g): a shard starting at g reproduces the rows
    shard = vecgames.simulate("holdem", 1000, seed=4, first_game=2000)
    assert shard.reset_index(drop=True).equals(runs[0].iloc[2000:].reset_index(drop=True))
    assert set(runs[0]["end_street"].unique()) <= {"preflop", "flop", "turn", "river"}
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate("holdem", 10, policy="shark")


def test_cli_simulates_holdem(capsys):
    from vecgames.cli import main

    argv = ["simulate", "holdem", "--games", "2000", "--num-players", "3", "--stack", "50"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "holdem: 2,000 games, 3 players" in out and "showdown" in out
    assert main(["simulate", "holdem", "--games", "10", "--ante", "1"]) == 2
    assert "argument --ante: holdem has no rule option ante" in capsys.readouterr().err


def test_baseline_policies_behave_as_documented():
    # everyone checks when free and folds to a bet: the big blind takes the small blind
    df = vecgames.simulate("holdem", 500, policy="check", seed=1)
    chips = df.filter(like="chips_").to_numpy()
    sb = (df["button"] + 1) % 6
    bb = (df["button"] + 2) % 6
    rows = np.arange(len(df))
    assert (chips[rows, bb] == 1).all() and (chips[rows, sb] == -1).all()
    assert (df["pot"] == 3).all() and (df["end_street"] == "preflop").all()
    # callers never raise: the pot never holds more than the big blind from each seat
    df = vecgames.simulate("holdem", 2000, policy="call", seed=2)
    assert (df["pot"] <= 2 * 6).all() and df["showdown"].any()
    # raiser against caller heads-up: the pot grows past the blinds unless the caller, first
    # to act on the button, folds at once (half the time when it has the button)
    df = vecgames.simulate("holdem", 2000, policy=["raise", "call"], num_players=2, seed=3)
    small = df["pot"] <= 4
    assert set(df.loc[small, "pot"]) == {3} and (df.loc[small, "button"] == 1).all()
    assert 0.2 < small.mean() < 0.3
    mixed = vecgames.simulate("holdem", 3000, policy=["random"] * 3 + ["check"] * 3, seed=4)
    assert (mixed.filter(like="chips_").sum(axis=1) == 0).all()
    with pytest.raises(ValueError, match="list of 6"):
        vecgames.simulate("holdem", 10, policy=["random"] * 5)


class _Caller:
    def action(self, last, lowerbound):
        return last


class _Shover:
    def action(self, last, lowerbound):
        return 10**6  # more than the stack: all-in


class _Folder:
    def action(self, last, lowerbound):
        return -1


def test_texas_poker_facade_plays_seed_style_agents():
    from vecgames.games.holdem import TexasPoker

    table = TexasPoker([_Caller(), _Shover(), _Folder(), _Caller(), _Caller(), _Folder()],
                       seed=3)
    for _ in range(50):
        scores = table.game()
        assert len(scores) == 6 and sum(scores) == 600 and min(scores) >= 0
    folder_scores = [TexasPoker([_Folder(), _Folder()], seed=s).game() for s in range(4)]
    assert all(sorted(scores) == [99, 101] for scores in folder_scores)
    with pytest.raises(TypeError, match="agent 1"):
        TexasPoker([_Caller(), object()])


def test_hand_log_replays_the_simulated_hands():
    from vecgames.games.holdem.simulate_log import hand_log

    policy = ["random", "call", "raise"]
    log = hand_log(300, policy=policy, seed=5, num_players=3, first_game=7)
    sim = vecgames.simulate("holdem", 300, policy=policy, seed=5, num_players=3, first_game=7)
    chips = [f"chips_{p}" for p in range(3)]
    np.testing.assert_array_equal(log.hands[chips].to_numpy(), sim[chips].to_numpy())
    np.testing.assert_array_equal(log.hands["pot"], sim["pot"])
    added = log.actions.groupby("hand")["added"].sum()
    blinds = 3  # small + big blind, posted before any action
    np.testing.assert_array_equal(added.to_numpy() + blinds, log.hands["pot"].to_numpy())
    assert set(log.actions["action"]) <= {"fold", "check", "call", "bet", "raise"}
    assert (log.actions.loc[log.actions["seat"] == 1, "action"].isin(["fold", "check", "call"])
            ).all()
    assert log.hands.loc[0, "board"].count(" ") == 4
    assert all(len(w) >= 1 for w in log.hands["winners"])


def test_hand_strength_player_beats_the_baselines():
    for opponent in ("random", "call"):
        df = vecgames.simulate("holdem", 6000, policy=["strength"] + [opponent] * 5, seed=8)
        chips = df["chips_0"].to_numpy().astype(float)
        low = chips.mean() - 1.96 * chips.std() / np.sqrt(len(chips))
        assert low > 0, (opponent, chips.mean())


def test_equity_estimate_sees_only_its_own_cards():
    from vecgames.games.holdem import players as sim
    env = vecgames.make("holdem", num_envs=1, num_players=2, seed=0)
    env.reset()
    aces = parse_cards("AhAd 2c7d 3s8h9c Jd 4c")  # seat 0 AA, seat 1 72o, then the board
    env.reset_from_deck(aces[None, :], button=0)
    equity, opponents = sim.estimate_equity(env.state, 0, env.rules, 4000)
    assert opponents == 1 and abs(equity - 0.852) < 0.03  # AA vs a random hand preflop
    other = parse_cards("AhAd 7h2s 3s8h9c Jd 4c")  # the opponent's cards do not matter
    env.reset_from_deck(other[None, :], button=0)
    again, _ = sim.estimate_equity(env.state, 0, env.rules, 4000)
    assert abs(again - equity) < 0.03


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32 - 1), st.integers(0, 30), st.data())
def test_exact_interface_accepts_every_legal_amount_and_rejects_the_rest(n, seed, steps, data):
    env = vecgames.make("holdem", num_envs=1, num_players=n, seed=seed)
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    for _ in range(steps):  # walk to a random decision
        env.step([rng.choice(np.flatnonzero(info["action_mask"][0]))])
    to_call, lo, hi = env.raise_bounds(0)
    before = env.state.table.copy()
    if lo <= hi:
        bad = data.draw(st.one_of(st.integers(-5, lo - 1), st.integers(hi + 1, hi + 50)))
    else:
        bad = data.draw(st.integers(0, 500))
    with pytest.raises(ValueError, match="env 0"):
        env.step_amounts([R.RAISE], [bad])
    np.testing.assert_array_equal(env.state.table, before)
    if lo <= hi:
        env.step_amounts([R.RAISE], [data.draw(st.integers(lo, hi))])
    else:
        env.step_amounts([R.CALL], [0])


def test_summary_equals_the_rows():
    policy = ["random", "call", "raise", "check", "strength", "random"]
    rows = vecgames.simulate("holdem", 4000, policy=policy, seed=12)
    summary = vecgames.simulate("holdem", 4000, policy=policy, seed=12, summary=True)
    chips = rows.filter(regex=r"^chips_").to_numpy()
    np.testing.assert_allclose(summary["mean_chips"], chips.mean(axis=0))
    np.testing.assert_allclose(summary["std_chips"], chips.std(axis=0))
    np.testing.assert_allclose(summary["win_share"], (chips > 0).mean(axis=0))
    np.testing.assert_allclose(summary["vpip"], rows.filter(like="vpip_").mean().to_numpy())
    np.testing.assert_allclose(summary["pfr"], rows.filter(like="pfr_").mean().to_numpy())
    counts = rows["end_street"].value_counts()
    assert summary.attrs["end_counts"] == {k: int(counts[k]) for k in summary.attrs["end_counts"]}
    assert summary.attrs["showdowns"] == int(rows["showdown"].sum())
    assert summary.attrs["mean_pot"] == pytest.approx(rows["pot"].mean())
    assert summary["policy"].tolist() == policy


def test_cli_summary(capsys):
    from vecgames.cli import main

    assert main(["simulate", "holdem", "--games", "3000", "--summary"]) == 0
    out = capsys.readouterr().out
    assert "vpip" in out and "showdown" in out


def test_rotating_button_is_a_function_of_the_hand_index():
    full = vecgames.simulate("holdem", 700, button="rotate", num_players=3, seed=6)
    assert full["button"].tolist() == [g % 3 for g in range(700)]
    shard = vecgames.simulate("holdem", 100, button="rotate", num_players=3, seed=6,
                              first_game=600)
    assert shard.reset_index(drop=True).equals(full.iloc[600:].reset_index(drop=True))
    from vecgames.games.holdem.simulate_log import hand_log

    log = hand_log(13, button="rotate", num_players=3, seed=6)
    assert log.hands["button"].tolist() == full["button"].tolist()[:13]
    np.testing.assert_array_equal(log.hands[[f"chips_{p}" for p in range(3)]].to_numpy(),
                                  full.filter(regex=r"^chips_").to_numpy()[:13])


def test_env_rotating_button_restarts_on_reseed():
    env = vecgames.make("holdem", num_envs=2, num_players=4, button="rotate", seed=5)
    obs1, _ = env.reset(seed=5)
    first = obs1.copy()
    obs2, _ = env.reset(seed=5)
    np.testing.assert_array_equal(first, obs2)
    assert (env.state.table[:, R.BUTTON] == 0).all()
    deck = np.tile(np.arange(52), (2, 1))
    env.reset_from_deck(deck, button=[1, 3])
    assert env.state.table[:, R.BUTTON].tolist() == [1, 3]
    assert env.state.table[:, R.NEXT_BUTTON].tolist() == [2, 0]


def test_per_step_rewards_add_up_to_the_hand_rewards():
    envs = [vecgames.make("holdem", num_envs=16, num_players=4, seed=9, rewards=mode)
            for mode in ("hand", "step")]
    infos = [env.reset()[1] for env in envs]
    rng = np.random.default_rng(1)
    totals = [np.zeros((16, 4)) for _ in envs]
    finished = [np.zeros((16, 4)) for _ in envs]
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos[0]["action_mask"]])
        for k, env in enumerate(envs):
            _, reward, term, _, infos[k] = env.step(actions)
            totals[k] += reward
            finished[k][term] += totals[k][term]
            totals[k][term] = 0
        np.testing.assert_array_equal(infos[0]["action_mask"], infos[1]["action_mask"])
    np.testing.assert_array_equal(finished[0], finished[1])
    assert np.abs(finished[0]).sum() > 0
    with pytest.raises(ValueError, match="rewards"):
        vecgames.make("holdem", rewards="sometimes")


def test_an_edited_mask_does_not_let_an_illegal_action_through():
    env = vecgames.make("holdem", num_envs=1, num_players=2, seed=0)
    deck = parse_cards("AhAd KhKd 2c 7d 9s Jc 3h")
    env.reset_from_deck(deck[None, :], button=0)
    env.step_amounts([R.CALL], [0])  # the button completes; the big blind may check
    *_, info = env.step_amounts([R.CALL], [0])  # the big blind checks: flop, nothing owed
    info["action_mask"][:] = True
    before = env.state.table.copy()
    with pytest.raises(ValueError, match="fold is not allowed"):
        env.step([0])
    np.testing.assert_array_equal(env.state.table, before)


def test_reset_from_deck_and_step_amounts_validation():
    env = vecgames.make("holdem", num_envs=2, num_players=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=r"\.\.52"):
        env.reset_from_deck(np.zeros((2, 60), np.int64))
    deck = np.tile(np.arange(52), (2, 1))
    with pytest.raises(TypeError, match="button"):
        env.reset_from_deck(deck, button=1.5)
    with pytest.raises(TypeError, match="kinds"):
        env.step_amounts([1.0, 1.0], [0, 0])
    with pytest.raises(ValueError, match="out of range"):
        env.step_amounts([2, 2], np.array([2**63 - 1, 0], np.uint64))
    env2 = vecgames.make("holdem", num_envs=1, num_players=2, stack=np.array([50, 60]))
    assert env2.stacks == [50, 60]


def test_hand_log_names_and_flags():
    from vecgames.games.holdem.simulate_log import hand_log

    log = hand_log(400, policy="raise", num_players=2, stack=[100, 40], seed=0)
    acts, hands = log.actions, log.hands
    all_in = acts[acts["all_in"]]
    assert (all_in["added"] > 0).all() and len(all_in) > 0
    last = acts.groupby("hand").tail(1)
    shorter = last[(last["seat"] == 1) & (last["action"] == "call")]
    assert shorter["all_in"].all()  # seat 1's last-chip calls, won or lost
    for _, row in hands.iterrows():
        chips = [row["chips_0"], row["chips_1"]]
        assert row["winners"] == [p for p in range(2) if chips[p] > 0]
    folded = hand_log(500, policy="raise", num_players=3, stack=[100, 30, 100],
                      short_stack="fold", seed=0).actions
    assert not ((folded["action"] == "call") & (folded["added"] == 0)
                & (folded["street"] == "preflop")).any()


def test_facade_rejects_num_players():
    from vecgames.games.holdem import TexasPoker

    with pytest.raises(TypeError, match="num_players"):
        TexasPoker([_Caller(), _Caller()], num_players=2)


def test_exact_interface_rejects_a_negative_kind():
    env = vecgames.make("holdem", num_envs=2, seed=5)
    env.reset()
    with pytest.raises(ValueError, match="env 1: kind -1 .*unknown action kind"):
        env.step_amounts([R.CALL, -1], [0, 0])
    with pytest.raises(TypeError, match="wait must be 2 bools"):
        env.step_amounts([R.CALL, R.CALL], [0, 0], wait=[0, 1])
