"""What a person is told about each game: every rule option has a label, a line of help and
(for a fixed few values) its choices, which the rules accept; the web lobby gets them with
the web's caps, and a "how to play" text; the table words that issue 34 found missing."""

from __future__ import annotations

import importlib

import pytest

import vecgames
from vecgames.core.guide import OptionDoc

GAMES = ("zhajinhua", "holdem", "liars_dice", "hanabi", "dayaoguai", "kuhn_poker", "leduc_poker")


def guide(game: str):
    return importlib.import_module(f"vecgames.games.{game}.guide")


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_option_has_a_label_help_and_legal_choices(game):
    rules = importlib.import_module(f"vecgames.games.{game}.rules")
    docs = guide(game).OPTION_DOCS
    assert list(docs) == list(rules.DEFAULT_OPTIONS)  # every option, in the same order
    for name, doc in docs.items():
        assert isinstance(doc, OptionDoc) and doc.label and doc.help, name
        assert doc.label != name  # a label, not the library's name again
        if doc.choices is None:
            continue
        assert rules.DEFAULT_OPTIONS[name] in doc.choices, name
        for choice in doc.choices:  # each offered value is one the rules take
            vecgames.make(game, num_envs=1, seed=0, **{name: choice})
        with pytest.raises(ValueError, match=name):  # and they are all there are
            vecgames.make(game, num_envs=1, seed=0, **{name: "no-such-choice"})


@pytest.mark.parametrize("game", GAMES)
def test_every_game_says_how_to_play(game):
    parts = guide(game).HOW_TO_PLAY
    assert len(parts) >= 4
    assert all(term and len(text) > 40 for term, text in parts)


def test_the_guides_name_the_terms_a_player_meets():
    text = {g: " ".join(t for _, t in guide(g).HOW_TO_PLAY) for g in GAMES}
    assert "look" in text["zhajinhua"] and "call" in text["zhajinhua"]
    assert "飞" in text["liars_dice"] and "斋" in text["liars_dice"]
    assert "J < Q < K < 3 < 8 < 5" in text["dayaoguai"]
    assert "hint tokens" in text["hanabi"] and "lives" in text["hanabi"]
    assert "last slot" in text["hanabi"] and "not" in text["hanabi"]


def test_zhajinhua_names_the_call():
    from vecgames.games.zhajinhua.view import VIEW
    from vecgames.policies.human import row_state

    env = vecgames.make("zhajinhua", num_envs=1, seed=0, num_players=3)
    env.reset(seed=0)
    s = row_state(env.state, 0)
    bets = [m.text for m in VIEW.moves(s, env, env.action_mask[0]) if m.short.startswith("b")]
    assert bets[0].startswith("call: bet 1") and all(b.startswith("raise:") for b in bets[1:])
