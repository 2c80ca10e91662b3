"""``vecgames play liars-dice``: the shared terminal loop (``vecgames.play.terminal``) over
Liar's Dice's view, driven through ``input_fn``/``print_fn`` (torch only where a checkpoint
is loaded)."""

from __future__ import annotations

import io
import re
import sys
from functools import partial

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.cli import main as cli_main
from vecgames.games.liars_dice.bids import bid_to_action, explain_illegal
from vecgames.games.liars_dice.view import VIEW
from vecgames.games.rule_flags import rule_options
from vecgames.play import terminal
from vecgames.play.terminal import Match, MatchResult
from vecgames.policies.human import PROMPT, ask, row_state

main = partial(terminal.main, VIEW)
TABLE_RE = re.compile(r"^Round (\d+)/(\d+), seat (\d+) to act; (?:last bid (\d+) x (\d) "
                      r"\((fei|zhai)\)|no bids yet)")
CHALLENGE_RE = re.compile(r"^seat (\d+)(?: \(you\))? challenges seat (\d+)'s bid (\d+) x (\d) "
                          r"\((fei|zhai)\)$")
DICE_RE = re.compile(r"^  seat (\d+) dice: ([1-6 ]+)$")
COUNT_RE = re.compile(r"^  (\d+) dice count for it: seat (\d+) loses the round$")


def counted(dice: list[int], mode: str, face: int) -> int:
    """Independent count: the face, plus the ones in fei."""
    return sum(d == face or (mode == "fei" and d == 1) for d in dice)


class Script:
    """Plays the person's seat: each prompt gets the next probe of a plan made from the table
    the prompt showed, and checks that the previous probe was answered with the expected
    text (None: the move was taken)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.pending: list[tuple[str, str | None]] = []
        self.expect: str | None = None
        self.mark = 0
        self.checked = 0  # probes whose expected answer was seen
        self.match: Match | None = None
        self.dice: dict[int, list[list[int]]] = {}  # round -> every seat's dice (env.dice(0))

    def print_fn(self, text: str = "") -> None:
        self.lines.extend(str(text).split("\n"))

    def _table(self) -> re.Match[str]:
        return next(m for line in reversed(self.lines) if (m := TABLE_RE.match(line)))

    def plan(self, table: re.Match[str]) -> list[tuple[str, str | None]]:
        """(input, expected text in the answer; None for an accepted move)."""
        env = self.match.env  # type: ignore[union-attr]
        n, total = env.num_players, env.rules.total_dice
        if table.group(4) is None:  # we open: every kind of mistake first
            return [("hello there", "Not a move: unknown move 'hello there'"),
                    ("", "Type a move from the list"),
                    ("c", "cannot challenge before anyone has bid"),
                    (f"fei {n} 4", f"first bid must have a count above the number of players "
                                   f"({n}): at least {n + 1}"),
                    (f"fei {n + 1} 1", "face 1 cannot be bid in fei"),
                    (f"zhai {total + 1} 3", f"the count must be 1..{total}"),
                    (f"zhai {n + 1} 7", "the face must be 1..6"),
                    ("?", "zhai after fei needs"),
                    (f"飞 {n + 1} 4", None)]  # the 飞 spelling is a bid too
        count, face, mode = int(table.group(4)), int(table.group(5)), table.group(6)
        probes: list[tuple[str, str | None]] = []
        if mode == "fei":
            if (count + 1) // 2 > 1:
                probes.append((f"zhai {(count + 1) // 2 - 1} 1", f"ceil({count}/2)"))
            probes.append((f"fei {count} 2", f"must beat the last bid {count} x {face} (fei)"))
        else:
            if 2 * count - 1 <= total:
                probes.append((f"fei {2 * count - 1} 6", f"needs a count >= 2 x {count}"))
            probes.append((f"zhai {count - 1} 1" if count > 1 else f"zhai {count} 2",
                           f"must beat the last bid {count} x {face} (zhai)"))
        return [*probes, ("challenge", None)]

    def input_fn(self, prompt: str) -> str:
        assert prompt == PROMPT and self.match is not None
        if self.expect is not None:
            answer = "\n".join(self.lines[self.mark:])
            assert self.expect in answer, (self.expect, answer)
            self.checked += 1
        if not self.pending:
            table = self._table()
            self.pending = self.plan(table)
            self.dice[int(table.group(1))] = self.match.env.dice(0)
        text, self.expect = self.pending.pop(0)
        self.mark = len(self.lines)
        return text


def play_scripted(seed: int, **options) -> tuple[Script, MatchResult]:
    script = Script()
    script.match = Match(VIEW, seed=seed, input_fn=script.input_fn, print_fn=script.print_fn,
                         **options)
    return script, script.match.run()


def reveals(lines: list[str]) -> list[dict]:
    """Every challenge: the bid, each seat's dice as shown, the count and the loser."""
    out = []
    for k, line in enumerate(lines):
        if not (m := CHALLENGE_RE.match(line)):
            continue
        dice = {}
        j = k + 1
        while d := DICE_RE.match(lines[j]):
            dice[int(d.group(1))] = [int(x) for x in d.group(2).split()]
            j += 1
        total, loser = map(int, COUNT_RE.match(lines[j]).groups())
        round_no = next(int(t.group(1)) for ln in reversed(lines[:k]) if (t := TABLE_RE.match(ln)))
        out.append({"round": round_no, "challenger": int(m.group(1)), "bidder": int(m.group(2)),
                    "bid": (m.group(5), int(m.group(3)), int(m.group(4))), "dice": dice,
                    "total": total, "loser": loser})
    return out


def check_reveals(found: list[dict], dice_at: dict[int, list[list[int]]], seats: int) -> None:
    """Each reveal shows the round's dice, counts them right and names the right loser."""
    for reveal in found:
        mode, count, face = reveal["bid"]
        assert sorted(reveal["dice"]) == list(range(seats))
        if reveal["round"] in dice_at:  # the dice the env held while the person was asked
            assert [sorted(d) for d in dice_at[reveal["round"]]] == [
                reveal["dice"][p] for p in range(seats)]
        assert reveal["total"] == sum(counted(d, mode, face) for d in reveal["dice"].values())
        holds = reveal["total"] >= count
        assert reveal["loser"] == (reveal["challenger"] if holds else reveal["bidder"])


def test_scripted_match_reasons_reveals_and_points():
    script, result = play_scripted(seed=11, num_rounds=3)
    lines = script.lines
    assert result.status == "finished" and result.games == 1
    assert script.checked >= 8  # the opener's probes were all answered with their reasons
    assert lines[0].startswith("Liar's Dice with 斋/飞")
    assert sum(line.startswith("Liar's Dice with") for line in lines) >= 2  # at start and '?'
    assert any(line.startswith("seat 1 bids ") for line in lines)
    text = "\n".join(lines)
    assert "must beat the last bid" in text and "after zhai (斋)" in text  # answers to bids
    assert "Not allowed: " in text and "lowest legal moves now:" in text
    found = reveals(lines)
    assert len(found) == 3
    check_reveals(found, script.dice, 2)
    losers = [r["loser"] for r in found]
    # zero-sum points: -1 to each round's loser, +1 to the other seat
    assert result.totals == [float(losers.count(1) - losers.count(0)),
                             float(losers.count(0) - losers.count(1))]
    assert any(line.startswith("Game over after 3 rounds.") for line in lines)


def test_same_seed_same_game():
    a, ra = play_scripted(seed=5, num_rounds=2)
    b, rb = play_scripted(seed=5, num_rounds=2)
    assert a.lines == b.lines and ra == rb


def test_three_players_random_agents_other_seat():
    script, result = play_scripted(seed=2, seat=1, agent="random", num_players=3, dice=3,
                                   num_rounds=2)
    assert result.status == "finished" and result.labels == ["random", "you", "random"]
    assert abs(sum(result.totals)) < 1e-9
    found = reveals(script.lines)
    assert len(found) == 2
    check_reveals(found, script.dice, 3)


def test_a_repeated_bid_is_named_at_the_prompt():
    """RULES.md §3's cycle: fei 4 5, zhai 2 3, fei 4 2; then fei 4 5 beats the last bid but
    was made this round. Other spellings of a legal bid are taken."""
    env = vecgames.make("liars_dice", num_envs=1, seed=1)
    env.reset()
    for bid in (("fei", 4, 5), ("zhai", 2, 3), ("fei", 4, 2)):
        env.step(np.array([bid_to_action(bid, 2)]))
    s, mask = row_state(env.state, 0), env.action_mask[0]
    assert VIEW.explain("fei 4 5", s, env, mask) == (
        "4 x 5 (fei) was already bid this round: repeated bids are not allowed")
    typed = iter(["fei 4 5", "4x5 飞", "5 x 2 fei"])
    lines: list[str] = []
    action = ask(VIEW, env, 0, lambda prompt: next(typed), lines.append)
    assert action == bid_to_action(("fei", 5, 2), 2)
    assert sum("already bid this round" in line for line in lines) == 2


def test_quit_on_eof_and_q():
    def eof(prompt):
        raise EOFError

    out: list[str] = []
    assert main(["--seed", "3", "--rounds", "2"], input_fn=eof, print_fn=out.append) == 0
    text = "\n".join(out)
    assert "End of input: quitting." in text and "Match abandoned" in text

    answers = iter(["fei 3 4", "q"])
    out.clear()
    assert main(["--seed", "4", "--rounds", "3"], input_fn=lambda p: next(answers),
                print_fn=out.append) == 0
    assert "Quitting." in out and any("Match abandoned" in line for line in out)


def test_explain_illegal_reasons():
    fei, zhai = "fei", "zhai"
    assert explain_illegal(None, [], 2, 5).startswith("you cannot challenge")
    assert explain_illegal(None, [(fei, 3, 4)], 2, 5) is None
    assert "first bid" in explain_illegal((fei, 2, 6), [], 2, 5)
    assert explain_illegal((fei, 2, 6), [], 2, 5, min_first=2) is None
    assert "at least 4" in explain_illegal((fei, 3, 6), [], 2, 5, min_first=4)
    assert explain_illegal((zhai, 3, 2), [], 2, 5) is None
    assert "ceil(7/2) = 4" in explain_illegal((zhai, 3, 6), [(fei, 7, 4)], 2, 5)
    assert explain_illegal((zhai, 4, 2), [(fei, 7, 4)], 2, 5) is None
    assert "2 x 3 = 6" in explain_illegal((fei, 5, 6), [(zhai, 3, 1)], 2, 5)
    assert "no fei bid is left" in explain_illegal((fei, 10, 6), [(zhai, 6, 2)], 2, 5)
    assert "must beat the last bid 7 x 4 (fei)" in explain_illegal((fei, 7, 3), [(fei, 7, 4)],
                                                                   2, 5)
    assert explain_illegal((zhai, 3, 1), [(zhai, 3, 6)], 2, 5) is None  # 1 ranks highest
    assert "face 1" in explain_illegal((fei, 4, 1), [(fei, 3, 4)], 2, 5)
    assert "1..10" in explain_illegal((fei, 11, 4), [(fei, 3, 4)], 2, 5)
    cycle = [(fei, 4, 5), (zhai, 2, 3), (fei, 4, 2)]  # RULES.md §3's cycle
    assert "already bid" in explain_illegal((fei, 4, 5), cycle, 2, 5)
    assert explain_illegal((fei, 4, 5), cycle, 2, 5, forbid_repeat=False) is None
    assert explain_illegal(("飞", 5, 2), [("斋", 2, 3)], 2, 5) is None  # 飞 after 斋 2: >= 4


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 3), dice=st.integers(2, 4), forbid=st.booleans(),
       basic=st.booleans(), seed=st.integers(0, 2**32 - 1))
@example(players=2, dice=3, forbid=True, basic=False, seed=0)
@example(players=3, dice=2, forbid=False, basic=False, seed=0)
@example(players=2, dice=5, forbid=True, basic=False, seed=0)
@example(players=2, dice=3, forbid=True, basic=True, seed=0)
def test_explain_illegal_agrees_with_env_mask(players, dice, forbid, basic, seed):
    """Every typed bid (in and out of range) is judged legal exactly when the env allows it:
    by ``explain_illegal`` with the round's bids, and at the prompt by the view, which sees
    only the last bid and names the same rule."""
    env = vecgames.make("liars_dice", num_envs=1, seed=9, num_players=players, dice=dice,
                        num_rounds=50, forbid_repeat_bids=forbid,
                        variant="basic" if basic else "zhai_fei")
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    total = players * dice
    history: list = []
    for _ in range(60):
        mask = info["action_mask"][0]
        s = row_state(env.state, 0)
        assert (explain_illegal(None, history, players, dice, forbid, basic) is None) == mask[0]
        for mode in ("fei", "zhai"):
            for count in range(0, total + 2):
                for face in range(0, 8):
                    bid = (mode, count, face)
                    reason = explain_illegal(bid, history, players, dice, forbid, basic)
                    in_range = 1 <= count <= total and (2 if mode == "fei" else 1) <= face <= 6
                    legal = in_range and bool(mask[bid_to_action(bid, players, dice)])
                    assert (reason is None) == legal, (bid, history, reason)
                    typed = f"{mode} {count} {face}"
                    action = VIEW.parse(typed, s, env)
                    assert (action is not None and bool(mask[action])) == legal, typed
                    if not legal:
                        assert VIEW.explain(typed, s, env, mask) == reason, (typed, history)
        action = int(rng.choice(np.flatnonzero(mask)))
        if rng.random() < 0.6 and action == 0 and mask[1:].any():  # longer rounds
            action = int(rng.choice(np.flatnonzero(mask[1:]))) + 1
        bid = env.bid(action)
        _, _, term, trunc, info = env.step([action])
        history = [] if info["round_over"][0] or term[0] or trunc[0] else [*history, bid]


def test_cli_help_and_errors(capsys):
    assert cli_main(["play", "liars-dice", "--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("vecgames play liars_dice", "--players", "--agent", "--dice", "--rounds",
                 "--variant", "--watch", "--rule KEY=VALUE"):
        assert flag in out, flag
    assert "--allow-repeat-bids" not in out and "--stack" not in out  # hidden; another game's
    for argv, named in ((["--num-players", "9"], "--num-players"), (["--seat", "2"], "--seat"),
                        (["--agent", "no/such/file.pt"], "no/such/file.pt"),
                        (["--rounds", "0"], "--num-rounds"), (["--dice", "99"], "--dice"),
                        (["--variant", "zhai"], "--variant"), (["--render"], "--render"),
                        (["--threshold", "0.3"], "--threshold"), (["--stack", "50"], "--stack"),
                        (["--dice", "3", "--rule", "dice=4"], "dice given twice (--dice and "
                                                             "--rule dice=4)"),
                        (["--allow-repeat-bids", "--rule", "forbid_repeat_bids=true"],
                         "forbid_repeat_bids given twice (--forbid-repeat-bids and --rule")):
        assert cli_main(["play", "liars_dice", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert named in err and err.startswith("vecgames"), (argv, err)
    assert cli_main(["play", "chess"]) == 2


def test_rule_flags_and_the_old_spellings():
    parser = terminal.build_parser(VIEW, "p")
    for argv, options in ((["--rounds", "3"], {"num_rounds": 3}),
                          (["--num-rounds", "3"], {"num_rounds": 3}),
                          (["--allow-repeat-bids"], {"forbid_repeat_bids": False}),
                          (["--no-forbid-repeat-bids"], {"forbid_repeat_bids": False}),
                          (["--variant", "basic", "--dice", "3"], {"variant": "basic", "dice": 3}),
                          (["--min-first-count", "none"], {"min_first_count": None})):
        assert rule_options(parser.parse_args(argv), "liars_dice") == options, argv


@pytest.mark.parametrize("argv", [
    ["--num-players", "4", "--rounds", "3", "--agent", "heuristic", "--seed", "1"],
    ["--players", "4", "--rounds", "3", "--seat", "2", "--seed", "1"],
    ["--agent", "random", "--seed", "7"],
    ["--variant", "basic", "--seed", "1"],
    ["--dice", "3", "--seed", "1"],
    ["--allow-repeat-bids", "--agent", "odds", "--seed", "1"],
])
def test_documented_commands_play(argv, capsys):
    lines: list[str] = []
    assert main(argv, input_fn=lambda prompt: "q", print_fn=lines.append) == 0
    assert any("Match abandoned" in line or "Match over" in line for line in lines)
    if "--players" in argv:
        assert "--players 4 (a seat count) is deprecated" in capsys.readouterr().err


def test_cli_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hmm\nq\n"))
    assert cli_main(["play", "liars-dice", "--seed", "1", "--num-players", "3"]) == 0
    out = capsys.readouterr().out
    assert "unknown move 'hmm'" in out and "Match abandoned" in out


class FakePlayer:
    """A checkpoint's player as ``load_player`` gives it: its game and the env it needs."""

    def __init__(self, game: str, env_options: dict):
        self.game, self.env_options = game, env_options

    def __call__(self, obs, mask):
        return mask.argmax(1)


def _fake_checkpoint(game: str = "liars_dice", **options):
    """A ``load_player`` whose player needs these env options."""
    return lambda path, device="cpu": FakePlayer(
        game, {"num_players": 4, "dice": 5, "observation": "full", **options})


def test_agent_checkpoint_errors(tmp_path, monkeypatch, capsys):
    from vecgames.policies import checkpoint

    ckpt = tmp_path / "agent.pt"
    ckpt.write_bytes(b"not really")
    with monkeypatch.context() as m:  # None in sys.modules: importing torch raises ImportError
        m.setitem(sys.modules, "torch", None)
        assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1
    err = capsys.readouterr().err
    assert "torch" in err and "pip install" in err

    monkeypatch.setattr(checkpoint, "load_player", _fake_checkpoint())
    assert main(["--agent", str(ckpt), "--num-players", "2"], input_fn=lambda p: "q") == 2
    assert "needs num_players=4, but the call has num_players=2" in capsys.readouterr().err
    assert main(["--agent", str(ckpt), "--dice", "3"], input_fn=lambda p: "q") == 2
    assert "needs dice=5, but the call has dice=3" in capsys.readouterr().err
    monkeypatch.setattr(checkpoint, "load_player", _fake_checkpoint(variant="basic"))
    assert main(["--agent", str(ckpt), "--variant", "zhai_fei"], input_fn=lambda p: "q") == 2
    assert "needs variant='basic'" in capsys.readouterr().err
    monkeypatch.setattr(checkpoint, "load_player", _fake_checkpoint("hanabi"))
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 2
    assert "plays hanabi, not liars_dice" in capsys.readouterr().err

    def broken(path, device="cpu"):
        raise RuntimeError("bad magic number")

    monkeypatch.setattr(checkpoint, "load_player", broken)
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1
    assert "bad magic number" in capsys.readouterr().err


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path, capsys):
    pytest.importorskip("torch")
    ckpt = tmp_path / "agent.pt"
    ckpt.write_bytes(b"not really")
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 2
    assert "refusing to load" in capsys.readouterr().err


def test_agent_checkpoint_plays(tmp_path, monkeypatch):
    """A checkpoint player sits at its table (its seats, dice and observation) and gets its
    observation rows and the mask as [1, ...] batches."""
    from vecgames.policies import checkpoint

    seen: list[tuple] = []

    class Player:
        game = "liars_dice"
        env_options = {"num_players": 2, "dice": 4, "observation": "seed"}

        def __call__(self, obs, mask):
            seen.append((obs.shape, mask.shape, mask.dtype))
            legal = np.flatnonzero(mask[0])
            # open with the lowest bid, then make the highest bid left (never challenge)
            return np.array([legal[-1] if mask[0, 0] else legal[0]], np.int64)

    monkeypatch.setattr(checkpoint, "load_player", lambda path, device="cpu": Player())
    ckpt = tmp_path / "agent.pt"
    ckpt.write_bytes(b"x")
    out: list[str] = []

    def person(prompt):  # open with the lowest bid, else challenge
        table = next(m for line in reversed(out) if (m := TABLE_RE.match(line)))
        return "fei 3 2" if table.group(4) is None else "c"

    assert main(["--agent", str(ckpt), "--rounds", "2", "--seed", "8"],
                input_fn=person, print_fn=out.append) == 0
    obs_dim = vecgames.make("liars_dice", num_players=2, dice=4, observation="seed").obs_dim
    assert seen and all(s == ((1, obs_dim), (1, 1 + 11 * 8), np.bool_) for s in seen)
    assert any("Match over" in line for line in out)
