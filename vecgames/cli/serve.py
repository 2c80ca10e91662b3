"""``vecgames serve``: the web app."""

from __future__ import annotations

import argparse
import os
import sys

from ..cli_args import (
    PROG,
    CLIError,
)
from .common import _check_input


def _add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--checkpoint", action="append", default=[], metavar="PATH",
                   help="a checkpoint the page may seat (repeatable); the only files the "
                        "server loads players from")
    p.add_argument("--replays", metavar="DIR",
                   help="a folder of replay files (*.json) to list on the replays page")


def _serve(args: argparse.Namespace) -> int:
    from ..web import serve

    if not 0 < args.port < 65536:
        raise CLIError(f"argument --port: must be in 1..65535, got {args.port}")
    for path in args.checkpoint:
        _check_input(path, "--checkpoint")
    if args.replays is not None and not os.path.isdir(args.replays):
        raise CLIError(f"argument --replays: no folder {args.replays!r}")
    try:
        serve(args.host, args.port, args.checkpoint, args.replays)
    except ImportError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a checkpoint that does not load
        raise CLIError(f"argument --checkpoint: {exc}") from None
    except KeyboardInterrupt:
        return 0
    return 0
