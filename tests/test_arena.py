"""vecgames.arena: the schedule, duplicate deals, CIs, ratings and their properties (a player
against itself scores 0, seat rotation removes the seat advantage, duplicate and plain formats
agree, results do not depend on the thread count), and bad input refused before any game."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.arena import api
from vecgames.arena.payoffs import seat_payoffs
from vecgames.arena.ratings import ELO, bradley_terry
from vecgames.arena.schedule import assignments, count_assignments, hanabi_assignments
from vecgames.arena.stats import mean_ci, unit_means
from vecgames.policies.human import HumanPlayer

HEADS_UP = {"num_players": 2}


def covers(row: pd.Series, value: float) -> bool:
    return bool(row["ci_low"] <= value <= row["ci_high"])


def pair(result, player: str, opponent: str) -> pd.Series:
    table = result.pairwise
    return table[(table.player == player) & (table.opponent == opponent)].iloc[0]


# ---------------------------------------------------------------- schedule, stats, ratings


@pytest.mark.parametrize("players, seats", [(2, 2), (3, 2), (4, 3), (2, 4), (3, 4), (6, 6)])
def test_schedule_counts_and_balance(players, seats):
    listed = assignments(players, seats)
    assert len(listed) == len(set(listed)) == count_assignments(players, seats)
    for s in range(seats):  # every player sits in every seat equally often
        counts = np.bincount([a[s] for a in listed], minlength=players)
        assert np.all(counts == counts[0]) and counts[0] > 0
    assert all(len(set(a)) == min(players, seats) for a in listed)


def test_hanabi_schedule():
    assert hanabi_assignments(2, 2) == [(0, 0), (1, 1), (0, 1), (1, 0)]
    three = hanabi_assignments(2, 3)
    assert three[:2] == [(0, 0, 0), (1, 1, 1)] and len(three) == 2 + 2 * 3


def test_units_and_ci():
    values = np.array([1.0, 3.0, 2.0, 4.0, 10.0])
    deals = np.array([5, 5, 7, 7, 9])
    np.testing.assert_array_equal(unit_means(values, deals), [2.0, 3.0, 10.0])
    mean, low, high = mean_ci(np.array([2.0, 3.0, 10.0]))
    half = 4.302652729749464 * np.std([2.0, 3.0, 10.0], ddof=1) / np.sqrt(3)  # t(0.975, 2)
    assert mean == 5.0 and np.isclose(high - mean, half) and np.isclose(mean - low, half)
    assert np.isnan(mean_ci(np.array([1.0]))[1])


def test_bradley_terry_hand_computed():
    """75 wins in 100 games: P = 0.75, so the Elo gap is 400 log10(3) and its standard error
    400 / ln 10 / sqrt(100 x 0.75 x 0.25); mean-zero ratings carry half of each."""
    ratings, cov = bradley_terry(np.array([[0, 75], [25, 0]]), prior_games=0)
    gap = 400 * np.log10(3)
    np.testing.assert_allclose(ratings, [gap / 2, -gap / 2], rtol=1e-9)
    se_gap = ELO / np.sqrt(100 * 0.75 * 0.25)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)), [se_gap / 2] * 2, rtol=1e-9)
    cycle = np.array([[0, 2, 1], [1, 0, 2], [2, 1, 0]])  # each beats the next 2:1
    np.testing.assert_allclose(bradley_terry(cycle)[0], 0, atol=1e-9)
    with pytest.raises(ValueError, match="connect"):
        bradley_terry(np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))


def test_liars_dice_points():
    """Round losers -1, the others +1/(P-1), truncated rounds 0, summed over a match."""
    df = pd.DataFrame({"loser": [0, 2, 1, -1]})
    df.attrs["rules"] = {"num_rounds": 2}
    np.testing.assert_allclose(seat_payoffs("liars_dice", df, 3),
                               [[-0.5, 1.0, -0.5], [0.5, -1.0, 0.5]])


# ---------------------------------------------------------------- duplicate deals


@pytest.mark.parametrize("game, columns, options", [
    ("zhajinhua", ["category", "opener"], {"num_players": 3}),
    ("dayaoguai", ["monsters", "disciples", "masters"], {}),
])
def test_duplicate_deals_do_not_depend_on_the_players(game, columns, options):
    """What a seat was dealt in game g is the same whoever sits there."""
    names = list(vecgames.players(game))
    n = vecgames.make(game, **options).num_players
    a = vecgames.simulate(game, 200, policy=[names[k % 2] for k in range(n)], **options)
    b = vecgames.simulate(game, 200, policy=[names[1 + k % 2] for k in range(n)], **options)
    for column in columns:
        cols = [c for c in a.columns if c == column or c.startswith(f"{column}_")]
        pd.testing.assert_frame_equal(a[cols], b[cols])


def test_holdem_duplicate_deals():
    """Hold'em: a seat shown down in both games of a deal shows the same hand category."""
    a = vecgames.simulate("holdem", 400, policy=["call", "strength"], **HEADS_UP)
    b = vecgames.simulate("holdem", 400, policy=["strength", "call"], **HEADS_UP)
    np.testing.assert_array_equal(a.button, b.button)
    for p in range(2):
        shown = (a[f"category_{p}"] >= 0) & (b[f"category_{p}"] >= 0)
        assert shown.sum() > 50
        np.testing.assert_array_equal(a[f"category_{p}"][shown], b[f"category_{p}"][shown])
    result = vecgames.arena("holdem", ["call", "strength"], 400, **HEADS_UP)
    assert result.unit == "bb/100"  # a hand's chips x 100 / big blind (2)
    np.testing.assert_array_equal(result.matches.payoff_call[:400], a.chips_0 * 50.0)
    np.testing.assert_array_equal(result.matches.payoff_call[400:], b.chips_1 * 50.0)


def test_duplicate_narrows_and_agrees_with_plain():
    dup = vecgames.arena("holdem", ["call", "strength"], 1_500, **HEADS_UP)
    plain = vecgames.arena("holdem", ["call", "strength"], 1_500, duplicate=False, **HEADS_UP)
    assert dup.duplicate and not plain.duplicate
    assert (dup.ci_unit, plain.ci_unit) == ("deal", "game")
    d, p = pair(dup, "strength", "call"), pair(plain, "strength", "call")
    assert d.units == 1_500 and p.units == 3_000 and d.games == p.games == 3_000
    width_d, width_p = d.ci_high - d.ci_low, p.ci_high - p.ci_low
    assert width_d < width_p  # the same number of games, a narrower interval
    both = np.hypot(width_d, width_p) / 2  # the difference's 95% half-width
    assert abs(d["mean"] - p["mean"]) < both
    np.testing.assert_array_equal(dup.matches.deal[:1_500], dup.matches.deal[1_500:])


# ---------------------------------------------------------------- properties


def test_a_player_against_itself_scores_zero():
    plain = vecgames.arena("zhajinhua", ["heuristic", "heuristic"], 2_000, duplicate=False,
                           **HEADS_UP)
    assert plain.players == ("heuristic", "heuristic#2")
    row = pair(plain, "heuristic", "heuristic#2")
    assert covers(row, 0.0) and row.ci_high > row.ci_low
    dup = vecgames.arena("zhajinhua", ["heuristic", "heuristic"], 500, **HEADS_UP)
    assert pair(dup, "heuristic", "heuristic#2")["mean"] == 0.0  # the same games, mirrored


def test_seat_rotation_removes_the_seat_advantage():
    """With seat 0 always opening, the opener loses chips; rotated, self-play scores 0."""
    result = vecgames.arena("zhajinhua", ["random", "random"], 3_000, duplicate=False,
                            first_player=0, **HEADS_UP)
    m = result.matches
    seat0 = m.loc[m.assignment == "random | random#2", "payoff_random"].to_numpy()
    assert mean_ci(seat0)[2] < 0  # the seat's disadvantage is clear without rotation
    assert covers(pair(result, "random", "random#2"), 0.0)


def test_tables_and_ratings():
    result = vecgames.arena("zhajinhua", ["random", "heuristic", "uniform", "heuristic"], 200,
                            seed=4, **HEADS_UP)
    assert len(result.matches) == 12 * 200 and result.unit == "chips"
    matrix = result.matrix()
    np.testing.assert_allclose(matrix.to_numpy(), -matrix.to_numpy().T)  # zero-sum
    ratings = result.ratings.set_index("player")
    for label in result.players:
        mine = result.pairwise[result.pairwise.player == label]
        assert np.isclose(ratings.loc[label, "rating"], mine["mean"].mean())
        assert ratings.loc[label, "games"] == 6 * 200
    assert list(result.ratings.rating) == sorted(result.ratings.rating, reverse=True)
    # duplicate deals: every pair met on every deal, so a rating's error is that of the mean
    # over deals of the player's per-deal result against the field (not of independent CIs)
    m = result.matches
    payoff = {label: m[f"payoff_{label}"].to_numpy() for label in result.players}

    def against(label: str, other: str) -> np.ndarray:
        both = ~np.isnan(payoff[label]) & ~np.isnan(payoff[other])
        return unit_means((payoff[label] - payoff[other])[both] / 2, m.deal.to_numpy()[both])

    for label in result.players:
        per_deal = np.mean([against(label, other) for other in result.players if other != label],
                           axis=0)
        standard_error = per_deal.std(ddof=1) / np.sqrt(len(per_deal))
        assert np.isclose(ratings.loc[label, "sd"], standard_error)
        assert np.isclose(ratings.loc[label, "rating"], per_deal.mean())
    assert set(result.tables()) == {"pairwise", "ratings"}
    text = result.to_markdown()
    assert "### pairwise" in text and "heuristic" in text


def test_more_seats_than_players():
    """Two players at 4 seats: 14 assignments; a player's payoff is its seats' mean."""
    result = vecgames.arena("dayaoguai", ["random", "shed"], 40, seed=1)
    assert result.seats == 4 and result.matches.assignment.nunique() == 14
    assert pair(result, "shed", "random")["mean"] > 0


def test_hanabi_selfplay_and_crossplay():
    result = vecgames.arena("hanabi", ["random", "rules"], 200)
    assert result.pairwise is None and result.ratings is None and not result.duplicate
    selfplay = result.selfplay.set_index("player")
    assert selfplay.loc["rules", "mean"] > selfplay.loc["random", "mean"]
    assert selfplay.loc["rules", "games"] == 200
    cross = result.cross_matrix()
    assert cross.loc["rules", "rules"] == selfplay.loc["rules", "mean"]
    assert cross.loc["rules", "random"] == cross.loc["random", "rules"]  # 2 seats: same games
    alone = vecgames.arena("hanabi", ["rules"], 50)
    assert alone.crossplay.empty and alone.cross_matrix().shape == (1, 1)
    with pytest.raises(ValueError, match="cooperative"):
        result.matrix()


@pytest.mark.parametrize("game, players, options", [
    ("liars_dice", ["random", "heuristic"], {}),
    ("holdem", ["random", "call", "strength"], {"num_players": 3}),
])
def test_deterministic_on_one_or_two_threads(game, players, options):
    one = vecgames.arena(game, players, 150, seed=9, num_threads=1, **options)
    two = vecgames.arena(game, players, 150, seed=9, num_threads=2, **options)
    pd.testing.assert_frame_equal(one.matches, two.matches, check_exact=True)
    pd.testing.assert_frame_equal(one.pairwise, two.pairwise, check_exact=True)
    pd.testing.assert_frame_equal(one.ratings, two.ratings, check_exact=True)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, error, match", [
    ({"players": ["random", "bluffer"]}, ValueError, "'random', 'call'"),
    ({"players": ["random"]}, ValueError, "at least 2 players"),
    ({"players": "random"}, TypeError, "players must be a list"),
    ({"num_games": 0}, ValueError, "num_games"),
    ({"num_games": 1.5}, TypeError, "num_games"),
    ({"duplicate": "yes"}, TypeError, "duplicate"),
    ({"backend": "spark"}, ValueError, "backend"),
    ({"stack": -1}, ValueError, "stack"),
    ({"colour": 1}, ValueError, "unknown option"),
    ({"summary": True}, ValueError, "sets"),
    ({"num_shards": 2}, ValueError, "backend='ray'"),
    ({"players": ["random", "human"]}, ValueError, "human"),
    ({"players": ["random", HumanPlayer("holdem")]}, ValueError, "HumanPlayer"),
])
def test_bad_input_before_any_game(monkeypatch, kwargs, error, match):
    def no_games(job):
        raise AssertionError("a game ran")

    monkeypatch.setattr(api, "play_match", no_games)
    call = {"game": "holdem", "players": ["random", "call"], "num_games": 10, **kwargs}
    with pytest.raises(error, match=match):
        vecgames.arena(**call)


def test_no_duplicate_where_the_deal_depends_on_the_players(monkeypatch):
    monkeypatch.setattr(api, "play_match", lambda job: (_ for _ in ()).throw(AssertionError))
    with pytest.raises(ValueError, match="lazily"):
        vecgames.arena("hanabi", ["rules"], 10, duplicate=True)
    with pytest.raises(ValueError, match="num_rounds=1"):
        vecgames.arena("liars_dice", ["random", "heuristic"], 10, duplicate=True, num_rounds=3)
    with pytest.raises(ValueError, match="give fewer players"):
        vecgames.arena("holdem", [f"{n}" for n in ["random"] * 12], 10)


# ---------------------------------------------------------------- other kinds of players


def first_legal(obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    return action_mask.argmax(axis=1)


def test_mixed_players():
    """Built-in-only tables play in the kernels (the same games as simulate), a table with a
    callable through play_games; the callable is labelled by its name."""
    result = vecgames.arena("liars_dice", ["random", "heuristic", first_legal], 60, seed=2)
    assert result.players == ("random", "heuristic", "first_legal")
    assert pair(result, "heuristic", "first_legal")["mean"] > 0.5
    m = result.matches
    kernel = vecgames.simulate("liars_dice", 60, policy=["random", "heuristic"], seed=2)
    mine = m.assignment == "random | heuristic"
    expected = np.where(kernel.loser.to_numpy() == 0, -1.0, 1.0)
    np.testing.assert_array_equal(m.loc[mine, "payoff_random"], expected)


def test_duplicate_deals_through_play_games():
    """The env path deals game g from its stream before any player acts, as the kernels do."""
    from vecgames.simulators.mixed import play_games

    a = play_games("zhajinhua", ["heuristic", first_legal], 100, num_players=2)
    b = play_games("zhajinhua", [first_legal, "heuristic"], 100, num_players=2)
    cols = ["opener", "category_0", "category_1"]
    pd.testing.assert_frame_equal(a[cols], b[cols])


def test_players_checked_before_any_game(monkeypatch):
    monkeypatch.setattr(api, "play_match", lambda job: (_ for _ in ()).throw(AssertionError))

    def other_game(obs, mask):
        return mask.argmax(axis=1)

    other_game.game = "holdem"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="plays holdem"):
        vecgames.arena("liars_dice", ["random", other_game], 10)
    with pytest.raises(ValueError, match="only in simulate's kernels"):
        vecgames.arena("zhajinhua", ["uniform", first_legal], 10, num_players=2)


def test_a_players_rule_options_size_every_table():
    def heads_up(obs, mask):
        return mask.argmax(axis=1)

    heads_up.env_options = {"num_players": 2}  # type: ignore[attr-defined]
    result = vecgames.arena("holdem", ["call", heads_up], 20)
    assert result.seats == 2 and result.options["num_players"] == 2
    assert result.matches.assignment.nunique() == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 6), st.integers(1, 400))
def test_a_balanced_schedule_seats_everyone_evenly(players, seats, budget):
    """Each player equally often in each seat; with k < n, k <= 5 or a prime k, each pair of
    players equally often at a table (else within 1.5x); no assignment twice; the exhaustive
    schedule when it fits the budget; the same schedule on every call."""
    from collections import Counter
    from itertools import combinations

    from vecgames.arena.schedule import balanced_assignments, count_assignments

    schedule = balanced_assignments(players, seats, budget)
    assert len(set(schedule)) == len(schedule) > 0
    assert all(len(a) == seats and set(a) <= set(range(players)) for a in schedule)
    if players < seats:
        assert all(len(set(a)) == players for a in schedule)  # everyone plays
    else:
        assert all(len(set(a)) == seats for a in schedule)
    if count_assignments(players, seats) <= budget:
        assert len(schedule) == count_assignments(players, seats)
    per_seat = Counter((s, p) for a in schedule for s, p in enumerate(a))
    assert len(set(per_seat.values())) == 1 and len(per_seat) == seats * players
    together = Counter(pair for a in schedule for pair in combinations(sorted(set(a)), 2))
    assert len(together) == players * (players - 1) // 2
    prime = all(players % d for d in range(2, players))
    if players < seats or prime or players <= 5:
        assert len(set(together.values())) == 1
    else:
        assert max(together.values()) <= 1.5 * min(together.values())
    assert balanced_assignments(players, seats, budget) == schedule  # deterministic


def test_total_games_spreads_a_balanced_schedule():
    """``total_games``: about that many games, the same per assignment; the pairwise table
    is antisymmetric as with the exhaustive schedule; num_games and total_games exclude each
    other."""
    result = vecgames.arena("zhajinhua", ["random", "heuristic", "percentile"],
                            total_games=3000, seed=2, progress=False)
    counts = result.matches["assignment"].value_counts()
    assert counts.nunique() == 1 and len(counts) <= 3000 // api.GAMES_PER_ASSIGNMENT
    assert len(result.matches) == len(counts) * result.num_games > 3000 - len(counts)
    pw = result.pairwise.set_index(["player", "opponent"])["mean"]
    assert pw["random", "heuristic"] == -pw["heuristic", "random"]
    with pytest.raises(ValueError, match="not both"):
        vecgames.arena("zhajinhua", ["random", "heuristic"], 10, total_games=10)
    with pytest.raises(ValueError, match="not both"):
        vecgames.arena("zhajinhua", ["random", "heuristic"])
    with pytest.raises(ValueError, match="total_games"):
        vecgames.arena("zhajinhua", ["random", "heuristic"], total_games=0)


def test_minutes_stops_after_a_round_with_the_same_deals_everywhere():
    """``minutes``: the arena stops after the round that passes the time; every assignment has
    played the same first deals, and the tables are those of an arena of that many games."""
    players = ["random", "call", "raise"]
    stopped = vecgames.arena("holdem", players, 400, seed=4, progress=False, num_players=2,
                             minutes=1e-9)
    assert stopped.stopped and stopped.num_games == 400 // api.ROUNDS
    assert stopped.matches["assignment"].value_counts().nunique() == 1
    whole = vecgames.arena("holdem", players, stopped.num_games, seed=4, progress=False,
                           num_players=2)
    assert not whole.stopped
    pd.testing.assert_frame_equal(stopped.pairwise, whole.pairwise)
    pd.testing.assert_frame_equal(stopped.ratings, whole.ratings)
    assert not vecgames.arena("holdem", players, 40, seed=4, progress=False, num_players=2,
                              minutes=10).stopped
    with pytest.raises(ValueError, match="minutes"):
        vecgames.arena("holdem", players, 40, num_players=2, minutes=0)
    with pytest.raises(TypeError, match="minutes"):
        vecgames.arena("holdem", players, 40, num_players=2, minutes="1")
