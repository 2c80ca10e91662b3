"""Learn an equilibrium of a small two-player Liar's Dice game by self-play: Monte Carlo CFR
(``vecgames.solve.sampled``), one run per seed, its exact exploitability traced against env
steps and plotted.

    vecgames train liars_dice --algo es-mccfr --dice 2,1 --env-steps 2e8 --seeds 0,1,2

writes into ``--out``: ``seed<k>.npz`` (each seed's average strategy, ``save_strategy``),
``trace.csv`` (seed, env steps, exploitability), ``curve.png`` (the traces, log-log) and
``summary.json`` (per seed: exploitability, game value, env steps, episodes, seconds; their
mean and standard deviation; the CPU). A strategy of equal dice plays in the env
(``vecgames.games.liars_dice.solver_strategy.load_strategy_player``); unequal dice exist only
in the solver.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ALGOS = {"es-mccfr": "external", "os-mccfr": "outcome"}


def _dice(text: str) -> tuple[int, int]:
    parts = [p for p in text.split(",") if p.strip()]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice: one or two ints, got {text!r}") from None
    if len(values) not in (1, 2):
        raise argparse.ArgumentTypeError(f"dice: one or two ints (per seat), got {text!r}")
    return (values[0], values[-1])


def _steps(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"env steps: a number, got {text!r}") from None
    if not value >= 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"env steps: a whole number >= 1, got {text!r}")
    return int(value)


def _seeds(text: str) -> list[int]:
    try:
        values = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds: comma-separated ints, got {text!r}") from None
    if not values or min(values) < 0 or len(set(values)) != len(values):
        raise argparse.ArgumentTypeError(f"seeds: distinct ints >= 0, got {text!r}")
    return values


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog, description="Learn an equilibrium of a small two-player Liar's Dice game by "
        "self-play (Monte Carlo CFR), with its exact exploitability against env steps.")
    p.add_argument("--algo", choices=sorted(ALGOS), required=True,
                   help="es-mccfr: external sampling (the other seat's actions and the deal "
                        "sampled, each own action tried); os-mccfr: outcome sampling (one "
                        "trajectory per episode)")
    p.add_argument("--dice", type=_dice, default=(1, 1), help="dice per seat: 1 or 2,1 (1)")
    p.add_argument("--variant", choices=("basic", "zhai_fei"), default="basic",
                   help="basic: 飞 bids only (default); zhai_fei needs --max-round-steps")
    p.add_argument("--min-first-count", type=int, default=1, help="the first bid's least count")
    p.add_argument("--max-round-steps", type=int, default=0, help="cap a round's bids (0: none)")
    p.add_argument("--env-steps", type=_steps, default=50_000_000, help="per seed (5e7)")
    p.add_argument("--seeds", type=_seeds, default=[0], help="comma-separated (0)")
    p.add_argument("--epsilon", type=float, default=0.6, help="os-mccfr's exploration (0.6)")
    p.add_argument("--checks", type=int, default=20,
                   help="exact exploitability checks per seed, log-spaced (20)")
    p.add_argument("--out", type=Path, default=Path("runs/liars_dice_equilibrium"))
    return p


def run(args: argparse.Namespace, v: Any, command: str) -> dict[str, Any]:
    """Train every seed on variant ``v``; write the strategies, trace, plot and summary;
    return the summary."""
    from vecgames.games.liars_dice.solver_strategy import save_strategy
    from vecgames.games.liars_dice.tree import build_tree, deal_matrix
    from vecgames.solve.sampled import learn
    from vecgames.training.zoo_export import cpu_name

    tree = build_tree(v)
    args.out.mkdir(parents=True, exist_ok=True)
    runs = []
    for seed in args.seeds:
        def show(steps: int, expl: float, seed: int = seed) -> None:
            print(f"seed {seed}: {steps:>13,} env steps  exploitability {expl:.4f}",
                  flush=True)

        r = learn(tree, deal_matrix(v), args.env_steps, method=ALGOS[args.algo],
                  epsilon=args.epsilon, seed=seed, checks=args.checks, progress=show)
        save_strategy(args.out / f"seed{seed}.npz", v, r.strategy)
        runs.append({"seed": seed, "exploitability": r.exploitability, "value": r.value,
                     "env_steps": r.env_steps, "episodes": r.episodes,
                     "seconds": round(r.seconds, 2), "trace": r.trace})
    with (args.out / "trace.csv").open("w") as f:
        f.write("seed,env_steps,exploitability\n")
        for r_ in runs:
            for steps, expl in r_["trace"]:
                f.write(f"{r_['seed']},{steps},{expl:.6g}\n")
    final = [r_["exploitability"] for r_ in runs]
    summary = {"command": command, "variant": v.label(), "algo": args.algo,
               "seeds": args.seeds, "cpu": cpu_name(), "runs": runs,
               "exploitability_mean": statistics.fmean(final),
               "exploitability_std": statistics.stdev(final) if len(final) > 1 else 0.0}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    _plot(runs, v.label(), args.algo, args.out / "curve.png")
    print(f"{v.label()}: exploitability {summary['exploitability_mean']:.4f} ± "
          f"{summary['exploitability_std']:.4f} over seeds {args.seeds}; wrote {args.out}")
    return summary


def _plot(runs: list[dict[str, Any]], label: str, algo: str, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the plot is optional: the trace is in trace.csv
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in runs:
        steps, expl = zip(*r["trace"], strict=True)
        ax.loglog(steps, expl, marker=".", label=f"seed {r['seed']}")
    ax.axhline(0.02, color="grey", linestyle=":", label="0.02")
    ax.set_xlabel("env steps")
    ax.set_ylabel("exploitability (NashConv / 2)")
    ax.set_title(f"{algo}: {label}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None,
         prog: str = "vecgames train liars_dice --algo ...") -> int:
    from vecgames.games.liars_dice.tree import make_variant

    parser = build_parser(prog)
    args = parser.parse_args(argv)
    # every bad value is a usage error before anything is built or written
    if args.checks < 1:
        parser.error("--checks must be >= 1")
    if not 0.0 < args.epsilon <= 1.0:
        parser.error("--epsilon must be in (0, 1]")
    try:
        v = make_variant(args.dice, args.variant, args.min_first_count, True,
                         args.max_round_steps)
    except (TypeError, ValueError) as exc:
        parser.error(str(exc))
    words = ["vecgames", "train", "liars_dice", *(sys.argv[1:] if argv is None else argv)]
    run(args, v, " ".join(words))
    return 0
