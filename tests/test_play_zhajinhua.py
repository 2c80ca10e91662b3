"""``vecgames play zhajinhua``: scripted games through input_fn/print_fn; the loop's exits."""

from __future__ import annotations

import re

import pytest
from play_script import assert_answered, narrated, play, watch

from vecgames.core.cards import format_card
from vecgames.games.zhajinhua.rules import field
from vecgames.games.zhajinhua.view import VIEW
from vecgames.play.terminal import Match, main

CARD = re.compile(r"\b[2-9TJQKA][shdc]\b")


def hidden_cards(match: Match) -> set[str]:
    """Cards the person's seat may not see: the others' (but those it compared with) and its
    own while it has not looked."""
    s, seat = match.env.state, match.seat
    assert seat is not None
    known = int(field(s, "known")[0, seat])
    looked = (int(field(s, "seen")[0]) >> seat) & 1
    return {format_card(int(c)) for p in range(match.env.num_players)
            if (p != seat and not (known >> p) & 1) or (p == seat and not looked)
            for c in s.deck[0, 3 * p:3 * p + 3]}


def no_hidden_cards(match: Match, block: list[str]) -> None:
    shown = set(CARD.findall("\n".join(block)))
    assert not shown & hidden_cards(match), (shown & hidden_cards(match), block)


def test_a_whole_game_with_bad_input_reasked_and_the_state_untouched():
    result, script = play(VIEW, seed=4, seat=1, agent="random", num_players=3)
    assert result.status == "finished" and result.games == 1
    assert sum(result.totals) == 0  # zero-sum chips
    assert_answered(script)
    assert "Showdown" in script.text() or "The pot goes to" in script.text()


@pytest.mark.parametrize("seed", range(4))
def test_the_view_never_shows_a_hidden_card(seed):
    result, script = play(VIEW, seed=seed, seat=seed % 3, agent="random", num_players=3,
                          check=no_hidden_cards, bad=())
    assert result.status == "finished" and script.prompts > 0


def test_spectator_mode_tells_every_move_and_ends():
    pauses: list[float] = []
    result, lines, steps, choices = watch(VIEW, seed=2, agent="random,heuristic,random",
                                          num_players=3, games=2, delay=0.5,
                                          sleep_fn=pauses.append)
    assert result.status == "finished" and result.games == 2
    assert pauses == [0.5] * steps  # --delay after every computer move
    assert choices <= narrated(lines) <= steps  # a seen player's forced no-op goes untold
    assert any(line.startswith("=== Match over: 2 of 2 game(s) played") for line in lines)
    assert len(set(CARD.findall("\n".join(lines[:12])))) == 9  # every hand shown at the start


def test_end_of_input_quits_cleanly_and_ctrl_c_exits_130(capsys):
    def eof(prompt):
        raise EOFError

    def interrupt(prompt):
        raise KeyboardInterrupt

    out: list[str] = []
    assert main(VIEW, ["--seed", "1", "--num-players", "2"], eof, out.append) == 0
    assert "End of input: quitting." in out and any("Match abandoned" in x for x in out)
    assert main(VIEW, ["--seed", "1", "--num-players", "2"], interrupt, out.append) == 130
    assert out[-1] == "\nInterrupted."
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, flag", [
    (["--seat", "5", "--num-players", "3"], "--seat"),
    (["--agent", "nobody"], "--agent"),
    (["--agent", "uniform"], "--agent"),  # illegal moves by design: simulate's kernels only
    (["--agent", "random,random"], "--agent"),  # 5 computer seats
    (["--agent", "random,human,random,random,random"], "--agent"),  # would show its cards
    (["--rule", "ante=x"], "--rule"),
    (["--delay", "-1"], "--delay"),
])
def test_bad_options_are_usage_errors_before_any_game(argv, flag, capsys):
    asked = []
    assert main(VIEW, argv, asked.append, print) == 2
    err = capsys.readouterr().err
    assert err.startswith("vecgames play zhajinhua: error: ") and flag in err, err
    assert not asked


def test_a_compare_before_the_last_showdown_puts_out_the_weaker_hand():
    """A compare on the last turn of the last round is followed by a showdown that the
    compare's winner may lose: the view names the compare's loser from the hands and shows
    down exactly the seats still in (never the loser's cards)."""
    import numpy as np

    import vecgames
    from vecgames.games.zhajinhua.rules import ALIVE, COMPARE0
    from vecgames.policies.human import row_state

    seen = 0
    for seed in range(300):
        env = vecgames.make("zhajinhua", num_envs=1, seed=seed, num_players=3, max_rounds=1,
                            no_compare_rounds=0)
        _, info = env.reset()
        rng = np.random.default_rng(seed)
        while True:
            legal = np.flatnonzero(info["action_mask"][0])
            compares = legal[legal >= COMPARE0][:3]
            a = int(rng.choice(compares if compares.size and rng.random() < 0.7 else legal))
            before = row_state(env.state, 0)
            _, reward, terminated, _, info = env.step(np.array([a]))
            if terminated[0]:
                break
        alive = int(env.final_table[0, ALIVE])
        if not COMPARE0 <= a < COMPARE0 + 3 or alive & (alive - 1) == 0:
            continue  # not a compare followed by a showdown
        seen += 1
        p, j = int(field(before, "player")[0]), a - COMPARE0
        loser = p if (alive >> p) & 1 == 0 else j
        told = VIEW.narrate(before, row_state(env.state, 0), env, a, reward[0, :3], True)
        assert f"seat {loser} has the weaker hand" in told[0]
        text = VIEW.game_over(before, env, a, reward[0, :3], None, False)
        shown = {int(line.split()[1].rstrip(":")) for line in text.splitlines()
                 if line.startswith("  seat ")}
        assert shown == {q for q in range(3) if (alive >> q) & 1}, text
    assert seen > 5
