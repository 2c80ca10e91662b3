"""The run folder (refusing a used ``--out``, ``--resume``, ``--overwrite``), checkpoints that
load without running code (tensors and plain data only, read with ``weights_only=True``),
seeding and the progress bar."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import MISSING, asdict, fields
from pathlib import Path
from typing import IO, Any

import numpy as np

from vecgames.core.simulation import is_terminal
from vecgames.policies.checkpoint import FORMAT, load_checkpoint
from vecgames.torch_bridge import import_torch, resolve_device

import_torch()  # without torch: an ImportError naming the train extra
import torch  # noqa: E402

CHECKPOINTS = "checkpoints"
# Everything a trainer writes into its --out folder (--overwrite deletes exactly these).
RUN_FILES = ("config.json", "final.pt", "history.json", "learning_curve.png", "eval.json",
             "eval.md")
# Config fields a resumed run may change: budgets, evaluation, outputs and machine settings.
# Every other field shapes the network, the envs or the update and must match the checkpoint.
RESUMABLE = frozenset({
    "iterations", "minutes", "out", "device", "progress", "resume", "overwrite", "eval_games",
    "eval_greedy", "eval_threshold", "eval_opponents", "checkpoint_every", "torch_threads",
    "env_threads", "workers", "ray_address", "log_every"})


# -- the run folder ------------------------------------------------------------------------
def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """``--resume``, ``--overwrite`` and ``--no-progress``, the same for every trainer."""
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue the run in --out from its last checkpoint (--iterations "
                           "and --minutes count the whole run, so it trains what is left)")
    mode.add_argument("--overwrite", action="store_true",
                      help="delete the run already in --out (its checkpoints and outputs) and "
                           "start a new one")
    p.add_argument("--no-progress", action="store_true",
                   help="hide the progress bar (it is shown only when stderr is a terminal)")


def run_files(out: Path) -> list[Path]:
    """The files of an earlier run in ``out`` (empty when there is none)."""
    found = [out / name for name in RUN_FILES if (out / name).exists()]
    if (out / CHECKPOINTS).is_dir():
        found += sorted((out / CHECKPOINTS).glob("*.pt"))
    return found


def checkpoint_iteration(path: Path) -> int:
    """The iteration in a checkpoint's name (``iter_000025.pt`` -> 25; -1 if not of that form)."""
    digits = path.stem.removeprefix("iter_")
    return int(digits) if path.stem.startswith("iter_") and digits.isdigit() else -1


def last_checkpoint(out: Path) -> Path | None:
    """The checkpoint of ``out`` with the most iterations: ``final.pt`` or the newest periodic
    one (a run stopped early has only the latter; ``final.pt`` wins a tie)."""
    periodic = sorted((out / CHECKPOINTS).glob("iter_*.pt"), key=checkpoint_iteration)
    newest = periodic[-1] if periodic else None
    final = out / "final.pt"
    if not final.exists():
        return newest
    if newest is None or load_checkpoint(final)["iteration"] >= checkpoint_iteration(newest):
        return final
    return newest


def check_run(cfg: Any) -> dict[str, Any] | None:
    """Check ``cfg.out`` against ``cfg.resume`` / ``cfg.overwrite`` before anything is written.

    Returns the checkpoint to resume from (``--resume``), else None. Raises FileExistsError
    when ``cfg.out`` holds a run and neither flag is set, FileNotFoundError when ``--resume``
    finds no checkpoint there, and ValueError when both flags are set, when the checkpoint is
    refused (see :func:`load_checkpoint`) or when its config differs from ``cfg`` in a field
    outside ``RESUMABLE`` (a field the checkpoint's config lacks is taken at its default).
    """
    out = Path(cfg.out)
    if cfg.resume and cfg.overwrite:
        raise ValueError("--resume and --overwrite exclude each other")
    if cfg.resume:
        path = last_checkpoint(out)
        if path is None:
            raise FileNotFoundError(f"--resume: no checkpoint in {out} (final.pt or "
                                    f"{CHECKPOINTS}/iter_*.pt) to continue from")
        ckpt = load_checkpoint(path)
        mine = plain(asdict(cfg))
        theirs = {**plain(added_fields(cfg, ckpt["config"])), **ckpt["config"]}
        changed = sorted(k for k in mine.keys() | theirs.keys()
                         if k not in RESUMABLE and mine.get(k) != theirs.get(k))
        if changed:
            diff = ", ".join(f"{k}: {theirs.get(k)!r} -> {mine.get(k)!r}" for k in changed)
            raise ValueError(f"--resume: the options differ from the run in {out} ({diff}); "
                             "give the run's own options")
        ckpt["path"] = str(path)
        return ckpt
    if not cfg.overwrite and run_files(out):
        raise FileExistsError(f"{out} already holds a training run; pass --resume to continue "
                              "it or --overwrite to replace it (or choose another --out)")
    return None


def clear_run(out: Path) -> None:
    """Delete an earlier run's files from ``out`` (others there are left alone)."""
    for path in run_files(out):
        path.unlink()
    if (out / CHECKPOINTS).is_dir() and not any((out / CHECKPOINTS).iterdir()):
        (out / CHECKPOINTS).rmdir()


# -- checkpoints ---------------------------------------------------------------------------
def added_fields(cfg: Any, saved: dict[str, Any]) -> dict[str, Any]:
    """The defaults of ``cfg``'s fields that ``saved`` (a run's config) lacks: fields added to
    the trainer since the run started, which default to what the code did before them."""
    added: dict[str, Any] = {}
    for f in fields(cfg):
        if f.name in saved:
            continue
        if f.default is not MISSING:
            added[f.name] = f.default
        elif f.default_factory is not MISSING:
            added[f.name] = f.default_factory()
    return added


def plain(obj: Any) -> Any:
    """``obj`` with numpy scalars and arrays made Python numbers and tensors, tuples made lists,
    so that ``torch.load(weights_only=True)`` and JSON both read it back."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return torch.from_numpy(obj.copy())
    return obj


def save_checkpoint(path: Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` (tensors and plain data) atomically: an interrupted save leaves the
    previous file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": FORMAT, **plain(payload)}, tmp)
    os.replace(tmp, path)


def rng_state(generator: torch.Generator) -> dict[str, torch.Tensor]:
    """The trainer's sampling generator and torch's global generator, for a checkpoint."""
    return {"generator": generator.get_state(), "torch": torch.get_rng_state()}


def restore_rng(ckpt: dict[str, Any], generator: torch.Generator) -> None:
    generator.set_state(ckpt["rng"]["generator"].cpu())
    torch.set_rng_state(ckpt["rng"]["torch"].cpu())


def env_streams(env: Any) -> torch.Tensor:
    """The env's per-env random streams (uint64 [B]) as an int64 tensor, for a checkpoint."""
    return torch.from_numpy(env._rng.view(np.int64).copy())


def restart_envs(bridge: Any, streams: torch.Tensor | None) -> tuple[Any, Any]:
    """Put saved streams back into the bridge's env and deal new games from them (a running
    game is not saved, so a resumed run starts fresh games where the streams stood)."""
    env = bridge.env
    if streams is not None and streams.numel() == env.num_envs:
        env._rng[:] = streams.cpu().numpy().view(np.uint64)
    return bridge.reset()


# -- starting a run ------------------------------------------------------------------------
def open_run(cfg: Any) -> tuple[Path, dict[str, Any] | None]:
    """Check the run folder (:func:`check_run`), clear it for ``--overwrite``, create it and
    write config.json; returns the folder and the checkpoint to resume from."""
    ckpt = check_run(cfg)
    out = Path(cfg.out)
    if cfg.overwrite:
        clear_run(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(plain(asdict(cfg)), indent=2))
    return out, ckpt


def parse_cli(argv: list[str] | None, prog: str,
              parse_config: Callable[[list[str], str], Any],
              build_parser: Callable[[str], argparse.ArgumentParser]) -> tuple[Any, str]:
    """A trainer's command line: its Config and the command recorded in eval.md. An unusable
    ``--out`` is a usage error (``prog: error: ...``, exit code 2) before anything is written."""
    args = sys.argv[1:] if argv is None else list(argv)
    cfg = parse_config(args, prog)
    try:
        check_run(cfg)
    except (OSError, ValueError) as exc:
        build_parser(prog).error(str(exc))
    return cfg, " ".join([prog, *args])


def exit_code(exc: SystemExit) -> int:
    """The process exit code a SystemExit stands for (a message alone means 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


# -- progress ------------------------------------------------------------------------------
def progress_bar(total: int | None, desc: str, enabled: bool = True,
                 stream: IO[str] | None = None, **kwargs: Any) -> Any:
    """A tqdm bar on ``stream`` (stderr by default), shown only when ``enabled`` and the stream
    is a terminal: piped or logged output stays free of carriage-return noise."""
    from tqdm import tqdm

    stream = sys.stderr if stream is None else stream
    shown = enabled and is_terminal(stream)
    return tqdm(total=total, desc=desc, unit="it", disable=not shown, file=stream, **kwargs)


# -- what every trainer does ---------------------------------------------------------------
def start_run(cfg: Any) -> tuple[torch.device, torch.Generator, Path, dict[str, Any] | None]:
    """What every trainer does first: the device, the run folder (``open_run``: refuse a
    used ``out`` unless ``resume`` or ``overwrite``; config.json), torch's threads and seeds, a
    seeded generator, and the checkpoint to resume from (None for a new run). ``cfg``: a
    dataclass with ``device``, ``torch_threads``, ``seed``, ``out``, ``resume``, ``overwrite``."""
    device = resolve_device(cfg.device)
    out, ckpt = open_run(cfg)
    if cfg.torch_threads > 0:
        # The env kernels have threads of their own; torch's OpenMP pool spinning beside them
        # made a forward pass ~50x slower on a 2-core machine.
        torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator(device=device).manual_seed(cfg.seed)
    return device, gen, out, ckpt
