"""Where a built-in Hanabi player's time goes: nanoseconds per decision, by the kind of move
it makes, next to ``rules`` deciding on the same states and the env's step.

    python benchmarks/bench_hanabi_decisions.py [--policy conventions] [--players 2]
                                                [--games 60] [--repeats 100]

It plays ``--games`` games of ``--policy`` in self-play (seed 0) and keeps the table and memo
before every decision. Then, on one core, it times the policy deciding on each kept state
(the state copied into a work env first), ``rules`` deciding on the same states, and the env
applying the policy's move; the copy's own time is measured alone and taken off. The states
are few enough to stay in cache, as a game's state does in ``simulate``. Each figure is the
best of 9 passes of ``--repeats`` rounds, the four kinds of pass taken in turn; run it alone
on the machine. The games/s
ratio of ``bench_hanabi_players.py`` follows from these figures and the game lengths.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from benchmarks.timing import print_table  # noqa: E402
from vecgames.core.rng import keyed_start, seed_key  # noqa: E402
from vecgames.games.hanabi import players as policies  # noqa: E402
from vecgames.games.hanabi import rules as hr  # noqa: E402

COPY, DECIDE, STEP = range(3)  # what a timed pass does after copying each state


@njit
def record(s, r, policy, games, tables, memos, actions):
    """Play ``games`` self-play games in env 0, keeping each decision's state and move;
    returns how many were kept (at most the arrays' length)."""
    key = seed_key(np.uint64(0))
    m = 0
    t = s.table[0]
    for g in range(games):
        s.rng[0] = keyed_start(key, g)
        hr.reset_one(s, 0, r)
        while t[hr.TERMINAL] == 0 and m < tables.shape[0]:
            tables[m] = t
            memos[m] = s.memo[0]
            a = policies.policy_action(policy, s, 0, r)
            actions[m] = a
            hr.play_legal(s, 0, a, r)
            m += 1
    return m


@njit
def timed_pass(s, r, tables, memos, actions, rows, what, policy, repeats):
    """Copy each state of ``rows`` into env 0 and decide with ``policy`` (or step with its
    kept move), ``repeats`` times over; returns a checksum so nothing is optimised away."""
    acc = 0
    for _ in range(repeats):
        for j in rows:
            s.table[0, :] = tables[j]
            s.memo[0, :, :] = memos[j]
            s.deck[0, :] = hr.CARD_TYPE  # (a lazy deck: the step draws any card left)
            if what == DECIDE:
                acc += policies.policy_action(policy, s, 0, r)
            elif what == STEP:
                acc += hr.play_legal(s, 0, actions[j], r)
    return acc


def per_decision(s, r, tables, memos, actions, rows, policy, repeats,
                 rounds: int = 9) -> tuple[float, float, float]:
    """ns per state of: the policy deciding, ``rules`` deciding, the env stepping; each the
    best of ``rounds`` passes taken in turn with a pass that only copies (taken off), so that
    a slow spell of the machine hits them alike."""
    jobs = ((COPY, policy), (DECIDE, policy), (DECIDE, policies.RULES), (STEP, policy))
    for what, who in jobs:  # compile
        timed_pass(s, r, tables, memos, actions, rows[:2], what, who, 1)
    best = [float("inf")] * len(jobs)
    for _ in range(rounds):
        for n, (what, who) in enumerate(jobs):
            start = time.perf_counter()
            timed_pass(s, r, tables, memos, actions, rows, what, who, repeats)
            best[n] = min(best[n], time.perf_counter() - start)
    copy, mine, base, step = (b / (len(rows) * repeats) * 1e9 for b in best)
    return mine - copy, base - copy, step - copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policy", default="conventions", choices=["conventions", "hat"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()

    r = hr.make_rules(num_players=args.players)
    policy = policies.POLICIES.index(args.policy)
    cap = 100 * args.games
    tables = np.zeros((cap, hr.NUM_FIELDS), np.int64)
    memos = np.zeros((cap, hr.MAX_PLAYERS, hr.MEMO_WORDS), np.int64)
    actions = np.zeros(cap, np.int64)
    m = record(hr.new_state(1), r, policy, args.games, tables, memos, actions)
    actions = actions[:m]
    h = r.hand_size
    kinds = np.where(actions < h, 0, np.where(actions < 2 * h, 1, 2))
    s = hr.new_state(1)
    rows_all = np.arange(m, dtype=np.int64)
    out = []
    for name, rows in (("all", rows_all), *[(k, rows_all[kinds == n])
                                             for n, k in enumerate(("discard", "play",
                                                                    "clue"))]):
        if len(rows) == 0:
            continue
        mine, base, step = per_decision(s, r, tables, memos, actions, rows, policy,
                                        args.repeats)
        out.append([name, f"{len(rows) / m:.2f}", f"{mine:.0f}", f"{base:.0f}", f"{step:.0f}"])
    print(f"{args.policy}, {args.players} players: {m:,} decisions of {args.games} games")
    print_table(["its move", "share", f"{args.policy} ns", "rules ns (same states)",
                 "env step ns"], out)


if __name__ == "__main__":
    main()
