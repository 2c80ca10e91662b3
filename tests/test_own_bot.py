"""A user's own bot on equal terms with the built-ins: exact Hold'em amounts through the player
protocol, env options compared by value, and the arena taking the options simulate takes."""

from __future__ import annotations

import numpy as np
import pytest

import vecgames
from vecgames.simulators.mixed import merged_env_options, same_option


class Caller:
    """Answers every decision with an exact (check/call, 0) pair, through ``act_env``."""

    def act_env(self, env, rows):
        return np.tile([1, 0], (len(rows), 1))


class MinRaiser:
    """Raises to one chip over the minimum where it may (else calls), through ``act_env``:
    an amount no pot-fraction action id gives."""

    def act_env(self, env, rows):
        out = np.tile([1, 0], (len(rows), 1))
        for k, i in enumerate(rows):
            _, low, high = env.raise_bounds(int(i))
            if low < high:
                out[k] = (2, low + 1)
        return out


class QuarterRaiser:
    """The built-in ``raise`` written as a user's bot: raise to min + 1/4 of (max - min)
    whenever allowed, else call, as exact (kind, amount) pairs."""

    def act_env(self, env, rows):
        out = np.tile([1, 0], (len(rows), 1))
        for k, i in enumerate(rows):
            _, low, high = env.raise_bounds(int(i))
            if low <= high:
                out[k] = (2, low + int(0.25 * (high - low)))
        return out


def test_a_users_exact_pairs_play_like_the_builtin():
    """The issue's repro shape (``[rows, 2]`` pairs from a user's ``act_env``) is played, and a
    user's copy of the built-in ``raise`` plays its games chip for chip."""
    df = vecgames.simulate("holdem", 10, players=[Caller(), "call"], num_players=2)
    assert len(df) == 10 and df.attrs["players"][0] == "Caller"
    mine = vecgames.simulate("holdem", 40, players=[QuarterRaiser(), "check", "check"],
                             num_players=3, seed=3)
    builtin = vecgames.simulate("holdem", 40, players=["raise", "check", "check"],
                                num_players=3, seed=3)
    assert (builtin["chips_0"] != 0).any()
    for column in ("chips_0", "chips_1", "chips_2", "pot", "end_street"):
        np.testing.assert_array_equal(mine[column], builtin[column])


def test_exact_amounts_reach_the_table():
    """A raise to min + 1 chips (which no pot-fraction action id gives) is played: heads-up,
    the button opens to 5, so the big blind faces 3 to call; and a plain callable may answer
    with pairs too."""
    faced = []

    def watcher(obs, mask):  # reads "amount to call" (in table chips) from the observation
        faced.extend(np.rint(obs[:, 179] * 200).astype(int).tolist())
        return np.tile([1, 0], (len(obs), 1))

    vecgames.simulate("holdem", 10, players=[MinRaiser(), watcher], num_players=2, seed=1,
                      button="rotate")
    assert 3 in faced
    def call_id(obs, mask):  # the discrete check/call id
        return np.ones(len(obs), np.int64)

    pairs = vecgames.simulate("holdem", 20, players=[watcher, "raise"], num_players=2, seed=5)
    ids = vecgames.simulate("holdem", 20, players=[call_id, "raise"], num_players=2, seed=5)
    np.testing.assert_array_equal(pairs["chips_0"], ids["chips_0"])


@pytest.mark.parametrize("pairs, error, match", [
    ([2, 10**6], ValueError, r"player 'Bad'.*bet/raise to 1000000.*raise to 4\.\.100"),
    ([0, 0], ValueError, r"player 'Bad'.*fold.*checking is free"),
    ([5, 0], ValueError, r"player 'Bad'.*kind 5"),
    ([1.0, 0.0], TypeError, r"player 'Bad'.*integer \(kind, amount\)"),
])
def test_illegal_exact_amounts_are_refused_naming_the_player(pairs, error, match):
    class Bad:
        def __init__(self):
            self.calls = 0

        def act_env(self, env, rows):
            self.calls += 1
            # first decision of the hand: the big blind to act heads-up after the button's
            # call, where folding is refused; the first seat acts on the button preflop
            return np.tile(pairs, (len(rows), 1))

    seats = [Bad(), "call"] if pairs != [0, 0] else ["call", Bad()]
    with pytest.raises(error, match=match):
        vecgames.simulate("holdem", 5, players=seats, num_players=2, button="rotate")


def test_exact_pairs_of_the_wrong_count_are_refused():
    def short(obs, mask):
        return np.zeros((len(obs), 3), np.int64)

    with pytest.raises(ValueError, match=r"one \(kind, amount\) pair per row, shape \(n, 2\)"):
        vecgames.simulate("holdem", 5, players=[short, "call"], num_players=2)


def test_exact_pairs_in_the_arena():
    result = vecgames.arena("holdem", [MinRaiser(), "call"], 40, num_players=2, seed=2)
    row = result.pairwise.set_index(["player", "opponent"]).loc[("MinRaiser", "call")]
    assert row["games"] == 80


# ------------------------------------------------------------------ env options by value


@pytest.mark.parametrize("a, b, same", [
    ((0.5, 1.0, 2.0), [0.5, 1.0, 2.0], True),
    ((0.5, 1, 2), np.array([0.5, 1.0, 2.0]), True),
    (2, 2.0, True),
    ((0.5, 1.0), [0.5, 1.0, 2.0], False),
    ((0.5, 1.0, 2.0), (0.5, 1.0, 3.0), False),
    ("seed", "seed", True),
    ("seed", "default", False),
    (True, 1, True),  # not numbers by the rule: == decides
    ((1, 2), "12", False),
])
def test_same_option(a, b, same):
    assert same_option(a, b) is same and same_option(b, a) is same


def test_a_tuple_and_a_list_of_fractions_do_not_conflict():
    def bot(obs, mask):
        return mask.argmax(1)

    bot.env_options = {"raise_fractions": (0.5, 1.0, 2.0)}  # type: ignore[attr-defined]
    merged = merged_env_options("holdem", [bot], {"raise_fractions": [0.5, 1.0, 2.0]})
    assert list(merged["raise_fractions"]) == [0.5, 1.0, 2.0]
    with pytest.raises(ValueError, match="needs raise_fractions=.*but the call has"):
        merged_env_options("holdem", [bot], {"raise_fractions": [0.5, 1.0]})
    df = vecgames.simulate("holdem", 5, players=[bot, "call"], num_players=2,
                           raise_fractions=[0.5, 1.0, 2.0])
    assert len(df) == 5


# ------------------------------------------------------------------ the arena's options


def test_the_arena_takes_the_env_options_simulate_takes():
    """``raise_fractions`` reaches the tables with the user's player: its action ids change
    meaning, so the payoffs follow the fractions."""
    def pot_raiser(obs, mask):  # the first raise id it may take (id 2: the first fraction)
        raises = mask[:, 2:-2]
        return np.where(raises.any(1), 2 + raises.argmax(1), 1)

    half = vecgames.arena("holdem", [pot_raiser, "equity"], 30, num_players=2, seed=4,
                          raise_fractions=(0.5, 1.0, 2.0))
    triple = vecgames.arena("holdem", [pot_raiser, "equity"], 30, num_players=2, seed=4,
                            raise_fractions=[3.0])
    assert half.options["raise_fractions"] == (0.5, 1.0, 2.0)
    assert not np.array_equal(half.matches["payoff_pot_raiser"],
                              triple.matches["payoff_pot_raiser"])
    # simulate gives the arena's games (the first seat assignment, deals 0..29)
    df = vecgames.simulate("holdem", 30, players=[pot_raiser, "equity"], num_players=2, seed=4,
                           raise_fractions=[3.0])
    first = triple.matches[triple.matches.assignment == "pot_raiser | equity"]
    np.testing.assert_array_equal(first["payoff_pot_raiser"], df["chips_0"] * 50.0)


@pytest.mark.parametrize("options, match", [
    ({"raise_fractions": "x"}, "raise_fractions"),
    ({"illegal": "penalty"}, "sets"),
])
def test_bad_env_options_in_the_arena_before_any_game(monkeypatch, options, match):
    from vecgames.arena import api

    monkeypatch.setattr(api, "play_match", lambda job: (_ for _ in ()).throw(AssertionError))
    with pytest.raises(ValueError, match=match):
        vecgames.arena("holdem", [Caller(), "equity"], 5, num_players=2, **options)


def test_a_runner_of_action_ids_says_it_takes_no_pairs():
    """Training collectors step action ids: pairs there are refused with that reason."""
    from vecgames.simulators.mixed import checked_actions

    env = vecgames.make("holdem", num_envs=2, num_players=2)
    env.reset()
    with pytest.raises(ValueError, match="answered \\(kind, amount\\) pairs, which this runner"):
        checked_actions(env, np.tile([1, 0], (2, 1)), np.arange(2), "bot")
