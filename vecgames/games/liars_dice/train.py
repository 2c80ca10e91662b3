"""Liar's Dice with 斋/飞: the seed project's DQN (``dqn``) on the batched env.

Run ``vecgames train liars_dice --iterations 26400`` (or ``python -m
vecgames.games.liars_dice.train``). What is Liar's Dice's own (the seed's "最近更新" list):

- **Q over the full combined action** (challenge + every (mode, count, face) bid) on the
  seed's 22-value observation (``--observation full``: the env's larger one); ``--head four``
  is the seed's network instead, four action heads whose outputs add up to each Q value.
- **Shaping potential**: Phi(s) = ``--shaping`` x P(the last bid holds | the learner's own
  dice) at its decision states (0 before the round's first bid and at the end of a round).
- **Opponent**: the seed's heuristic challenger with its threshold rising linearly (0.2 ->
  0.5 over the first half), or any player of the game (``--opponent``), or a mix of them in
  blocks of tables (``--opponent odds=2,heuristic=1,random=1``), then the frozen copy.
An iteration is one env step of every table; a match is one round.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

import vecgames
import vecgames.games.liars_dice  # noqa: F401  (imported before the policies: import order)
from vecgames.games.liars_dice.bids import B_COUNT, B_FACE, B_MODE, FEI
from vecgames.games.liars_dice.odds import TAIL
from vecgames.games.liars_dice.players import env_actions
from vecgames.games.liars_dice.rules import DICE, LAST, PLAYER
from vecgames.policies.nets import HEADS
from vecgames.policies.protocol import resolve_player
from vecgames.training import config_cli, core, dqn, evaluation, pg
from vecgames.training.dqn import torch

GAME = "liars_dice"
HEURISTIC = "heuristic"  # played by its kernel, its threshold on a schedule


@dataclass
class Config(core.Config):
    """The DQN's config with Liar's Dice's defaults."""

    game: str = GAME
    dice: int = 5  # dice per player
    variant: str = "zhai_fei"  # or "basic": the seed's basic rules, 飞 bids only
    min_first_count: int = 0  # the first bid's least count (0: the env's default, count > P)
    observation: str = "seed"  # "seed": the seed's 22 values, or "full"
    envs: int = 512  # tables stepping in lock-step
    iterations: int | None = None  # env steps of all tables (default 20000)
    out: str = "runs/liars_dice"
    hidden: int = 256
    layers: int = 2  # MLP hidden layers
    head: str = "combined"  # "four": the seed's main/mode/count/face heads, Q = their sum
    lr: float = 1e-4
    gamma: float = 0.99  # discount per learner decision
    n_step: int = 3  # n of the n-step returns
    tau: float = 0.005  # Polyak rate of the target network
    batch_size: int = 256  # transitions per gradient update
    buffer_size: int = 200_000  # replay capacity (transitions)
    learning_starts: int = 10_000  # transitions stored before the first update
    updates_per_step: int = 1  # gradient updates per env step
    grad_clip: float = 10.0  # gradient-norm clip
    eps_start: float = 1.0  # initial epsilon
    eps_end: float = 0.1  # final epsilon
    eps_decay: float = 0.3  # fraction of the budget over which epsilon falls to eps_end
    shaping: float = 0.1  # potential coefficient (0: no shaping)
    opponent: str = "heuristic"  # the seed's challenger (threshold rising), any player, or a mix
    threshold_start: float = 0.2  # the heuristic opponent's first threshold
    threshold_end: float = 0.5  # its last threshold
    threshold_ramp: float = 0.5  # fraction of the budget over which the threshold rises
    selfplay_start: float = 0.5  # fraction of the budget after which self-play begins
    selfplay_fraction: float = 0.5  # share of the envs that face the frozen copy from then on
    selfplay_refresh: int = 2_000  # updates between refreshes of the frozen copy
    opponent_epsilon: float = 0.0  # the frozen copy's random-legal rate
    eval_threshold: float = 0.5  # the evaluated heuristic's threshold
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    log_every: int = 500  # iterations between history records (0: none)
    checkpoint_every: int = 10_000

    def __post_init__(self) -> None:
        if self.iterations is None and self.minutes is None:
            self.iterations = 20_000

    def env_options(self) -> dict[str, Any]:
        """Keywords of ``vecgames.make`` that rebuild this run's env (one round a match)."""
        out = {"num_players": self.players, "dice": self.dice, "num_rounds": 1,
               "variant": self.variant, "observation": self.observation}
        if self.min_first_count:
            out["min_first_count"] = self.min_first_count
        return out

    def make_env(self, num_envs: int) -> Any:
        return vecgames.make(GAME, num_envs=num_envs, seed=self.seed, **self.env_options())

    def potential(self, env: Any) -> np.ndarray:
        return bid_plausibility(env)

    def schedules(self, frac: float) -> dict[str, float]:
        if HEURISTIC not in self.opponents:
            return {}
        return {"threshold": dqn.linear(frac, self.threshold_start, self.threshold_end,
                                        self.threshold_ramp)}

    @cached_property
    def opponents(self) -> list[str]:
        """The ``--opponent`` players: one name, or the names of a ``name=weight`` mix."""
        return [name for name, _ in self.opponent_weights]

    @cached_property
    def opponent_weights(self) -> list[tuple[str, float]]:
        """``--opponent`` parsed once: (name, weight) per player."""
        return opponent_mix(self.opponent)

    def opponent_actions(self, env: Any, obs: Any, mask: Any, rows: Any, frac: float) -> Any:
        """The opponents' actions (int64 [B], meaningful at ``rows``): each table's player of
        the ``--opponent`` mix."""
        out = torch.zeros(env.num_envs, dtype=torch.int64)
        for name, tables in zip(self.opponents, self.opponent_tables, strict=True):
            mine = rows.cpu() & tables
            if not bool(mine.any()):
                continue
            if name == HEURISTIC:  # every row: the kernel reads the env's state only
                theirs = torch.from_numpy(env_actions(env, HEURISTIC, **self.schedules(frac)))
                out = torch.where(mine, theirs, out)
                continue
            index = torch.nonzero(mine).squeeze(1)
            player = self.opponent_players[name]
            out[index] = pg.protocol_actions(env, player, index.to(rows.device), obs, mask, name)
        return out

    @cached_property
    def opponent_tables(self) -> list[torch.Tensor]:
        """Per ``--opponent`` player, the tables it sits at (bool [``envs``]): contiguous
        blocks sized by the mix's weights, made once."""
        kinds = torch.from_numpy(pg.table_kinds(self.envs,
                                                [w for _, w in self.opponent_weights]))
        return [kinds == k for k in range(len(self.opponents))]

    @cached_property
    def opponent_players(self) -> dict[str, Any]:
        """The ``--opponent`` players other than the heuristic kernel, resolved once."""
        return {name: resolve_player(GAME, name) for name in self.opponents if name != HEURISTIC}


def opponent_mix(spec: str) -> list[tuple[str, float]]:
    """``--opponent``: one player's name, or ``name=weight`` blocks (``pg.parse_mix``)."""
    return pg.parse_mix(spec) if "=" in spec else [(spec.strip(), 1.0)]


def bid_plausibility(env: Any) -> np.ndarray:
    """float64 ``[B]``: P(the last bid holds | the dice of the player to act), the other seats'
    dice unknown; 0 where no bid has been made this round. The seed observation's feature 19,
    from the env state so it serves either observation."""
    table, rules = env.state.table, env.rules
    last = table[:, LAST]
    seat = table[np.arange(table.shape[0]), DICE + table[:, PLAYER]]
    mode = rules.bids[last, B_MODE]
    count = rules.bids[last, B_COUNT]
    face = np.maximum(rules.bids[last, B_FACE], 1)
    own = (seat >> (4 * (face - 1))) & 15
    own = own + np.where((mode == FEI) & (face != 1), seat & 15, 0)
    unknown = rules.total_dice - rules.dice
    need = np.clip(count - own, 0, unknown + 1)
    return np.where(last > 0, TAIL[mode, unknown, need], 0.0)


def table_options(cfg: Config) -> dict[str, Any]:
    """The arena's table: one round a match, the heuristic at ``--eval-threshold``."""
    table = {k: v for k, v in cfg.env_options().items() if k != "observation"}
    return {**table, "threshold": cfg.eval_threshold}


arena_scores = core.field_evaluation(table_options)  # greedy: a DQN plays its argmax


def evaluate(path: Any, cfg: Config, device: Any) -> dict[str, dict[str, Any]]:
    """The greedy checkpoint against each opponent; heads-up, also the win rate."""
    records = arena_scores(path, cfg, device)
    if cfg.players == 2:
        records = {k: evaluation.with_win_rate(r) for k, r in records.items()}
    return records


def check_config(cfg: Config) -> None:
    """Reject settings the trainer cannot use (argparse-level messages)."""
    checks = [
        (cfg.iterations is None or cfg.iterations >= 1, "--iterations must be >= 1"),
        (cfg.minutes is None or cfg.minutes > 0, "--minutes must be > 0"),
        (cfg.n_step >= 1, "--n-step must be >= 1"),
        (cfg.min_first_count >= 0, "--min-first-count must be >= 0 (0: the env's default)"),
        (0.0 < cfg.gamma <= 1.0, "--gamma must be in (0, 1]"),
        (0.0 < cfg.tau <= 1.0, "--tau must be in (0, 1]"),
        (cfg.batch_size >= 1 and cfg.buffer_size >= cfg.batch_size,
         "--buffer-size must be >= --batch-size >= 1"),
        (cfg.envs >= 1 and cfg.hidden >= 1 and cfg.layers >= 1,
         "--envs, --hidden and --layers must be >= 1"),
        (cfg.updates_per_step >= 0, "--updates-per-step must be >= 0"),
        (all(0.0 <= x <= 1.0 for x in (cfg.eps_start, cfg.eps_end, cfg.threshold_start,
                                       cfg.threshold_end, cfg.eval_threshold,
                                       cfg.selfplay_fraction, cfg.opponent_epsilon)),
         "epsilons, thresholds and --selfplay-fraction must be in [0, 1]"),
        (cfg.eval_games >= 1, "--eval-games must be >= 1"),
    ]
    for ok, message in checks:
        if not ok:
            raise SystemExit(message)
    try:
        names = [name for name, _ in opponent_mix(cfg.opponent)]
    except ValueError as exc:
        raise SystemExit(f"--opponent: {exc}") from None
    config_cli.check_players(GAME, names, "opponent", skip=(HEURISTIC,))
    config_cli.check_players(GAME, cfg.eval_opponents, "eval-opponents")



TRAINER = core.Trainer(
    game=GAME, title="Liar's Dice DQN", config=Config, build=dqn.DQN,
    env_options=lambda cfg: cfg.env_options(), evaluate=evaluate,
    description="Train the seed's Liar's Dice DQN (combined-action Q, Double DQN, 3-step "
                "returns, shaping, heuristic-then-self-play curriculum) and score it in the "
                "arena against random and heuristic opponents. (--algo es-mccfr: the "
                "tabular self-play learner of small games; --algo es-mccfr --help.)",
    choices={"head": HEADS, "variant": ("zhai_fei", "basic"),
                        "observation": ("seed", "full")},
    checks=check_config,
    panels={"learner win rate (training, exploring)": ["train_win_rate"],
            "DQN": ["loss", "mean_q"], "schedules": ["epsilon", "threshold", "selfplay"]},
    postfix=("epsilon", "train_win_rate", "loss"), counters=("updates", "transitions"))


def best_response_args(player: str, args: Any) -> list[str]:
    """``vecgames exploit``: the DQN against ``player`` at the other seat (heads-up), the
    heuristic at its evaluated threshold throughout, no frozen copy of the learner."""
    if args.players != 2:
        raise ValueError(f"--players: {GAME}'s best response plays heads-up")
    rules = ["--dice", str(args.dice), "--variant", args.variant, "--players", "2"]
    if args.min_first_count:
        rules += ["--min-first-count", str(args.min_first_count)]
    return ["--opponent", player, "--threshold-start", "0.5", "--threshold-end", "0.5",
            "--selfplay-start", "1", "--selfplay-fraction", "0", "--observation", "full",
            *rules]


def exact_check(args: Any) -> dict[str, Any]:
    """``vecgames exploit --exact`` on small variants: the trained policy (``args.out``) and
    the player read on the whole tree once each; the policy's exact value against the player
    beside the exact best response's."""
    from vecgames.policies.checkpoint import load_player
    from vecgames.solve.cfr import best_response_value, game_value, profile

    from .solver_judge import build_tree, make_variant, strategy

    # the trainer's table: without --min-first-count, the env's own first bid (count > P)
    v = make_variant(args.dice, args.variant, args.min_first_count or args.players + 1)
    tree = build_tree(v)
    target, _ = strategy(resolve_player(GAME, args.player), v, tree)
    policy, _ = strategy(load_player(args.out / "final.pt"), v, tree)
    best = [best_response_value(tree, target, 0), best_response_value(tree, target, 1)]
    exact = 0.5 * (best[0] + best[1])
    # the policy at seat 0 against the player at seat 1, then the other way round
    seat0 = game_value(tree, profile(tree, policy, target))
    seat1 = -game_value(tree, profile(tree, target, policy))
    return {"exact_exploitability": exact,
            "policy_exact_gain": 0.5 * (seat0 + seat1),
            "recovered": 0.5 * (seat0 + seat1) / exact if exact > 0 else float("nan"),
            "policy_exact_by_seat": [seat0, seat1],
            "best_response_by_seat": best}


def main(argv: Sequence[str] | None = None, prog: str = "python -m vecgames.games.liars_dice.train"
         ) -> int:
    """Command-line entry point; returns the exit code. ``--algo es-mccfr|os-mccfr`` runs the
    tabular self-play learner of small games instead (``train_equilibrium``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a == "--algo" or a.startswith("--algo=") for a in args):
        from . import train_equilibrium

        return train_equilibrium.main(args)
    return core.main(TRAINER, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
