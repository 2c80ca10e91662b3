"""``vecgames.load_player``: every trainer's checkpoint as a player (tiny untrained networks)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import asdict

import numpy as np
import pytest

pytest.importorskip("torch")
import torch  # noqa: E402

import vecgames  # noqa: E402
from vecgames.games.dayaoguai import train as dayaoguai  # noqa: E402
from vecgames.games.hanabi import train as hanabi  # noqa: E402
from vecgames.games.holdem import train as holdem  # noqa: E402
from vecgames.games.liars_dice import train as liars_dice  # noqa: E402
from vecgames.games.zhajinhua import train as zhajinhua  # noqa: E402
from vecgames.policies import nets  # noqa: E402
from vecgames.training import runs  # noqa: E402


def write_checkpoint(path, trainer, cfg, net, env):
    """The checkpoint ``core.train`` writes for ``trainer`` (its own ``env_options``)."""
    runs.save_checkpoint(path, {
        "model": net.state_dict(),
        "optimizer": torch.optim.SGD(net.parameters(), lr=0.1).state_dict(),
        "config": asdict(cfg), "game": trainer.game, "env_options": trainer.env_options(cfg),
        "iteration": 1, "obs_dim": env.obs_dim, "num_actions": env.num_actions})
    return path


POLICY_TRAINERS = {"zhajinhua": zhajinhua, "holdem": holdem, "dayaoguai": dayaoguai}


def policy_checkpoint(path, game, players, env_options=None, recipe="default"):
    """A checkpoint of the policy-gradient trainers (Zha Jin Hua, either recipe; Hold'em;
    Da Yaoguai)."""
    module = POLICY_TRAINERS[game]
    extra = {"recipe": recipe} if game == "zhajinhua" else {}
    cfg = module.Config(players=players, hidden=8, env_options=env_options or {}, **extra)
    env = vecgames.make(game, **module.TRAINER.env_options(cfg))
    net = nets.PolicyNet(env.obs_dim, env.num_actions, hidden=8)
    return write_checkpoint(path, module.TRAINER, cfg, net, env)


def liars_dice_checkpoint(path, head):
    cfg = liars_dice.Config(hidden=8, layers=1, head=head)
    env = vecgames.make("liars_dice", **cfg.env_options())
    online = nets.make_qnet(head, env.obs_dim, env.num_actions, 8, 1, game="liars_dice")
    return write_checkpoint(path, liars_dice.TRAINER, cfg, online, env)


def hanabi_checkpoint(path):
    cfg = hanabi.Config(hidden=8)
    env = vecgames.make("hanabi", **hanabi.TRAINER.env_options(cfg))
    net = nets.ActorCritic(env.obs_dim, env.num_actions, hidden=8)
    return write_checkpoint(path, hanabi.TRAINER, cfg, net, env)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    d = tmp_path_factory.mktemp("ckpt")
    return {
        "zhajinhua": policy_checkpoint(d / "zjh.pt", "zhajinhua", 3),
        "zhajinhua_seed": policy_checkpoint(d / "zjh_seed.pt", "zhajinhua", 2,
                                            {"obs": "seed"}, recipe="seed"),
        "holdem": policy_checkpoint(d / "holdem.pt", "holdem", 2),
        "dayaoguai": policy_checkpoint(d / "dyg.pt", "dayaoguai", 3),
        "liars_dice": liars_dice_checkpoint(d / "ld.pt", "combined"),
        "liars_dice_four": liars_dice_checkpoint(d / "ld4.pt", "four"),
        "hanabi": hanabi_checkpoint(d / "hanabi.pt"),
    }


GAME_OF = {"zhajinhua_seed": "zhajinhua", "liars_dice_four": "liars_dice"}




@pytest.mark.parametrize("kind", ["zhajinhua", "zhajinhua_seed", "holdem",
                                  "dayaoguai",
                                  "liars_dice", "liars_dice_four", "hanabi"])
def test_every_trainers_checkpoint_plays(checkpoints, kind):
    game = GAME_OF.get(kind, kind)
    player = vecgames.load_player(checkpoints[kind])
    assert player.game == game
    assert player.name == checkpoints[kind].stem
    env = vecgames.make(game, **player.env_options)
    assert player.obs_dim == env.obs_dim
    # the player's env options (seats, observation layout) set up the table by themselves
    # (Da Yaoguai's games cut short: an untrained greedy table can cycle for ever)
    short = {"max_steps": 100} if game == "dayaoguai" else {}
    df = vecgames.simulate(game, 3, players=player, seed=0, num_threads=1, **short)
    assert df.attrs["players"] == [player.name] * env.num_players
    assert len(df) >= 3


def test_greedy_is_the_argmax_and_sampling_is_seeded(checkpoints):
    player = vecgames.load_player(checkpoints["holdem"])
    env = vecgames.make("holdem", num_envs=64, **player.env_options)
    obs, info = env.reset(seed=3)
    mask = info["action_mask"]
    logits, _ = player.net(torch.from_numpy(obs), torch.from_numpy(mask))
    np.testing.assert_array_equal(player(obs, mask), logits.argmax(-1).numpy())
    draws = [vecgames.load_player(checkpoints["holdem"], greedy=False, seed=9)(obs, mask)
             for _ in range(2)]
    np.testing.assert_array_equal(draws[0], draws[1])
    assert mask[np.arange(64), draws[0]].all()


def test_a_checkpoint_of_another_game_is_refused_before_any_game(checkpoints):
    with pytest.raises(ValueError, match="plays holdem, not zhajinhua"):
        vecgames.simulate("zhajinhua", 2, players=[str(checkpoints["holdem"]), "random"],
                          num_players=2)


def test_obs_size_mismatch_names_game_and_size(checkpoints, tmp_path):
    ckpt = runs.load_checkpoint(checkpoints["zhajinhua"])
    ckpt["env_options"] = {}  # a layout it was not trained on
    ckpt["obs_dim"] = 10
    ckpt["model"] = nets.PolicyNet(10, 15, 8).state_dict()
    runs.save_checkpoint(tmp_path / "small.pt", ckpt)
    with pytest.raises(ValueError, match=r"'small' reads observations of 10 values, but "
                                         r"zhajinhua .* has 256 \(the expected size"):
        vecgames.simulate("zhajinhua", 2, players=tmp_path / "small.pt")


def test_action_count_mismatch_is_refused_before_any_game(checkpoints):
    """Another raise menu keeps Hold'em's observation size but not its action count."""
    with pytest.raises(ValueError, match=r"'holdem' chooses among 7 actions, but holdem .* "
                                         r"has 8 \(the expected count"):
        vecgames.simulate("holdem", 2, players=[str(checkpoints["holdem"]), "call"],
                          raise_fractions=(0.5, 1.0, 2.0, 3.0))


def test_checkpoints_from_before_the_game_key_are_recognised(checkpoints, tmp_path):
    for kind in ("hanabi", "liars_dice", "dayaoguai"):
        ckpt = runs.load_checkpoint(checkpoints[kind])
        del ckpt["game"]
        if kind == "hanabi":  # its config had no game field either: known by its rule keys
            del ckpt["config"]["game"]
        ckpt.pop("env_options", None) if kind != "liars_dice" else None
        runs.save_checkpoint(tmp_path / f"old_{kind}.pt", ckpt)
        player = vecgames.load_player(tmp_path / f"old_{kind}.pt")
        assert player.game == kind
        assert player.env_options["num_players"] == ckpt["config"]["players"]
    ckpt = runs.load_checkpoint(checkpoints["hanabi"])
    del ckpt["game"]
    del ckpt["config"]["game"]
    del ckpt["config"]["end"]
    runs.save_checkpoint(tmp_path / "unknown.pt", ckpt)
    with pytest.raises(ValueError, match="does not say which game"):
        vecgames.load_player(tmp_path / "unknown.pt")


class Payload:  # an object a safe checkpoint may not hold
    pass


def test_unsafe_pickles_stay_refused(tmp_path):
    torch.save({"format": runs.FORMAT, "game": "holdem", "x": Payload()}, tmp_path / "evil.pt")
    with pytest.raises(ValueError, match="refusing to load"):
        vecgames.load_player(tmp_path / "evil.pt")
    with pytest.raises(ValueError, match="no checkpoint file"):
        vecgames.load_player(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="unknown player .*existing checkpoint"):
        vecgames.simulate("holdem", 2, players=str(tmp_path / "missing.pt"))


def test_trainers_store_game_and_env_options(checkpoints):
    ckpt = runs.load_checkpoint(checkpoints["zhajinhua_seed"])
    assert ckpt["game"] == "zhajinhua"
    assert ckpt["env_options"] == {"num_players": 2, "obs": "seed"}
    assert runs.load_checkpoint(checkpoints["liars_dice"])["env_options"]["num_rounds"] == 1
    assert vecgames.load_player(checkpoints["liars_dice"]).env_options == {
        "num_players": 2, "dice": 5, "variant": "zhai_fei", "observation": "seed"}
    assert asdict(hanabi.Config())["players"] == runs.load_checkpoint(
        checkpoints["hanabi"])["env_options"]["num_players"]


def test_the_core_import_does_not_import_torch():
    code = ("import sys, vecgames; vecgames.load_player; vecgames.Player; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
