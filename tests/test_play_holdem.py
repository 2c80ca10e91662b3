"""``vecgames play holdem``: scripted hands through input_fn/print_fn."""

from __future__ import annotations

import re

import pytest
from play_script import assert_answered, narrated, play, watch

import vecgames
from vecgames.core.cards import format_card
from vecgames.games.holdem.rules import field
from vecgames.games.holdem.view import VIEW
from vecgames.play.terminal import Match

CARD = re.compile(r"\b[2-9TJQKA][shdc]\b")


def hidden_cards(match: Match) -> set[str]:
    """The other seats' hole cards and the board cards not dealt yet."""
    s, seat, n = match.env.state, match.seat, match.env.num_players
    street = int(field(s, "street")[0])
    shown = 0 if street == 0 else min(street + 2, 5)
    cards = [c for p in range(n) if p != seat for c in s.deck[0, 2 * p:2 * p + 2]]
    cards += list(s.deck[0, 2 * n + shown:2 * n + 5])
    return {format_card(int(c)) for c in cards}


def no_hidden_cards(match: Match, block: list[str]) -> None:
    shown = set(CARD.findall("\n".join(block)))
    assert not shown & hidden_cards(match), (shown & hidden_cards(match), block)


def test_a_whole_hand_with_bad_input_reasked_and_the_state_untouched():
    result, script = play(VIEW, seed=1, seat=0, agent="call")
    assert result.status == "finished" and result.games == 1
    assert sum(result.totals) == 0
    assert_answered(script)
    assert "Chips this hand:" in script.text()


@pytest.mark.parametrize("seed", range(4))
def test_the_view_never_shows_a_hidden_card(seed):
    result, script = play(VIEW, seed=seed, seat=seed % 3, agent="call", num_players=3,
                          games=2, check=no_hidden_cards, bad=())
    assert result.status == "finished" and script.prompts > 0


def test_spectator_mode_tells_every_move_and_ends():
    result, lines, steps, choices = watch(VIEW, seed=3, agent="raise,call,check",
                                          num_players=3, games=2)
    assert result.status == "finished" and result.games == 2
    assert steps == narrated(lines)  # every action is told, exact raises included
    assert any(line.startswith("=== Match over: 2 of 2 game(s) played") for line in lines)


def test_a_checkpoint_takes_the_computer_seat_at_its_table_size(tmp_path):
    torch = pytest.importorskip("torch")
    from dataclasses import asdict

    from vecgames.games.holdem import train as holdem
    from vecgames.policies.nets import PolicyNet
    from vecgames.training import runs

    env = vecgames.make("holdem", num_players=2)
    net = PolicyNet(env.obs_dim, env.num_actions, hidden=8)
    path = tmp_path / "hu.pt"
    cfg = holdem.Config(players=2, hidden=8)
    runs.save_checkpoint(path, {  # what the trainer's loop writes
        "model": net.state_dict(),
        "optimizer": torch.optim.SGD(net.parameters(), lr=0.1).state_dict(),
        "config": asdict(cfg), "game": "holdem", "env_options": holdem.TRAINER.env_options(cfg),
        "iteration": 1, "obs_dim": env.obs_dim, "num_actions": env.num_actions})
    result, script = play(VIEW, seed=2, agent=str(path), bad=())  # 2 seats: the checkpoint's
    assert result.status == "finished" and result.labels == ["you", "hu"]
    assert sum(result.totals) == 0


def test_raise_moves_name_their_size():
    """Each raise move says what size it is (the web page's buttons and the terminal share it)."""
    env = vecgames.make("holdem", num_envs=1, seed=1, num_players=2)
    env.reset()
    moves = VIEW.moves(env.state, env, env.action_mask[0])
    labels = {m.short: m.text for m in moves}
    assert labels["m"].endswith("(min raise)") and labels["h"].endswith("(½ pot)")
    assert labels["p"].endswith("(pot)") and labels["2p"].endswith("(2× pot)")
    assert labels["a"].endswith("(all-in)")
