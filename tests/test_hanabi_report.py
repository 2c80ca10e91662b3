"""The Hanabi report: the statistics against direct computations, the files, the CLI."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.cli import main
from vecgames.games.hanabi.report import (
    action_table,
    as_frames,
    compare_policies,
    end_table,
    mean_ci,
    report_tables,
    score_distribution,
    score_table,
    write_report,
)


@pytest.fixture(scope="module")
def frames():
    return compare_policies(3000, ("random", "rules"), num_players=2, seed=5)


def test_ci_of_the_mean_against_a_direct_computation(frames):
    table = score_table(frames).set_index("policy")
    z = NormalDist().inv_cdf(0.975)
    for label, df in frames.items():
        x = df["score"].to_numpy().astype(np.float64)
        n, mean, std = len(x), x.mean(), x.std(ddof=1)
        row = table.loc[label]
        assert row["games"] == n == 3000
        assert row["mean_score"] == pytest.approx(mean, abs=1e-12)
        assert row["std_score"] == pytest.approx(std, abs=1e-9)
        assert row["ci95"] == pytest.approx(z * std / np.sqrt(n), abs=1e-9)
        assert row["ci_low"] == pytest.approx(mean - z * std / np.sqrt(n), abs=1e-9)
        assert row["ci_high"] == pytest.approx(mean + z * std / np.sqrt(n), abs=1e-9)
        assert row["median_score"] == np.median(x)
        assert row["perfect_share"] == (x == 25).mean()
        assert row["mean_fireworks"] == pytest.approx(df["fireworks"].mean())
    assert table.loc["random", "mean_score"] < table.loc["rules", "mean_score"]


def test_mean_ci_small_cases():
    rng = np.random.default_rng(1)
    for n in (2, 3, 10, 11, 1000):
        x = rng.integers(0, 26, n)
        s = mean_ci(np.bincount(x, minlength=26))
        assert s["median"] == np.median(x)
        assert s["mean"] == pytest.approx(x.mean())
        assert s["std"] == pytest.approx(x.std(ddof=1))
        assert s["ci95"] == pytest.approx(1.959964 * x.std(ddof=1) / np.sqrt(n), rel=1e-6)
    one = mean_ci(np.bincount([7], minlength=26))
    assert one["mean"] == 7 and one["median"] == 7 and np.isnan(one["ci95"])


def test_tables_add_up_and_match_the_summary(frames):
    dist = score_distribution(frames)
    assert dist["score"].tolist() == list(range(26))
    for label, df in frames.items():
        assert dist[f"{label}_games"].sum() == len(df)
        assert dist[f"{label}_share"].sum() == pytest.approx(1.0)
        assert (dist[f"{label}_games"] == df["score"].value_counts().reindex(
            range(26), fill_value=0).to_numpy()).all()
    ends = end_table(frames)
    assert np.allclose(ends[["lives", "perfect", "deck"]].sum(axis=1), 1.0)
    lost = frames["random"]["end"] == "lives"
    assert ends.set_index("policy").loc["random", "lives"] == pytest.approx(lost.mean())
    actions = action_table(frames).set_index("policy")
    for label, df in frames.items():
        total = df[["hints", "plays", "discards"]].to_numpy().sum()
        assert actions.loc[label, "actions"] == total == df["turns"].sum()
        assert actions.loc[label, "hint_share"] == pytest.approx(df["hints"].sum() / total)
        assert actions.loc[label, "discards_per_game"] == pytest.approx(df["discards"].mean())
    # a summary=True frame gives the same score, end and action statistics
    summary = vecgames.simulate("hanabi", 3000, policy="rules", num_players=2, seed=5,
                                summary=True)
    both = {"games": frames["rules"], "summary": summary}
    scores = score_table(both).drop(columns=["policy", "mean_fireworks"])
    pd.testing.assert_frame_equal(scores.iloc[[0]].reset_index(drop=True),
                                  scores.iloc[[1]].reset_index(drop=True))
    acts = action_table(both).drop(columns="policy")
    assert np.allclose(acts.iloc[0].to_numpy(float), acts.iloc[1].to_numpy(float))
    ends = end_table(both)[["lives", "perfect", "deck"]]
    assert np.allclose(ends.iloc[0], ends.iloc[1])


def test_frame_inputs(frames):
    mixed = vecgames.simulate("hanabi", 500, policy=["rules", "random"], seed=1)
    assert list(as_frames(mixed)) == ["rules,random"]
    assert list(as_frames([frames["rules"], frames["rules"]])) == ["rules", "rules #2"]
    joined = pd.concat([df.assign(policy=label) for label, df in frames.items()])
    assert score_table(joined)["policy"].tolist() == ["random", "rules"]
    assert score_table(joined)["games"].tolist() == [3000, 3000]
    assert set(report_tables(frames)) == {"scores", "score_distribution", "ends", "actions",
                                          "plays"}


def test_report_files(frames, tmp_path):
    written = write_report(frames, tmp_path / "sub" / "hanabi.md", elapsed=0.25)
    assert written[0] == tmp_path / "sub" / "hanabi.md"
    assert all(p.exists() and p.stat().st_size > 0 for p in written)
    names = sorted(p.name for p in written)
    assert names == ["hanabi.md", "hanabi_actions.csv", "hanabi_ends.csv", "hanabi_plays.csv",
                     "hanabi_score_distribution.csv", "hanabi_scores.csv", "hanabi_scores.png"]
    text = written[0].read_text(encoding="utf-8")
    for section in ("# Hanabi simulation report", "## Scores", "## Score distribution",
                    "## How games end", "## Actions", "![score distribution](hanabi_scores.png)",
                    "**random**: 3,000 games", "**rules**: 3,000 games", "95% confidence"):
        assert section in text
    scores = pd.read_csv(tmp_path / "sub" / "hanabi_scores.csv")
    assert scores["policy"].tolist() == ["random", "rules"]
    # one frame alone, no plot
    only = write_report(frames["rules"], tmp_path / "one.md", plots=False)
    assert len(only) == 6 and "**rules**" in only[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("extra", [[], ["--summary"]])
def test_cli_summary(extra, capsys):
    assert main(["simulate", "hanabi", "--games", "2000", "--num-players", "3", "--policy",
                 "rules", *extra]) == 0
    out = capsys.readouterr().out
    assert "hanabi: 2,000 games, 3 players, policy rules" in out
    assert "(95% CI)" in out and "ended by: lives" in out and "actions: hint" in out
    assert "games/s" in out and "kernel load/compile" in out
    assert ("mean fireworks" in out) == (not extra)


def test_cli_report(tmp_path, capsys):
    path = tmp_path / "r.md"
    assert main(["simulate", "hanabi", "--games", "1000", "--num-players", "3", "--policy",
                 "rules", "--report", str(path)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert "## How games end" in path.read_text(encoding="utf-8")
    assert (tmp_path / "r_scores.png").exists() and (tmp_path / "r_ends.csv").exists()
    assert main(["simulate", "hanabi", "--games", "10", "--policy", "foo"]) == 2
    assert "--policy" in capsys.readouterr().err
