"""``vecgames play dayaoguai``: scripted games through input_fn/print_fn."""

from __future__ import annotations

import re

import pytest
from play_script import assert_answered, narrated, play, watch

from vecgames.games.dayaoguai.rules import NUM_CARDS, card_name, field
from vecgames.games.dayaoguai.view import VIEW
from vecgames.play.terminal import Match, PlayError

CARD = re.compile(r"(?:10|[JQK358])[♥♠♣♦]")


def hidden_cards(match: Match) -> set[str]:
    """The cards the other seats hold and did not pick up in view of everyone."""
    s, seat = match.env.state, match.seat
    unseen = [int(field(s, "hand")[0, p]) & ~int(field(s, "known")[0, p])
              for p in range(match.env.num_players) if p != seat]
    return {card_name(c) for cards in unseen for c in range(NUM_CARDS) if (cards >> c) & 1}


def no_hidden_cards(match: Match, block: list[str]) -> None:
    shown = set(CARD.findall("\n".join(block)))
    assert not shown & hidden_cards(match), (shown & hidden_cards(match), block)


def test_a_whole_game_with_bad_input_reasked_and_the_state_untouched():
    result, script = play(VIEW, seed=1, seat=2, agent="random", num_players=3)
    assert result.status == "finished" and result.games == 1
    assert sum(result.totals) == 0  # bean transfers
    assert_answered(script)
    assert "Beans this game:" in script.text()


@pytest.mark.parametrize("seed", range(4))
def test_the_view_never_shows_a_hidden_card(seed):
    result, script = play(VIEW, seed=seed, seat=seed % 3, agent="shed", num_players=3,
                          check=no_hidden_cards, bad=())
    assert result.status == "finished" and script.prompts > 0


def test_spectator_mode_tells_every_move_and_ends():
    result, lines, steps, _ = watch(VIEW, seed=3, agent="random,shed,weakest", num_players=3)
    assert result.status == "finished" and result.games == 1
    assert steps == narrated(lines)
    assert any(re.match(r"--- seat \d has no cards left: place 1 ---", line) for line in lines)
    assert any(line.startswith("Game over: ") for line in lines)


def test_a_game_cut_at_max_steps_says_so():
    result, lines, steps, _ = watch(VIEW, seed=3, agent="pickup", num_players=3, max_steps=12)
    assert result.status == "truncated" and steps == 12
    assert any(line.startswith("Cut at the step limit (max_steps 12)") for line in lines)


def test_a_python_player_takes_a_seat_and_a_misfit_is_refused_before_any_game():
    def first_legal(obs, action_mask):
        return action_mask.argmax(1)

    result, lines, steps, _ = watch(VIEW, seed=2, agent=[first_legal, "shed", "random"],
                                    num_players=3)
    assert result.status == "finished" and "seat 0 (first_legal)" in "\n".join(lines[:8])
    first_legal.obs_dim = 7  # type: ignore[attr-defined]
    with pytest.raises(PlayError, match="first_legal.* 7 values"):
        Match(VIEW, agent=[first_legal, "shed"], num_players=3)
    del first_legal.obs_dim  # type: ignore[attr-defined]
    first_legal.game = "hanabi"  # type: ignore[attr-defined]
    with pytest.raises(PlayError, match="hanabi"):
        Match(VIEW, agent=first_legal, num_players=3)
