"""Hanabi: PPO self-play (``ppo``) with one shared actor-critic on the jaxmarl observation,
JaxMARL's ``ippo_ff_hanabi`` defaults (512 embedding, clip 0.2, value coefficient 0.5, entropy
0.01, Adam 5e-4 with eps 1e-5, gradient norm 0.5, 4 epochs of 4 minibatches of 1024 x 128).

Run ``vecgames train hanabi --iterations 499 --envs 256 --hidden 256 --epochs 2 --lr 1e-3``
(or ``python -m vecgames.games.hanabi.train``). Scored by the arena: the checkpoint's self-play,
greedy and sampled, beside ``rules`` and random play.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import vecgames
from vecgames.games.hanabi.players_convention_view import ConventionView
from vecgames.games.hanabi.rules import CHOICES, DEFAULT_OPTIONS, field, make_rules
from vecgames.training import config_cli, core, evaluation, imitation, ppo
from vecgames.training.ppo import torch

GAME = "hanabi"
MAX_SCORE = 25
END_NAMES = ("lives", "deck", "perfect")


@dataclass
class Config(core.Config):
    """PPO's config with Hanabi's defaults (JaxMARL's)."""

    game: str = GAME
    # the rule options of the seed's game (docs/hanabi.md): JaxMARL's rules by default
    end: str = DEFAULT_OPTIONS["end"]
    discard_at_max: str = DEFAULT_OPTIONS["discard_at_max"]
    hint_target: str = DEFAULT_OPTIONS["hint_target"]
    steps: int = 128
    out: str = "runs/hanabi"
    hidden: int = 512
    lr: float = 5e-4
    anneal_lr: bool = False
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    eval_games: int = 10_000
    eval_opponents: tuple[str, ...] = ("rules", "random")
    observation: str = "jaxmarl"  # or "conventions": jaxmarl + what conventions made known
    teacher: str = ""  # a built-in imitated first (DAgger): conventions, hat or rules
    clone_iterations: int = 0  # iterations of imitation before PPO takes over
    partners: tuple[str, ...] = ()  # players the checkpoint is also scored beside (cross-play)
    workers: int = 0  # Ray rollout workers (0: the envs step in this process)
    ray_address: str | None = None  # the Ray cluster of the workers (None: a local Ray)

    def rule_options(self) -> dict[str, Any]:
        """The ``vecgames.make``/``simulate`` rule keywords of the game trained on."""
        return {"num_players": self.players, **{k: getattr(self, k) for k in CHOICES}}

    def view(self) -> ConventionView | None:
        """The observation's extra part beside the env's jaxmarl one (None: the env's own)."""
        if self.observation != "conventions":
            return None
        return ConventionView(self.players, make_rules(**self.rule_options()).hand_size)

    def make_env(self, num_envs: int, env_offset: int = 0) -> Any:
        return vecgames.make(GAME, num_envs=num_envs, seed=self.seed, env_offset=env_offset,
                             **self.rule_options(), obs="jaxmarl", observers="current")

    def tracker(self, env: Any, device: Any) -> Games:
        return Games(env, device)

    def summary(self, figures: Any) -> dict[str, float]:
        """History entries of the games an iteration finished: mean score, how they ended."""
        n = int(figures.shape[1])
        nan = float("nan")
        return {"games": n, "score": float(figures[0].mean()) if n else nan,
                **{f"end_{name}": float((figures[1] == k).float().mean()) if n else nan
                   for k, name in enumerate(END_NAMES)}}


class Games:
    """Per-env return of the running game and how games ended. The env deals a new game in
    the step that ends one, so the end is read from the step: the lives ran out when a play
    failed with one life left; a return of 25 is perfect; anything else ended with the deck."""

    def __init__(self, env: Any, device: Any):
        self.env, self.device = env, device
        self.ret = torch.zeros(env.num_envs, device=device)
        self.h = env.rules.hand_size

    def before(self, action: torch.Tensor) -> None:
        self.action = action
        self.life = torch.tensor(field(self.env.state, "life"), device=self.device)

    def after(self, reward: torch.Tensor, done: torch.Tensor) -> torch.Tensor:
        """[2, B]: every env's return and end (index into END_NAMES), meaningful at ``done``."""
        self.ret += reward
        ret = self.ret.clone()
        play = (self.action >= self.h) & (self.action < 2 * self.h)
        lives = play & (self.life == 1) & (reward <= 0)
        end = torch.where(lives, 0, torch.where(ret >= MAX_SCORE, 2, 1))
        self.ret.masked_fill_(done, 0.0)
        return torch.stack([ret, end.to(ret.dtype)])


def evaluate(path: Any, cfg: Config, device: Any) -> dict[str, dict[str, Any]]:
    """Self-play scores through the arena: the checkpoint greedy and sampled, then each of
    ``eval_opponents`` (built-ins, checkpoints) as a team of its own; then the greedy
    checkpoint in one seat beside each of ``partners`` (cross-play)."""
    seed = cfg.seed + evaluation.EVAL_SEED_OFFSET
    greedy = vecgames.load_player(path, device, greedy=True, seed=seed)
    teams: dict[str, Any] = {
        "greedy": greedy,
        "sampled": vecgames.load_player(path, device, greedy=False, seed=seed),
        **{name: name for name in cfg.eval_opponents}}
    records = {name: evaluation.team_score(GAME, team, cfg.eval_games, seed,
                                           cfg.rule_options())
               for name, team in teams.items()}
    for partner in cfg.partners:
        records[f"greedy with {partner}"] = evaluation.field_score(
            GAME, greedy, partner, cfg.eval_games, seed, cfg.rule_options())
    return records


OBSERVATIONS = ("jaxmarl", "conventions")
TEACHERS = ("conventions", "hat", "rules")  # deterministic built-ins: no draw from the envs


def check_config(cfg: Config) -> None:
    config_cli.at_least(cfg, 1, "envs", "steps", "hidden", "epochs", "minibatches", "eval_games")
    config_cli.budget_checks(cfg)
    if not 2 <= cfg.players <= 5:
        raise SystemExit("--players must be in 2..5")
    if cfg.minibatches > cfg.envs * cfg.steps:
        raise SystemExit("--minibatches must not exceed envs x steps")
    config_cli.check_players(GAME, cfg.eval_opponents, "eval-opponents")
    if cfg.partners:
        config_cli.check_players(GAME, cfg.partners, "partners")
    if cfg.teacher and cfg.teacher not in TEACHERS:
        raise SystemExit(f"--teacher must be one of {', '.join(TEACHERS)}; got {cfg.teacher!r}")
    if cfg.clone_iterations < 0:
        raise SystemExit("--clone-iterations must be at least 0")
    if cfg.clone_iterations and not cfg.teacher:
        raise SystemExit("--clone-iterations needs a --teacher to imitate")
    if cfg.observation == "conventions" and cfg.teacher not in ("", "conventions"):
        raise SystemExit("--observation conventions holds what conventions' clues mean: its "
                         "--teacher can only be conventions")
    if cfg.observation == "conventions" and cfg.workers:
        raise SystemExit("--observation conventions is read in this process: it takes no "
                         "--workers")
    if cfg.teacher and cfg.workers:
        raise SystemExit("--teacher labels the envs of this process: it takes no --workers")


def build(cfg: Config, device: Any, generator: Any) -> ppo.PPO:
    """PPO, after imitating ``cfg.teacher`` when one is given."""
    return (imitation.ImitationPPO if cfg.teacher else ppo.PPO)(cfg, device, generator)


TRAINER = core.Trainer(
    game=GAME, title="Hanabi self-play", config=Config, build=build,
    env_options=lambda cfg: {**cfg.rule_options(), "obs": "jaxmarl"}, evaluate=evaluate,
    description="Train a Hanabi self-play policy (PPO, one network for every seat) on the "
                "jaxmarl observation and score its self-play in the arena.",
    help={"players": "seats per table (2..5)",
          **{name: f"rule option {name} (the seed's: {choices[1]})"
             for name, choices in CHOICES.items()},
          "steps": "env steps per rollout",
          "anneal_lr": "decay the learning rate linearly to 0 over the budget",
          "clip": "PPO ratio and value clip",
          "eval_opponents": "players whose own self-play is scored beside the checkpoint's",
          "observation": "the network's input: jaxmarl, or conventions (jaxmarl and what the "
                         "conventions player's clues made common knowledge)",
          "teacher": "a built-in player to imitate first (DAgger): " + ", ".join(TEACHERS),
          "clone_iterations": "iterations of imitating --teacher before PPO self-play",
          "partners": "players the greedy checkpoint is also scored beside (cross-play)"},
    choices={**CHOICES, "observation": OBSERVATIONS}, checks=check_config,
    panels={"self-play score (training)": ["score"], "lost to lives": ["end_lives"],
            "entropy": ["entropy"], "agreement with the teacher": ["agreement"]},
    postfix=("score", "end_lives", "entropy", "agreement"), counters=("env_steps",))


def main(argv: Sequence[str] | None = None, prog: str = "python -m vecgames.games.hanabi.train"
         ) -> int:
    """Command-line entry point; returns the exit code."""
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
