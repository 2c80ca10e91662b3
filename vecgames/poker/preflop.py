"""Tables poker analysts ask for: the exact 169 x 169 heads-up preflop matrix, each class's
equity against 1..9 random hands, and the odds of making each category by the river.

The matrix is computed once (``tools/build_preflop_matrix.py``, about two minutes on 2 cores)
and shipped as ``data/preflop_headsup.npz``: for hero class i (its first combo standing for
all, by suit symmetry) and villain class j, the boards won, tied and lost summed over every
villain combo that does not share a card, and how many such combos there are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.cards import format_cards, parse_cards
from ..core.rng import check_seed
from ..core.simulation import progress_slices
from ..core.validation import check_bool, check_int
from . import equity_kernels as K
from .equity import equity
from .ranges import CLASS_NAMES, CLASS_SIZES, class_combos
from .seven_card import CARD_BIT, CARD_KEY, KEY_BASE
from .seven_card_build import CATEGORY_NAMES

MATRIX_FILE = Path(__file__).with_name("data") / "preflop_headsup.npz"
_SUIT_PERMUTATIONS = np.array(list(permutations(range(4))), np.int64)


def _relabel(cards: np.ndarray, perm: np.ndarray) -> np.ndarray:
    return 4 * (cards >> 2) + perm[cards & 3]


def _villain_representatives(hero: np.ndarray, villains: np.ndarray):
    """Villain combos that share no card with ``hero``, grouped by suit relabellings that map
    the hero's cards onto themselves: (one combo per group, group sizes)."""
    fixing = [p for p in _SUIT_PERMUTATIONS
              if sorted(_relabel(hero, p).tolist()) == sorted(hero.tolist())]
    groups: dict[tuple[int, int], int] = {}
    for combo in villains.astype(np.int64):
        if set(combo.tolist()) & set(hero.tolist()):
            continue
        canonical = min(tuple(sorted(_relabel(combo, p).tolist(), reverse=True))
                        for p in fixing)
        groups[canonical] = groups.get(canonical, 0) + 1
    return list(groups), list(groups.values())


def preflop_tasks() -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """The matrix's work: (hero combo, villain representative) pairs ``[T, 2, 2]`` for every
    class pair hero i <= villain j, and per pair its owner ``(i, j, group size)``."""
    num = len(CLASS_NAMES)
    heroes = [class_combos(name)[0].astype(np.int64) for name in CLASS_NAMES]
    tasks, owners = [], []
    for i in range(num):
        for j in range(i, num):
            reps, sizes = _villain_representatives(heroes[i], class_combos(CLASS_NAMES[j]))
            for rep, size in zip(reps, sizes, strict=True):
                tasks.append([heroes[i], rep])
                owners.append((i, j, size))
    return np.array(tasks, np.int64), owners


def count_boards(assignments: np.ndarray) -> np.ndarray:
    """Exact board counts ``[T, 2, 3]`` (per player: boards, wins, ties) of each pair of
    ``preflop_tasks``; rows are independent, so any split of them gives the same counts."""
    out = np.zeros((len(assignments), 2, 3), np.int64)
    K.exact_counts_each(assignments, np.arange(52, dtype=np.int64), np.int64(KEY_BASE),
                        np.int64(0), 5, out, K.new_deck_scratch(),
                        np.zeros((K.LANES, 3, 2), np.int64))
    return out


def compute_preflop_matrix(progress: bool = False) -> dict[str, np.ndarray]:
    """Exact heads-up counts for every class pair (hero i <= villain j computed, the rest by
    symmetry): arrays ``wins``, ``ties``, ``losses``, ``combos`` [169, 169].

    ``progress=True``: a progress bar on stderr; the pairs are then counted in chunks (the
    same integers). On a Ray cluster: ``vecgames.distributed.compute_preflop_matrix_ray``."""
    progress = check_bool(progress, "progress")
    assignments, owners = preflop_tasks()
    out = np.concatenate([count_boards(assignments[part]) for part in
                          progress_slices(len(assignments), "hand pairs", progress)])
    return matrix_from_counts(owners, out)


def matrix_from_counts(owners: list[tuple[int, int, int]],
                       out: np.ndarray) -> dict[str, np.ndarray]:
    """The 169 x 169 tables of ``compute_preflop_matrix`` from ``count_boards`` of every task
    of ``preflop_tasks`` (``owners``: its (hero class, villain class, combos) per task)."""
    num = len(CLASS_NAMES)
    wins, ties, losses, combos = (np.zeros((num, num), np.int64) for _ in range(4))
    for (i, j, size), counts in zip(owners, out, strict=True):
        wins[i, j] += size * counts[0, 1]
        ties[i, j] += size * counts[0, 2]
        losses[i, j] += size * (counts[0, 0] - counts[0, 1] - counts[0, 2])
        combos[i, j] += size
    # Over all combo pairs, class i vs j is |i| times hero-fixed counts; read it from j's side.
    for i in range(num):
        for j in range(i + 1, num):
            scale = CLASS_SIZES[i], CLASS_SIZES[j]
            for mine, theirs in ((wins, losses), (losses, wins), (ties, ties), (combos, combos)):
                total = theirs[i, j] * scale[0]
                assert total % scale[1] == 0
                mine[j, i] = total // scale[1]
    return {"wins": wins, "ties": ties, "losses": losses, "combos": combos}


@lru_cache(maxsize=1)
def _matrix_counts() -> dict[str, np.ndarray]:
    with np.load(MATRIX_FILE) as data:
        return {name: data[name] for name in data.files}


def preflop_counts() -> pd.DataFrame:
    """Long table: hero class, villain class, boards won/tied/lost summed over the villain's
    combos (hero's first combo fixed), the number of those combos, and hero's equity."""
    counts = _matrix_counts()
    hero, villain = np.meshgrid(CLASS_NAMES, CLASS_NAMES, indexing="ij")
    frame = pd.DataFrame({"hero": hero.ravel(), "villain": villain.ravel()})
    for name in ("wins", "ties", "losses", "combos"):
        frame[name] = counts[name].ravel()
    boards = frame["wins"] + frame["ties"] + frame["losses"]
    frame["equity"] = (frame["wins"] + frame["ties"] / 2) / boards
    return frame


def preflop_matrix() -> pd.DataFrame:
    """169 x 169 exact heads-up preflop equity of the row class against the column class."""
    counts = _matrix_counts()
    boards = counts["wins"] + counts["ties"] + counts["losses"]
    equity_ = (counts["wins"] + counts["ties"] / 2) / boards
    return pd.DataFrame(equity_, index=pd.Index(CLASS_NAMES, name="hero"),
                        columns=pd.Index(CLASS_NAMES, name="villain"))


def equity_vs_random(opponents=range(1, 10), samples: int = 200_000,
                     seed: int = 0) -> pd.DataFrame:
    """Each class's equity against 1..9 random hands: exact heads-up (from the matrix),
    Monte Carlo (``samples`` deals per class, with its standard error) beyond.

    Each cell depends on its class, ``samples`` and ``seed`` only; on a Ray cluster the cells
    run in shards with the same numbers (``vecgames.distributed.equity_vs_random_ray``)."""
    opponents, samples, cells = vs_random_cells(opponents, samples, seed)
    return vs_random_frame(opponents, cells, random_equities(cells, samples, seed))


def vs_random_cells(opponents, samples: int,
                    seed: int) -> tuple[list[int], int, list[tuple[str, int]]]:
    """``equity_vs_random``'s checked arguments: (opponents, samples, its Monte Carlo cells)."""
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Iterable):
        raise TypeError(f"opponents must be a list of numbers of random opponents in 1..9, "
                        f"got {type(opponents).__name__}")
    opponents = [check_int(n, "each number of opponents", 1, 9) for n in opponents]
    if not opponents or len(set(opponents)) != len(opponents):
        raise ValueError(f"opponents must be distinct numbers in 1..9, at least one, got "
                         f"{opponents}")
    samples = check_int(samples, "samples", 1, 10**12)
    check_seed(seed)
    return opponents, samples, [(name, n) for n in opponents if n > 1 for name in CLASS_NAMES]


def vs_random_frame(opponents: list[int], cells: list[tuple[str, int]],
                    results: Sequence[tuple[float, float]]) -> pd.DataFrame:
    """``equity_vs_random``'s table from the (equity, standard error) of each cell."""
    cell_results = dict(zip(cells, results, strict=True))
    counts = _matrix_counts()
    frame = pd.DataFrame(index=pd.Index(CLASS_NAMES, name="class"))
    for n in opponents:
        if n == 1:
            wins, ties = counts["wins"].sum(1), counts["ties"].sum(1)
            boards = wins + ties + counts["losses"].sum(1)
            frame["1"] = (wins + ties / 2) / boards
            continue
        frame[str(n)] = [cell_results[name, n][0] for name in CLASS_NAMES]
        frame[f"{n}_std_error"] = [cell_results[name, n][1] for name in CLASS_NAMES]
    return frame


def random_equities(cells: Sequence[tuple[str, int]], samples: int,
                    seed: int) -> list[tuple[float, float]]:
    """(equity, standard error) of each (class, opponents) cell: the class's first combo
    against that many random hands, ``samples`` Monte Carlo deals under ``seed``."""
    out = []
    for name, n in cells:
        hero = format_cards(class_combos(name)[0])
        result = equity([hero] + ["random"] * n, samples=samples, seed=seed)
        out.append((float(result["equity"].iloc[0]), float(result["std_error"].iloc[0])))
    return out


def class_grid(values: pd.Series) -> pd.DataFrame:
    """Values per class laid out on the 13 x 13 grid (pairs on the diagonal, suited above)."""
    ranks = [name[0] for name in CLASS_NAMES[::14]]
    grid = np.asarray(values.reindex(CLASS_NAMES), float).reshape(13, 13)
    return pd.DataFrame(grid, index=ranks, columns=ranks)


def plot_class_grid(values: pd.Series, path: str | Path, title: str = "") -> Path:
    """Heat map of per-class values (e.g. a column of :func:`equity_vs_random`) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = class_grid(values)
    fig, ax = plt.subplots(figsize=(9, 8))
    image = ax.imshow(grid.to_numpy(), cmap="RdYlGn")
    ax.set_xticks(range(13), grid.columns)
    ax.set_yticks(range(13), grid.index)
    for r in range(13):
        for c in range(13):
            name = CLASS_NAMES[13 * r + c]
            ax.text(c, r, f"{name}\n{grid.iat[r, c]:.3f}", ha="center", va="center", fontsize=6)
    fig.colorbar(image, ax=ax)
    ax.set_title(title or values.name or "")
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def category_odds(hole: str, board: str = "", dead: str = "") -> pd.DataFrame:
    """Exact probability that ``hole`` plus ``board`` ends the river as each category (the
    royal flush apart), enumerating every completion of the board."""
    hole_cards, board_cards = parse_cards(hole, "hole"), parse_cards(board, "board")
    dead_cards = parse_cards(dead, "dead")
    if len(hole_cards) != 2:
        raise ValueError(f"hole must be two cards, got {hole!r}")
    if len(board_cards) > 5:
        raise ValueError(f"board has {len(board_cards)} cards, at most 5 allowed")
    known = np.concatenate([hole_cards, board_cards, dead_cards]).astype(np.int64)
    if len(set(known.tolist())) != len(known):
        raise ValueError("a card appears twice among hole, board and dead cards")
    fixed = known[:2 + len(board_cards)]
    deck = np.array(sorted(set(range(52)) - set(known.tolist())), np.int64)
    k = 5 - len(board_cards)
    if len(deck) < k:
        raise ValueError(f"the board needs {k} more cards, but the dead cards leave {len(deck)}")
    hist = np.zeros(10, np.int64)
    K.category_histogram(np.int64(KEY_BASE + CARD_KEY[fixed].sum()),
                         np.int64(np.bitwise_or.reduce(CARD_BIT[fixed])), CARD_KEY[deck],
                         CARD_BIT[deck], len(deck), k, np.zeros(max(k, 1), np.int64), hist)
    frame = pd.DataFrame({"boards": hist},
                         index=pd.Index([*CATEGORY_NAMES, "royal flush"], name="category"))
    frame["probability"] = frame["boards"] / hist.sum()
    return frame
