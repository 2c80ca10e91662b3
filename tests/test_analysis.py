"""The analysis report: tables agree with the raw per-game DataFrame; files are written."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.analysis import histogram_table, md_table, write_report
from vecgames.games.zhajinhua.report import (
    action_by_round,
    action_by_status,
    action_counts_table,
    category_table,
    distribution_table,
    end_table,
    position_table,
    seat_table,
    status_table,
    win_shares,
)
from vecgames.poker import CATEGORY_NAMES

GAMES = 20_000
PLAYERS = 6


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return vecgames.simulate("zhajinhua", GAMES, seed=11, record_actions=True)


@pytest.fixture(scope="module")
def df_uniform() -> pd.DataFrame:
    return vecgames.simulate("zhajinhua", 2_000, policy="uniform", seed=5, num_players=3,
                             record_actions=True)


def _seat_cols(df: pd.DataFrame, name: str) -> np.ndarray:
    return df[[f"{name}_{p}" for p in range(PLAYERS)]].to_numpy()


def test_win_shares_sum_to_one_per_game(df):
    shares = win_shares(df)
    assert shares.shape == (GAMES, PLAYERS)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    winners = df["winners"].to_numpy()
    assert ((shares > 0) == ((winners[:, None] >> np.arange(PLAYERS)) & 1).astype(bool)).all()


def test_seat_table_matches_raw(df):
    t = seat_table(df)
    assert list(t["seat"]) == list(range(PLAYERS))
    assert (t["games"] == GAMES).all()
    assert t["win_rate"].sum() == pytest.approx(1.0)
    np.testing.assert_allclose(t["mean_chips"], _seat_cols(df, "chips").mean(axis=0))
    assert t["mean_chips"].sum() == pytest.approx(0.0, abs=1e-9)  # chips are zero-sum
    np.testing.assert_allclose(t["seen_rate"], _seat_cols(df, "looked").mean(axis=0))
    assert t["opener_rate"].sum() == pytest.approx(1.0)


def test_position_table_sums(df):
    t = position_table(df)
    assert (t["hands"] == GAMES).all()
    assert t["win_rate"].sum() == pytest.approx(1.0)
    assert t["mean_chips"].sum() == pytest.approx(0.0, abs=1e-9)
    # position 0 is the opener: its chips are the opener's seat's chips
    opener_chips = _seat_cols(df, "chips")[np.arange(GAMES), df["opener"].to_numpy()]
    assert t["mean_chips"][0] == pytest.approx(opener_chips.mean())


def test_category_table_matches_raw(df):
    t = category_table(df)
    assert list(t["name"]) == list(CATEGORY_NAMES)
    cats = _seat_cols(df, "category").ravel()
    np.testing.assert_array_equal(t["hands"], np.bincount(cats, minlength=len(CATEGORY_NAMES)))
    assert t["hands"].sum() == GAMES * PLAYERS
    assert t["hand_share"].sum() == pytest.approx(1.0)
    present = t[t["hands"] > 0]
    assert {0, 1, 2, 3}.issubset(set(present["category"]))  # common categories all dealt
    # pooled win rates weighted by hands add up to one pot per game
    assert (present["win_rate"] * present["hands"]).sum() == pytest.approx(GAMES)
    # the overall rate is the hand-weighted blend of the blind and seen rates
    seen = present["seen_rate"]
    blend = (1 - seen) * present["win_rate_blind"].fillna(0) + seen * present[
        "win_rate_seen"].fillna(0)
    np.testing.assert_allclose(blend, present["win_rate"])
    # a stronger category wins more often than high card
    assert present["win_rate"].iloc[1] > present["win_rate"].iloc[0]


def test_status_table_matches_raw(df):
    t = status_table(df)
    looked = _seat_cols(df, "looked").ravel()
    assert list(t["hands"]) == [int((looked == 0).sum()), int((looked == 1).sum())]
    assert (t["win_rate"] * t["hands"]).sum() == pytest.approx(GAMES)


def test_end_table_shares(df):
    t = end_table(df)
    assert "running" not in set(t["end"])
    assert {"fold", "compare", "showdown", "illegal"} == set(t["end"])
    assert t["share"].sum() == pytest.approx(1.0)
    counts = df["end"].value_counts()
    for row in t.itertuples():
        assert row.games == counts[row.end]
    fold = t.set_index("end").loc["fold"]
    assert fold["mean_pot"] == pytest.approx(df.loc[df["end"] == "fold", "pot"].mean())


def test_illegal_ends_counted(df_uniform):
    t = end_table(df_uniform).set_index("end")
    assert t.loc["illegal", "games"] > 0  # uniform over all 15 actions plays illegal ones
    assert t["games"].sum() == len(df_uniform)


def test_distribution_table_matches_pandas(df):
    t = distribution_table(df).set_index("measure")
    for col in ("pot", "rounds", "decisions"):
        s = df[col]
        assert t.loc[col, "mean"] == pytest.approx(s.mean())
        assert t.loc[col, "min"] == s.min() and t.loc[col, "max"] == s.max()
        assert t.loc[col, "p50"] == s.quantile(0.5, interpolation="lower")
        assert t.loc[col, "p5"] <= t.loc[col, "p50"] <= t.loc[col, "p99"]


def test_histogram_table():
    exact = histogram_table([1, 2, 2, 5])
    assert list(exact["low"]) == [1, 2, 3, 4, 5] and list(exact["games"]) == [1, 2, 0, 0, 1]
    assert exact["cumulative"].iloc[-1] == pytest.approx(1.0)
    v = np.arange(1000)
    binned = histogram_table(v, max_bins=40)
    assert len(binned) <= 40 and binned["games"].sum() == 1000
    assert binned["low"].iloc[0] == 0 and binned["high"].iloc[-1] >= 999
    assert (binned["low"].iloc[1:].to_numpy() == binned["high"].iloc[:-1].to_numpy() + 1).all()


def test_action_tables_total_decisions(df):
    ac = df.attrs["action_counts"]
    decisions = int(df["decisions"].sum())
    assert action_counts_table(ac)["count"].sum() == decisions
    look = action_by_round(ac, "look")
    act = action_by_round(ac, "action")
    assert look["decisions"].sum() + act["decisions"].sum() == decisions
    assert action_by_round(ac)["decisions"].sum() == decisions
    assert action_by_status(ac)["decisions"].sum() == decisions
    for t in (look, act, action_by_status(ac)):
        shares = t.drop(columns=[c for c in ("round", "phase", "status", "decisions")
                                 if c in t.columns])
        np.testing.assert_allclose(shares.sum(axis=1), 1.0)


def test_action_tables_follow_the_rules(df):
    ac = df.attrs["action_counts"]
    act = action_by_round(ac, "action").set_index("round")
    assert act.loc[1, "compare"] == 0  # no compare in round 1 (no_compare_rounds=1)
    assert act.loc[2, "compare"] > 0
    assert "look" not in act.columns  # the random policy only plays legal actions
    by_status = action_by_status(ac).set_index(["phase", "status"])
    assert by_status.loc[("look", "seen"), "no-op"] == 1.0  # a seen seat cannot look again
    assert 0.4 < by_status.loc[("look", "blind"), "look"] < 0.6  # random: look half the time
    blind = action_by_round(ac, "look", "blind")
    assert blind["decisions"].sum() == by_status.loc[("look", "blind"), "decisions"]


def test_md_table_formats():
    t = pd.DataFrame({"name": ["a", "b"], "games": [1000, 2], "win_rate": [0.5, 0.25],
                      "mean_chips": [1.5, -2.0], "x": [np.nan, 3.25]})
    text = md_table(t, pct=["win_rate"], signed=["mean_chips"])
    lines = text.splitlines()
    assert lines[0] == "| name | games | win_rate | mean_chips | x |"
    assert lines[1] == "|---|---:|---:|---:|---:|"
    assert lines[2] == "| a | 1,000 | 50.00% | +1.500 | – |"
    assert lines[3] == "| b | 2 | 25.00% | -2.000 | 3.250 |"


def test_write_report_files(df, tmp_path):
    written = write_report(df, tmp_path / "sub" / "rep.md", elapsed=0.5)
    md = written["report"]
    assert md == tmp_path / "sub" / "rep.md"
    text = md.read_text(encoding="utf-8")
    for heading in ("How games are decided", "Win rate by seat", "Win rate by hand category",
                    "Pot size and game length", "Actions by round", "Actions by blind/seen"):
        assert f"## {heading}" in text
    assert f"games: {GAMES:,}" in text and "seed: 11" in text and "0.50 s" in text
    csvs = [p for p in written.values() if p.suffix == ".csv"]
    pngs = [p for p in written.values() if p.suffix == ".png"]
    assert len(csvs) >= 10 and len(pngs) >= 3
    for p in csvs + pngs:
        assert p.exists() and p.stat().st_size > 0, p
    for p in pngs:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({p.name})" in text  # linked from the report
    seats = pd.read_csv(written["seats"])
    np.testing.assert_allclose(seats["win_rate"], seat_table(df)["win_rate"])


def test_write_report_without_matplotlib(df, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    written = write_report(df, tmp_path / "r.md")
    assert not [p for p in written.values() if p.suffix == ".png"]
    text = written["report"].read_text(encoding="utf-8")
    assert "matplotlib is not installed" in text and ".png" not in text


def test_write_report_without_action_counts(df, tmp_path):
    plain = df.copy()
    plain.attrs = {k: v for k, v in df.attrs.items() if k != "action_counts"}
    written = write_report(plain, tmp_path / "r.md", plots=False)
    text = written["report"].read_text(encoding="utf-8")
    assert "record_actions=True" in text and "actions" not in written


def test_rejects_summary_frames():
    summary = vecgames.simulate("zhajinhua", 1_000, seed=0, summary=True)
    with pytest.raises(ValueError, match="per-game"):
        seat_table(summary)
