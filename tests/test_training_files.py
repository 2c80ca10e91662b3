"""What every trainer does with its run folder: refuse a used --out, --overwrite, --resume,
checkpoints that load without running code, the progress bar, and --help."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.cli import main as cli_main  # noqa: E402
from vecgames.games.zhajinhua import train as tz  # noqa: E402
from vecgames.policies.checkpoint import load_network  # noqa: E402
from vecgames.policies.nets import PolicyNet  # noqa: E402
from vecgames.training import core, pg, runs  # noqa: E402

GAMES = ("zhajinhua", "holdem", "dayaoguai", "hanabi", "liars_dice")
# A few seconds per run on 2 cores (the Numba kernels are cached on disk).
TINY = {
    "zhajinhua": ["--players", "3", "--envs", "8", "--steps", "8", "--eval-games", "16"],
    "holdem": ["--players", "3", "--envs", "8", "--steps", "8", "--eval-games", "16"],
    "dayaoguai": ["--envs", "8", "--steps", "8", "--max-steps", "40", "--eval-games", "8",
                  "--hidden", "16"],
    "hanabi": ["--envs", "8", "--steps", "8", "--hidden", "16", "--eval-games", "8"],
    "liars_dice": ["--envs", "8", "--learning-starts", "4", "--batch-size", "4",
                   "--buffer-size", "256", "--hidden", "16", "--eval-games", "16",
                   "--log-every", "0"],
}
FIRST = {"liars_dice": 8}  # iterations of the first run (liars_dice: enough for some updates)


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def adam_step(ckpt: dict) -> float:
    state = ckpt["optimizer"]["state"]
    return float(state[0]["step"]) if state else 0.0


def run(game: str, out: Path, iterations: int, *extra: str) -> int:
    trainer = importlib.import_module(f"vecgames.games.{game}.train")
    return trainer.main([*TINY[game], "--iterations", str(iterations), "--out", str(out),
                         "--checkpoint-every", "1", "--no-progress", *extra])


@pytest.mark.parametrize("game", GAMES)
def test_used_out_is_refused_overwritten_or_resumed(game, tmp_path, capsys):
    out = tmp_path / "run"
    n = FIRST.get(game, 2)
    assert run(game, out, n) == 0
    first = runs.load_checkpoint(out / "final.pt")
    before = snapshot(out)

    capsys.readouterr()
    assert run(game, out, n) == 2  # refused: a one-line usage error, nothing written
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "error:" in err and str(out) in err and "--resume" in err and "--overwrite" in err
    assert snapshot(out) == before

    assert run(game, out, n + 1, "--resume") == 0
    resumed = runs.load_checkpoint(out / "final.pt")
    assert resumed["iteration"] == n + 1
    assert json.loads((out / "eval.json").read_text())["train"]["iterations"] == n + 1
    assert resumed["history"][:len(first["history"])] == first["history"]
    if game == "liars_dice":  # its replay buffer starts empty again: maybe no update yet
        assert adam_step(resumed) == resumed["updates"] >= first["updates"] > 0
    else:  # the optimizer went on from the checkpoint's state, not from scratch
        assert adam_step(resumed) > adam_step(first) > 0
    periodic = sorted(p for p in before if p.startswith("checkpoints/"))
    assert all(snapshot(out)[p] == before[p] for p in periodic)  # earlier ones untouched

    assert run(game, out, 1, "--overwrite") == 0
    assert runs.load_checkpoint(out / "final.pt")["iteration"] == 1
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["iter_000001.pt"]


def test_run_folder_errors_from_the_library(tmp_path):
    cfg = tz.Config(out=str(tmp_path / "run"), iterations=1, progress=False)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_text("mine")  # not a run: training may go there
    assert runs.check_run(cfg) is None
    (tmp_path / "run" / "final.pt").write_bytes(b"old")
    with pytest.raises(FileExistsError, match="--resume.*--overwrite"):
        core.train(tz.TRAINER, cfg)
    assert (tmp_path / "run" / "final.pt").read_bytes() == b"old"
    assert not (tmp_path / "run" / "config.json").exists()
    cfg.resume = True
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        runs.check_run(tz.Config(out=str(tmp_path / "empty"), resume=True))
    with pytest.raises(ValueError, match="exclude each other"):
        runs.check_run(tz.Config(out=str(tmp_path), resume=True, overwrite=True))
    runs.clear_run(tmp_path / "run")
    assert [p.name for p in (tmp_path / "run").iterdir()] == ["notes.txt"]


def test_resume_restores_weights_optimizer_and_streams(tmp_path):
    """What the loop saves and restores: weights, Adam's state, the sampling generator, the
    global torch stream and the env streams (a resumed run deals its games from them)."""
    cfg = tz.Config(players=3, envs=8, steps=8, iterations=1, out=str(tmp_path), hidden=16)
    gen = torch.Generator().manual_seed(3)
    algo = pg.PolicyGradient(cfg, torch.device("cpu"), gen)
    algo.iteration(1, 0.0)
    runs.save_checkpoint(tmp_path / "c.pt", {
        "model": algo.net.state_dict(), "optimizer": algo.opt.state_dict(),
        "rng": runs.rng_state(gen), **algo.state()})
    draws = torch.rand(3, generator=gen)
    dealt = vecgames.make("zhajinhua", num_envs=8, seed=cfg.seed, num_players=3)
    dealt.reset()
    dealt._rng[:] = algo.collector.env._rng  # the games a resumed run deals: the saved streams
    dealt.reset()

    gen2 = torch.Generator().manual_seed(99)
    algo2 = pg.PolicyGradient(cfg, torch.device("cpu"), gen2)
    ckpt = runs.load_checkpoint(tmp_path / "c.pt")
    assert not torch.equal(algo2.collector.obs, torch.from_numpy(dealt._obs))
    algo2.net.load_state_dict(ckpt["model"])
    algo2.opt.load_state_dict(ckpt["optimizer"])
    runs.restore_rng(ckpt, gen2)
    algo2.restore(ckpt)
    assert algo2.samples == algo.samples > 0
    assert all(torch.equal(a, b) for a, b in zip(algo.net.parameters(), algo2.net.parameters(),
                                                 strict=True))
    assert adam_step(ckpt) == float(algo2.opt.state_dict()["state"][0]["step"]) > 0
    assert torch.equal(torch.rand(3, generator=gen2), draws)
    assert (algo2.collector.env._rng == dealt._rng).all()
    assert torch.equal(algo2.collector.obs, torch.from_numpy(dealt._obs))


class Payload:
    """Unpickling this would create ``marker``: the code a hostile checkpoint would run."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


LOADERS = {"load_player": vecgames.load_player, "load_network": load_network,
           "load_checkpoint": runs.load_checkpoint}


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_checkpoint_with_code_is_refused(loader, tmp_path):
    """Every way a checkpoint is read refuses a pickle with code (before running it) and a
    file of the earlier layout."""
    load = LOADERS[loader]
    marker = tmp_path / "ran"
    evil = tmp_path / "evil.pt"
    torch.save({"format": runs.FORMAT, "model": Payload(marker)}, evil)
    with pytest.raises(ValueError, match="refusing to load .*evil.pt"):
        load(evil)
    assert not marker.exists()
    old = tmp_path / "old.pt"  # a checkpoint of the earlier layout: plain data, no format key
    torch.save({"model": {}, "config": {"hidden": 4}}, old)
    with pytest.raises(ValueError, match="not a checkpoint of this vecgames version"):
        load(old)


def test_resume_from_a_checkpoint_with_code_is_a_usage_error(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    marker = tmp_path / "ran"
    torch.save({"format": runs.FORMAT, "model": Payload(marker)}, out / "final.pt")
    assert run("zhajinhua", out, 1, "--resume") == 2
    assert "refusing to load" in capsys.readouterr().err
    assert not marker.exists() and not (out / "config.json").exists()


def test_play_refuses_a_checkpoint_with_code(tmp_path, capsys):
    from vecgames.games.liars_dice.view import VIEW
    from vecgames.play.terminal import main

    marker = tmp_path / "ran"
    evil = tmp_path / "evil.pt"
    torch.save({"format": runs.FORMAT, "model": Payload(marker)}, evil)
    assert main(VIEW, ["--agent", str(evil)], input_fn=lambda prompt: "q") == 2
    assert "refusing to load" in capsys.readouterr().err
    assert not marker.exists()


def test_checkpoint_round_trip(tmp_path):
    """An atomic save (no .tmp left) that load_player reads back with the same weights."""
    net = PolicyNet(256, 15, 8)
    cfg = tz.Config(hidden=8, players=3, out=str(tmp_path))
    runs.save_checkpoint(tmp_path / "a.pt", {
        "model": net.state_dict(), "optimizer": torch.optim.Adam(net.parameters()).state_dict(),
        "config": asdict(cfg), "game": "zhajinhua", "env_options": cfg.env_kwargs(),
        "iteration": 3, "obs_dim": 256, "num_actions": 15, "history": [{"x": np.float32(1)}]})
    assert not (tmp_path / "a.pt.tmp").exists()
    loaded = vecgames.load_player(tmp_path / "a.pt").net
    pairs = zip(net.parameters(), loaded.parameters(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)
    ckpt = torch.load(tmp_path / "a.pt", weights_only=True)
    assert ckpt["config"]["eval_opponents"] == ["random"] and ckpt["iteration"] == 3
    assert ckpt["history"] == [{"x": 1.0}]  # numpy scalars saved as plain numbers


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal():
    for stream, enabled, shown in ((FakeTTY(), True, True), (io.StringIO(), True, False),
                                   (FakeTTY(), False, False)):
        bar = runs.progress_bar(3, "train x", enabled, stream=stream)
        bar.update(1)
        bar.close()
        assert ("train x" in stream.getvalue()) == shown


@pytest.mark.parametrize("game", GAMES)
def test_every_trainer_shows_progress_unless_told_not_to(game):
    trainer = importlib.import_module(f"vecgames.games.{game}.train").TRAINER
    assert trainer.parse([], "p").progress
    assert not trainer.parse(["--no-progress"], "p").progress


def test_the_training_bar_follows_stderr(tmp_path, monkeypatch):
    """The loop's bar is drawn on a terminal stderr, not on a piped one, not with
    --no-progress."""
    for name, stream, extra, shown in (("tty", FakeTTY(), [], True),
                                       ("pipe", io.StringIO(), [], False),
                                       ("off", FakeTTY(), ["--no-progress"], False)):
        monkeypatch.setattr("sys.stderr", stream)
        trainer = importlib.import_module("vecgames.games.zhajinhua.train")
        argv = [*TINY["zhajinhua"], "--iterations", "1", "--out", str(tmp_path / name), *extra]
        assert trainer.main(argv) == 0
        assert ("train zhajinhua" in stream.getvalue()) == shown, name


@pytest.mark.parametrize("game", GAMES)
def test_help_lists_the_trainer_options(game, capsys):
    trainer = importlib.import_module(f"vecgames.games.{game}.train")
    assert trainer.main(["--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: python -m vecgames.games.{game}.train ")
    assert "--resume" in text and "--overwrite" in text and "--no-progress" in text
    assert "--eval-envs" not in text and "--eval-opponents" in text
    if game in ("zhajinhua", "holdem", "dayaoguai"):
        assert all(f in text for f in ("--mix", "--league-every", "--algo", "--returns"))
    assert trainer.main(["--help"], prog=f"vecgames train {game}") == 0
    assert capsys.readouterr().out.startswith(f"usage: vecgames train {game} ")
    assert cli_main(["train", game, "--help"]) == 0
    assert "--resume" in capsys.readouterr().out
