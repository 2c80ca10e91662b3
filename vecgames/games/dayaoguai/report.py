"""The Da Yaoguai 打妖怪 simulation report: game length, pickups, truncation, beans by seat and
policy, and how the dealt hand predicts the finishing place.

>>> from vecgames.games.dayaoguai.report import compare_policies, write_report
>>> frames = compare_policies(20_000, ("weakest", ["weakest", "random", "random", "random"]))
>>> paths = write_report(frames, "dayaoguai.md")

Every table function takes one frame or several: a dict ``label -> DataFrame``, a list of
frames, a single frame (labelled by ``df.attrs["policy"]``: ``weakest`` or
``weakest,random,random,random``) or a concatenation with a ``policy`` column. Frames are the
per-game rows of ``vecgames.simulate("dayaoguai", ...)``; ``game_table`` and ``seat_table`` also
accept ``summary=True`` frames.

Truncated games (``max_steps`` reached with two or more seats still holding cards) are kept
apart: the report states their share at the top; the per-seat outcomes (beans with their CI,
place, win share) and the starting-hand tables are over the finished games, where the places
are a complete 1..P order; the seat table gives the truncated games' count and mean beans (the
transfers up to the cut) in their own columns. Game length, pickups and ``limit_table`` (the
share of games a smaller step limit would cut) use all games. Seats can be labelled with the
seed's 西游记 characters (``seat_names="xiyouji"``).

Mean beans come with a 95% confidence interval (normal approximation, mean ± 1.96·s/√n with
the sample std s); the hand model is an ordinary least-squares fit of the place on the numbers
of monsters and masters dealt (disciples are the rest of the hand: monsters + disciples +
masters = the hand size, so they cannot all enter).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from vecgames.analysis.arena_section import arena_section, arena_tables
from vecgames.analysis.decision_log import kind_table, log_like, no_log_note
from vecgames.analysis.report_kit import (
    QUANTILES,
    Z95,
    Frames,
    as_frames,
    figure_class,
    finish_report,
    frame_line,
    md_table,
    mean_ci,
    simulate_policies,
    time_lines,
    write_tables,
)
from vecgames.analysis.seat_players import player_seats, seat_labels
from vecgames.cli_args import print_throughput
from vecgames.games.dayaoguai.names import check_seat_names, seat_name
from vecgames.games.dayaoguai.rules import MASTER, PASS

HAND = ("monsters", "disciples", "masters")  # J/Q/K, 3/8/5, 10s dealt (per-seat columns)
MODEL_TERMS = ("intercept", "monsters", "masters")  # disciples: the rest of the hand
DECISION_GAMES = 50  # games per policy the CLI plays for the decision table


# ---------------------------------------------------------------- inputs


def _is_summary(df: pd.DataFrame) -> bool:
    return "mean_beans" in df.columns and "steps" not in df.columns


def num_seats(df: pd.DataFrame) -> int:
    """Seats of a per-game or summary frame."""
    if _is_summary(df):
        return len(df)
    n = sum(1 for c in df.columns if str(c).startswith("beans_"))
    if n == 0:
        raise ValueError("expected a frame from vecgames.simulate('dayaoguai', ...) with "
                         "beans_<seat> columns (or a summary=True frame)")
    return n


def seat_policies(df: pd.DataFrame) -> list[str]:
    """The player of every seat, from ``attrs["players"]`` or ``attrs["policy"]`` (a list, one
    name, or a comma label with one name per seat)."""
    return seat_labels(df, num_seats(df))


def _per_game(df: pd.DataFrame, what: str) -> None:
    if _is_summary(df) or "steps" not in df.columns:
        raise ValueError(f"{what} needs the per-game rows of vecgames.simulate('dayaoguai', "
                         "...) (summary=False)")


def _seat_matrix(df: pd.DataFrame, name: str) -> np.ndarray:
    """``[games, seats]`` int64 array of the per-seat columns ``<name>_<seat>``."""
    return np.stack([df[f"{name}_{p}"].to_numpy() for p in range(num_seats(df))],
                    axis=1).astype(np.int64)


def _finished(df: pd.DataFrame) -> np.ndarray:
    return ~df["truncated"].to_numpy().astype(bool)


def _max_steps(df: pd.DataFrame) -> Any:
    return df.attrs.get("rules", {}).get("max_steps", np.nan)


# ---------------------------------------------------------------- statistics


def game_table(data: Frames) -> pd.DataFrame:
    """Per policy: players, games, max_steps, truncated games and their share, finished
    games, mean steps and pickups per game (all games), mean steps of the finished games and
    the mean number of seats out of cards in the truncated games (NaN for summary frames)."""
    rows = []
    for label, df in as_frames(data).items():
        row: dict[str, Any] = {"policy": label, "players": num_seats(df)}
        if _is_summary(df):
            games = int(df["games"].iloc[0])
            truncated = int(df.attrs["truncated"])
            row.update(games=games, max_steps=_max_steps(df), truncated=truncated,
                       truncated_share=truncated / max(games, 1), finished=games - truncated,
                       mean_steps=float(df.attrs["mean_steps"]),
                       mean_pickups=float(df.attrs["mean_pickups"]),
                       mean_steps_finished=np.nan, out_when_truncated=np.nan)
        else:
            done = _finished(df)
            steps = df["steps"].to_numpy()
            out = (_seat_matrix(df, "place")[~done] > 0).sum(axis=1)
            row.update(games=len(df), max_steps=_max_steps(df), truncated=int((~done).sum()),
                       truncated_share=float((~done).mean()) if len(df) else np.nan,
                       finished=int(done.sum()), mean_steps=float(steps.mean()),
                       mean_pickups=float(df["pickups"].mean()),
                       mean_steps_finished=float(steps[done].mean()) if done.any() else np.nan,
                       out_when_truncated=float(out.mean()) if out.size else np.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def length_table(data: Frames) -> pd.DataFrame:
    """Per policy and measure (steps, pickups of all games; steps and pickups of the finished
    games only): games, mean, std, min, quantiles p5..p99 (observed values) and max. A measure
    with no games (no finished game) is left out."""
    rows = []
    for label, df in as_frames(data).items():
        _per_game(df, "length_table")
        done = _finished(df)
        for measure, col, keep in (("steps", "steps", None), ("pickups", "pickups", None),
                                   ("steps (finished)", "steps", done),
                                   ("pickups (finished)", "pickups", done)):
            v = df[col].to_numpy()
            v = v if keep is None else v[keep]
            if v.size == 0:
                continue
            q = np.quantile(v, QUANTILES, method="inverted_cdf")
            rows.append({"policy": label, "measure": measure, "games": v.size,
                         "mean": float(v.mean()), "std": float(v.std()), "min": int(v.min()),
                         **{f"p{round(100 * p)}": int(x)
                            for p, x in zip(QUANTILES, q, strict=True)},
                         "max": int(v.max())})
    return pd.DataFrame(rows)


def distribution(data: Frames, column: str = "steps", max_bins: int = 40) -> pd.DataFrame:
    """Histogram of a per-game column (``steps`` or ``pickups``) with the same bins for every
    policy: ``low``, ``high`` (inclusive), then ``<policy>_games`` and ``<policy>_share``.
    Truncated games end at max_steps exactly, so they sit in the last steps bin."""
    frames = as_frames(data)
    values = {}
    for label, df in frames.items():
        _per_game(df, "distribution")
        values[label] = df[column].to_numpy().astype(np.int64)
    nonempty = [v for v in values.values() if v.size]
    if not nonempty:
        return pd.DataFrame(columns=["low", "high"])
    lo = min(int(v.min()) for v in nonempty)
    hi = max(int(v.max()) for v in nonempty)
    width = max(1, -(-(hi - lo + 1) // max_bins))
    bins = (hi - lo) // width + 1
    low = lo + width * np.arange(bins)
    out = pd.DataFrame({"low": low, "high": low + width - 1})
    for label, v in values.items():
        counts = np.bincount((v - lo) // width, minlength=bins)
        out[f"{label}_games"] = counts
        out[f"{label}_share"] = counts / max(v.size, 1)
    return out


def _share_ci(share: float, n: int) -> float:
    """Half-width of the 95% CI of a share of n games (normal approximation)."""
    return Z95 * float(np.sqrt(share * (1 - share) / n)) if n > 0 else np.nan


def _decided_wins(place: np.ndarray, p: int) -> dict[str, Any]:
    """Seat p's win share over the decided games: those with a winner, finished or truncated
    after a seat emptied its hand (free of the bias of finished games only, which lose the
    games where the cycling seats outlast the others)."""
    decided = (place == 1).any(axis=1)
    n = int(decided.sum())
    share = float((place[decided, p] == 1).mean()) if n else np.nan
    return {"decided": n, "win_share_decided": share,
            "win_decided_ci95": _share_ci(share, n) if n else np.nan}


def _summary_seat_row(r: Any) -> dict[str, Any]:
    """A summary frame's seat: the finished games' statistics from its ``*_finished`` columns,
    the truncated games' mean beans from the difference of the sums."""
    n, fin = int(r.games), int(r.finished)
    std = float(r.std_beans_finished) * np.sqrt(fin / (fin - 1)) if fin > 1 else np.nan
    half = Z95 * std / np.sqrt(fin) if fin > 1 else np.nan
    mean = float(r.mean_beans_finished)
    cut = n - fin
    return {"games": n, "finished": fin, "mean_beans": mean, "ci95": half,
            "ci_low": mean - half, "ci_high": mean + half, "std_beans": std,
            "mean_place": float(r.mean_place_finished), "win_share": float(r.win_share_finished),
            "win_ci95": _share_ci(float(r.win_share_finished), fin), "truncated": cut,
            "mean_beans_truncated": ((n * float(r.mean_beans) - fin * (mean if fin else 0.0))
                                     / cut if cut else np.nan),
            "mean_beans_all": float(r.mean_beans), "mean_place_all": float(r.mean_place),
            "decided": np.nan, "win_share_decided": np.nan, "win_decided_ci95": np.nan}


LIMITS = (250, 500, 1000, 2000, 5000, 10_000)


def limit_table(data: Frames, limits: Sequence[int] = LIMITS) -> pd.DataFrame:
    """Per policy and step limit: the games that limit would cut (more steps than the limit,
    or truncated at it) and their share. A limit above the run's own ``max_steps`` is
    unknown (NaN) when some game was truncated: how long it would have run is not known."""
    rows = []
    for label, df in as_frames(data).items():
        _per_game(df, "limit_table")
        steps = df["steps"].to_numpy()
        cut = ~_finished(df)
        top = _max_steps(df)
        for limit in limits:
            if cut.any() and not limit <= top:
                n: Any = np.nan
            else:
                n = int(((steps > limit) | (cut & (steps >= limit))).sum())
            rows.append({"policy": label, "max_steps": top, "limit": int(limit),
                         "games": len(df), "cut": n, "cut_share": n / max(len(df), 1)})
    return pd.DataFrame(rows)


def seat_table(data: Frames, seat_names: str = "numbers") -> pd.DataFrame:
    """Per policy and seat: the seat's name (``seat_names``: ``"numbers"`` or ``"xiyouji"``,
    the seed's 西游记 characters) and policy, games, and over the **finished** games only:
    their number, mean beans with the 95% CI (half-width and bounds), the beans' sample std,
    mean place and win share (place 1) with its 95% CI half-width (normal approximation).
    The truncated games apart: their number and mean beans
    (the transfers up to the cut). Over all games: mean beans and mean place with 0 for seats
    still holding cards at a truncation (``mean_place_all``, as simulate's summary). And over
    the ``decided`` games (a seat emptied its hand: the finished ones and nearly every
    truncated one), the win share with its 95% CI (NaN for summary frames): the fair head to
    head measure when some line-up truncates often, since a game's length depends on who
    is left in it."""
    check_seat_names(seat_names)
    rows = []
    for label, df in as_frames(data).items():
        names = seat_policies(df)
        if _is_summary(df):
            for p, r in enumerate(df.itertuples(index=False)):
                rows.append({"policy": label, "seat": p, "seat_name": seat_name(p, seat_names),
                             "seat_policy": names[p], **_summary_seat_row(r)})
            continue
        beans, place = _seat_matrix(df, "beans"), _seat_matrix(df, "place")
        done = _finished(df)
        for p in range(num_seats(df)):
            s = mean_ci(beans[done, p])
            fin = place[done, p]
            cut = beans[~done, p]
            rows.append({"policy": label, "seat": p, "seat_name": seat_name(p, seat_names),
                         "seat_policy": names[p], "games": len(df), "finished": s["n"],
                         "mean_beans": s["mean"], "ci95": s["ci95"], "ci_low": s["ci_low"],
                         "ci_high": s["ci_high"], "std_beans": s["std"],
                         "mean_place": float(fin.mean()) if fin.size else np.nan,
                         "win_share": float((fin == 1).mean()) if fin.size else np.nan,
                         "win_ci95": _share_ci(float((fin == 1).mean()), fin.size)
                         if fin.size else np.nan, "truncated": cut.size,
                         "mean_beans_truncated": float(cut.mean()) if cut.size else np.nan,
                         "mean_beans_all": float(beans[:, p].mean()) if len(df) else np.nan,
                         "mean_place_all": float(place[:, p].mean()) if len(df) else np.nan,
                         **_decided_wins(place, p)})
    return pd.DataFrame(rows)


def _hand_rows(df: pd.DataFrame) -> dict[str, dict[str, np.ndarray]]:
    """Seat-games of the finished games by seat policy: place, beans and the dealt counts."""
    _per_game(df, "the hand tables")
    done = _finished(df)
    names = np.array(seat_policies(df))
    cols = {c: _seat_matrix(df, c)[done] for c in ("place", "beans", *HAND)}
    out = {}
    for name in dict.fromkeys(names):  # seat policies in seat order
        seats = np.flatnonzero(names == name)
        out[str(name)] = {c: m[:, seats].ravel() for c, m in cols.items()}
    return out


def hand_table(data: Frames) -> pd.DataFrame:
    """Finished games only, per policy, seat policy, feature (monsters, disciples, masters)
    and number of those cards dealt: seat-games, mean place with its 95% CI, win share
    (place 1), last-place share and mean beans."""
    rows = []
    for label, df in as_frames(data).items():
        n = num_seats(df)
        for name, r in _hand_rows(df).items():
            for feature in HAND:
                x = r[feature]
                for k in np.unique(x):
                    sel = x == k
                    s = mean_ci(r["place"][sel])
                    rows.append({"policy": label, "seat_policy": name, "feature": feature,
                                 "count": int(k), "seats": s["n"], "mean_place": s["mean"],
                                 "ci95": s["ci95"],
                                 "win_share": float((r["place"][sel] == 1).mean()),
                                 "last_share": float((r["place"][sel] == n).mean()),
                                 "mean_beans": float(r["beans"][sel].mean())})
    return pd.DataFrame(rows, columns=["policy", "seat_policy", "feature", "count", "seats",
                                       "mean_place", "ci95", "win_share", "last_share",
                                       "mean_beans"])


def _corr(x: np.ndarray, y: np.ndarray) -> float:
    if x.size < 2 or x.std() == 0 or y.std() == 0:
        return np.nan
    return float(np.corrcoef(x, y)[0, 1])


def hand_correlations(data: Frames) -> pd.DataFrame:
    """Finished games only, per policy, seat policy and feature: seat-games and the Pearson
    correlation of the number of those cards dealt with the place (negative: more of them,
    a better place), with winning (place 1) and with the beans."""
    rows = []
    for label, df in as_frames(data).items():
        for name, r in _hand_rows(df).items():
            win = (r["place"] == 1).astype(np.float64)
            for feature in HAND:
                x = r[feature].astype(np.float64)
                rows.append({"policy": label, "seat_policy": name, "feature": feature,
                             "seats": x.size, "mean_dealt": float(x.mean()) if x.size else np.nan,
                             "r_place": _corr(x, r["place"].astype(np.float64)),
                             "r_win": _corr(x, win),
                             "r_beans": _corr(x, r["beans"].astype(np.float64))})
    return pd.DataFrame(rows)


def hand_model(data: Frames) -> pd.DataFrame:
    """Finished games only, per policy and seat policy: the least-squares fit
    place = intercept + b_m·monsters + b_t·masters (a monster or a master in place of a
    disciple; the hand size is fixed) with each coefficient's standard error and 95% CI, the
    seat-games and R². NaN where the fit is not determined."""
    rows = []
    for label, df in as_frames(data).items():
        for name, r in _hand_rows(df).items():
            y = r["place"].astype(np.float64)
            X = np.column_stack([np.ones_like(y), r["monsters"], r["masters"]])
            n, k = X.shape
            coef = se = np.full(k, np.nan)
            r2 = np.nan
            if n > k and np.linalg.matrix_rank(X) == k:
                xtx_inv = np.linalg.inv(X.T @ X)
                coef = xtx_inv @ (X.T @ y)
                resid = y - X @ coef
                se = np.sqrt(np.diag(xtx_inv) * (resid @ resid) / (n - k))
                ss = float(((y - y.mean()) ** 2).sum())
                r2 = 1 - float(resid @ resid) / ss if ss > 0 else np.nan
            for j, term in enumerate(MODEL_TERMS):
                rows.append({"policy": label, "seat_policy": name, "term": term,
                             "seats": n, "coef": float(coef[j]), "se": float(se[j]),
                             "ci95": Z95 * float(se[j]), "r2": r2})
    return pd.DataFrame(rows)


def player_table(data: Frames) -> pd.DataFrame:
    """Per policy (a frame) and player (its seats pooled), over the finished games: seat-games,
    mean beans per seat with the 95% CI over games, mean place, win share (place 1) and last
    share, and the monsters / disciples / masters dealt per seat; over the decided games (a
    seat out of cards, truncated or not): the win share. The frame counts pickups per game,
    not per seat, and the cards dealt, not those played."""
    rows = []
    for label, df in as_frames(data).items():
        _per_game(df, "player_table")
        n = num_seats(df)
        done = _finished(df)
        beans, place = _seat_matrix(df, "beans"), _seat_matrix(df, "place")
        decided = (place == 1).any(axis=1)
        for name, seats in player_seats(seat_policies(df)).items():
            s = mean_ci(beans[done][:, seats].mean(axis=1))  # a game is the unit of the CI
            fin = place[done][:, seats]
            row = {"policy": label, "player": name, "seats": len(seats), "seat_games": fin.size,
                   "mean_beans": s["mean"], "ci95": s["ci95"],
                   "mean_place": float(fin.mean()) if fin.size else np.nan,
                   "win_share": float((fin == 1).mean()) if fin.size else np.nan,
                   "last_share": float((fin == n).mean()) if fin.size else np.nan}
            row.update({f"{k}_dealt": float(_seat_matrix(df, k)[:, seats].mean())
                        if len(df) else np.nan for k in HAND})
            row["win_share_decided"] = (float((place[decided][:, seats] == 1).mean())
                                        if decided.any() else np.nan)
            rows.append(row)
    return pd.DataFrame(rows)


def _kinds(env: Any, rows: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    """Each decision's kind: 0 a pickup (pass), else the rank group of the card played (1
    monster J/Q/K, 2 disciple 3/8/5, 3 master 10; card id = 4 x rank + suit)."""
    rank = actions // 4
    return {"kind": np.where(actions == PASS, 0, np.where(rank < 3, 1, np.where(
        rank < MASTER, 2, 3)))}


def decision_table(logs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per policy (a ``decision_log`` by label) and player: seat-games, decisions, the share
    of pickups among them and pickups per game, and the monsters / disciples / masters among
    the cards it played."""
    out = []
    for label, log in logs.items():
        t = kind_table(log, "kind", ("pickup", *HAND))
        played = t[list(HAND)].sum(axis=1).to_numpy()
        for k in HAND:  # shares of the cards played, not of all decisions
            t[f"{k}_played"] = t[k] / np.where(played > 0, played, np.nan)
        t["pickups_per_game"] = t["pickup"] * t["decisions"] / t["games"].clip(lower=1)
        t.insert(0, "policy", label)
        out.append(t.drop(columns=list(HAND)))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def report_tables(data: Frames, seat_names: str = "numbers",
                  arena: Any = None) -> dict[str, pd.DataFrame]:
    """Every table of the report by name (the CSV suffix); ``arena``: an arena result for the
    who-beats-whom tables."""
    frames = as_frames(data)
    return {"games": game_table(frames), "players": player_table(frames),
            "lengths": length_table(frames),
            "limits": limit_table(frames), "steps_hist": distribution(frames, "steps"),
            "pickups_hist": distribution(frames, "pickups"),
            "seats": seat_table(frames, seat_names),
            "hands": hand_table(frames), "hand_correlations": hand_correlations(frames),
            "hand_model": hand_model(frames)} | arena_tables(arena)


def compare_policies(num_games: int, policies: Sequence[str | Sequence[str]] = (
        "shed", "random", "weakest", "pickup"), num_players: int = 4, seed: int = 0,
                     **options: Any) -> dict[str, pd.DataFrame]:
    """Da Yaoguai games of each policy (``simulate_policies``); ``options``: ``num_threads``,
    ``summary`` and the rule options (``base``, ``max_steps``, ``must_beat``)."""
    return simulate_policies("dayaoguai", num_games, policies, num_players, seed, **options)


# ---------------------------------------------------------------- the report


def _plot_lengths(Figure, steps: pd.DataFrame, pickups: pd.DataFrame, labels: list[str],
                  path: Path) -> None:
    fig = Figure(figsize=(10, 4))
    axes = fig.subplots(1, 2)
    for ax, dist, name in ((axes[0], steps, "steps"), (axes[1], pickups, "pickups")):
        for label in labels:
            if f"{label}_share" in dist:
                ax.step(dist["low"], dist[f"{label}_share"], where="post", label=label)
        ax.set_yscale("log")
        ax.set_xlabel(f"{name} per game")
        ax.set_ylabel("share of games (log scale)")
    axes[0].set_title("game length (truncated games in the last bin)")
    axes[1].set_title("pickups per game")
    axes[0].legend(title="policy", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _plot_hands(Figure, hands: pd.DataFrame, path: Path) -> None:
    fig = Figure(figsize=(11, 4.2))
    axes = fig.subplots(1, len(HAND), sharey=True)
    for ax, feature in zip(axes, HAND, strict=True):
        t = hands[(hands["feature"] == feature) & (hands["seats"] >= 30)]
        for (label, name), g in t.groupby(["policy", "seat_policy"], sort=False):
            tag = label if label == name else f"{label}: {name} seats"
            ax.errorbar(g["count"], g["mean_place"], yerr=g["ci95"], marker="o", capsize=3,
                        label=tag)
        ax.set_xlabel(f"{feature} dealt")
        ax.set_title(feature)
        if len(t):
            ax.set_xticks(range(int(t["count"].max()) + 1))
    axes[0].set_ylabel("mean place (finished games)")
    axes[0].invert_yaxis()
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 3),
                   fontsize="small")
    fig.tight_layout(rect=(0, 0.1 if handles else 0, 1, 1))
    fig.savefig(path, dpi=100)


def _intro(frames: dict[str, pd.DataFrame], elapsed: float | None, title: str) -> list[str]:
    lines = [f"# {title}", "",
             "Statistics of simulated Da Yaoguai 打妖怪 games "
             "(`vecgames.simulate(\"dayaoguai\", ...)`), one row per game in the raw data.", ""]
    lines += [frame_line(label, df, len(df)) for label, df in frames.items()]
    lines += ["", "**Truncated games** (cut at max_steps, left out of the per-seat outcomes "
              "below): " + "; ".join(
                  f"{label} {100 * (cut := int(df['truncated'].sum())) / max(len(df), 1):.2f}%"
                  f" ({cut:,} of {len(df):,}, max_steps {_max_steps(df)})"
                  for label, df in frames.items()), ""]
    lines += time_lines(elapsed, sum(len(df) for df in frames.values()))
    lines += ["", "Steps = actions taken (plays and pickups). A game is truncated when it "
              "reaches max_steps with two or more seats still holding cards. Beans = the bean "
              "transfers of the game (a pickup of n cards costs n·base·(P-1), every other seat "
              "gains n·base; they sum to 0 over the seats), also for truncated games, up to the "
              "cut. Place = the finishing order (1 = first out of cards). The per-seat "
              "outcomes (beans, place, win share) and the starting-hand tables use **finished "
              "games only**; the truncated games have their own columns. CI95 = half-width "
              "of the 95% confidence interval of the mean (mean ± 1.96·s/√n, s the sample "
              "std).", ""]
    return lines


def write_report(data: Frames, path_md: str | Path, *, elapsed: float | None = None,
                 title: str = "Da Yaoguai simulation report", plots: bool = True,
                 seat_names: str = "numbers", arena: Any = None, players: Any = None,
                 decision_games: int = 0) -> list[Path]:
    """Write the Markdown report at ``path_md``, its tables as ``<stem>_<table>.csv`` and the
    plots as ``<stem>_lengths.png`` and ``<stem>_hands.png`` beside it (need matplotlib;
    skipped with a note otherwise). ``data``: per-game frames (see the module doc);
    ``elapsed`` = simulation seconds for the intro; ``seat_names``: ``"numbers"`` or
    ``"xiyouji"`` (the seat table's ``seat_name`` column); ``arena``: a ``vecgames.arena``
    result for the who-beats-whom section; ``players``: the seat specs of a single frame (as
    ``simulate(players=...)``) for the decision table, needed when a seat holds other than a
    built-in player; ``decision_games``: games per policy the decision table plays through the
    env, at most the frame's (0, the default: no table; the CLI plays ``DECISION_GAMES``).
    Returns the written paths, the Markdown file first."""
    t0 = time.perf_counter()
    path_md = Path(path_md)
    check_seat_names(seat_names)
    frames = as_frames(data)
    tables = report_tables(frames, seat_names, arena)
    logs = {label: log for label, df in frames.items() if not _is_summary(df) and (
        log := log_like("dayaoguai", df, players if len(frames) == 1 else None,
                        min(len(df), decision_games), _kinds)) is not None}
    if logs:
        tables["decisions"] = decision_table(logs)
    stem, written = write_tables(tables, path_md)
    paths = [path_md, *written.values()]
    pct = ("truncated_share", "cut_share", "win_share", "win_ci95", "win_share_decided",
           "win_decided_ci95", "last_share",
           *(f"{label}_share" for label in frames))
    signed = ("mean_beans", "ci_low", "ci_high", "mean_beans_truncated", "mean_beans_all",
              "coef", "r_place", "r_win", "r_beans")
    Figure = figure_class() if plots else None
    note = ["_Plots skipped: matplotlib is not installed (`pip install -e \".[report]\"`)._",
            ""] if plots and Figure is None else []
    lines = _intro(frames, elapsed, title) + note
    lines += ["## Games and truncation", "", "truncated: games cut at max_steps; "
              "out_when_truncated: seats already out of cards when such a game was cut "
              "(mean); mean_steps_finished: the length of the games that ended.", "",
              md_table(tables["games"], pct), ""]
    lines += ["## By player", "", "Seats grouped by the player sitting there, over the "
              "finished games: beans (95% CI), place, win and last-place shares, cards dealt "
              "per seat; win_share_decided: over the games a seat emptied its hand. Pickups "
              "are counted per game (below), not per seat.", "",
              md_table(tables["players"], pct, signed), ""]
    lines += ["### Decisions by player", ""] + ([
        f"Every decision of up to {decision_games:,} more games of each policy "
        "(`vecgames.analysis.decision_log`, seed 0): the share of pickups and "
        "pickups per game, and the monsters, disciples and masters among the cards played.",
        "", md_table(tables["decisions"], ("pickup", *(f"{k}_played" for k in HAND))), ""]
        if logs else [no_log_note(decision_games), ""])
    lines += arena_section(arena, [p for df in frames.values() for p in seat_policies(df)])
    lines += ["## Game length and pickups", "", "Steps and pickups per game: mean, std, "
              "min, quantiles (observed values) and max, over all games (truncated ones end "
              "at max_steps) and over the finished games.", "",
              md_table(tables["lengths"], pct), ""]
    if Figure is not None:
        png = Path(f"{stem}_lengths.png")
        _plot_lengths(Figure, tables["steps_hist"], tables["pickups_hist"], list(frames), png)
        paths.append(png)
        lines += [f"![game length and pickups]({png.name})", ""]
    lines += ["Games a step limit would cut (cut_share; NaN above the run's max_steps when "
              "some game was truncated there):", "", md_table(tables["limits"], pct), ""]
    lines += [f"Histograms with the same bins for every policy: `{stem.name}_steps_hist.csv`, "
              f"`{stem.name}_pickups_hist.csv`.", ""]
    lines += ["## Beans and place by seat", "", "Per seat, over the **finished** games "
              "only: mean beans with the 95% CI, std, mean place and win_share (place 1). "
              "Apart: the truncated games and their mean beans (transfers up to the cut); "
              "over all games: mean_beans_all and mean_place_all (0 for seats still holding "
              "cards at a truncation, as the summary mode); over the decided games (a seat "
              "out of cards, truncated or not): win_share_decided with its 95% CI.", "",
              md_table(tables["seats"], pct, signed), ""]
    lines += ["## Starting hand and finishing place", "", "Finished games only, seat-games "
              "pooled over the seats of each seat policy: mean place (with its 95% CI), win "
              "and last-place shares and mean beans by the number of monsters (J, Q, K), "
              "disciples (3, 8, 5) and masters (10s) dealt.", ""]
    if Figure is not None:
        png = Path(f"{stem}_hands.png")
        _plot_hands(Figure, tables["hands"], png)
        paths.append(png)
        lines += [f"![mean place by hand]({png.name})", "",
                  "_(Plotted: groups of at least 30 seat-games, with the 95% CI.)_", ""]
    lines += [md_table(tables["hands"], pct, signed), ""]
    lines += ["### Correlations", "", "Pearson correlation of the number of cards dealt with "
              "the place (negative = a better place), with winning and with the beans.", "",
              md_table(tables["hand_correlations"], pct, signed), ""]
    lines += ["### Linear model", "", "Least squares place = intercept + b·monsters + "
              "b·masters: the change in place for a monster or a master dealt instead of a "
              "disciple (monsters + disciples + masters = the hand size). se = standard error, "
              "ci95 = 1.96·se.", "", md_table(tables["hand_model"], pct, signed), ""]
    finish_report(lines, path_md, t0, stem.name)
    return paths


# -- `vecgames simulate --summary` -------------------------------------------------------
def print_summary(args: Any, df: Any, startup: float, elapsed: float) -> None:
    g = game_table(df).iloc[0]
    seats = seat_table(df)
    print(f"{args.game}: {args.games:,} games, {g['players']} players, policy {args.policy}, "
          f"seed {args.seed}")
    print(f"truncated at max_steps {g['max_steps']}: {100 * g['truncated_share']:.2f}% "
          f"({g['truncated']:,} games); seat outcomes over the {g['finished']:,} finished games")
    cut = ["mean_beans_truncated"] if g["truncated"] else []
    print(seats[["seat", "seat_policy", "mean_beans", "ci95", "std_beans", "mean_place",
                 "win_share", *cut]].rename(columns={"seat_policy": "policy"}).to_string(
        index=False, formatters={
            "mean_beans": "{:+.3f}".format, "ci95": "±{:.3f}".format,
            "std_beans": "{:.2f}".format, "mean_place": "{:.3f}".format,
            "win_share": "{:.4f}".format, "mean_beans_truncated": "{:+.3f}".format}))
    print("beans: mean with its 95% CI, place and win share (place 1): finished games only"
          + ("; mean_beans_truncated: the truncated games' transfers up to the cut" if cut
             else ""))
    print(f"steps: mean {g['mean_steps']:.1f} per game"
          + ("" if args.summary or not g["finished"]
             else f" ({g['mean_steps_finished']:.1f} in finished games)")
          + f"; pickups: mean {g['mean_pickups']:.1f} per game")
    print_throughput(args.games, elapsed, startup, "games")
