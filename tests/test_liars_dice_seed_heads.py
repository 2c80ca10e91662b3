"""The seed's four-head DQN network (``--head four``): main action, mode, count and face heads
whose outputs add up to each combined action's Q value."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.games.liars_dice import action_to_bid, num_actions  # noqa: E402
from vecgames.games.liars_dice import train as ld  # noqa: E402
from vecgames.policies import nets  # noqa: E402


@pytest.mark.parametrize(("players", "dice"), [(2, 5), (3, 2)])
def test_each_action_reads_its_heads(players, dice):
    total = players * dice
    a_n = num_actions(players, dice)
    net = nets.make_qnet("four", 7, a_n, hidden=8, layers=1, game="liars_dice")
    obs = torch.randn(5, 7)
    with torch.no_grad():
        heads = net.heads(net.trunk(obs))  # [5, 4 + D + 6]
        q = net(obs)
    assert heads.shape == (5, 4 + total + 6) and q.shape == (5, a_n)
    main, mode, count, face = (heads[:, :2], heads[:, 2:4], heads[:, 4:4 + total],
                               heads[:, 4 + total:])
    torch.testing.assert_close(q[:, 0], main[:, 0])  # the challenge
    for a in range(1, a_n):
        m, c, f = action_to_bid(a, players, dice)
        expected = (main[:, 1] + mode[:, 0 if m == "fei" else 1] + count[:, c - 1]
                    + face[:, f - 1])
        torch.testing.assert_close(q[:, a], expected)


def test_four_heads_train_and_round_trip(tmp_path):
    out = tmp_path / "four"
    assert ld.main(["--head", "four", "--envs", "16", "--iterations", "24",
                    "--learning-starts", "32", "--batch-size", "16", "--hidden", "16",
                    "--eval-games", "32", "--log-every", "12", "--checkpoint-every", "0",
                    "--selfplay-start", "0.5", "--selfplay-refresh", "2", "--out", str(out),
                    "--no-progress"]) == 0
    assert json.loads((out / "config.json").read_text())["head"] == "four"
    player = vecgames.load_player(out / "final.pt")
    assert isinstance(player.net, nets.FactoredQNet)
    assert player.net.heads.out_features == 4 + 10 + 6  # 20 outputs, not 111
    env = vecgames.make("liars_dice", num_envs=16, seed=3, **player.env_options)
    obs, info = env.reset()
    for _ in range(10):
        actions = player(obs, info["action_mask"])
        assert info["action_mask"][np.arange(16), actions].all()
        obs, _, _, _, info = env.step(actions)


def test_combined_stays_the_default_and_bad_heads_are_refused():
    assert ld.Config().head == "combined"
    assert isinstance(nets.make_qnet("combined", 22, 111, 8, 1), nets.QNet)
    with pytest.raises(SystemExit):
        ld.TRAINER.parse(["--head", "three"], "p")
    with pytest.raises(ValueError, match="head"):
        nets.make_qnet("three", 22, 111, 8, 1)
    with pytest.raises(ValueError, match="hanabi has no such layout"):  # the game's heads
        nets.make_qnet("four", 22, 21, 8, 1, game="hanabi")


def test_the_basic_variant_trains(tmp_path, capsys):
    out = tmp_path / "basic"
    assert ld.main(["--variant", "basic", "--head", "four", "--envs", "16", "--iterations", "12",
                    "--learning-starts", "16", "--batch-size", "8", "--hidden", "8",
                    "--eval-games", "16", "--log-every", "0", "--checkpoint-every", "0",
                    "--out", str(out), "--no-progress"]) == 0
    player = vecgames.load_player(out / "final.pt")
    assert player.env_options["variant"] == "basic"
    env = vecgames.make("liars_dice", num_envs=16, seed=5, **player.env_options)
    obs, info = env.reset()
    assert (player(obs, info["action_mask"]) < 1 + 5 * 10).all()  # 飞 bids only
    # a checkpoint plays only the rules it learned: a 斋/飞 table refuses it, a table of no
    # variant of its own takes the checkpoint's
    from vecgames.games.liars_dice.view import VIEW
    from vecgames.play.terminal import main as play

    assert play(VIEW, ["--agent", str(out / "final.pt"), "--variant", "zhai_fei"],
                input_fn=lambda p: "q") == 2
    assert "needs variant='basic'" in capsys.readouterr().err
    lines: list[str] = []
    assert play(VIEW, ["--agent", str(out / "final.pt")], input_fn=lambda p: "q",
                print_fn=lines.append) == 0
    assert "basic rules" in lines[0]
    with pytest.raises(SystemExit):
        ld.TRAINER.parse(["--variant", "zhai"], "p")
