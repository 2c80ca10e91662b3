"""The equilibrium solver (vecgames/solve): Kuhn poker's value, a Liar's Dice value derived by
hand, best responses against brute force, tree counts against an independent enumeration,
determinism, the built-in players read per information set, and the min_first_count rule."""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest

import vecgames
from vecgames.games.kuhn_poker.tree import public_tree as kuhn_tree
from vecgames.games.liars_dice.bids import action_to_bid, bid_beats, bid_to_action, legal_starts
from vecgames.games.liars_dice.rules import make_rules, rules_to_options
from vecgames.games.liars_dice.solver_players import (
    heuristic_strategy,
    random_strategy,
    seat_rules,
)
from vecgames.games.liars_dice.tree import build_tree, make_variant, rolls, tree_size
from vecgames.solve import (
    best_response_value,
    exploitability,
    game_value,
    solve,
    tree_sizes,
    uniform_strategy,
)


def test_kuhn_value_and_exploitability():
    tree = kuhn_tree()
    assert tree_sizes(tree)["infosets"] == 12
    short = solve(tree, 50, check_every=50)
    sol = solve(tree, 1000, check_every=250)
    assert sol.exploitability < 2e-4 < short.exploitability
    assert sol.value == pytest.approx(-1 / 18, abs=2e-4)
    assert [t for t, _ in sol.trace] == [250, 500, 750, 1000]


def test_solve_stops_at_target_and_is_deterministic():
    tree = build_tree(dice=1)  # 1 die each, 飞 only
    a = solve(tree, 5000, target=1e-2, check_every=20)
    b = solve(tree, 5000, target=1e-2, check_every=20)
    assert a.exploitability < 1e-2 and a.iterations < 5000
    assert a.iterations == b.iterations and a.value == b.value
    np.testing.assert_array_equal(a.strategy, b.strategy)
    numba.set_num_threads(1)  # the subtrees go to one thread instead of two: same sums
    try:
        c = solve(tree, 5000, target=1e-2, check_every=20)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(a.strategy, c.strategy)


# -- a tiny Liar's Dice solved by hand -----------------------------------------------------
# 1 die each, 飞 only, first bid count >= 2 (so every bid is 2 x f: both dice show f or a
# wild 1), max_round_steps=2: seat 0 bids, seat 1 challenges or raises, and a raise ends the
# round unresolved (0). A bid 2 x f with die b not in {1, f} is certainly false; otherwise it
# holds iff the bidder's die is in {1, f}. Equilibrium: seat 0 bids its own face with 2..5
# and 2 x 6 with a 1 or a 6; seat 1 challenges iff its die is not in {1, f} or f = 6, else
# raises. Seat 0 gets -1/3 with 1 or 6 (2 x 6 holds w.p. 1/3 and is always challenged) and
# -2/3 with 2..5 (it loses unless b is in {1, f}, which is then raised): value
# (2/6)(-1/3) + (4/6)(-2/3) = -5/9, and neither seat gains by deviating.
TINY = {"dice": 1, "min_first_count": 2, "max_round_steps": 2}


def _hand_strategy(tree):
    out = np.zeros((tree.num_nodes, 6))
    for c in range(tree.first_child[0], tree.first_child[0] + tree.num_children[0]):
        face = action_to_bid(int(tree.action[c]), 2, 1)[2]
        for die in range(1, 7):  # roll index = die - 1
            out[c, die - 1] = face == (die if 2 <= die <= 5 else 6)
    for h in np.flatnonzero(tree.player == 1):
        face = action_to_bid(int(tree.action[h]), 2, 1)[2]
        kids = range(tree.first_child[h], tree.first_child[h] + tree.num_children[h])
        for die in range(1, 7):
            challenge = die not in (1, face) or face == 6
            out[kids[0 if challenge else 1], die - 1] = 1.0
    return out


def test_tiny_liars_dice_value_derived_by_hand():
    tree = build_tree(**TINY)
    hand = _hand_strategy(tree)
    assert game_value(tree, hand) == pytest.approx(-5 / 9, abs=1e-12)
    assert exploitability(tree, hand) == pytest.approx(0.0, abs=1e-12)
    sol = solve(tree, 2000, target=1e-4, check_every=20)
    assert sol.value == pytest.approx(-5 / 9, abs=1e-3)
    assert exploitability(tree, random_strategy(tree)) > 0.1


# -- best responses against brute force ---------------------------------------------------
def _expected(tree, strat0, strat1):
    """Player 0's payoff of two behaviour strategies by explicit recursion over the world
    states (both types known), independent of the vector walk."""
    strat = (strat0, strat1)

    def value(h, r0, r1):
        q = tree.player[h]
        if q < 0:
            return tree.scale[h] * tree.matrices[tree.payoff[h], r0, r1]
        kids = range(tree.first_child[h], tree.first_child[h] + tree.num_children[h])
        r = (r0, r1)[q]
        return sum(strat[q][c, r] * value(c, r0, r1) for c in kids if strat[q][c, r])

    r0n, r1n = tree.num_types
    return sum(value(0, r0, r1) for r0 in range(r0n) for r1 in range(r1n))


def _pure_strategies(tree, player):
    """Every pure strategy of ``player``: one child per (decision node, type)."""
    infosets = [(h, r) for h in np.flatnonzero(tree.player == player)
                for r in range(tree.num_types[player])]
    choices = [range(tree.num_children[h]) for h, _ in infosets]
    for pick in itertools.product(*choices):
        s = np.zeros((tree.num_nodes, max(tree.num_types)))
        for (h, r), a in zip(infosets, pick, strict=True):
            s[tree.first_child[h] + a, r] = 1.0
        yield s


@pytest.mark.parametrize("player", [0, 1])
def test_best_response_matches_brute_force_on_kuhn(player):
    tree = kuhn_tree()
    uniform = uniform_strategy(tree)
    sign = 1.0 if player == 0 else -1.0
    brute = max(sign * (_expected(tree, s, uniform) if player == 0 else
                        _expected(tree, uniform, s))
                for s in _pure_strategies(tree, player))  # 2**6 pure strategies
    assert best_response_value(tree, uniform, player) == pytest.approx(brute, abs=1e-12)
    assert best_response_value(tree, uniform, 0) == pytest.approx(0.5)  # known figures
    assert best_response_value(tree, uniform, 1) == pytest.approx(5 / 12)


def test_best_response_matches_brute_force_on_tiny_liars_dice():
    """Seat 1 acts once per round here (after it, seat 0 challenges or bids into the cap), so
    its best response is the best action per information set (node, die), each action valued
    by explicit recursion over seat 0's dice against seat 0's uniform play."""
    tree = build_tree(dice=1, min_first_count=2, max_round_steps=3)
    uniform = uniform_strategy(tree)
    total = 0.0
    for h in np.flatnonzero(tree.player == 1):
        kids = range(tree.first_child[h], tree.first_child[h] + tree.num_children[h])
        for b in range(6):
            total += max(-_through(tree, uniform, h, c, b) for c in kids)
    assert best_response_value(tree, uniform, 1) == pytest.approx(total, abs=1e-12)


def _through(tree, s0, h, c, b):
    """Player 0's payoff summed over the worlds where seat 1 holds die b, reaches ``h`` and
    plays ``c`` there; seat 0 follows ``s0`` before and after."""

    def below(node, r0):
        if tree.player[node] < 0:
            return tree.scale[node] * tree.matrices[tree.payoff[node], r0, b]
        assert tree.player[node] == 0
        kids = range(tree.first_child[node], tree.first_child[node] + tree.num_children[node])
        return sum(s0[k, r0] * below(k, r0) for k in kids)

    total = 0.0
    for r0 in range(6):
        reach, node = 1.0, h
        while tree.parent[node] >= 0:  # seat 0's moves on the way (seat 1 has none)
            reach *= s0[node, r0]
            node = tree.parent[node]
        total += reach * below(c, r0)
    return total


# -- tree counts --------------------------------------------------------------------------
def _enumerate(players_dice, basic, first, cap):
    """Decision nodes and terminals by plain recursion over the Python bid API (bid_beats)."""
    total = sum(players_dice)
    bids = [action_to_bid(a, total, 1) for a in range(1, 1 + 11 * total)]  # total dice
    bids = [b for b in bids if not (basic and b[0] == "zhai")]

    def walk(history):
        decisions, terminals = 1, 1 if history else 0
        for b in bids:
            if b in history:
                continue
            ok = b[1] >= first if not history else bid_beats(history[-1], b)
            if not ok:
                continue
            if cap and len(history) + 1 >= cap:
                terminals += 1
            else:
                d, t = walk(history + [b])
                decisions, terminals = decisions + d, terminals + t
        return decisions, terminals

    return walk([])


@pytest.mark.parametrize(("dice", "variant", "first", "cap"), [
    ((1, 1), "basic", 1, 0), ((1, 1), "zhai_fei", 1, 4), ((2, 1), "basic", 2, 5),
    ((1, 1), "zhai_fei", 2, 5)])
def test_tree_counts_match_an_independent_enumeration(dice, variant, first, cap):
    options = {"dice": dice, "variant": variant, "min_first_count": first,
               "max_round_steps": cap}
    expected = _enumerate(dice, variant == "basic", first, cap)
    assert tree_size(make_variant(**options)) == expected
    sizes = tree_sizes(build_tree(**options))
    assert (sizes["decision_nodes"], sizes["terminals"]) == expected


def test_known_tree_sizes():
    """PLAYERS.md: 飞-only bid histories are the increasing subsets of the bids."""
    assert tree_size(make_variant(dice=1))[0] == 2**10
    assert tree_size(make_variant(dice=(2, 1)))[0] == 2**15
    assert tree_sizes(build_tree(dice=(2, 1)))["infosets"] == 2**14 * (21 + 6)


# -- players per information set ----------------------------------------------------------
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_player_strategies_agree_with_simulate(policy):
    """The self-play value read from the per-infoset strategies equals the mean outcome of
    simulate's games on the same rules (opener's payoff, 95% CI)."""
    v = make_variant(dice=1)
    tree = build_tree(v)
    strategy = heuristic_strategy(tree, v) if policy == "heuristic" else random_strategy(tree)
    value = game_value(tree, strategy)
    df = vecgames.simulate("liars_dice", 100_000, policy=policy, dice=1, min_first_count=1,
                           variant="basic", seed=3)
    payoff = np.where(df["loser"] == df["opener"], -1.0, 1.0)
    half = 1.96 * payoff.std() / np.sqrt(payoff.size) + 1e-3
    assert abs(payoff.mean() - value) < half


def test_heuristic_with_unequal_dice_reads_its_own_dice():
    v = make_variant(dice=(2, 1))
    assert seat_rules(v, 0).dice == 2 and seat_rules(v, 1).dice == 1
    assert seat_rules(v, 0).total_dice == 3
    tree = build_tree(v)
    h = heuristic_strategy(tree, v)
    # at the root seat 0 (two dice) makes the lowest of the bids most likely to hold: with a
    # pair of 6s, 1 x 6 (飞) holds for sure (with one die it would be 1 x 6 too, but 2 x 6
    # would hold w.p. 1/3: seat 1's one die reads its own dice, not seat 0's)
    roll6 = rolls(2)[0].index((6, 6))
    kids = range(tree.first_child[0], tree.first_child[0] + tree.num_children[0])
    picked = [int(tree.action[c]) for c in kids if h[c, roll6] == 1.0]
    assert len(picked) == 1
    assert action_to_bid(picked[0], 3, 1) == ("fei", 1, 6)


def test_exploitability_of_players_is_positive_and_solution_beats_them():
    v = make_variant(dice=1)
    tree = build_tree(v)
    sol = solve(tree, 3000, target=5e-4, check_every=50)
    for s in (heuristic_strategy(tree, v), random_strategy(tree)):
        assert exploitability(tree, s) > 0.3 > 100 * sol.exploitability


# -- the rule option ----------------------------------------------------------------------
def test_min_first_count_option():
    default = make_rules()
    assert rules_to_options(default)["min_first_count"] is None
    assert default.bids[0, 0] == legal_starts(0, 2, 10)[0]
    one = make_rules(dice=1, min_first_count=1)
    assert rules_to_options(one)["min_first_count"] == 1
    assert one.bids[0, 0] == 0 and one.bids[0, 1] == 10  # 1 x 2 fei, 1 x 2 zhai
    assert make_rules(min_first_count=3).bids.tobytes() == default.bids.tobytes()
    with pytest.raises(ValueError, match="dice"):
        make_rules(dice=1)  # count > 2 leaves no opening bid with 2 dice in all
    with pytest.raises(ValueError, match="min_first_count"):
        make_rules(dice=1, min_first_count=3)
    with pytest.raises(TypeError, match="min_first_count"):
        make_rules(min_first_count=1.5)
    env = vecgames.make("liars_dice", num_envs=2, dice=1, min_first_count=1, seed=0)
    _, info = env.reset()
    assert info["action_mask"][:, 1:].all() and not info["action_mask"][:, 0].any()
    env.step([bid_to_action(("fei", 1, 2), 2, 1)] * 2)


def test_variant_validation():
    with pytest.raises(ValueError, match="min_first_count"):
        make_variant(dice=1, min_first_count=3)
    with pytest.raises(TypeError, match="dice"):
        make_variant(dice=(1, 1, 1))
    with pytest.raises(ValueError, match="variant"):
        make_variant(variant="classic")
    with pytest.raises(ValueError, match="max_round_steps"):
        make_variant(variant="zhai_fei", forbid_repeat_bids=False)
    # without the no-repeat rule a capped 斋/飞 round may repeat bids: more histories
    repeat = tree_size(make_variant(variant="zhai_fei", forbid_repeat_bids=False,
                                    max_round_steps=5))  # (a cycle takes 3 bids)
    assert repeat[0] > tree_size(make_variant(variant="zhai_fei", max_round_steps=5))[0]
    with pytest.raises(ValueError, match="max_nodes"):
        build_tree(dice=1, max_nodes=100)


def test_benchmark_script_runs_on_tiny_variants(tmp_path):
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.bench_liars_dice_solver import main

    rows = main(["--quick", "--json", str(tmp_path / "rows.json")])
    assert [r["variant"] for r in rows] == ["1v1 fei, first>1", "1v1 zhai/fei, 2 steps"]
    assert all(r["exploitability"] < 1e-3 for r in rows)
    assert json.loads((tmp_path / "rows.json").read_text())[0]["decision_nodes"] == 2**5
    for r in rows:
        for p in r["players"]:  # a player's exploitability is the mean of the BR gains
            assert p["exploitability"] == pytest.approx(
                (p["br_gain_seat0"] + p["br_gain_seat1"]) / 2, abs=1e-12)
