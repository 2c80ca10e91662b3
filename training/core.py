"""The one training loop. A game's :class:`Trainer` gives its config, its algorithm (``pg``,
``ppo``, ``dqn``) and its evaluation; :func:`train` owns the run folder, seeding, the budget,
the progress bar, checkpoints that ``vecgames.load_player`` reads, the history, its plot and
the arena evaluation of final.pt."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numba

from vecgames.core.simulation import max_threads
from vecgames.policies.checkpoint import load_player
from vecgames.torch_bridge import resolve_device

from . import config_cli, evaluation, runs


@dataclass
class Config:
    """The fields every trainer's config has; saved in every checkpoint and config.json."""

    game: str = ""
    players: int = 2  # seats per table
    envs: int = 1024  # parallel tables
    iterations: int | None = None  # training iterations (the budget; default 100)
    minutes: float | None = None  # training time budget in minutes (evaluation not counted)
    seed: int = 0  # seeds torch, the env streams and every draw of the run
    out: str = "runs/game"  # output directory
    device: str = "cpu"  # 'cuda' if available, else 'cpu'
    hidden: int = 128  # MLP width
    lr: float = 1e-3  # Adam learning rate
    eval_games: int = 20_000  # final evaluation games per opponent
    eval_opponents: tuple[str, ...] = ("random",)  # players the final policy is scored against
    checkpoint_every: int = 25  # iterations between checkpoints (0: final only)
    torch_threads: int = 1  # torch CPU threads (0: torch's default); the env has its own
    env_threads: int | None = None  # Numba threads of the env (0: all; default 1 on the CPU)
    progress: bool = True
    resume: bool = False  # continue the run in ``out`` from its last checkpoint
    overwrite: bool = False  # replace the run in ``out`` (neither: refuse a used ``out``)

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 100


class Algorithm(Protocol):
    """One run's learner: ``net`` and ``opt`` are checkpointed by the loop."""

    net: Any
    opt: Any
    network: str  # the network's kind, for the loader (policies.checkpoint.NETWORKS)
    obs_dim: int
    num_actions: int

    def iteration(self, it: int, frac: float) -> dict[str, Any] | None:
        """Iteration ``it`` (1-based) at ``frac`` of the budget; a history record or None."""

    def state(self) -> dict[str, Any]:
        """What ``--resume`` needs beyond the network, optimizer and random streams."""

    def restore(self, ckpt: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class RolloutAlgorithm:
    """What the rollout algorithms share: a ``collector`` (local, or Ray workers with
    ``close``), one counter named ``counter`` and, locally, the env streams to resume."""

    collector: Any
    counter = "samples"

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = {self.counter: getattr(self, self.counter)}
        if hasattr(self.collector, "bridge"):  # Ray workers keep their envs to themselves
            state["env_streams"] = runs.env_streams(self.collector.env)
        return state

    def restore(self, ckpt: dict[str, Any]) -> None:
        setattr(self, self.counter, int(ckpt[self.counter]))
        if hasattr(self.collector, "bridge"):
            self.collector.restart(ckpt.get("env_streams"))

    def close(self) -> None:
        if hasattr(self.collector, "workers"):
            self.collector.close()


@dataclass
class Trainer:
    """A game's trainer: its ``Config`` dataclass and what the loop asks of the game."""

    game: str
    title: str
    config: type
    build: Callable[[Any, Any, Any], Algorithm]  # (cfg, device, generator) -> algorithm
    env_options: Callable[[Any], dict[str, Any]]  # the env keywords the checkpoint records
    evaluate: Callable[[Path, Any, Any], dict[str, dict[str, Any]]]  # (final.pt, cfg, device)
    description: str
    help: dict[str, str] = field(default_factory=dict)
    choices: Mapping[str, Sequence[str]] = field(default_factory=dict)
    checks: Callable[[Any], None] | None = None
    finish: Callable[[Any, Sequence[str] | None], Any] | None = None  # (cfg, argv) -> cfg
    panels: dict[str, list[str]] = field(default_factory=dict)  # the learning-curve plot
    postfix: tuple[str, ...] = ()  # history keys shown on the progress bar
    counters: tuple[str, ...] = ()  # algorithm state keys reported as training figures

    def parser(self, prog: str) -> Any:
        return config_cli.build_parser(self.config, prog, self.description, self.help,
                                       choices=self.choices)

    def parse(self, argv: Sequence[str] | None, prog: str) -> Any:
        """The config of a command line; a refusal of ``checks`` or ``finish`` is a usage
        error (``prog: error: ...``, exit code 2)."""
        parser = self.parser(prog)
        try:
            cfg = config_cli.parse_config(self.config, parser, argv, self.checks)
            return cfg if self.finish is None else self.finish(cfg, argv)
        except SystemExit as exc:
            if not isinstance(exc.code, str):
                raise
            parser.error(exc.code)


class Budget:
    """How much of ``--iterations`` / ``--minutes`` is spent (the larger share)."""

    def __init__(self, cfg: Any, seconds_before: float = 0.0):
        self.cfg = cfg
        self.start = time.perf_counter() - seconds_before  # a resumed run's clock goes on

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def fraction(self, it: int) -> float:
        parts = [0.0]
        if self.cfg.iterations is not None:
            parts.append(it / self.cfg.iterations)
        if self.cfg.minutes is not None:
            parts.append(self.seconds() / (60.0 * self.cfg.minutes))
        return max(parts)


def env_threads(cfg: Any) -> int:
    """Numba threads of the env kernels: ``--env-threads``, or 1 on the CPU (the network is
    the bottleneck there, and a parallel kernel waited at its barrier for a descheduled
    thread on a busy 2-core machine) and every core with a GPU."""
    if cfg.env_threads is not None and cfg.env_threads > 0:
        return min(cfg.env_threads, max_threads())
    if cfg.env_threads is None and resolve_device(cfg.device).type == "cpu":
        return 1
    return max_threads()


def train(trainer: Trainer, cfg: Any, command: str = "") -> dict[str, Any]:
    """Train, checkpoint, plot and evaluate; returns ``{"evals": ..., "train": ...}``."""
    before = numba.get_num_threads()
    numba.set_num_threads(env_threads(cfg))
    try:
        return _train(trainer, cfg, command)
    finally:
        numba.set_num_threads(before)


def _train(trainer: Trainer, cfg: Any, command: str) -> dict[str, Any]:
    device, gen, out, ckpt = runs.start_run(cfg)
    algo = trainer.build(cfg, device, gen)
    it, history, seconds = 0, [], 0.0
    if ckpt is not None:
        algo.net.load_state_dict(ckpt["model"])
        algo.opt.load_state_dict(ckpt["optimizer"])
        runs.restore_rng(ckpt, gen)
        algo.restore(ckpt)
        it, history, seconds = int(ckpt["iteration"]), list(ckpt["history"]), ckpt["seconds"]
    budget = Budget(cfg, seconds)

    def save(path: Path) -> None:
        runs.save_checkpoint(path, {
            "model": algo.net.state_dict(), "optimizer": algo.opt.state_dict(),
            "network": algo.network,
            "config": asdict(cfg), "game": cfg.game, "env_options": trainer.env_options(cfg),
            "iteration": it, "obs_dim": algo.obs_dim, "num_actions": algo.num_actions,
            "history": history, "seconds": budget.seconds(), "rng": runs.rng_state(gen),
            **algo.state()})

    bar = runs.progress_bar(cfg.iterations, f"train {trainer.game}", cfg.progress,
                            initial=it, mininterval=1.0)
    try:
        while (frac := budget.fraction(it)) < 1.0:
            it += 1
            stats = algo.iteration(it, frac)
            if stats is not None:
                stats.update(iteration=it, seconds=round(budget.seconds(), 2))
                history.append(stats)
                bar.set_postfix({k: f"{stats[k]:.3g}" for k in trainer.postfix if k in stats})
            bar.update(1)
            if cfg.checkpoint_every and it % cfg.checkpoint_every == 0:
                save(out / runs.CHECKPOINTS / f"iter_{it:06d}.pt")
    finally:  # Ray actors hold their CPUs until closed, also after an error
        bar.close()
        algo.close()
    seconds = budget.seconds()
    save(out / "final.pt")
    (out / "history.json").write_text(json.dumps(history, indent=1))
    evaluation.plot_history(history, out / "learning_curve.png", trainer.panels)
    records = trainer.evaluate(out / "final.pt", cfg, device)
    state = algo.state()
    train_info = {"iterations": it, **{k: int(state[k]) for k in trainer.counters},
                  "seconds": round(seconds, 1)}
    evaluation.write_results(out, f"{trainer.title} policy evaluation", records, cfg,
                             train_info, command)
    return {"evals": records, "train": train_info}


def field_evaluation(options: Callable[[Any], dict[str, Any]]
                     ) -> Callable[[Path, Any, Any], dict[str, dict[str, Any]]]:
    """A competitive game's evaluation: the checkpoint (greedy unless ``cfg.eval_greedy`` is
    False) against each of ``cfg.eval_opponents`` (any arena players) at the table
    ``options(cfg)``."""
    def evaluate(path: Path, cfg: Any, device: Any) -> dict[str, dict[str, Any]]:
        seed = cfg.seed + evaluation.EVAL_SEED_OFFSET
        player = load_player(path, device, greedy=getattr(cfg, "eval_greedy", True),
                             seed=seed)
        return {str(name): evaluation.field_score(cfg.game, player, name, cfg.eval_games,
                                                  seed, options(cfg))
                for name in cfg.eval_opponents}
    return evaluate


def main(trainer: Trainer, argv: Sequence[str] | None, prog: str) -> int:
    """A trainer's command line; returns the exit code (usage errors: 2 before anything is
    written)."""
    try:
        cfg, command = runs.parse_cli(None if argv is None else list(argv), prog,
                                      trainer.parse, trainer.parser)
    except SystemExit as exc:  # --help, usage errors
        return runs.exit_code(exc)
    result = train(trainer, cfg, command)
    t = result["train"]
    figures = ", ".join(f"{v:,} {k}" for k, v in t.items() if k != "seconds")
    print(f"trained {figures} in {t['seconds']:.0f} s; outputs in {cfg.out}")
    for name, r in result["evals"].items():
        print(evaluation.describe(name, r))
    return 0
