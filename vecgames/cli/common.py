"""Helpers the subcommands share: rule options, players, output paths, Ray."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..cli_args import CLIError


def _add_backend(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("running on a Ray cluster (needs the ray extra)")
    group.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="ray: shards run as Ray tasks, with the same result bit for bit")
    group.add_argument("--address", help="Ray cluster: auto, local, host:port or "
                                         "ray://host:port (default: RAY_ADDRESS, else a Ray "
                                         "started here, else a private one)")
    group.add_argument("--shards", type=int,
                       help="shards (default: 4 per task slot of the cluster; simulate: at "
                            "most one per 100,000 games)")
    group.add_argument("--cpus-per-shard", type=int, default=1,
                       help="CPUs and Numba threads per shard (1)")


def _ray_options(args: argparse.Namespace) -> dict[str, Any]:
    """The library keywords of the backend flags (none for a local run, which rejects them)."""
    if args.backend == "local":
        given = [flag for flag, value in (("--address", args.address), ("--shards", args.shards),
                                          ("--cpus-per-shard", args.cpus_per_shard != 1 or None))
                 if value is not None]
        if given:
            raise CLIError(f"argument {given[0]}: needs --backend ray")
        return {}
    if getattr(args, "threads", None) is not None:
        raise CLIError("argument --threads: not allowed with --backend ray "
                       "(use --cpus-per-shard)")
    try:
        import ray  # noqa: F401
    except ImportError:
        raise CLIError('argument --backend: ray needs the ray extra: '
                       'pip install -e ".[ray]"') from None
    return {"backend": "ray", "address": args.address, "num_shards": args.shards,
            "cpus_per_shard": args.cpus_per_shard}


def _policy(text: str) -> str | list[str]:
    names = [s.strip() for s in text.split(",")]
    return names[0] if len(names) == 1 else names


def _check_output(path: str | None, flag: str, create: bool = False) -> None:
    """Check a file to write before the run, not after it: its missing folder is refused or,
    with ``create``, made (a report's folder, as ``--report out/run1.md`` asks)."""
    if path is None:
        return
    if os.path.isdir(path):
        raise CLIError(f"argument {flag}: {path!r} is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(os.path.expanduser(path)))
    if create and not os.path.exists(folder):
        try:
            os.makedirs(folder)
        except OSError as exc:
            raise CLIError(f"argument {flag}: cannot create the folder {folder!r}: "
                           f"{exc.strerror}") from None
    if not os.path.isdir(folder):
        raise CLIError(f"argument {flag}: the folder {folder!r} does not exist")


def _out_folder(path: str | None, flag: str) -> Any:
    """An output folder (created if missing; its parent must exist), checked before a run."""
    if path is None:
        return None
    from pathlib import Path

    folder = Path(path).expanduser()
    if folder.exists() and not folder.is_dir():
        raise CLIError(f"argument {flag}: {path!r} is a file; give a folder")
    if not folder.parent.is_dir():
        raise CLIError(f"argument {flag}: the folder {str(folder.parent)!r} does not exist")
    folder.mkdir(exist_ok=True)
    return folder


def _check_input(path: str, flag: str) -> None:
    if not os.path.isfile(path):
        raise CLIError(f"argument {flag}: no file {path!r}")


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in options.items()) or "-"


def _forward(entry: Any, argv: list[str]) -> int:
    """Run a forwarded ``main(argv)``; its argparse exits (``--help``, usage errors) become
    return codes, as for this command's own."""
    try:
        return int(entry(list(argv)) or 0)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
