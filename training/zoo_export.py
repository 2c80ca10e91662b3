"""Put a finished training run into the model zoo: its final weights, stripped to what a
player needs (no optimizer, history or random state), and a card.

    python -m vecgames.training.zoo_export RUN_DIR --name NAME --description TEXT \\
        --command "vecgames train ..." [--seed-runs DIR,DIR,DIR]

writes ``vecgames/zoo/NAME.pt`` and ``NAME.json`` (``--zoo`` for another folder). The card
takes the run's config, budget (env steps, wall time) and evaluation (``eval.json``: the
arena's means and 95% CIs) and names this machine's CPU: run it where the run trained.
``--seed-runs``: runs of the same command with other seeds (maybe a shorter budget); their
evaluations go on the card as the spread over seeds. ``--half``: float16 weights, scored again
by the run's evaluation (the card's results are the shipped file's own).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
from pathlib import Path
from typing import Any

from vecgames.games.catalog import spec_of
from vecgames.training.evaluation import field_score
from vecgames.zoo import ZOO_DIR

# What load_player reads from a checkpoint; everything else a trainer saves is left out.
PLAYER_KEYS = ("format", "model", "network", "config", "game", "env_options", "obs_dim",
               "num_actions")


def cpu_name() -> str:
    """This machine's CPU model and core count (Linux: /proc/cpuinfo)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def run_summary(run: Path) -> dict[str, Any]:
    """A run's seed, budget and evaluation, from its eval.json."""
    doc = json.loads((run / "eval.json").read_text())
    cfg, train = doc["config"], doc["train"]
    per_iteration = cfg.get("envs", 0) * cfg.get("steps", 1)
    return {"seed": cfg["seed"], "iterations": train["iterations"],
            "env_steps": int(train["iterations"] * per_iteration) if per_iteration else None,
            "samples": train.get("samples"), "wall_time_s": train["seconds"],
            "results": result_rows(doc["evals"], cfg["players"])}


def result_rows(evals: dict[str, dict[str, Any]], seats: int) -> list[dict[str, Any]]:
    """A card's results: one row per record of an evaluation."""
    return [{"opponent": opponent_label(key, e), "seats": seats, "games": e["games"],
             "mean": e["mean"], "ci95_low": e["ci95_low"], "ci95_high": e["ci95_high"],
             "unit": e["unit"], "duplicate": e.get("duplicate", False)}
            for key, e in evals.items()]


def opponent_label(key: str, record: dict[str, Any]) -> str:
    """Who a record's games were played with, one label per record. Hanabi's evaluation has
    several self-play records (the player greedy and sampled, a built-in team's own) and
    cross-play ones ("greedy with NAME")."""
    if record["opponent"] != "self-play":
        return f"with {record['opponent']}" if key.startswith("greedy with ") else (
            str(record["opponent"]))
    return {"greedy": "self-play", "sampled": "self-play, sampled"}.get(
        key, f"{key} (its own self-play)")


def remeasure(path: Path, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The evaluation of the run's trainer, played by the zoo file at ``path``."""
    from dataclasses import fields

    import torch

    trainer = spec_of(config['game']).load("trainer").TRAINER
    names = {f.name for f in fields(trainer.config)}
    cfg = trainer.config(**{k: tuple(v) if isinstance(v, list) else v
                            for k, v in config.items() if k in names})
    return trainer.evaluate(path, cfg, torch.device("cpu"))


def spread(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean and standard deviation over seeds of each opponent's mean."""
    out: dict[str, Any] = {}
    for opponent in [r["opponent"] for r in runs[0]["results"]]:
        means = [next(r["mean"] for r in run["results"] if r["opponent"] == opponent)
                 for run in runs]
        out[opponent] = {"seeds": [run["seed"] for run in runs], "means": means,
                         "mean": statistics.fmean(means),
                         "std": statistics.stdev(means) if len(means) > 1 else 0.0}
    return out


def export(run: Path, name: str, description: str, command: str, zoo: Path,
           seed_runs: list[Path], half: bool = False) -> Path:
    import torch

    from vecgames.policies.checkpoint import load_checkpoint

    ckpt = load_checkpoint(run / "final.pt")
    slim = {k: ckpt[k] for k in PLAYER_KEYS if k in ckpt}
    slim["config"] = {k: v for k, v in slim["config"].items() if k != "out"}
    if half:  # loading copies them into the network's float32 weights
        slim["model"] = {k: v.half() if v.is_floating_point() else v
                         for k, v in slim["model"].items()}
    zoo.mkdir(parents=True, exist_ok=True)
    torch.save(slim, zoo / f"{name}.pt")
    summary = run_summary(run)
    if half:  # the shipped weights are not the run's: the card gives their own figures
        summary["results"] = result_rows(remeasure(zoo / f"{name}.pt", ckpt["config"]),
                                         int(ckpt["config"]["players"]))
    card = {"name": name, "game": slim["game"], "file": f"{name}.pt",
            "seats": int(slim["env_options"].get("num_players", 0)),
            "description": description, "command": command, "seeds": [summary["seed"]],
            # how it acts, as its evaluation played it: the argmax, or a draw from its policy
            # (a trainer without --eval-greedy, the DQN's, scores the file's default: argmax)
            "greedy": bool(slim["config"].get("eval_greedy", True)),
            "env_steps": summary["env_steps"], "samples": summary["samples"],
            "wall_time_s": summary["wall_time_s"], "cpu": cpu_name(),
            "weights": "float16" if half else "float32",
            "torch": torch.__version__, "results": summary["results"]}
    if seed_runs:
        others = [run_summary(r) for r in seed_runs]
        card["seed_spread"] = {"iterations": others[0]["iterations"],
                               "env_steps": others[0]["env_steps"],
                               "by_opponent": spread(others)}
    (zoo / f"{name}.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    return zoo / f"{name}.json"


STRATEGY_OPPONENTS = ("random", "heuristic", "odds")


def export_strategy(run: Path, name: str, description: str, zoo: Path, seed: int,
                    games: int) -> Path:
    """A tabular self-play run (Liar's Dice's ``train_equilibrium``: summary.json, seed<k>.npz) into
    the zoo: seed ``seed``'s strategy (float16), scored by its exact exploitability and in
    the arena against each built-in over ``games`` games; the other seeds' exploitability
    goes on the card as the spread."""
    import shutil

    from vecgames.policies.checkpoint import load_player
    from vecgames.solve.judge import exploitability

    summary = json.loads((run / "summary.json").read_text())
    this = next((r for r in summary["runs"] if r["seed"] == seed), None)
    if this is None:
        raise SystemExit(f"--seed: {run} has seeds {summary['seeds']}, not {seed}")
    zoo.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run / f"seed{seed}.npz", zoo / f"{name}.npz")
    player = load_player(zoo / f"{name}.npz")  # a strategy file: its StrategyPlayer
    player.name = f"zoo:{name}"
    v = player.variant
    options = {**player.env_options, "num_rounds": 1}
    options.pop("observation")
    game = player.game  # the strategy file's game
    results = [field_score(game, player, opponent, games, seed, options)
               for opponent in STRATEGY_OPPONENTS]
    shipped = exploitability(game, player, dice=v.dice, variant=v.variant,
                             min_first_count=v.min_first_count,
                             max_round_steps=v.max_round_steps)
    expl = [r["exploitability"] for r in summary["runs"]]
    card = {"name": name, "game": game, "file": f"{name}.npz", "kind": "strategy",
            "seats": 2, "description": description, "command": summary["command"],
            "seeds": [seed], "greedy": False, "env_steps": this["env_steps"], "samples": None,
            "wall_time_s": this["seconds"], "cpu": summary["cpu"], "weights": "float16",
            "torch": None, "variant": v.label(), "exploitability": shipped.exploitability,
            "results": [{**r, "seats": 2} for r in results],
            "seed_spread": {"env_steps": this["env_steps"], "exploitability": {
                "seeds": summary["seeds"], "values": expl, "mean": statistics.fmean(expl),
                "std": statistics.stdev(expl) if len(expl) > 1 else 0.0}, "by_opponent": {}}}
    (zoo / f"{name}.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    return zoo / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vecgames.training.zoo_export",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="the run folder (final.pt, eval.json)")
    p.add_argument("--name", required=True, help="the zoo name (played as zoo:NAME)")
    p.add_argument("--description", required=True, help="one line: what it is")
    p.add_argument("--command", help="the command that trained it (a tabular run's summary "
                                     "holds it)")
    p.add_argument("--seed-runs", default="", help="comma list of runs with other seeds")
    p.add_argument("--half", action="store_true",
                   help="store the weights as float16 (half the file) and score that file "
                        "again with the run's evaluation: the card gives its own results")
    p.add_argument("--zoo", type=Path, default=ZOO_DIR,
                   help="the zoo folder (default: the package's)")
    p.add_argument("--seed", type=int, default=0, help="a tabular run: the seed to ship (0)")
    p.add_argument("--games", type=int, default=20_000,
                   help="a tabular run: arena games against each built-in (20000)")
    args = p.parse_args(argv)
    if (args.run / "summary.json").is_file():  # a tabular self-play run
        print(export_strategy(args.run, args.name, args.description, args.zoo, args.seed,
                              args.games))
        return 0
    if not args.command:
        p.error("--command is required for a network run")
    runs = [Path(r) for r in args.seed_runs.split(",") if r]
    print(export(args.run, args.name, args.description, args.command, args.zoo, runs,
                 args.half))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
