"""A trained policy's score, played by the arena's matches from its checkpoint: at one seat
against an opponent at every other, the seat going round the table, on duplicate deals where
the game allows them, 95% CI over independent deals (Hanabi: the team's self-play score).
Evaluation deals come from ``seed + 1000003``, a stream training never uses."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

import vecgames
from vecgames.arena.matches import MatchJob, play_match
from vecgames.arena.payoffs import no_duplicate_reason, unit_of
from vecgames.arena.players import resolve_entrants
from vecgames.arena.schedule import first_deal
from vecgames.arena.stats import mean_ci, unit_means

EVAL_SEED_OFFSET = 1_000_003


def field_score(game: str, player: Any, opponent: Any, num_games: int, seed: int,
                options: dict[str, Any]) -> dict[str, Any]:
    """``player`` against ``P - 1`` copies of ``opponent`` (any arena player), its seat going
    round the table; its payoff per game with a 95% CI over independent deals."""
    me, other = resolve_entrants(game, [player, opponent])
    seats = int(options["num_players"])
    per_seat = max(1, math.ceil(num_games / seats))
    duplicate = no_duplicate_reason(game, {"num_rounds": options.get("num_rounds", 1)}) is None
    values, deals = [], []
    for k in range(seats):
        first = first_deal(k, per_seat, duplicate)
        table = tuple(me if s == k else other for s in range(seats))
        values.append(play_match(MatchJob(game, table, seed, first, per_seat, options))[:, k])
        deals.append(np.arange(first, first + per_seat))
    mean, low, high = mean_ci(unit_means(np.concatenate(values), np.concatenate(deals)))
    return {"opponent": opponent if isinstance(opponent, str) else other.label,
            "games": per_seat * seats, "mean": mean, "ci95_low": low, "ci95_high": high,
            "unit": unit_of(game), "duplicate": duplicate}


def team_score(game: str, player: Any, num_games: int, seed: int, options: dict[str, Any]
               ) -> dict[str, Any]:
    """A cooperative game (Hanabi): ``player`` at every seat (a built-in name, a checkpoint
    or a Player), its self-play score."""
    table = vecgames.arena(game, [player], num_games, seed, progress=False, **options).selfplay
    if table is None:
        raise ValueError(f"{game} is not a cooperative game: it has no self-play score")
    row = table.iloc[0]
    return {"opponent": "self-play", "games": int(row.games), "mean": float(row["mean"]),
            "ci95_low": float(row.ci_low), "ci95_high": float(row.ci_high),
            "unit": unit_of(game), "perfect_rate": float(row.perfect_rate)}


def describe(name: str, r: dict[str, Any]) -> str:
    """One line of a record: who it played, mean, CI, games (and a heads-up win rate)."""
    per = "" if "/" in r["unit"] else "/game"  # bb/100 is per 100 hands already
    text = (f"{name}: {r['mean']:+.3f} {r['unit']}{per}, 95% CI [{r['ci95_low']:+.3f}, "
            f"{r['ci95_high']:+.3f}] over {r['games']:,} games")
    if "win_rate" in r:
        text += f"; win rate {r['win_rate']:.4f} [{r['win_low']:.4f}, {r['win_high']:.4f}]"
    return text


def with_win_rate(record: dict[str, Any]) -> dict[str, Any]:
    """Liar's Dice heads-up: a mean of m points per match is a win rate of (1 + m) / 2."""
    for key, src in (("win_rate", "mean"), ("win_low", "ci95_low"), ("win_high", "ci95_high")):
        record[key] = min(1.0, max(0.0, (1.0 + record[src]) / 2.0))
    return record


def write_results(out: Path, title: str, records: dict[str, dict[str, Any]], cfg: Any,
                  train_info: dict[str, Any], command: str) -> None:
    """eval.json (records, training figures, config, command) and eval.md (a table)."""
    data = {"evals": records, "train": train_info, "config": asdict(cfg), "command": command}
    (out / "eval.json").write_text(json.dumps(data, indent=2))
    done = ", ".join(f"{v:,} {k}" if isinstance(v, int) else f"{v} {k}"
                     for k, v in train_info.items())
    lines = [f"# {title}", "", f"Command: `{command}`", "", f"Training: {done}.", "",
             "Scored by the arena from final.pt at one seat, the others played by the "
             "opponent, seats rotating (Hanabi: every seat); 95% CI over independent deals.",
             "", "| opponent | games | mean | 95% CI | unit |", "|---|---|---|---|---|"]
    for name, r in records.items():
        lines.append(f"| {name} | {r['games']:,} | **{r['mean']:+.3f}** | "
                     f"[{r['ci95_low']:+.3f}, {r['ci95_high']:+.3f}] | {r['unit']} |")
    (out / "eval.md").write_text("\n".join(lines) + "\n")


def plot_history(history: list[dict[str, Any]], path: Path, panels: dict[str, list[str]]
                 ) -> None:
    """One panel per title of ``panels``, the history keys it names against the iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    it = [h["iteration"] for h in history]
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for ax, (title, keys) in zip(axes[0], panels.items(), strict=True):
        for key in keys:
            ys = [h.get(key, np.nan) for h in history]
            if not all(isinstance(y, float) and math.isnan(y) for y in ys):
                ax.plot(it, ys, label=key)
        ax.set(title=title, xlabel="iteration")
        if len(ax.get_lines()) > 1:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
