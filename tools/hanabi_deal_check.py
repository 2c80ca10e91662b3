"""Compare two versions of the Hanabi env as an agent sees them (docs/notes/training.md,
"Hanabi: the 2026-11-22 figure").

Run it under each version with ``PYTHONPATH`` pointing at that version's checkout:

    python tools/hanabi_deal_check.py record games.npz     # games on this version's own deals
    python tools/hanabi_deal_check.py replay games.npz     # the same decks and moves here
    python tools/hanabi_deal_check.py deals games.npz      # tests of the recorded deals

``record`` plays every env through several games (auto-resets included) with random legal
moves, few of them plays so that most games run to the end of the deck, and keeps each game's
deck in draw order. ``replay`` starts a fresh env from each game's deck
(``reset_from_deck``), plays the recorded moves and counts the steps whose observation, legal
moves, reward or end differ. ``deals`` tests the recorded decks for uniformity beyond the
card counts: position x card type (chi-square) and the same colour or card at lags 1, 2, 5.
"""

from __future__ import annotations

import argparse

import numpy as np

import vecgames
from vecgames.games.hanabi.rules import field

PLAY_WEIGHT = 0.12  # plays drawn this much less often than discards and hints
COPIES = np.tile([3, 2, 2, 2, 1], 5)  # copies of card type 5 x colour + rank


def _make(num_envs: int, seed: int):
    return vecgames.make("hanabi", num_envs=num_envs, seed=seed, obs="jaxmarl",
                         observers="current")


def _first_seat(x: np.ndarray) -> np.ndarray:
    """The shared reward as [B] (a [B, P] reward holds it once per seat)."""
    return x[:, 0] if x.ndim == 2 else x


def record(path: str, num_envs: int, steps: int, seed: int) -> None:
    env = _make(num_envs, seed)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    weight = np.ones(env.num_actions)
    hand = env.rules.hand_size
    weight[hand:2 * hand] = PLAY_WEIGHT
    game = np.zeros(num_envs, np.int64)
    decks: dict[tuple[int, int], np.ndarray] = {}
    dealt: dict[tuple[int, int], int] = {}
    rows: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "mask", "act", "rew", "term",
                                                         "game")}
    for _ in range(steps):
        mask = np.asarray(env._mask).copy()
        rows["obs"].append(np.asarray(obs).copy())
        rows["mask"].append(mask)
        rows["game"].append(game.copy())
        # a weighted draw among the legal moves (Efraimidis-Spirakis keys)
        action = (rng.random(mask.shape) ** (1.0 / weight) * mask).argmax(1)
        deck = env.state.deck.astype(np.int64)  # positions < dealt are the draw order
        drawn = field(env.state, "dealt").copy()
        obs, reward, terminated, _, _ = env.step(action)
        terminated = np.asarray(terminated).copy()
        rows["act"].append(action)
        rows["rew"].append(_first_seat(np.asarray(reward)).copy())
        rows["term"].append(terminated)
        for i in np.flatnonzero(terminated):
            decks[(i, game[i])] = deck[i].copy()
            dealt[(i, game[i])] = int(drawn[i])
        game = game + terminated
    games = int(game.min())
    print(f"{num_envs} envs, {steps} steps: {games} complete games in every env, "
          f"{len(decks)} in all")
    np.savez(path, **{k: np.array(v) for k, v in rows.items()},
             decks=np.array([[decks[(i, g)] for i in range(num_envs)] for g in range(games)]),
             all_decks=np.array(list(decks.values())), all_dealt=np.array(list(dealt.values())))


def replay(path: str) -> None:
    z = np.load(path)
    steps, num_envs = z["act"].shape
    envs = np.arange(num_envs)
    for g in range(z["decks"].shape[0]):
        env = _make(num_envs, 99)
        obs, _ = env.reset_from_deck(z["decks"][g])
        start = (z["game"] == g).argmax(0)  # the first step of game g in each env
        bad = dict.fromkeys(("obs", "mask", "rew", "term"), 0)
        compared = 0
        for k in range(steps):
            t = np.minimum(start + k, steps - 1)
            live = (z["game"][t, envs] == g) & (start + k < steps)
            if not live.any():
                break
            mask = np.asarray(env._mask)
            bad["obs"] += int(((np.asarray(obs) != z["obs"][t, envs]).any(1) & live).sum())
            bad["mask"] += int(((mask != z["mask"][t, envs]).any(1) & live).sum())
            compared += int(live.sum())
            action = np.where(live, z["act"][t, envs], mask.argmax(1))
            obs, reward, terminated, _, _ = env.step(action)
            reward = _first_seat(np.asarray(reward))
            bad["rew"] += int(((reward != z["rew"][t, envs]) & live).sum())
            bad["term"] += int(((np.asarray(terminated) != z["term"][t, envs]) & live).sum())
        print(f"game {g} of each env: {compared} steps compared, differing: {bad}")


def deals(path: str) -> None:
    z = np.load(path)
    decks, dealt = z["all_decks"], z["all_dealt"]
    reached = np.arange(decks.shape[1])[None, :] < dealt[:, None]
    expected = COPIES / COPIES.sum()
    chi2, dof = 0.0, 0
    for k in range(decks.shape[1]):
        cards = decks[reached[:, k], k]
        if len(cards) < 500:  # too few games drew this deep for the test
            continue
        counts = np.bincount(cards, minlength=len(COPIES))
        chi2 += float(((counts - expected * len(cards)) ** 2 / (expected * len(cards))).sum())
        dof += len(COPIES) - 1
    print(f"{len(decks)} decks; position x card type: chi-square {chi2:.0f} on {dof} degrees "
          f"of freedom (z = {(chi2 - dof) / np.sqrt(2 * dof):+.1f})")
    n = COPIES.sum()
    per_colour = COPIES.reshape(5, 5).sum(1)  # cards of each colour
    same_colour = float((per_colour * (per_colour - 1)).sum()) / (n * (n - 1))
    pairs = float((COPIES * (COPIES - 1)).sum())
    for lag in (1, 2, 5):
        both = reached[:, :-lag] & reached[:, lag:]
        colour = ((decks[:, :-lag] // 5) == (decks[:, lag:] // 5))[both].mean()
        card = (decks[:, :-lag] == decks[:, lag:])[both].mean()
        print(f"lag {lag}: same colour {colour:.4f} (uniform {same_colour:.4f}), same card "
              f"{card:.4f} (uniform {pairs / (n * (n - 1)):.4f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("record", "replay", "deals"))
    p.add_argument("path")
    p.add_argument("--envs", type=int, default=512)
    p.add_argument("--steps", type=int, default=500)
    p.add_argument("--seed", type=int, default=5)
    a = p.parse_args()
    if a.mode == "record":
        record(a.path, a.envs, a.steps, a.seed)
    elif a.mode == "replay":
        replay(a.path)
    else:
        deals(a.path)


if __name__ == "__main__":
    main()
