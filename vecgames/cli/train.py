"""``vecgames train GAME`` and ``vecgames exploit GAME PLAYER``: the trainers."""

from __future__ import annotations

import argparse
import functools
import importlib
import sys

from ..cli_args import (
    PROG,
    TRAIN_HINT,
)
from ..games.catalog import spec_of
from .common import _forward


def _train(args: argparse.Namespace) -> int:
    try:
        trainer = spec_of(args.game).load("trainer")
    except ImportError as exc:
        # The torch bridge's message already says how to install the extra.
        reason = str(exc) if TRAIN_HINT in str(exc) else (
            f"training needs the train extra ({exc}); install it with: {TRAIN_HINT}")
        print(f"{PROG}: error: {reason}", file=sys.stderr)
        return 1
    # The trainer's usage and error lines name this command (`vecgames train GAME`).
    return _forward(functools.partial(trainer.main, prog=f"{PROG} train {args.game}"),
                    args.args)


def _exploit(args: argparse.Namespace) -> int:
    try:
        exploit = importlib.import_module("vecgames.training.exploit")
        importlib.import_module("vecgames.torch_bridge")  # the trainers need torch
    except ImportError as exc:
        reason = str(exc) if TRAIN_HINT in str(exc) else (
            f"exploit trains a policy: it needs the train extra ({exc}); install it with: "
            f"{TRAIN_HINT}")
        print(f"{PROG}: error: {reason}", file=sys.stderr)
        return 1
    return _forward(exploit.main, args.args)
