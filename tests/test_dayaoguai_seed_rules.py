"""Da Yaoguai against seed 001: the must_beat option, the shed player and simulate's defaults,
the 西游记 seat names, and reports that keep truncated games apart."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.api import default_policy
from vecgames.games.dayaoguai import DEFAULT_OPTIONS, beats, make_rules
from vecgames.games.dayaoguai.names import XIYOUJI, seat_label
from vecgames.games.dayaoguai.players import SHED, policy_action
from vecgames.games.dayaoguai.report import limit_table, seat_table, write_report
from vecgames.games.dayaoguai.rules import (
    FIRST,
    HAND,
    IN_PLAY,
    ON_TABLE,
    PASS,
    PLAYER,
    TABLE_N,
    TOP,
    new_state,
)

# cards: id = 4 x rank + suit, ranks J Q K 3 8 5 10, suits h s c d
J_S, THREE_H, EIGHT_H, FIVE_H, TEN_H = 1, 12, 16, 20, 24


def test_must_beat_takes_the_pass_away_only_when_a_card_beats():
    assert DEFAULT_OPTIONS["must_beat"] is False  # vecgames' default: passing is always legal
    masks = {}
    for must_beat in (False, True):
        env = vecgames.make("dayaoguai", num_envs=64, seed=2, must_beat=must_beat)
        env.reset()
        _, _, _, _, info = env.step(np.full(64, 3))  # the forced J♦ lead
        masks[must_beat] = info["action_mask"].astype(bool)
    free, forced = masks[False], masks[True]
    can_beat = free[:, :PASS].any(axis=1)
    assert free[:, PASS].all()  # passing allowed even when able to beat
    assert (forced[:, PASS] == ~can_beat).all()  # the seed: pick up only when nothing beats
    assert (forced[:, :PASS] == free[:, :PASS]).all() and can_beat.any()
    with pytest.raises(TypeError, match="must_beat"):
        make_rules(must_beat="yes")


def _reply_state(hand: int, top: int):
    """Seat 0 of 4 to reply to ``top``, holding ``hand``."""
    s = new_state(1)
    t = s.table[0]
    t[PLAYER], t[TOP], t[ON_TABLE], t[TABLE_N] = 0, top, 1 << top, 1
    t[IN_PLAY], t[FIRST] = 0b1111, 0
    t[HAND] = hand
    s.table_cards[0, 0] = top
    return s


def test_shed_replies_with_the_card_least_useful_later():
    # on a 3: the 8, the 5 and the 10 beat it; the 10 beats the fewest cards it does not
    # hold (3, 8, 5 less its own 8 and 5), the 8 would be the weakest by rank
    hand = (1 << J_S) | (1 << EIGHT_H) | (1 << FIVE_H) | (1 << TEN_H)
    r = make_rules()
    s = _reply_state(hand, THREE_H)
    assert int(policy_action(SHED, s, 0, r)) == TEN_H
    assert int(policy_action(1, s, 0, r)) == EIGHT_H  # weakest
    # nothing beats: it picks up; and with must_beat the same
    s = _reply_state(1 << J_S, THREE_H)
    assert int(policy_action(SHED, s, 0, r)) == PASS


def test_shed_leads_its_least_useful_card_with_some_random_leads():
    r = make_rules()
    s = new_state(400)
    s.rng[:] = np.arange(1, 401, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    s.table[:, IN_PLAY] = 0b1111
    s.table[:, TOP] = -1
    s.table[:, HAND] = (1 << J_S) | (1 << FIVE_H)  # the J takes only the 10s
    leads = np.array([int(policy_action(SHED, s, i, r)) for i in range(400)])
    assert set(leads) == {J_S, FIVE_H}
    assert 0.8 < (leads == J_S).mean() < 0.99  # 7/8 + 1/16 expected


def test_simulate_defaults_finish_their_games():
    assert default_policy("dayaoguai") == "shed" and DEFAULT_OPTIONS["max_steps"] == 5000
    df = vecgames.simulate("dayaoguai", 2000, seed=1)
    assert df.attrs["policy"] == ["shed"] * 4 and df.attrs["rules"]["max_steps"] == 5000
    assert not df["truncated"].any() and df["steps"].max() < 2500
    # weakest players cycle: most of their games reach any limit
    weakest = vecgames.simulate("dayaoguai", 500, seed=1, policy="weakest", max_steps=2000)
    assert weakest["truncated"].mean() > 0.5


def test_shed_against_random_players():
    df = vecgames.simulate("dayaoguai", 1000, seed=4, policy=["shed", "random", "random",
                                                               "random"])
    row = seat_table(df).iloc[0]
    assert row["win_share_decided"] - row["win_decided_ci95"] > 0.6
    assert row["decided"] == 1000 and row["mean_beans_all"] > 0


def test_xiyouji_seat_names_label_without_changing_play():
    assert seat_label(1, "xiyouji") == "seat 1 孙悟空" and seat_label(1) == "seat 1"
    named = vecgames.make("dayaoguai", num_envs=2, seed=7, seat_names="xiyouji")
    plain = vecgames.make("dayaoguai", num_envs=2, seed=7)
    outs = []
    for env in (named, plain):
        obs, info = env.reset()
        for _ in range(30):
            actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
            obs, reward, term, trunc, info = env.step(actions)
        outs.append((obs.copy(), env.state.table.copy()))
    assert np.array_equal(outs[0][0], outs[1][0]) and np.array_equal(outs[0][1], outs[1][1])
    text = named.render(0)
    assert all(f"seat {p} {name}" in text for p, name in enumerate(XIYOUJI[:4]))
    assert "唐僧" not in plain.render(0)
    with pytest.raises(ValueError, match="seat_names"):
        vecgames.make("dayaoguai", seat_names="sanguo")


def test_reports_state_truncation_first_and_keep_truncated_games_apart(tmp_path):
    df = vecgames.simulate("dayaoguai", 400, seed=3, policy="weakest", max_steps=200)
    cut = df["truncated"].to_numpy()
    assert 0 < cut.sum() < len(df)
    limits = limit_table(df, (50, 200, 400)).set_index("limit")
    assert limits.loc[50, "cut"] == (df["steps"] > 50).sum()
    assert limits.loc[200, "cut"] == cut.sum()
    assert np.isnan(limits.loc[400, "cut"])  # beyond the run's own limit: unknown
    seats = seat_table(df, seat_names="xiyouji")
    assert seats["seat_name"].tolist() == list(XIYOUJI[:4])
    place = df[[f"place_{p}" for p in range(4)]].to_numpy()
    decided = (place == 1).any(axis=1)
    assert seats.loc[0, "decided"] == decided.sum() > (~cut).sum()
    assert seats.loc[0, "win_share_decided"] == pytest.approx((place[decided, 0] == 1).mean())
    path = write_report(df, tmp_path / "r.md", plots=False, seat_names="xiyouji")[0]
    text = path.read_text(encoding="utf-8")
    share = f"{100 * cut.mean():.2f}% ({cut.sum():,} of 400, max_steps 200)"
    assert "**Truncated games**" in text and share in text
    assert text.index("**Truncated games**") < text.index("## Games and truncation")
    assert "猪八戒" in text
    csv = pd.read_csv(tmp_path / "r_limits.csv")
    assert csv["limit"].tolist()[:3] == [250, 500, 1000]
    with pytest.raises(ValueError, match="seat_names"):
        write_report(df, tmp_path / "bad.md", seat_names="bogus")
    assert not (tmp_path / "bad.md").exists()


def test_beats_is_the_seed_example():
    # seed §5: on a J (小妖怪) Q, K, 3, 8, 5 may be played, the 10 (师傅) may not; on a 10
    # only the monsters
    assert all(beats(4 * r, 3) for r in range(1, 6)) and not beats(TEN_H, 3)
    assert [r for r in range(7) if beats(4 * r, TEN_H + 1)] == [0, 1, 2]
