"""Reports on real players: strategy statistics per player (seats grouped by who sits there)
and the who-beats-whom section rendered from an arena result. Small batches: the kernels are
those the report tests already compile."""

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.analysis.arena_section import arena_section, arena_tables
from vecgames.analysis.seat_players import seat_labels
from vecgames.arena.result import ArenaResult
from vecgames.cli import main
from vecgames.games.dayaoguai import report as dayaoguai_report
from vecgames.games.hanabi import report as hanabi_report
from vecgames.games.holdem import report as holdem_report
from vecgames.games.holdem.report_betting import betting_log, betting_table
from vecgames.games.liars_dice import report as liars_dice_report
from vecgames.games.zhajinhua import report as zjh


def _arena(players=("a", "b")) -> ArenaResult:
    """A hand-made result with numbers no real run would give."""
    a, b = players
    pairwise = pd.DataFrame({"player": [a, b], "opponent": [b, a], "games": [10, 10],
                             "units": [5, 5], "mean": [1.25, -1.25], "ci_low": [0.5, -2.0],
                             "ci_high": [2.0, -0.5], "unit": ["chips", "chips"]})
    ratings = pd.DataFrame({"player": [a, b], "rating": [1.25, -1.25], "sd": [0.4, 0.4],
                            "ci_low": [0.5, -2.0], "ci_high": [2.0, -0.5], "games": [10, 10]})
    return ArenaResult(game="zhajinhua", players=(a, b), seats=2, num_games=5, seed=7,
                       duplicate=True, unit="chips", ci_unit="deal", matches=pd.DataFrame(),
                       pairwise=pairwise, ratings=ratings)


def test_seat_labels_prefer_players_over_policies():
    df = pd.DataFrame({"x": [1]})
    df.attrs.update(policy=["random", "random"], players=["mlp", "random"])
    assert seat_labels(df, 2) == ["mlp", "random"]
    df.attrs = {"policy": "rules,random"}
    assert seat_labels(df, 2) == ["rules", "random"]
    df.attrs = {"policies": ["call", "call", "raise"]}
    assert seat_labels(df, 3) == ["call", "call", "raise"]
    assert seat_labels(df, 2) == ["?", "?"]  # a label per seat, or none


def test_arena_section_renders_the_numbers(tmp_path):
    lines = "\n".join(arena_section(_arena(), ["a", "b"]))
    assert "## Who beats whom" in lines
    assert "+1.250 [+0.500, +2.000]" in lines and "-1.250 [-2.000, -0.500]" in lines
    assert "5 games per seat assignment" in lines and "duplicate deals" in lines
    assert set(arena_tables(_arena())) == {"arena_pairwise", "arena_ratings"}
    # into a report: section and CSV beside it
    df = vecgames.simulate("zhajinhua", 200, num_players=2, policy=["random", "heuristic"],
                           record_actions=True, seed=3)
    written = zjh.write_report(df, tmp_path / "z.md", plots=False,
                               arena=_arena(("random", "heuristic")))
    text = written["report"].read_text(encoding="utf-8")
    assert "| random | – | +1.250 [+0.500, +2.000] |" in text
    assert pd.read_csv(written["arena_pairwise"])["mean"].tolist() == [1.25, -1.25]


def test_arena_section_without_a_result():
    one = "\n".join(arena_section(None, ["random"] * 4))
    assert "nothing to compare" in one
    two = "\n".join(arena_section(None, ["random", "call"]))
    assert "No arena was run for random, call" in two


def test_zhajinhua_players(tmp_path):
    df = vecgames.simulate("zhajinhua", 300, num_players=3, seed=1, record_actions=True,
                           policy=["random", "heuristic", "random"])
    seat = df.attrs["seat_action_counts"]
    assert seat.shape == (3, 2, 2, 15)
    np.testing.assert_array_equal(seat.sum(axis=0), df.attrs["action_counts"].sum(axis=0))
    t = zjh.player_table(df)
    assert t["player"].tolist() == ["random", "heuristic"]
    assert t["seats"].tolist() == [2, 1] and t["games"].tolist() == [600, 300]
    assert t["decisions"].sum() == df["decisions"].sum()
    assert t["decisions"].tolist() == [seat[[0, 2]].sum(), seat[1].sum()]
    heuristic = t.iloc[1]  # looks at once: never blind, every look-phase decision looks
    assert heuristic["look_rate"] == 1 and heuristic["blind_bet_share"] == 0
    looked = df[["looked_0", "looked_2"]].to_numpy()
    assert t.loc[0, "blind_rate"] == pytest.approx(1 - looked.mean())
    assert t["win_rate"].to_numpy() @ t["seats"].to_numpy() == pytest.approx(1)
    # without per-seat counts a mixed table has no decision shares; one player falls back
    del df.attrs["seat_action_counts"]
    assert "look_rate" not in zjh.player_table(df)
    text = zjh.write_report(df, tmp_path / "z.md", plots=False)["report"].read_text("utf-8")
    assert "## By player" in text and "per-seat counts" in text


def test_holdem_players_and_betting(tmp_path):
    df = vecgames.simulate("holdem", 400, num_players=3, seed=2,
                           policy=["random", "call", "random"])
    t = holdem_report.report_tables(df)["policies"]
    assert t["policy"].tolist() == ["random", "call"] and t["hands"].tolist() == [800, 400]
    assert t.loc[1, "pfr"] == 0  # call never raises
    shown = df[["category_1"]].to_numpy() >= 0
    assert t.loc[1, "wtsd"] == pytest.approx(shown.mean())
    assert t.loc[1, "wsd"] == pytest.approx((df["chips_1"].to_numpy()[shown[:, 0]] > 0).mean())
    assert t.loc[1, "bb_per_100"] == pytest.approx(50 * t.loc[1, "mean_chips"])

    def passive(obs, mask):  # the first legal action: fold when it may, else check
        return mask.argmax(axis=1)

    log = betting_log(["random", passive, "random"], 60, num_players=3)
    bet = betting_table(log)
    assert bet["player"].tolist() == ["random", "passive"]
    assert bet["hands"].tolist() == [120, 60] and bet["decisions"].sum() == len(log)
    assert bet.loc[1, "call"] == 0 and bet.loc[1, "bet"] == 0 and bet.loc[1, "raise"] == 0
    assert bet.loc[1, "fold_to_raise"] == 1 and np.isnan(bet.loc[1, "bluff_rate"])
    assert bet.loc[0, "postflop_bets"] > 0
    made = log["made"].to_numpy()
    assert ((made >= 0) == (log["street"] != "preflop").to_numpy()).all()
    shares = bet[list(holdem_report.ACTIONS)].sum(axis=1).to_numpy()
    np.testing.assert_allclose(shares, 1)
    other = df.copy()  # a seat label that is no built-in name: the report needs players=
    other.attrs["players"] = ["mlp", "call", "mlp"]
    written = holdem_report.write_report(other, tmp_path / "h.md", plots=False,
                                         decision_games=60)
    text = written["report"].read_text(encoding="utf-8")
    assert "| mlp | 800 |" in text and "pass `players=`" in text
    written = holdem_report.write_report(other, tmp_path / "h.md", plots=False,
                                         decision_games=60, players=["random", passive, "random"])
    assert pd.read_csv(written["betting"])["player"].tolist() == ["random", "passive"]


def test_liars_dice_players():
    """A hand-made round frame: 3 seats, seats 0 and 2 are "a", seat 1 is "b"."""
    df = pd.DataFrame({
        "game": [0, 1, 2], "round": 0, "opener": [0, 1, 2], "bids": [2, 4, 1],
        "challenger": [2, 2, 0], "mode": ["fei", "zhai", "zhai"], "count": [3, 5, 2],
        "face": [4, 4, 6], "actual": [1, 6, 0], "loser": [1, 2, 2], "end": "challenge"})
    df.attrs.update(policy=["a", "b", "a"], rules={"num_players": 3})
    t = liars_dice_report.player_table(df).set_index("player")
    # turns (bids, then the challenge): seats 0,1,2 | 1,2,0,1,2 | 2,0
    assert t.loc["a", "decisions"] == 2 + 3 + 2 and t.loc["b", "decisions"] == 1 + 2
    assert t.loc["a", "challenges"] == 3 and t.loc["b", "challenges"] == 0
    assert t.loc["a", "challenge_success"] == pytest.approx(2 / 3)  # round 1's bid held
    assert t.loc["b", "challenged_bids"] == 2 and t.loc["b", "caught"] == 0.5
    assert t.loc["b", "zhai_share"] == 0.5 and t.loc["a", "rounds"] == 6
    assert t.loc["a", "rounds_lost"] == 2 and t.loc["b", "rounds_lost"] == 1


def test_liars_dice_bids_by_player(tmp_path):
    df = vecgames.simulate("liars_dice", 40, num_players=3, seed=1,
                           policy=["heuristic", "random", "random"])
    paths = liars_dice_report.write_report(df, tmp_path / "ld.md", plots=False,
                                           decision_games=30)
    bids = pd.read_csv(tmp_path / "ld_bids_by_player.csv")
    assert bids["player"].tolist() == ["heuristic", "random"]
    assert bids["matches"].tolist() == [30, 60]
    np.testing.assert_allclose(bids[["challenge", "fei", "zhai"]].sum(axis=1), 1)
    # the heuristic challenges most bids it faces; random picks among ~165 actions
    assert bids.loc[0, "challenge"] > 0.5 > bids.loc[1, "challenge"]
    assert "### Bids" in paths[0].read_text(encoding="utf-8")
    # the decoding against the bids module's own
    from vecgames.games.liars_dice.bids import action_to_bid

    env = vecgames.make("liars_dice", num_players=3)
    actions = np.arange(env.num_actions)
    kinds = liars_dice_report._bid_kinds(env, actions * 0, actions)
    for a in (1, 75, 76, 165):
        mode, count, _ = action_to_bid(int(a), 3)
        assert (kinds["kind"][a], kinds["count"][a]) == (1 + (mode == "zhai"), count)
    assert kinds["kind"][0] == 0


def test_report_of_a_table_with_a_python_player(tmp_path):
    def challenger(obs, mask):  # challenges whenever it may, else the smallest bid
        return np.where(mask[:, 0], 0, mask.argmax(axis=1))

    df = vecgames.simulate("liars_dice", 30, num_players=3, seed=2,
                           players=["random", challenger, "random"])
    assert df.attrs["players"] == ["random", "challenger", "random"]
    t = liars_dice_report.player_table(df).set_index("player")
    # it challenges the first bid it faces: every round, after one bid more where it opened
    assert t.loc["challenger", "challenges"] == 30
    assert t.loc["challenger", "decisions"] == 30 + (df["opener"] == 1).sum()
    paths = liars_dice_report.write_report(df, tmp_path / "py.md", plots=False,
                                           decision_games=10,
                                           players=["random", challenger, "random"])
    bids = pd.read_csv(tmp_path / "py_bids_by_player.csv").set_index("player")
    assert bids.loc["challenger", "challenge"] > bids.loc["random", "challenge"]
    assert "No arena was run for random, challenger" in paths[0].read_text(encoding="utf-8")


def test_hanabi_and_dayaoguai_decisions(tmp_path):
    h = vecgames.simulate("hanabi", 20, policy=["rules", "random"], seed=1)
    hanabi_report.write_report(h, tmp_path / "h.md", plots=False, decision_games=20)
    t = pd.read_csv(tmp_path / "h_decisions.csv").set_index("player")
    assert t.loc["rules", "misplays_per_game"] == 0  # it plays only cards known to fit
    assert t.loc["random", "misplays_per_game"] > 2  # random bombs out (3 lives) nearly always
    np.testing.assert_allclose(t[["hint", "play", "discard"]].sum(axis=1), 1)
    d = vecgames.simulate("dayaoguai", 10, policy=["shed", "random", "shed", "random"],
                          seed=1, max_steps=150)
    dayaoguai_report.write_report(d, tmp_path / "d.md", plots=False, decision_games=10)
    t = pd.read_csv(tmp_path / "d_decisions.csv").set_index("player")
    assert t["games"].tolist() == [20, 20]
    played = t[["monsters_played", "disciples_played", "masters_played"]].sum(axis=1)
    np.testing.assert_allclose(played, 1)
    assert (t["pickups_per_game"] > 0).all() and (t["masters_played"] > 0).all()


def test_hanabi_and_dayaoguai_players(tmp_path):
    h = vecgames.simulate("hanabi", 200, policy=["rules", "random"], seed=1)
    plays = hanabi_report.play_table(h)
    assert plays["players"].tolist() == ["rules, random"]
    assert plays.loc[0, "misplays_per_game"] == pytest.approx(3 - h["lives"].mean())
    d = vecgames.simulate("dayaoguai", 100, policy=["weakest", "random", "random", "random"],
                          seed=1, max_steps=400)
    t = dayaoguai_report.player_table(d)
    done = ~d["truncated"].to_numpy()
    assert t["player"].tolist() == ["weakest", "random"] and t["seats"].tolist() == [1, 3]
    assert t["seat_games"].tolist() == [done.sum(), 3 * done.sum()]
    assert t.loc[0, "mean_place"] == pytest.approx(d["place_0"][done].mean())
    paths = dayaoguai_report.write_report(d, tmp_path / "d.md", plots=False)
    assert "## By player" in paths[0].read_text(encoding="utf-8")


def test_cli_mixed_table_runs_an_arena(tmp_path, capsys):
    path = tmp_path / "h.md"
    assert main(["simulate", "holdem", "--games", "300", "--num-players", "2", "--policy",
                 "random,call", "--report", str(path), "--arena-games", "50"]) == 0
    assert "arena among random, call" in capsys.readouterr().out
    pairwise = pd.read_csv(tmp_path / "h_arena_pairwise.csv")
    expected = vecgames.arena("holdem", ["random", "call"], 50, num_players=2).pairwise
    np.testing.assert_allclose(pairwise["mean"], expected["mean"])
    assert f"{expected['mean'].iloc[0]:+.3f} [" in path.read_text(encoding="utf-8")
    # one player: no arena, the section says so; a bad count is a usage error
    assert main(["simulate", "holdem", "--games", "100", "--num-players", "2", "--report",
                 str(tmp_path / "one.md")]) == 0
    assert "nothing to compare" in (tmp_path / "one.md").read_text(encoding="utf-8")
    assert main(["simulate", "holdem", "--games", "10", "--report", str(path),
                 "--arena-games", "-1"]) == 2
