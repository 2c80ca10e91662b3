"""The Da Yaoguai ``plan`` player: legal through env.step, the same games at 1 and 2 threads,
honest (its move does not depend on the hidden cards, only on what its seat may know), and
stronger than ``shed`` in a small fixed-seed arena."""

from __future__ import annotations

import numpy as np
import pandas as pd

import vecgames
import vecgames.games.dayaoguai  # noqa: F401  # before its policies (they import its rules)
from vecgames.games.dayaoguai import players as dayaoguai
from vecgames.games.dayaoguai.players_plan import _candidates
from vecgames.games.dayaoguai.rules import HAND, KNOWN, PASS, PLAYER
from vecgames.policies.builtin import BuiltinPlayer


def test_existing_players_keep_their_codes():
    assert dayaoguai.POLICIES[:4] == ("random", "weakest", "pickup", "shed")
    assert dayaoguai.POLICIES[dayaoguai.PLAN] == "plan"
    assert "plan" in vecgames.players("dayaoguai")


def test_candidates_one_card_per_rank_and_the_pass():
    legal = (1 << 0) | (1 << 2) | (1 << 5) | (1 << 27) | (1 << PASS)  # J♥ J♣ Q♠ 10♦ pass
    assert _candidates(legal) == (1 << 0) | (1 << 5) | (1 << 27) | (1 << PASS)


def test_plan_is_legal_through_env_step():
    for players in (4, 3):
        env = vecgames.make("dayaoguai", num_envs=16, seed=5, num_players=players,
                            max_steps=400)
        _, info = env.reset()
        plan = BuiltinPlayer("dayaoguai", "plan")
        rows = np.arange(env.num_envs)
        passes = plays = ends = 0
        for _ in range(300):
            mask = info["action_mask"]
            actions = plan.act_env(env, rows)
            assert mask[rows, actions].all()  # and env.step raises on an illegal action
            passes += int((actions == PASS).sum())
            plays += int((actions != PASS).sum())
            _, _, terminated, truncated, info = env.step(actions)
            ends += int(terminated.sum() + truncated.sum())
        assert passes > 0 and plays > 0 and ends > 0


def test_plan_is_deterministic_at_any_thread_count():
    kw = dict(policy=["plan", "shed", "random", "plan"], seed=11)
    one = vecgames.simulate("dayaoguai", 40, num_threads=1, **kw)
    two = vecgames.simulate("dayaoguai", 40, num_threads=2, **kw)
    pd.testing.assert_frame_equal(one, two)
    assert not one["truncated"].all()


def _hidden_permuted(table: np.ndarray, rng: np.random.Generator, players: int) -> bool:
    """Deal the cards of the other seats that nobody has seen (not picked up since) again
    among those seats, each keeping its hand size; False when there is nothing to swap."""
    me = table[PLAYER]
    seats = [q for q in range(players) if q != me]
    hidden = [table[HAND + q] & ~table[KNOWN + q] for q in seats]
    cards = [c for h in hidden for c in range(28) if (h >> c) & 1]
    if len([h for h in hidden if h]) < 2:
        return False
    order = rng.permutation(cards)
    k = 0
    for q, h in zip(seats, hidden, strict=True):
        count = bin(int(h)).count("1")
        new = sum(1 << int(c) for c in order[k:k + count])
        table[HAND + q] = (table[HAND + q] & ~h) | new
        k += count
    return True


def test_plan_is_honest():
    """Swapping hidden cards between the other seats never changes the move."""
    env = vecgames.make("dayaoguai", num_envs=64, seed=3, max_steps=2000)
    env.reset()
    shed, plan = BuiltinPlayer("dayaoguai", "shed"), BuiltinPlayer("dayaoguai", "plan")
    rows = np.arange(env.num_envs)
    rng = np.random.default_rng(0)
    checked = changed_hands = 0
    for step in range(60):
        if step % 6 == 5:
            snap = env.snapshot()
            before = plan.act_env(env, rows)
            env.restore(snap)
            for i in rows:
                changed_hands += _hidden_permuted(env.state.table[i], rng, 4)
            after = plan.act_env(env, rows)
            np.testing.assert_array_equal(before, after)
            checked += len(rows)
            env.restore(snap)
        env.step(shed.act_env(env, rows))
    assert checked >= 500 and changed_hands >= 200


def test_plan_beats_shed_in_the_arena():
    result = vecgames.arena("dayaoguai", ["plan", "shed"], 40, seed=2)
    row = result.pairwise.set_index(["player", "opponent"]).loc[("plan", "shed")]
    assert row["ci_low"] > 0
