"""``vecgames play liars-dice``: scripted games through ``input_fn``/``print_fn`` (no torch)."""

from __future__ import annotations

import io
import re
import sys
import types

import numpy as np
import pytest

import vecgames
from vecgames.cli import main as cli_main
from vecgames.games.liars_dice.bids import bid_to_action
from vecgames.games.liars_dice.play import (
    PROMPT,
    LiarsDiceGame,
    PlayResult,
    explain_illegal,
    main,
)

BID_RE = re.compile(r"(\d+) x (\d) \((fei|zhai)\)$")
REVEAL_RE = re.compile(r"^  seat (\d+)(?: \(you\))?\s*: ([1-6 ]+?)  -> (\d+)$")
COUNTED_RE = re.compile(r"^Counted for (\d+) x (\d) \((fei|zhai)\) \(.*\): (\d+) dice\.$")
ROUND_RE = re.compile(r"^=== Round (\d+)/(\d+)")
RANK_RE = re.compile(r"^  (\d+)\. seat (\d+)(?: \(you\))?\s+(\d+)$")


def counted(dice: list[int], mode: str, face: int) -> int:
    """Independent count: the face, plus the ones in fei."""
    return sum(d == face or (mode == "fei" and d == 1) for d in dice)


class Script:
    """Plays the person's seat: each prompt gets the next probe of a plan made from what the
    game printed, and checks that the previous probe was answered with the expected text."""

    def __init__(self, players: int = 2, dice: int = 5):
        self.players, self.total = players, players * dice
        self.lines: list[str] = []
        self.pending: list[tuple[str, str | None]] = []
        self.expect: str | None = None
        self.checked = 0  # probes whose expected reason was seen
        self.game: LiarsDiceGame | None = None
        self.dice_at_prompt: dict[int, list[list[int]]] = {}  # round -> env.dice(0)

    def print_fn(self, text: str = "") -> None:
        self.lines.extend(str(text).split("\n"))

    def _last_bid(self) -> tuple[str, int, int] | None:
        for line in reversed(self.lines):
            if line.startswith("No bids yet"):
                return None
            if line.startswith("Bids this round: "):
                count, face, mode = BID_RE.search(line).groups()
                return mode, int(count), int(face)
        raise AssertionError("no bid summary before the prompt")

    def _round(self) -> int:
        return next(int(m.group(1)) for line in reversed(self.lines)
                    if (m := ROUND_RE.match(line)))

    def plan(self, last: tuple[str, int, int] | None) -> list[tuple[str, str | None]]:
        """(input, expected text in the answer; None for an accepted move)."""
        n, total = self.players, self.total
        if last is None:  # we open: every kind of mistake first
            return [("hello there", "cannot read a bid"),
                    ("", "Type a bid"),
                    ("c", "cannot challenge before anyone has bid"),
                    (f"fei {n} 4", f"first bid must have a count above the number of players "
                                   f"({n}): at least {n + 1}"),
                    (f"fei {n + 1} 1", "face 1 cannot be bid in fei"),
                    (f"zhai {total + 1} 3", f"the count must be 1..{total}"),
                    (f"zhai {n + 1} 7", "the face must be 1..6"),
                    ("h", "zhai after fei needs"),
                    (f"fei {n + 1} 4", None)]
        mode, count, face = last
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
        return [*probes, ("c", None)]

    def input_fn(self, prompt: str) -> str:
        assert prompt == PROMPT
        if self.expect is not None:
            answer = "\n".join(self.lines[self.mark:])
            assert self.expect in answer, (self.expect, answer)
            self.checked += 1
        if not self.pending:
            self.pending = self.plan(self._last_bid())
            assert self.game is not None
            self.dice_at_prompt[self._round()] = self.game.env.dice(0)
        text, self.expect = self.pending.pop(0)
        self.mark = len(self.lines)
        return text


def _play_scripted(**options) -> tuple[Script, PlayResult]:
    script = Script(options.get("players", 2), options.get("dice", 5))
    game = LiarsDiceGame(input_fn=script.input_fn, print_fn=script.print_fn, **options)
    script.game = game
    return script, game.run()


def _reveals(lines: list[str]) -> list[dict]:
    """Every reveal block: seat dice and counts as printed, the bid and the total."""
    out = []
    for k, line in enumerate(lines):
        if line != "--- Dice revealed ---":
            continue
        seats = {}
        j = k + 1
        while m := REVEAL_RE.match(lines[j]):
            seats[int(m.group(1))] = ([int(x) for x in m.group(2).split()], int(m.group(3)))
            j += 1
        count, face, mode, total = COUNTED_RE.match(lines[j]).groups()
        round_no = next(int(m.group(1)) for ln in reversed(lines[:k]) if (m := ROUND_RE.match(ln)))
        out.append({"round": round_no, "seats": seats, "bid": (mode, int(count), int(face)),
                    "total": int(total), "verdict": lines[j + 1]})
    return out


def test_scripted_match_reasons_reveals_and_penalty_table():
    script, result = _play_scripted(players=2, rounds=3, seed=11)
    lines = script.lines
    assert result.status == "finished"
    assert script.checked >= 8  # the opener's probes were all answered with their reasons
    assert lines[0].startswith("Liar's Dice with 斋/飞")
    assert sum("Liar's Dice with" in ln for ln in lines) >= 2  # rules once, then on 'h'
    assert any(ln.startswith("seat 1 bids ") for ln in lines)
    text = "\n".join(lines)
    assert "must beat the last bid" in text and "after zhai (斋)" in text  # answers to bids

    reveals = _reveals(lines)
    assert len(reveals) == len(result.rounds) == 3
    losers = []
    for reveal, record in zip(reveals, result.rounds, strict=True):
        env_dice = script.dice_at_prompt[reveal["round"]]  # env.dice(0) during that round
        mode, count, face = reveal["bid"]
        for seat, (dice, shown) in reveal["seats"].items():
            assert dice == env_dice[seat]
            assert shown == counted(dice, mode, face)
        total = sum(counted(d, mode, face) for d in env_dice)
        assert reveal["total"] == total == record.counted
        assert record.bid == reveal["bid"] and record.dice == env_dice
        holds = total >= count
        assert ("the bid holds" in reveal["verdict"]) == holds
        assert record.loser == (record.challenger if holds else record.bidder)
        losers.append(record.loser)

    # final table: penalty points = rounds lost, ranked (ties share a rank)
    expected = [losers.count(p) for p in range(2)]
    assert result.penalty_points == expected
    start = next(k for k, ln in enumerate(lines) if ln.startswith("=== Match over"))
    table = [RANK_RE.match(ln) for ln in lines[start + 1:start + 3]]
    assert all(table)
    assert {int(m.group(2)): int(m.group(3)) for m in table} == dict(enumerate(expected))
    ranks = [int(m.group(1)) for m in table]
    assert ranks == ([1, 1] if expected[0] == expected[1] else [1, 2])
    assert lines[start + 3] in ("You win!", "You tied for first place.", "You finished 2nd of 2.")


def test_same_seed_same_game():
    a, ra = _play_scripted(players=2, rounds=2, seed=5)
    b, rb = _play_scripted(players=2, rounds=2, seed=5)
    assert a.lines == b.lines and ra == rb


def test_three_players_random_agents_other_seat():
    script, result = _play_scripted(players=3, rounds=2, seed=2, seat=1, agent="random",
                                    dice=3, render=True)
    assert result.status == "finished" and sum(result.penalty_points) == 2
    assert any(ln.startswith("liars_dice env 0:") for ln in script.lines)  # --render
    for reveal, record in zip(_reveals(script.lines), result.rounds, strict=True):
        mode, _, face = reveal["bid"]
        assert reveal["total"] == sum(counted(d, mode, face) for d in record.dice)
        assert {s: d for s, (d, _) in reveal["seats"].items()} == dict(enumerate(record.dice))


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
    assert "Quitting." in out and any("Match abandoned" in ln for ln in out)


def test_explain_illegal_reasons():
    fei, zhai = "fei", "zhai"
    assert explain_illegal(None, [], 2, 5).startswith("you cannot challenge")
    assert explain_illegal(None, [(fei, 3, 4)], 2, 5) is None
    assert "first bid" in explain_illegal((fei, 2, 6), [], 2, 5)
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


@pytest.mark.parametrize("players, dice, forbid, basic",
                         [(2, 3, True, False), (3, 2, False, False), (2, 5, True, False),
                          (2, 3, True, True)])
def test_explain_illegal_agrees_with_env_mask(players, dice, forbid, basic):
    """Every typed bid (in and out of range) is judged legal exactly when the env allows it."""
    env = vecgames.make("liars_dice", num_envs=1, seed=9, num_players=players, dice=dice,
                        num_rounds=50, forbid_repeat_bids=forbid,
                        variant="basic" if basic else "zhai_fei")
    _, info = env.reset()
    rng = np.random.default_rng(0)
    total = players * dice
    history: list = []
    for _ in range(150):
        mask = info["action_mask"][0]
        assert (explain_illegal(None, history, players, dice, forbid, basic) is None) == mask[0]
        for mode in ("fei", "zhai"):
            for count in range(0, total + 2):
                for face in range(0, 8):
                    bid = (mode, count, face)
                    reason = explain_illegal(bid, history, players, dice, forbid, basic)
                    in_range = 1 <= count <= total and (2 if mode == "fei" else 1) <= face <= 6
                    legal = in_range and bool(mask[bid_to_action(bid, players, dice)])
                    assert (reason is None) == legal, (bid, history, reason)
        action = int(rng.choice(np.flatnonzero(mask)))
        if rng.random() < 0.6 and action == 0 and mask[1:].any():  # longer rounds
            action = int(rng.choice(np.flatnonzero(mask[1:]))) + 1
        bid = env.bid(action)
        _, _, term, trunc, info = env.step([action])
        history = [] if info["round_over"][0] or term[0] or trunc[0] else [*history, bid]


def test_cli_help_and_errors(capsys):
    assert cli_main(["play", "liars-dice", "--help"]) == 0
    out = capsys.readouterr().out
    assert "vecgames play liars-dice" in out and "--players" in out and "--agent" in out
    assert cli_main(["play", "liars_dice", "--num-players", "9"]) == 2
    assert "--num-players" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--seat", "2"]) == 2
    assert "--seat" in capsys.readouterr().err
    assert cli_main(["play", "liars-dice", "--agent", "no/such/file.pt"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert cli_main(["play", "chess"]) == 2


def test_cli_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hmm\nq\n"))
    assert cli_main(["play", "liars-dice", "--seed", "1", "--num-players", "3"]) == 0
    out = capsys.readouterr().out
    assert "cannot read a bid" in out and "Match abandoned" in out


def test_agent_checkpoint_errors(tmp_path, monkeypatch, capsys):
    from vecgames.policies import checkpoint

    ckpt = tmp_path / "agent.pt"
    ckpt.write_bytes(b"not really")
    with monkeypatch.context() as m:  # None in sys.modules: importing torch raises ImportError
        m.setitem(sys.modules, "torch", None)
        assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1
    err = capsys.readouterr().err
    assert "torch" in err and "pip install" in err

    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1  # not a checkpoint
    assert "refusing to load" in capsys.readouterr().err

    def player(game="liars_dice", **options):
        return lambda path, device="cpu": types.SimpleNamespace(
            game=game, env_options={"num_players": 4, "dice": 5, "observation": "full",
                                    **options})

    monkeypatch.setattr(checkpoint, "load_player", player())
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 2
    assert "--players 4 --dice 5" in capsys.readouterr().err
    monkeypatch.setattr(checkpoint, "load_player", player("hanabi"))
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1
    assert "is a hanabi checkpoint" in capsys.readouterr().err

    def broken(path, device="cpu"):
        raise RuntimeError("bad magic number")

    monkeypatch.setattr(checkpoint, "load_player", broken)
    assert main(["--agent", str(ckpt)], input_fn=lambda p: "q") == 1
    assert "bad magic number" in capsys.readouterr().err


def test_agent_checkpoint_plays(tmp_path, monkeypatch):
    """A loaded checkpoint player gets its observation layout and the mask, as [1, ...]
    batches."""
    from vecgames.policies import checkpoint

    seen: list[tuple] = []

    class Player:
        game = "liars_dice"
        env_options = {"num_players": 2, "dice": 4, "observation": "seed"}

        def __call__(self, obs, mask):
            seen.append((obs.shape, obs.dtype, mask.shape, mask.dtype))
            legal = np.flatnonzero(mask[0])
            # open with the lowest bid, then make the highest bid left (never challenge)
            return np.array([legal[-1] if mask[0, 0] else legal[0]], np.int64)

    monkeypatch.setattr(checkpoint, "load_player", lambda path, device="cpu": Player())
    ckpt = tmp_path / "agent.pt"
    ckpt.write_bytes(b"x")
    out: list[str] = []

    def person(prompt):  # open with the lowest bid, else challenge
        summary = next(ln for ln in reversed(out) if ln.startswith(("No bids", "Bids this")))
        return "fei 3 2" if summary.startswith("No bids") else "c"

    assert main(["--agent", str(ckpt), "--dice", "4", "--rounds", "2", "--seed", "8"],
                input_fn=person, print_fn=out.append) == 0
    assert seen and all(s == ((1, 22), np.float32, (1, 1 + 11 * 8), np.bool_) for s in seen)
    assert any("Match over" in ln for ln in out)
