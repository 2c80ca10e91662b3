"""``TexasPoker`` drives the seed's whole agent interface (issue 22): identities, hands as the
seed's ``Card`` objects, scores, ``reset``, ``actionAllowCheck``, ``final``, the board, debug
output; the seed's four sample strategies play through it."""

import pytest

from vecgames.core.cards import parse_cards
from vecgames.games.holdem import TexasPoker
from vecgames.games.holdem import rules as R
from vecgames.games.holdem.facade import identities
from vecgames.games.holdem.seed_agents import (
    Agent,
    CallAgent,
    Card,
    CheckAgent,
    RaiseAgent,
    RandomAgent,
)


def test_cards_have_the_seed_fields():
    assert [(c.suit, c.point) for c in map(Card.from_id, parse_cards("As Kh 2c Td"))] == [
        (1, 1), (2, 13), (3, 2), (4, 10)]  # suits: spades, hearts, clubs, diamonds; A is 1
    cards = [Card.from_id(k) for k in range(52)]
    assert len(set(cards)) == 52 and [c.id for c in cards] == list(range(52))
    assert str(Card(2, 12)) == "Qh"
    with pytest.raises(ValueError, match="suit"):
        Card(5, 1)
    with pytest.raises(ValueError, match="point"):
        Card(1, 0)


class Recorder:
    """An agent written for the seed (not derived from ``Agent``): records every hook."""

    def __init__(self, table_ref):
        self.table_ref = table_ref
        self.score = 0
        self.final = 0
        self.calls = []
        self.decisions = 0

    def reset(self):
        self.calls.append(("reset",))
        self.final = 0

    def setIdentity(self, identity):
        self.calls.append(("identity", identity))

    def setHand(self, hand):
        self.calls.append(("hand", list(hand)))

    def _decide(self, hook, last, lowerbound):
        table = self.table_ref[0]
        t = table.env.state.table[0]
        p = table.agents.index(self)
        assert self.score == t[R.STACK + p]  # told before every decision
        assert self.final == 0
        self.calls.append((hook, last, lowerbound, int(t[R.STREET]), len(table.publicList)))
        self.decisions += 1
        if lowerbound is not None and self.decisions % 3 == 1:
            return lowerbound  # the smallest raise
        return -1 if self.decisions % 5 == 4 else last  # folds (checks when free) sometimes

    def action(self, last, lowerbound):
        return self._decide("action", last, lowerbound)

    def actionAllowCheck(self, last, lowerbound):
        return self._decide("check", last, lowerbound)


def test_the_facade_calls_every_hook_of_a_seed_agent():
    ref = []
    agents = [Recorder(ref) for _ in range(6)]
    table = TexasPoker(agents, seed=5)
    ref.append(table)
    folds = 0
    for _ in range(30):
        for agent in agents:
            agent.calls.clear()
        scores = table.game()
        assert sum(scores) == 600
        button = table.DPosition
        for p, agent in enumerate(agents):
            reset, (_, role), (_, hand) = agent.calls[:3]
            assert reset == ("reset",)
            assert role == "DSRABC"[(p - button) % 6]
            assert hand == table.hand(p)
            assert [c.id for c in hand] == list(table.env.state.deck[0, 2 * p:2 * p + 2])
            for hook, last, lowerbound, street, seen in agent.calls[3:]:
                assert (hook == "check") == (last == 0)  # actionAllowCheck when check is free
                assert lowerbound is None or lowerbound > last
                assert seen == (0, 3, 4, 5)[street]  # the board seen on this street
            assert agent.score == scores[p]
            assert agent.final == (table.folded >> p) & 1
        folds += sum(a.final for a in agents)
    assert folds > 0
    assert identities(2) == ["D", "R"] and identities(10) == list("DSRABCEFGH")


class PairPlayer(Agent):
    """Looks at its hand as the seed's agents do: all-in with a pair, else check or fold."""

    def action(self, last, lowerbound):
        if self.hand[0].point == self.hand[1].point:
            return self.allin()
        return self.fold()


def test_an_agent_that_reads_its_hand_plays_by_it():
    agents = [PairPlayer(f"p{k}") for k in range(4)]
    table = TexasPoker(agents, seed=1)
    paired_hands = 0
    for _ in range(60):
        table.game()
        for p, agent in enumerate(agents):
            folded = bool((table.folded >> p) & 1)
            if agent.hand[0].point == agent.hand[1].point:
                paired_hands += 1
                assert not folded
            else:  # folds when it has to decide; the seat everyone folded to never decides
                assert folded or table.foldWinner == p
    assert paired_hands > 0


def test_the_seed_strategies_play_through_the_facade():
    agents = [RandomAgent(seed=1), CallAgent(seed=2), RaiseAgent(seed=3), CheckAgent(),
              CallAgent("always", p=1.0), CallAgent("never", p=0.0)]
    table = TexasPoker(agents, seed=7)
    folds = [0] * 6
    for _ in range(200):
        assert sum(table.game()) == 600
        folds = [f + a.final for f, a in zip(folds, agents, strict=True)]
        assert agents[2].final == 0 and agents[4].final == 0  # they never fold
    assert folds[0] > 0 and folds[1] > 0 and folds[3] > 0 and folds[5] > 0
    with pytest.raises(ValueError, match="probability"):
        CallAgent(p=1.5)


def test_seed_raise_amount_is_uniform_between_the_bounds():
    agent = RaiseAgent(seed=0)
    agent.score = 100
    draws = []
    for _ in range(2000):
        agent.score = 100
        draws.append(agent.action(2, 4))
    assert min(draws) == 4 and max(draws) == 100
    assert abs(sum(draws) / len(draws) - 52) < 2.5
    assert RaiseAgent(seed=0).action(2, None) == 2  # no raise allowed: call
    small = RaiseAgent(seed=1)
    counts = {4: 0, 5: 0, 6: 0}
    for _ in range(3000):
        small.score = 6
        counts[small.action(2, 4)] += 1
    assert all(850 < n < 1150 for n in counts.values()), counts  # the ends as likely as 5


def test_a_step_run_out_of_order_still_tells_the_agents():
    """round2() (or win()) straight after reset(): roles and hands are told before anyone acts."""
    seen = []

    class Looker(Agent):
        def action(self, last, lowerbound):
            seen.append((self.identity, len(self.hand)))
            return self.call(last)

    for step in ("round2", "round4", "win"):
        seen.clear()
        agents = [Looker(f"p{k}") for k in range(3)]
        table = TexasPoker(agents, seed=2)
        table.reset()
        getattr(table, step)()
        assert seen and all(identity and cards == 2 for identity, cards in seen), step


def test_checker_folds_only_facing_a_bet():
    checker = CheckAgent()
    assert checker.actionAllowCheck(0, 2) == 0 and checker.final == 0
    assert checker.action(2, 4) < 2 and checker.final == 1
    caller = CallAgent(p=0.0)
    assert caller.actionAllowCheck(0, 2) == 0 and caller.final == 0  # a fold becomes a check


def test_min_raise_call_reaches_the_agents_lowerbound():
    seen = {}

    class First(Agent):
        def action(self, last, lowerbound):
            seen.setdefault(self.name, (last, lowerbound))
            return self.fold()

    for rule, expected in (("standard", (2, 4)), ("call", (2, 3))):
        seen.clear()
        agents = [First(f"{rule}{k}") for k in range(3)]
        table = TexasPoker(agents, seed=0, min_raise=rule)
        table.game()
        first = table.DPosition  # three seats: the seat after the big blind is the button
        assert seen[agents[first].name] == expected


def test_debug_print_env_and_agents(capsys):
    agents = [CallAgent(f"c{k}", p=1.0) for k in range(3)]
    table = TexasPoker(agents, seed=2, debug=True)
    scores = table.game()
    out = capsys.readouterr().out
    assert "hand 1: button at seat" in out and "preflop: seat" in out and "calls" in out
    assert f"scores {scores}" in out
    assert len(table.publicList) == 5 and table.foldNum == 0 and table.foldWinner == -1
    compet = table.agentCompetList
    assert all(c is not None and 1 <= c[0] <= 10 for c in compet)
    best = min(compet, key=lambda c: (c[0], -c[1]))
    assert all((scores[p] > 98) == (compet[p] == best) for p in range(3))
    env_text = table.printEnv()
    assert "DPosition" in env_text and "scorePool 6" in env_text
    agents_text = table.printAgents()
    assert "c0: identity" in agents_text and agents_text in capsys.readouterr().out
    quiet = TexasPoker(agents, seed=2)
    quiet.game()
    assert capsys.readouterr().out == ""


def test_facade_errors():
    with pytest.raises(TypeError, match="debug"):
        TexasPoker([CheckAgent(), CheckAgent()], debug="yes")
    table = TexasPoker([CheckAgent(), CheckAgent()])
    with pytest.raises(RuntimeError, match="no hand"):
        _ = table.DPosition
    with pytest.raises(RuntimeError, match="reset"):
        table.round2()

    class Bad(Agent):
        def action(self, last, lowerbound):
            return "call"

    with pytest.raises(TypeError, match="agent"):
        TexasPoker([Bad(), Bad()]).game()
    table.game()
    with pytest.raises(RuntimeError, match="reset"):
        table.round1()
