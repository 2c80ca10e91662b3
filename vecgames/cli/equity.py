"""``vecgames equity`` and ``vecgames preflop-matrix``: Hold'em equity."""

from __future__ import annotations

import argparse
import time

from ..cli_args import (
    CLIError,
    flagged,
)
from .common import _add_backend, _check_output, _ray_options


def _add_equity(p: argparse.ArgumentParser) -> None:
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="2..10 hands: exact cards (AhKh) or ranges ('QQ+,AKs', random)")
    p.add_argument("--board", default="", help="0..5 board cards, e.g. 2c7d9h")
    p.add_argument("--dead", default="", help="cards out of play")
    p.add_argument("--samples", type=float,
                   help="Monte Carlo deals (default: exact when feasible, else 1e6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")


def _equity(args: argparse.Namespace) -> int:
    from ..poker.equity import equity

    if args.samples is not None and not (args.samples.is_integer() and args.samples >= 1):
        raise CLIError(f"argument --samples: must be a whole number >= 1, got {args.samples:g}")
    import numba

    from ..core.simulation import max_threads

    threads_before = numba.get_num_threads()
    if args.threads is not None:
        if not 1 <= args.threads <= max_threads():
            raise CLIError(f"argument --threads: must be in 1..{max_threads()}")
        numba.set_num_threads(args.threads)
    start = time.perf_counter()
    try:
        result = equity(args.hands, board=args.board, dead=args.dead,
                        samples=None if args.samples is None else int(args.samples),
                        seed=args.seed)
    except (ValueError, TypeError) as exc:
        raise CLIError(str(exc)) from None
    finally:
        numba.set_num_threads(threads_before)
    elapsed = time.perf_counter() - start
    shown = result[["hand", "combos", "win", "tie", "equity", "std_error"]].copy()
    for column in ("win", "tie", "equity", "std_error"):
        shown[column] = (100 * shown[column]).map("{:.3f}%".format)
    print(shown.to_string())
    method = result.attrs["method"]
    deals = result.attrs["deals"]
    print(f"{method}: {deals:,} deals in {elapsed:.3f} s"
          + (f" (board {args.board})" if args.board else ""))
    return 0


def _add_preflop(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="PATH.npz", required=True,
                   help="write the counts (wins, ties, losses, combos) here")
    _add_backend(p)


def _preflop(args: argparse.Namespace) -> int:
    import numpy as np

    from ..core.simulation import show_progress
    from ..poker.preflop import MATRIX_FILE, compute_preflop_matrix

    _check_output(args.out, "--out")
    options = _ray_options(args)
    options.pop("backend", None)
    start = time.perf_counter()
    try:
        if args.backend == "ray":
            from ..distributed.tables import compute_preflop_matrix_ray

            counts = compute_preflop_matrix_ray(progress=show_progress(None), **options)
        else:
            counts = compute_preflop_matrix(progress=show_progress(None))
    except (ValueError, TypeError) as exc:
        raise CLIError(flagged(exc)) from None
    elapsed = time.perf_counter() - start
    np.savez_compressed(args.out, **counts)  # type: ignore[arg-type]  # numpy's stub
    with np.load(MATRIX_FILE) as shipped:
        same = all(np.array_equal(shipped[name], counts[name]) for name in counts)
    print(f"169 x 169 matrix in {elapsed:.1f} s ({args.backend}); wrote {args.out}; "
          f"{'equal to' if same else 'DIFFERENT FROM'} the shipped {MATRIX_FILE.name}")
    return 0 if same else 1
