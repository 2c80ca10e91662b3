"""The Liar's Dice report: its numbers against direct computations from the per-round frame."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.games.liars_dice.report import (
    bids_distribution,
    challenge_table,
    face_table,
    mode_table,
    round_table,
    seat_table,
    write_report,
)


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return vecgames.simulate("liars_dice", 3000, policy=["random", "heuristic", "heuristic"],
                             num_players=3, num_rounds=2, seed=5)


@pytest.fixture(scope="module")
def truncated() -> pd.DataFrame:  # rounds cut by the step limit, then unplayed ones
    return vecgames.simulate("liars_dice", 400, num_rounds=3, max_round_steps=3, seed=1)


def test_seat_table(df):
    played = df[df["end"] == "challenge"]
    t = seat_table(df)
    assert list(t["seat"]) == [0, 1, 2]
    assert list(t["policy"]) == ["random", "heuristic", "heuristic"]
    for seat in range(3):
        row = t.iloc[seat]
        lost = int((played["loser"] == seat).sum())
        p = lost / len(played)
        assert row["rounds"] == len(played) == 6000
        assert row["rounds_lost"] == lost
        assert row["loss_rate"] == pytest.approx(p)
        assert row["ci95"] == pytest.approx(1.959964 * np.sqrt(p * (1 - p) / len(played)))
        assert row["ci_low"] == pytest.approx(p - row["ci95"])
        assert row["opened"] == (played["opener"] == seat).sum()
        mine = played[played["challenger"] == seat]
        assert row["challenges"] == len(mine)
        assert row["challenge_success"] == pytest.approx((mine["loser"] != seat).mean())
        assert row["penalty_per_match"] == pytest.approx(lost / 3000)
    assert t["rounds_lost"].sum() == len(played)


def test_round_table(df):
    played = df[df["end"] == "challenge"]
    r = round_table(df).iloc[0]
    assert (r["players"], r["matches"], r["rounds"]) == (3, 3000, 6000)
    assert r["mean_bids"] == pytest.approx(played["bids"].mean())
    assert r["std_bids"] == pytest.approx(played["bids"].std())
    assert r["bids_ci95"] == pytest.approx(1.959964 * played["bids"].std() / np.sqrt(6000))
    assert r["median_bids"] == played["bids"].median()
    assert r["max_bids"] == played["bids"].max()
    # a false bid is one whose bidder lost: the challenger won
    assert r["bid_false_rate"] == pytest.approx((played["loser"] != played["challenger"]).mean())
    assert r["opener_loss_rate"] == pytest.approx((played["loser"] == played["opener"]).mean())


def test_ends_counted(truncated):
    r = round_table(truncated).iloc[0]
    counts = truncated["end"].value_counts()
    assert r["truncated"] == counts["truncated"] > 0
    assert r["unplayed"] == counts["unplayed"] > 0
    assert r["rounds"] == counts["challenge"]
    assert seat_table(truncated)["rounds_lost"].sum() == counts["challenge"]


def test_bids_and_challenges(df):
    played = df[df["end"] == "challenge"]
    b = bids_distribution(df)
    expected = played["bids"].value_counts().sort_index()
    assert list(b["bids"]) == list(expected.index)
    assert list(b["rounds"]) == list(expected)
    assert b["share"].sum() == pytest.approx(1.0)
    c = challenge_table(df)
    margin = (played["actual"].astype(int) - played["count"].astype(int)).value_counts()
    assert dict(zip(c["margin"], c["rounds"], strict=True)) == margin.to_dict()
    assert (c["outcome"].str.startswith("bid false") == (c["margin"] < 0)).all()


def test_modes_and_faces(df):
    played = df[df["end"] == "challenge"]
    m = mode_table(df).set_index("mode")
    f = face_table(df)
    for name, label in (("fei", "飞 fei (ones wild)"), ("zhai", "斋 zhai (face only)")):
        sub = played[played["mode"] == name]
        assert m.loc[label, "rounds"] == len(sub)
        assert m.loc[label, "share"] == pytest.approx(len(sub) / len(played))
        assert m.loc[label, "bid_false_rate"] == pytest.approx(
            (sub["actual"] < sub["count"]).mean())
        assert m.loc[label, "mean_count"] == pytest.approx(sub["count"].mean())
        faces = f[f["mode"] == name].set_index("face")
        for face, group in sub.groupby("face"):
            assert faces.loc[face, "rounds"] == len(group)
            assert faces.loc[face, "bid_false_rate"] == pytest.approx(
                (group["actual"] < group["count"]).mean())
    assert m["rounds"].sum() == len(played) == f["rounds"].sum()


def test_write_report(df, tmp_path):
    paths = write_report(df, tmp_path / "ld.md", elapsed=1.5)
    assert paths[0] == tmp_path / "ld.md" and all(p.exists() for p in paths)
    text = paths[0].read_text(encoding="utf-8")
    assert "matches: 3,000" in text and "## Seats" in text and "斋" in text
    seats = pd.read_csv(tmp_path / "ld_seats.csv")
    pd.testing.assert_frame_equal(seats, seat_table(df), check_dtype=False)


def test_rejects_a_summary_frame():
    summary = vecgames.simulate("liars_dice", 100, summary=True)
    with pytest.raises(ValueError, match="per-round frame"):
        seat_table(summary)
    with pytest.raises(TypeError, match="df must be a DataFrame"):
        round_table([1, 2])
