"""The Da Yaoguai report: the statistics against direct computations, the files, the CLI."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.cli import main
from vecgames.games.dayaoguai.report import (
    as_frames,
    compare_policies,
    distribution,
    game_table,
    hand_correlations,
    hand_model,
    hand_table,
    length_table,
    report_tables,
    seat_policies,
    seat_table,
    write_report,
)

MIXED = ["weakest", "random", "random", "random"]


@pytest.fixture(scope="module")
def frames():
    # max_steps 200: some games finish and some are truncated under both policies
    return compare_policies(2000, ("weakest", MIXED), num_players=4, seed=3, max_steps=200)


def test_beans_ci_against_a_direct_computation(frames):
    table = seat_table(frames)
    z = NormalDist().inv_cdf(0.975)
    for label, df in frames.items():
        rows = table[table["policy"] == label].set_index("seat")
        done = ~df["truncated"].to_numpy()
        assert rows["seat_policy"].tolist() == seat_policies(df)
        for p in range(4):
            beans = df[f"beans_{p}"].to_numpy().astype(np.float64)
            x = beans[done]  # seat outcomes: finished games only
            n, mean, std = len(x), x.mean(), x.std(ddof=1)
            row = rows.loc[p]
            assert row["games"] == 2000 and row["finished"] == n == done.sum() < 2000
            assert row["truncated"] == 2000 - n
            assert row["mean_beans_truncated"] == pytest.approx(beans[~done].mean())
            assert row["mean_beans_all"] == pytest.approx(beans.mean())
            assert row["mean_beans"] == pytest.approx(mean, abs=1e-12)
            assert row["std_beans"] == pytest.approx(std, rel=1e-12)
            assert row["ci95"] == pytest.approx(z * std / np.sqrt(n), rel=1e-9)
            assert row["ci_low"] == pytest.approx(mean - z * std / np.sqrt(n), rel=1e-9)
            assert row["ci_high"] == pytest.approx(mean + z * std / np.sqrt(n), rel=1e-9)
            place = df[f"place_{p}"].to_numpy()
            assert row["mean_place_all"] == pytest.approx(place.mean())
            assert row["mean_place"] == pytest.approx(place[done].mean())
            assert row["win_share"] == pytest.approx((place[done] == 1).mean())
        # beans are transfers: they sum to 0 over the seats of every game
        assert rows["mean_beans"].sum() == pytest.approx(0.0, abs=1e-9)
    mixed = table[table["policy"] == ",".join(MIXED)].set_index("seat")
    assert mixed.loc[0, "mean_beans"] > 0 > mixed.loc[1, "mean_beans"]  # weakest beats random


def test_summary_frames_match_the_rows(frames):
    summary = vecgames.simulate("dayaoguai", 2000, policy=MIXED, seed=3, max_steps=200,
                                summary=True)
    both = {"rows": frames[",".join(MIXED)], "summary": summary}
    seats = seat_table(both)
    cols = ["seat", "seat_policy", "games", "finished", "mean_beans", "ci95", "ci_low",
            "ci_high", "std_beans", "mean_place", "win_share", "truncated",
            "mean_beans_truncated", "mean_beans_all", "mean_place_all"]
    rows, summ = (seats[seats["policy"] == k][cols].reset_index(drop=True) for k in both)
    pd.testing.assert_frame_equal(rows, summ, check_exact=False, rtol=1e-9)
    games = game_table(both)
    cols = ["players", "games", "max_steps", "truncated", "truncated_share", "finished",
            "mean_steps", "mean_pickups"]
    assert np.allclose(games[cols].iloc[0].to_numpy(float), games[cols].iloc[1].to_numpy(float))
    with pytest.raises(ValueError, match="per-game"):
        length_table(summary)


def test_game_and_length_tables(frames):
    games = game_table(frames).set_index("policy")
    for label, df in frames.items():
        trunc = df["truncated"].to_numpy()
        assert 0 < trunc.sum() < len(df)  # both kinds present at max_steps 200
        row = games.loc[label]
        assert row["truncated"] == trunc.sum() and row["finished"] == (~trunc).sum()
        assert row["truncated_share"] == pytest.approx(trunc.mean())
        assert row["mean_steps"] == pytest.approx(df["steps"].mean())
        assert row["mean_pickups"] == pytest.approx(df["pickups"].mean())
        assert row["mean_steps_finished"] == pytest.approx(df.loc[~trunc, "steps"].mean())
        assert (df.loc[trunc, "steps"] == 200).all() and row["max_steps"] == 200
        out = (df.loc[trunc, [f"place_{p}" for p in range(4)]] > 0).sum(axis=1).mean()
        assert row["out_when_truncated"] == pytest.approx(out)
    lengths = length_table(frames)
    assert lengths["measure"].tolist()[:4] == ["steps", "pickups", "steps (finished)",
                                               "pickups (finished)"]
    df = frames["weakest"]
    row = lengths[(lengths["policy"] == "weakest") & (lengths["measure"] == "steps")].iloc[0]
    assert row["p50"] == np.quantile(df["steps"], 0.5, method="inverted_cdf")
    assert row["max"] == df["steps"].max() and row["mean"] == pytest.approx(df["steps"].mean())
    for column in ("steps", "pickups"):
        dist = distribution(frames, column)
        assert (dist["low"] <= dist["high"]).all()
        for label, df in frames.items():
            assert dist[f"{label}_games"].sum() == len(df)
            assert dist[f"{label}_share"].sum() == pytest.approx(1.0)
        v = frames["weakest"][column].to_numpy()
        first = dist.iloc[0]
        assert first["weakest_games"] == ((v >= first["low"]) & (v <= first["high"])).sum()


def test_hand_tables(frames):
    df = frames["weakest"]
    done = ~df["truncated"].to_numpy()
    place = df[[f"place_{p}" for p in range(4)]].to_numpy()[done].ravel()
    hand = {f: df[[f"{f}_{p}" for p in range(4)]].to_numpy()[done].ravel()
            for f in ("monsters", "disciples", "masters")}
    assert ((hand["monsters"] + hand["disciples"] + hand["masters"]) == 7).all()
    hands = hand_table(frames)
    mine = hands[hands["policy"] == "weakest"]
    for feature, x in hand.items():
        t = mine[mine["feature"] == feature].set_index("count")
        assert t["seats"].sum() == done.sum() * 4
        for k in np.unique(x):
            assert t.loc[k, "mean_place"] == pytest.approx(place[x == k].mean())
            assert t.loc[k, "win_share"] == pytest.approx((place[x == k] == 1).mean())
    mixed = hands[hands["policy"] == ",".join(MIXED)]
    assert set(mixed["seat_policy"]) == {"weakest", "random"}
    corr = hand_correlations(frames).set_index(["policy", "seat_policy", "feature"])
    r = np.corrcoef(hand["monsters"], place)[0, 1]
    assert corr.loc[("weakest", "weakest", "monsters"), "r_place"] == pytest.approx(r)
    model = hand_model(frames)
    fit = model[model["policy"] == "weakest"].set_index("term")
    X = np.column_stack([np.ones(place.size), hand["monsters"], hand["masters"]])
    coef = np.linalg.lstsq(X, place.astype(float), rcond=None)[0]
    assert np.allclose(fit.loc[["intercept", "monsters", "masters"], "coef"], coef)
    assert (fit["se"] > 0).all() and 0 <= fit["r2"].iloc[0] <= 1


def test_frame_inputs(frames):
    mixed = frames[",".join(MIXED)]
    assert list(as_frames(mixed)) == [",".join(MIXED)]
    joined = pd.concat([df.assign(policy=label) for label, df in frames.items()])
    seats = seat_table(joined)
    assert seats["policy"].unique().tolist() == list(frames)
    assert seats["seat_policy"].tolist() == ["weakest"] * 4 + MIXED  # from the comma label
    assert set(report_tables(frames)) == {"games", "players", "lengths", "limits", "steps_hist",
                                          "pickups_hist",
                                          "seats", "hands", "hand_correlations", "hand_model"}


def test_report_files(frames, tmp_path):
    written = write_report(frames, tmp_path / "sub" / "dyg.md", elapsed=0.5)
    assert written[0] == tmp_path / "sub" / "dyg.md"
    assert all(p.exists() and p.stat().st_size > 0 for p in written)
    names = sorted(p.name for p in written)
    assert names == sorted(["dyg.md", "dyg_games.csv", "dyg_players.csv", "dyg_lengths.csv",
                            "dyg_limits.csv", "dyg_steps_hist.csv",
                            "dyg_pickups_hist.csv", "dyg_seats.csv", "dyg_hands.csv",
                            "dyg_hand_correlations.csv", "dyg_hand_model.csv",
                            "dyg_lengths.png", "dyg_hands.png"])
    text = written[0].read_text(encoding="utf-8")
    for section in ("# Da Yaoguai simulation report", "## Games and truncation",
                    "## Game length and pickups", "## Beans and place by seat",
                    "## Starting hand and finishing place", "### Correlations",
                    "### Linear model", "![game length and pickups](dyg_lengths.png)",
                    "![mean place by hand](dyg_hands.png)", "**weakest**: 2,000 games",
                    "finished games only", "95% confidence"):
        assert section in text
    seats = pd.read_csv(tmp_path / "sub" / "dyg_seats.csv")
    assert len(seats) == 8 and seats["seat"].tolist() == [0, 1, 2, 3] * 2
    # one frame alone, no plots; and a frame with no finished game
    only = write_report(frames["weakest"], tmp_path / "one.md", plots=False)
    assert len(only) == 11 and "**weakest**" in only[0].read_text(encoding="utf-8")
    cut = vecgames.simulate("dayaoguai", 50, policy="pickup", max_steps=20)
    assert cut["truncated"].all()
    paths = write_report(cut, tmp_path / "cut.md")
    assert "100.00%" in paths[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("extra", [[], ["--summary"]])
def test_cli_summary(extra, capsys):
    assert main(["simulate", "dayaoguai", "--games", "1000", "--num-players", "4", "--policy",
                 ",".join(MIXED), "--max-steps", "200", "--base", "2", *extra]) == 0
    out = capsys.readouterr().out
    assert "dayaoguai: 1,000 games, 4 players, policy weakest,random,random,random" in out
    assert "mean_beans" in out and "ci95" in out and "95% CI" in out
    assert "truncated at max_steps 200:" in out and "pickups: mean" in out
    assert "games/s" in out and "kernel load/compile" in out
    # the truncation rate comes first, the seat outcomes are over the finished games
    assert out.index("truncated at max_steps") < out.index("mean_beans")
    assert "win_share" in out and "finished games" in out and "mean_beans_truncated" in out


def test_cli_report_and_errors(tmp_path, capsys):
    path = tmp_path / "r.md"
    assert main(["simulate", "dayaoguai", "--games", "500", "--policy", "weakest",
                 "--max-steps", "150", "--report", str(path)]) == 0
    assert "wrote" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert "## Starting hand and finishing place" in text and "max_steps=150" in text
    assert (tmp_path / "r_lengths.png").exists() and (tmp_path / "r_hands.csv").exists()
    assert main(["simulate", "dayaoguai", "--games", "10", "--policy", "foo"]) == 2
    assert "--policy" in capsys.readouterr().err
    assert main(["simulate", "dayaoguai", "--games", "10", "--max-steps", "0"]) == 2
    assert "--max-steps" in capsys.readouterr().err
    assert main(["simulate", "dayaoguai", "--games", "10", "--base", "-1"]) == 2
    assert "--base" in capsys.readouterr().err
    assert main(["simulate", "zhajinhua", "--games", "10", "--max-steps", "5"]) == 2
    assert "max_steps" in capsys.readouterr().err
