"""The seed's basic Liar's Dice (``variant="basic"``: 飞 bids only, ones always wild) through
the kernels, the env, simulate, the odds, the report and the play front end."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from test_liars_dice_rules import play_checked

import vecgames
from vecgames.games.liars_dice import action_to_bid, bid_to_action, make_rules, parse_bid
from vecgames.games.liars_dice.bids import explain_illegal
from vecgames.games.liars_dice.players import env_actions
from vecgames.games.liars_dice.report import mode_table, write_report
from vecgames.games.liars_dice.view import VIEW, rules_text
from vecgames.play.terminal import Match

FEI_END = 1 + 5 * 10  # 2 players x 5 dice: action ids of the 飞 bids end here


@pytest.mark.parametrize(("players", "dice", "rounds"), [(2, 5, 1), (3, 2, 3)])
def test_env_follows_the_basic_rules(players, dice, rounds):
    """Every mask is the 飞 bids that beat the last one; counts, losers, points as the seed."""
    play_checked(players, dice, rounds, seed=5 + players, steps=100, variant="basic")


def test_basic_masks_have_no_zhai_and_default_is_unchanged():
    basic = vecgames.make("liars_dice", num_envs=16, seed=3, variant="basic")
    default = vecgames.make("liars_dice", num_envs=16, seed=3)
    _, info_b = basic.reset()
    _, info_d = default.reset()
    assert basic.num_actions == default.num_actions  # the same action ids
    assert not info_b["action_mask"][:, FEI_END:].any()
    assert info_d["action_mask"][:, FEI_END:].any()
    np.testing.assert_array_equal(info_b["action_mask"][:, :FEI_END],
                                  info_d["action_mask"][:, :FEI_END])
    np.testing.assert_array_equal(basic.state.table, default.state.table)  # same rolls
    assert make_rules().basic == 0 and make_rules(variant="basic").basic == 1
    with pytest.raises(ValueError, match="variant"):
        make_rules(variant="zhai")


def test_basic_simulate_and_policies():
    for policy in ("random", "heuristic"):
        df = vecgames.simulate("liars_dice", 3000, policy=policy, seed=1, variant="basic",
                               num_players=3, num_rounds=2)
        assert (df["mode"] == "fei").all() and (df["end"] == "challenge").all()
        assert df["bids"].max() <= 5 * 15  # strictly rising 飞 bids: at most 5D in a round
        assert ((df["loser"] == df["challenger"]) == (df["actual"] >= df["count"])).all()
        assert df.attrs["rules"]["variant"] == "basic"
    env = vecgames.make("liars_dice", num_envs=64, seed=2, variant="basic")
    _, info = env.reset()
    for _ in range(6):
        actions = env_actions(env, "heuristic")
        assert info["action_mask"][np.arange(64), actions].all()
        assert (actions < FEI_END).all()
        _, _, _, _, info = env.step(actions)


def brute_force(bid, own, unknown):
    """P(a 飞 bid holds), every roll of the unknown dice enumerated (ones wild)."""
    _, count, face = bid
    hits = sum(sum(d == face or d == 1 for d in (*own, *roll)) >= count
               for roll in product(range(1, 7), repeat=unknown))
    return Fraction(hits, 6**unknown)


def test_basic_bid_odds_match_enumeration():
    """The kernels' P(last bid holds | own dice) (the seed observation's feature 19) in the
    basic game equals the exact enumeration of the other seat's dice."""
    env = vecgames.make("liars_dice", num_envs=48, seed=4, num_players=2, dice=3,
                        observation="seed", variant="basic")
    _, info = env.reset()
    rng = np.random.default_rng(0)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
    obs, _, _, _, info = env.step(actions)
    for i in range(48):
        bid = action_to_bid(int(actions[i]), 2, 3)
        own = env.dice(i)[int(info["current_player"][i])]
        assert bid[0] == "fei"
        assert obs[i, 19] == pytest.approx(float(brute_force(bid, own, 3)), abs=1e-6)


def test_basic_report(tmp_path):
    df = vecgames.simulate("liars_dice", 2000, seed=0, variant="basic")
    assert mode_table(df)["mode"].tolist() == ["飞 fei (ones wild)"]
    path = write_report(df, tmp_path / "basic.md", plots=False)[0]
    text = path.read_text(encoding="utf-8")
    assert "basic-variant" in text and "variant=basic" in text and "斋 zhai" not in text


def test_basic_play_reasons_and_typed_bids():
    assert "no zhai" in explain_illegal(("zhai", 4, 3), [], 2, 5, basic=True)
    assert explain_illegal(("zhai", 4, 3), [], 2, 5) is None
    assert explain_illegal(("fei", 3, 4), [("fei", 3, 5)], 2, 5, basic=True) is not None
    assert explain_illegal(("fei", 4, 2), [("fei", 3, 5)], 2, 5, basic=True) is None
    assert parse_bid("7 4", "fei") == ("fei", 7, 4)
    with pytest.raises(ValueError, match="cannot read"):
        parse_bid("7 4")
    text = rules_text(2, 5, 1, True, basic=True)
    assert "basic rules" in text and "zhai" not in text


def test_basic_play_agrees_with_the_env_mask():
    """A person's typed bid in the basic game is accepted exactly when the env allows it: a
    bid without its mode is 飞."""
    typed = iter(["zhai 3 1", "3 1", "3 6", "c", "q"])
    lines: list[str] = []
    result = Match(VIEW, seed=21, variant="basic", agent="random", num_rounds=3,
                   input_fn=lambda prompt: next(typed), print_fn=lines.append).run()
    text = "\n".join(lines)
    assert "no zhai" in text and "face 1 cannot be bid in fei" in text
    assert "Moves: c challenge | COUNT FACE (fei, ones wild)" in text
    bids = [m.groups() for line in lines
            if (m := re.match(r"seat \d+ (?:\(you\) )?bids (\d+) x (\d) \((fei|zhai)\)", line))]
    assert bids and all(mode == "fei" for _, _, mode in bids)
    assert any(line.startswith("seat 0 (you) bids 3 x 6 (fei)") for line in lines)
    for count, face, mode in bids:
        assert bid_to_action((mode, int(count), int(face)), 2) < FEI_END
    assert result.status in ("quit", "finished")
