"""Hanabi's seed rules (seed 000, docs/hanabi.md "The seed's rules"): the options
``end="deck_empty"``, ``discard_at_max="capped"`` and ``hint_target="next"`` on small exact
games; the properties under every option are in tests/test_hanabi_rules.py."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import vecgames
from vecgames.games.hanabi import END_NAMES, jaxmarl
from vecgames.games.hanabi.rules import (
    CARD_TYPE,
    DEFAULT_OPTIONS,
    field,
    hands,
    make_rules,
    rules_to_options,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from make_hanabi_fixtures import load_game  # noqa: E402

SORTED_DECK = CARD_TYPE.astype(np.int64)  # R1 R1 R1 R2 R2 R3 R3 R4 R4 R5 Y1 ...
SEED_RULES = {"end": "deck_empty", "discard_at_max": "capped", "hint_target": "next"}


def hint_ids(mask: np.ndarray, rules) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask[rules.color_hints:rules.noop])
            + rules.color_hints]


def test_options_validate_and_round_trip():
    assert {k: DEFAULT_OPTIONS[k] for k in SEED_RULES} == {
        "end": "final_round", "discard_at_max": "forbidden", "hint_target": "any"}
    for options in ({}, SEED_RULES, {"num_players": 4, "hint_target": "next"}):
        assert rules_to_options(make_rules(**options)) == {**DEFAULT_OPTIONS, **options}
    with pytest.raises(ValueError, match="end must be one of"):
        make_rules(end="deck")
    with pytest.raises(TypeError, match="hint_target must be a str"):
        make_rules(hint_target=1)
    with pytest.raises(ValueError, match="discard_at_max"):
        vecgames.make("hanabi", discard_at_max="allowed")
    with pytest.raises(ValueError, match="end"):
        vecgames.simulate("hanabi", 4, end="empty")


def scripted(mask: np.ndarray, h: int) -> int:
    """Discard slot 0 when legal, else the first legal hint (a game that runs the deck out)."""
    return 0 if mask[0] else int(np.flatnonzero(mask[2 * h:])[0]) + 2 * h


@pytest.mark.parametrize("players", [2, 3])
def test_deck_empty_ends_with_the_move_that_draws_the_last_card(players):
    jax = vecgames.make("hanabi", num_players=players)
    seed = vecgames.make("hanabi", num_players=players, end="deck_empty")
    for env in (jax, seed):
        env.reset_from_deck(SORTED_DECK)
    h = jax.rules.hand_size
    seed.step([h])  # seat 0 plays R1: score 1
    jax.step([h])
    while True:
        a = scripted(jax.action_mask[0], h)
        np.testing.assert_array_equal(seed.action_mask[0], jax.action_mask[0])
        dealt = int(field(seed.state, "dealt")[0])
        _, reward, term, _, info = seed.step([a])
        _, _, jax_term, _, _ = jax.step([a])
        if term[0]:
            break
        assert dealt < 50
    assert dealt == 49 and a == 0  # the move that ended it was the discard drawing card 50
    assert int(field(jax.state, "dealt")[0]) == 50 and not jax_term[0]
    assert info["score"][0] == 1 and END_NAMES[info["end"][0]] == "deck"
    for _ in range(players):  # JaxMARL: one more turn for every player
        assert not jax_term[0]
        _, _, jax_term, _, info = jax.step([scripted(jax.action_mask[0], h)])
    assert jax_term[0] and info["score"][0] == 1 and END_NAMES[info["end"][0]] == "deck"


def test_capped_discard_at_eight_tokens_keeps_eight():
    seed = vecgames.make("hanabi", discard_at_max="capped")
    jax = vecgames.make("hanabi")
    seed.reset_from_deck(SORTED_DECK)
    jax.reset_from_deck(SORTED_DECK)
    assert int(field(seed.state, "info")[0]) == 8
    assert seed.action_mask[0, :5].all() and not jax.action_mask[0, :5].any()
    with pytest.raises(ValueError, match="illegal"):
        jax.step([2])
    _, reward, _, _, _ = seed.step([2])  # discard slot 2: R1
    assert int(field(seed.state, "info")[0]) == 8 and (reward == 0).all()
    assert int(field(seed.state, "piled")[0]) == 1 and seed.state.pile[0, 0] == 0
    # the later cards shift left and card 11 of the deck (Y1) is drawn into the last slot
    np.testing.assert_array_equal(hands(seed.state)[0, 0], [0, 0, 1, 1, 5])
    assert seed.current_player[0] == 1


def test_hints_to_the_next_player_only_keep_the_action_layout():
    seed = vecgames.make("hanabi", num_players=3, hint_target="next")
    jax = vecgames.make("hanabi", num_players=3)
    r = seed.rules
    assert seed.num_actions == jax.num_actions == 31 and seed.obs_dim == jax.obs_dim
    seed.reset_from_deck(SORTED_DECK)
    jax.reset_from_deck(SORTED_DECK)
    # seat 1 holds R3 R3 R4 R4 R5, seat 2 Y1 Y1 Y1 Y2 Y2
    to_next = [r.color_hints + 0] + [r.rank_hints + v for v in (2, 3, 4)]
    to_second = [r.color_hints + 5 + 1] + [r.rank_hints + 5 + v for v in (0, 1)]
    assert hint_ids(seed.action_mask[0], r) == to_next
    assert hint_ids(jax.action_mask[0], r) == sorted(to_next + to_second)
    with pytest.raises(ValueError, match="illegal"):
        seed.step([to_second[0]])
    seed.step([to_next[0]])  # seat 1 next: its next player is seat 2 (Y1 Y1 Y1 Y2 Y2 ...)
    assert seed.current_player[0] == 1
    assert hint_ids(seed.action_mask[0], r) == [r.color_hints + 1] + [r.rank_hints + v
                                                                      for v in (0, 1)]
    facade = jaxmarl.make("hanabi", num_agents=3, hint_target="next")
    facade.reset_from_deck(SORTED_DECK)
    assert hint_ids(facade.get_legal_moves()["agent_0"][0], r) == to_next


def test_two_player_golden_game_is_the_same_with_hints_to_the_next_player():
    """With 2 players the next player is the only other one: a JaxMARL golden game replays
    value for value under ``hint_target="next"``."""
    g = load_game(ROOT / "tests" / "fixtures" / "hanabi" / "p2_careful0.npz")
    env = vecgames.make("hanabi", hint_target="next", observers="all")
    obs, info = env.reset_from_deck(g["deck"].astype(np.int64))
    for t in range(len(g["actions"])):
        np.testing.assert_array_equal(obs[0], g["obs"][t])
        np.testing.assert_array_equal(info["legal_moves"][0], g["legal"][t])
        obs, reward, term, _, info = env.step(g["actions"][t][None])
        np.testing.assert_array_equal(reward[0], g["rewards"][t, :2])
    assert term[0] and info["score"][0] == int(g["score"][-1])


def test_simulate_and_the_players_under_the_seed_rules():
    df = vecgames.simulate("hanabi", 200, policy="rules", seed=3, **SEED_RULES)
    assert df.attrs["rules"] == {**DEFAULT_OPTIONS, **SEED_RULES}
    assert (df["end"] == "deck").all() and df["score"].between(1, 24).all()
    again = vecgames.simulate("hanabi", 200, policy="rules", seed=3, **SEED_RULES)
    assert df.equals(again)
    jax = vecgames.simulate("hanabi", 200, policy="rules", seed=3)
    # the seed's game is shorter: no final round after the deck ran out
    assert (df["turns"] < jax["turns"]).mean() > 0.9
