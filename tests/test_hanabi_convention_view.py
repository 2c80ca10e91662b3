"""Hanabi's ``conventions`` observation: a clue's meaning read by ``read_clue`` is the one the
``conventions`` player writes when it gives that clue; the view starts with the jaxmarl
observation, holds no secret of the player's own cards, and a checkpoint trained on it plays
through ``act_env`` and keeps the memory."""

from __future__ import annotations

import numpy as np
import pytest
from hanabi_redeal import copy_state, redeal_own_cards
from test_hanabi_conventions import _public_sets

import vecgames
from vecgames.games.hanabi.players_convention_view import SLOT_VALUES, ConventionView, view_dim
from vecgames.games.hanabi.players_conventions import F_READ
from vecgames.games.hanabi.rules import INFO, MAX_INFO
from vecgames.policies.builtin import BuiltinPlayer


def _env(players: int, num_envs: int = 64, seed: int = 1):
    env = vecgames.make("hanabi", num_envs=num_envs, seed=seed, num_players=players,
                        obs="jaxmarl", observers="current")
    env.reset()
    return env


@pytest.mark.parametrize("players", [2, 3])
def test_a_clue_reads_as_the_conventions_player_wrote_it(players):
    """Along the conventions' self-play: for every move, the memory ``record`` writes for it
    equals what ``conventions`` wrote when choosing it (but the ``F_READ`` mark), except a
    clue given at 8 tokens with no truthful clue left (conventions then gives the first legal
    clue and writes nothing)."""
    env = _env(players)
    teacher = BuiltinPlayer("hanabi", "conventions")
    view = ConventionView(players, env.rules.hand_size)
    rows = np.arange(env.num_envs)
    clues = 0
    for _ in range(150):
        before = env.state.memo.copy()
        full = env.state.table[:, INFO] == MAX_INFO
        actions = teacher.act_env(env, rows)
        written = env.state.memo.copy()
        env.state.memo[:] = before
        view.record(env, rows, actions)
        # (read_clue also marks the words it reads, F_READ: a clue it did not choose)
        differs = np.any((env.state.memo & ~F_READ) != written, axis=(1, 2))
        assert not (differs & ~full).any()
        assert differs.sum() <= 2
        clues += int((actions >= 2 * env.rules.hand_size).sum())
        env.state.memo[:] = written
        env.step(actions)
    assert clues > 2_000


def test_moves_other_than_a_clue_to_the_next_player_mean_nothing():
    env = _env(3)
    view = ConventionView(3, env.rules.hand_size)
    r = env.rules
    rows = np.arange(env.num_envs)
    before = env.state.memo.copy()
    for action in (0, r.hand_size, r.color_hints + 5, r.rank_hints + 5):  # later player
        view.record(env, rows, np.full(env.num_envs, action))
    np.testing.assert_array_equal(env.state.memo, before)
    view.record(env, rows, np.full(env.num_envs, r.rank_hints))  # the next player's 1s?
    legal = env.action_mask[:, r.rank_hints]
    assert np.any(env.state.memo[legal] != before[legal])


@pytest.mark.parametrize("players", [2, 4])
def test_the_view_starts_with_the_jaxmarl_observation(players):
    env = _env(players)
    view = ConventionView(players, env.rules.hand_size)
    teacher = BuiltinPlayer("hanabi", "conventions")
    rows = np.arange(env.num_envs)
    obs, _ = env.reset()
    for _ in range(30):
        seen = view.observe(env)
        assert seen.shape == (env.num_envs, view_dim(players, env.rules.hand_size))
        np.testing.assert_array_equal(seen[:, :view.base], obs)
        assert ((seen[:, view.base:] >= 0) & (seen[:, view.base:] <= 1)).all()
        obs, *_ = env.step(teacher.act_env(env, rows))
    some = np.array([3, 0, 5])
    np.testing.assert_array_equal(view.observe(env, some), view.observe(env)[some])


def test_at_the_deal_only_the_ones_are_playable_and_nothing_is_clued():
    env = _env(2)
    view = ConventionView(2, 5)
    feats = view.observe(env)[:, view.base:]
    slots = feats[:, :2 * 5 * SLOT_VALUES].reshape(-1, 2, 5, SLOT_VALUES)
    assert not slots[..., 25:28].any()  # no clue yet
    assert not slots[:, 0, :, 28:30].any()  # no own card known playable or trash
    playable = feats[:, 2 * 5 * SLOT_VALUES:2 * 5 * SLOT_VALUES + 25]
    ones = np.zeros(25)
    ones[::5] = 1
    np.testing.assert_array_equal(playable, np.broadcast_to(ones, playable.shape))


def test_the_view_holds_no_secret_of_the_players_own_cards():
    """The player to act dealt other cards consistent with what it knows (the deck
    reshuffled) sees the same view."""
    env = _env(2, num_envs=32, seed=4)
    teacher = BuiltinPlayer("hanabi", "conventions")
    view = ConventionView(2, 5)
    rows = np.arange(env.num_envs)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(6):
        for _ in range(int(rng.integers(3, 12))):
            env.step(teacher.act_env(env, rows))
        real = view.observe(env)
        for i in range(env.num_envs):
            other = copy_state(env.state)
            if not redeal_own_cards(other, i, env.rules, _public_sets, rng):
                continue
            saved, env.state = env.state, other
            try:
                np.testing.assert_array_equal(view.observe(env, np.array([i])), real[i:i + 1])
            finally:
                env.state = saved
            checked += 1
    assert checked >= 100


def test_for_obs_dim_finds_the_hand_size():
    for players, hand in ((2, 5), (3, 5), (4, 4), (5, 4)):
        assert ConventionView.for_obs_dim(players, view_dim(players, hand)).dim == (
            view_dim(players, hand))
    with pytest.raises(ValueError, match="no conventions observation"):
        ConventionView.for_obs_dim(2, 658)


def test_a_checkpoint_on_the_view_plays_through_act_env_and_keeps_the_memory(tmp_path):
    """A tiny run on the conventions observation: its checkpoint is a player that reads the
    env (act_env), plays legal games beside ``conventions``, and writes its clues' meaning."""
    pytest.importorskip("torch")
    from vecgames.games.hanabi import train as th
    from vecgames.training import core

    argv = ["--observation", "conventions", "--teacher", "conventions", "--clone-iterations",
            "2", "--iterations", "2", "--envs", "16", "--steps", "8", "--hidden", "16",
            "--eval-games", "60", "--eval-opponents", "rules", "--no-progress",
            "--checkpoint-every", "0", "--out", str(tmp_path / "run")]
    core.train(th.TRAINER, th.TRAINER.parse(argv, "p"), " ".join(argv))
    player = vecgames.load_player(tmp_path / "run" / "final.pt")
    assert hasattr(player, "act_env") and player.obs_dim == view_dim(2, 5)
    env = _env(2, num_envs=16)
    rows = np.arange(16)
    wrote = False
    for _ in range(20):
        before = env.state.memo.copy()
        actions = player.act_env(env, rows)
        assert env.action_mask[rows, actions].all()
        clue = actions >= 10
        wrote |= bool(np.any(env.state.memo[clue] != before[clue]))
        assert not np.any(env.state.memo[~clue] != before[~clue])
        env.step(actions)
    assert wrote
    result = vecgames.arena("hanabi", [player, "conventions"], 60, seed=2, progress=False)
    assert result.crossplay["games"].sum() > 0
