"""Kuhn and Leduc poker as public trees (``vecgames.games.*.tree.public_tree``) solved by
``vecgames.solve``: CFR+ reaches their known values, and the trees agree with OpenSpiel's
games node by node (actions, payoffs, chance weights) and in the exploitability of the same
strategies. Leduc's board card is the public tree's chance node (``CHANCE``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from vecgames.core.tree import CHANCE, TERMINAL, Tree, from_nested, tree_sizes
from vecgames.games.kuhn_poker.tree import public_tree as kuhn_tree
from vecgames.games.leduc_poker.tree import deal_matrix as leduc_deal
from vecgames.games.leduc_poker.tree import public_tree as leduc_tree
from vecgames.solve import cfr, exploitability, game_value, normalize, solve, uniform_strategy
from vecgames.solve.sampled import learn

KUHN_VALUE = -1 / 18
# Leduc's value for player 0 (published: about -0.0856): our CFR+ at exploitability 3.3e-7
# (100,000 iterations) gives -0.0856064; OpenSpiel's CFR+ (2,000 iterations, 8.3e-5) -0.085603.
LEDUC_VALUE = -0.0856064
# OpenSpiel's exploitability of its uniform random policy (open_spiel.python.algorithms.
# exploitability; the mean of the two best responses' gains, as ours: NashConv / 2)
UNIFORM_EXPLOITABILITY = {"kuhn": 11 / 24, "leduc": 2.373611111111111}
TREES = {"kuhn": kuhn_tree, "leduc": leduc_tree}


def test_tree_sizes():
    assert tree_sizes(kuhn_tree()) == {"decision_nodes": 4, "terminals": 5, "chance_nodes": 0,
                                       "infosets": 12, "infoset_actions": 24}
    leduc = leduc_tree()
    assert tree_sizes(leduc) == {"decision_nodes": 96, "terminals": 139, "chance_nodes": 5,
                                 "infosets": 288, "infoset_actions": 672}
    assert leduc.chance_probs is not None and leduc.chance_edge is not None
    edges = leduc.chance_edge[leduc.chance_edge >= 0]  # 5 chance nodes x 3 board ranks
    assert edges.size == 15 and (leduc.player[leduc.parent[leduc.chance_edge >= 0]] == CHANCE).all()
    assert (leduc.action[leduc.chance_edge >= 0] == edges).all()  # outcome id = board rank
    # the chance weights in the matrices add up to the deal, whichever board comes
    assert leduc.matrices[0].sum() == pytest.approx(1.0)
    assert leduc.matrices[1:4].sum(axis=0) == pytest.approx(leduc.matrices[0])


def test_kuhn_is_solved_to_its_value():
    sol = solve(kuhn_tree(), 10_000, target=1e-3, check_every=5)
    assert sol.exploitability < 1e-3
    assert sol.value == pytest.approx(KUHN_VALUE, abs=1e-3)


def test_leduc_is_solved_to_its_value_at_any_thread_count(monkeypatch):
    tree = leduc_tree()
    sol = solve(tree, 10_000, target=1e-3, check_every=25)  # small: in one thread
    assert sol.exploitability < 1e-3 and sol.iterations < 1000
    assert sol.value == pytest.approx(LEDUC_VALUE, abs=1e-3)
    assert exploitability(tree, uniform_strategy(tree)) == pytest.approx(
        UNIFORM_EXPLOITABILITY["leduc"], abs=1e-12)
    monkeypatch.setattr(cfr, "SERIAL_WORK", 0)  # the subtrees below the split over threads
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    again = solve(tree, sol.iterations, check_every=25)
    np.testing.assert_array_equal(again.strategy, sol.strategy)  # the same sums
    assert again.trace == sol.trace


def test_mccfr_samples_the_board():
    tree = leduc_tree()
    r = learn(tree, leduc_deal(), 300_000, checks=2)
    assert r.trace[-1][1] < 0.5 * r.trace[0][1] and r.exploitability < 0.4
    assert r.exploitability == pytest.approx(exploitability(tree, r.strategy))
    with pytest.raises(ValueError, match="chance_probs"):
        learn(tree._replace(chance_probs=None), leduc_deal(), 10)


def test_from_nested_refuses_malformed_chance_nodes():
    m = np.full((1, 2, 2), 1 / 8)  # each outcome's half of the deal's weight
    end = {"payoff": 0, "scale": 1.0}
    node = {"player": CHANCE, "children": [(0, end), (1, dict(end))], "probs": [0, 1]}
    half = np.full((2, 2, 2), 0.5)
    tree = from_nested(node, m, half)
    assert tree.player[0] == CHANCE and list(tree.chance_edge) == [-1, 0, 1]
    assert (tree.player[1:] == TERMINAL).all()
    assert game_value(tree, normalize(tree, np.zeros((3, 2)))) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="needs chance_probs"):
        from_nested(node, m)
    with pytest.raises(ValueError, match="sum to 1"):
        from_nested(node, m, np.full((2, 2, 2), 0.4))
    with pytest.raises(ValueError, match="'probs'"):
        from_nested({"player": CHANCE, "children": [(0, end)]}, m, half)
    with pytest.raises(ValueError, match="player must be"):
        from_nested({"player": 3, "children": [(0, end)]}, m)
    with pytest.raises(ValueError, match="payoff 1"):
        from_nested({"player": 0, "children": [(0, {"payoff": 1, "scale": 1.0})]}, m)
    with pytest.raises(ValueError, match="chance_probs must be"):
        from_nested(node, m, np.ones((2, 3, 2)))
    with pytest.raises(TypeError, match="node 1"):
        from_nested({"player": 0, "children": [(0, "end")]}, m)


# -- against OpenSpiel ----------------------------------------------------------------------
def _openspiel_policy(name: str, tree: Tree, strategy: np.ndarray):
    """Walk OpenSpiel's whole game alongside our tree, checking at every history that the
    player to act and its legal actions are those of our node, and that our terminal's matrix
    entry is OpenSpiel's returns weighted by the chance of the deals it stands for; returns
    OpenSpiel's tabular policy playing ``strategy`` (rows by our node and own rank)."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as os_policy

    game = pyspiel.load_game(f"{name}_poker")
    tabular = os_policy.TabularPolicy(game)
    rank = (lambda card: card) if name == "kuhn" else (lambda card: card // 2)
    weight: dict[tuple[int, ...], float] = {}
    seen: dict[str, tuple[int, int]] = {}

    def walk(state, node: int, cards: tuple[int, ...], prob: float) -> None:
        if state.is_chance_node():
            for outcome, p in state.chance_outcomes():
                if len(cards) < 2:  # a private card: our types
                    walk(state.child(outcome), node, (*cards, rank(outcome)), prob * p)
                    continue
                assert tree.player[node] == CHANCE  # the board card: our chance node
                first = tree.first_child[node]
                outcomes = range(first, first + tree.num_children[node])
                child = next(c for c in outcomes if tree.action[c] == rank(outcome))
                walk(state.child(outcome), child, cards, prob * p)
            return
        if state.is_terminal():
            assert tree.player[node] == TERMINAL
            key = (node, *cards)
            weight[key] = weight.get(key, 0.0) + prob * state.returns()[0]
            return
        player = state.current_player()
        assert tree.player[node] == player
        kids = np.arange(tree.first_child[node], tree.first_child[node] + tree.num_children[node])
        assert state.legal_actions() == tree.action[kids].tolist()
        info = state.information_state_string(player)
        assert seen.setdefault(info, (node, cards[player])) == (node, cards[player])
        row = tabular.policy_for_key(info)
        row[:] = 0.0
        row[tree.action[kids]] = strategy[kids, cards[player]]
        for action, c in zip(tree.action[kids], kids, strict=True):
            walk(state.child(int(action)), int(c), cards, prob)

    walk(game.new_initial_state(), 0, (), 1.0)
    terminals = np.flatnonzero(tree.player == TERMINAL)
    assert {k[0] for k in weight} == set(terminals.tolist())
    for (h, r0, r1), w in weight.items():
        assert tree.scale[h] * tree.matrices[tree.payoff[h], r0, r1] == pytest.approx(
            w, abs=1e-12)
    assert len(seen) == len(tabular.state_lookup)  # every information set was mapped
    return game, tabular


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_tree_and_exploitability_match_openspiel(name):
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import expected_game_score
    from open_spiel.python.algorithms import exploitability as os_exploitability

    tree = TREES[name]()
    uniform = uniform_strategy(tree)
    game, policy = _openspiel_policy(name, tree, uniform)
    theirs = os_exploitability.exploitability(game, policy)
    assert exploitability(tree, uniform) == pytest.approx(theirs, abs=1e-12)
    assert theirs == pytest.approx(UNIFORM_EXPLOITABILITY[name], abs=1e-12)
    skewed = normalize(tree, np.random.default_rng(7).random(uniform.shape) ** 3)
    game, policy = _openspiel_policy(name, tree, skewed)
    assert exploitability(tree, skewed) == pytest.approx(
        os_exploitability.exploitability(game, policy), abs=1e-12)
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    assert game_value(tree, skewed) == pytest.approx(value, abs=1e-12)


def test_leduc_value_matches_openspiels_cfr():
    pyspiel = pytest.importorskip("pyspiel")
    # the same game with its cards dealt as ranks (suits never matter), 6x faster to solve
    game = pyspiel.load_game("leduc_poker", {"suit_isomorphism": True})
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(1000):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    gap = pyspiel.exploitability(game, average)
    value = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[0]
    assert gap < 1e-3
    assert value == pytest.approx(LEDUC_VALUE, abs=2 * gap)  # |value - v*| <= NashConv
    sol = solve(leduc_tree(), 10_000, target=1e-3, check_every=25)
    assert sol.value == pytest.approx(value, abs=1e-3)
