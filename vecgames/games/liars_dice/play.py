"""Play Liar's Dice with 斋/飞 against the computer: ``vecgames play liars-dice``.

    vecgames play liars-dice                          # you against the heuristic, 1 round
    vecgames play liars-dice --num-players 4 --rounds 3   # you against three heuristic players
    vecgames play liars-dice --agent runs/ld.pt       # against a trained agent (needs torch)
    vecgames play liars-dice --variant basic          # the original's basic rules: 飞 only
    vecgames play liars-dice --watch --agent heuristic,random --seed 3 --delay 1

One table (a ``LiarsDiceEnv`` with a single env) where one seat is a person who types bids at
the prompt and every other seat is an agent: the ``heuristic`` or ``random`` baseline of
``vecgames.games.liars_dice.players``, or a checkpoint of the Liar's Dice trainer
(``vecgames.load_player``); one for every computer seat or a comma list, one per computer seat.
``--watch`` (spectator mode, the seed's ``--render`` of AI-vs-AI games) gives every seat to the
agents and prints the match move by move with every seat's dice; with a seed it is replayable.
A typed move is checked before it reaches the env (``explain_illegal`` names the rule it
breaks, the env's action mask has the last word), so the env never sees an illegal action.

:func:`main` is the command, :func:`play` runs one match and returns a :class:`PlayResult`;
both read moves through ``input_fn(prompt)`` and write through ``print_fn(text)``, so tests can
drive them with scripted input.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...cli_args import TRAIN_HINT, CLIError, Parser, add_seat_flags, seat_flags
from ...core.rng import check_seed
from ...core.validation import check_bool, check_int
from ...play.terminal import PlayError, agent_list, check_delay, check_io, run_command
from ...play.terminal import ordinal as _ordinal
from ...policies.human import QUIT_WORDS
from .bids import (
    Bid,
    bid_beats,
    bid_to_action,
    format_bid,
    parse_bid,
)
from .env import LiarsDiceEnv
from .players import DEFAULT_THRESHOLD, POLICIES, check_threshold, env_actions
from .rules import make_rules, rules_to_options
from .view import lowest_legal, rules_text

PROG = "vecgames play liars-dice"
PROMPT = "Your bid (e.g. 'fei 7 4', 'zhai 3 1') or 'c' to challenge: "
BASIC_PROMPT = "Your bid (e.g. '7 4': seven 4s, ones wild) or 'c' to challenge: "
HELP_WORDS = ("h", "help", "?", "rules")
# Library argument name -> command-line flag, to name the flag in error messages.
FLAG_OF_ARG = {"num_players": "--num-players", "dice": "--dice", "num_rounds": "--rounds",
               "seat": "--seat", "threshold": "--threshold", "seed": "--seed",
               "variant": "--variant", "delay": "--delay"}


# ---------------------------------------------------------------- judging a typed move


def explain_illegal(bid: Bid | None, bids: Sequence[Bid], num_players: int, dice: int,
                    forbid_repeat: bool = True, basic: bool = False) -> str | None:
    """Why ``bid`` (None: a challenge) may not be made after this round's ``bids`` (oldest
    first), or None when it is legal. The reasons follow RULES.md §3 and ``bid_beats``;
    ``basic``: the seed's basic variant, where every bid is 飞."""
    total = num_players * dice
    if bid is None:
        if bids:
            return None
        return "you cannot challenge before anyone has bid: the round's opener must bid"
    mode, count, face = bid
    mode = {"飞": "fei", "斋": "zhai"}.get(mode, mode)
    bid = (mode, count, face)
    if basic and mode == "zhai":
        return ("the basic variant has no zhai (斋) bids: every bid is fei, ones wild (type "
                "e.g. '7 4')")
    if mode == "fei" and face == 1:
        return ("face 1 cannot be bid in fei (飞), where ones are wild: bid 'zhai N 1' to count "
                "ones alone")
    low = 2 if mode == "fei" else 1
    if not low <= face <= 6:
        return f"the face must be {low}..6 in {mode}, got {face}"
    if not 1 <= count <= total:
        return (f"the count must be 1..{total} (the dice on the table: {num_players} players "
                f"x {dice}), got {count}")
    if not bids:
        if bid_beats(None, bid, num_players):
            return None
        return (f"the round's first bid must have a count above the number of players "
                f"({num_players}): at least {num_players + 1}")
    prev = bids[-1]
    prev_mode, prev_count, prev_face = prev
    if not bid_beats(prev, bid):
        if mode == prev_mode:
            order = "2<3<4<5<6" if mode == "fei" else "2<3<4<5<6<1"
            return (f"it must beat the last bid {format_bid(prev)}: a higher count, or "
                    f"{prev_count} with a face above {prev_face} ({mode} order {order})")
        if mode == "zhai":
            need = (prev_count + 1) // 2
            return (f"zhai (斋) after fei (飞) {format_bid(prev)} needs a count >= "
                    f"ceil({prev_count}/2) = {need}")
        need = 2 * prev_count
        beyond = (f" (more than the {total} dice on the table: no fei bid is left)"
                  if need > total else "")
        return (f"fei (飞) after zhai (斋) {format_bid(prev)} needs a count >= 2 x {prev_count} "
                f"= {need}{beyond}")
    if forbid_repeat and bid in [tuple(b) for b in bids]:
        return f"{format_bid(bid)} was already bid this round: repeated bids are not allowed"
    return None


# ---------------------------------------------------------------- agents


class _Baseline:
    def __init__(self, name: str, threshold: float):
        self.name, self.threshold = name, threshold
        self.observation = "full"

    def describe(self) -> str:
        # only heuristic reads the threshold; every other baseline is named as it is
        return (f"heuristic (challenge threshold {self.threshold:g})" if self.name == "heuristic"
                else self.name)

    def act(self, env: Any, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(env_actions(env, self.name, self.threshold)[0])


class _Checkpoint:
    def __init__(self, path: str, player: Any):
        self.path, self.player = path, player  # a vecgames.policies.checkpoint.CheckpointPlayer
        self.observation = player.env_options["observation"]

    def describe(self) -> str:
        return f"agent {self.path}"

    def act(self, env: Any, obs: np.ndarray, mask: np.ndarray) -> int:
        rows = np.array(obs, np.float32).reshape(1, -1)
        out = self.player(rows, np.array(mask, np.bool_).reshape(1, -1))
        return int(np.asarray(out).reshape(-1)[0])


def load_opponents(agent: str | Sequence[str], seats: Sequence[int], num_players: int,
                   dice: int, threshold: float) -> dict[int, Any]:
    """The agent of each computer seat in ``seats``: ``agent`` names one for all of them (a
    baseline policy or a checkpoint path) or, as a list or a comma list, one per seat in seat
    order. Checkpoints at one table must share their observation (the env computes one)."""
    names = agent_list(agent, seats)
    loaded: dict[str, Any] = {}  # a checkpoint named twice is loaded once
    agents = {}
    for p, name in zip(seats, names, strict=True):
        key = os.fspath(name) if isinstance(name, (str, os.PathLike)) else repr(name)
        if key not in loaded:
            loaded[key] = load_opponent(name, num_players, dice, threshold)
        agents[p] = loaded[key]
    observations = {a.observation for a in loaded.values() if isinstance(a, _Checkpoint)}
    if len(observations) > 1:
        raise PlayError(f"argument --agent: the checkpoints use different observations "
                        f"({', '.join(sorted(observations))}); one table computes one")
    return agents


def load_opponent(agent: str, num_players: int, dice: int, threshold: float) -> Any:
    """The agent for a computer seat: a baseline policy name or a checkpoint path."""
    if not isinstance(agent, (str, os.PathLike)):
        raise TypeError(f"agent must be a policy name ({', '.join(POLICIES)}) or a checkpoint "
                        f"path, got {type(agent).__name__}")
    if agent in POLICIES:
        return _Baseline(agent, threshold)
    path = Path(agent)
    if not path.is_file():
        raise PlayError(f"argument --agent: must be one of {', '.join(POLICIES)} or a "
                        f"checkpoint file, and {agent!r} is neither (no such file)")
    try:
        from ...policies.checkpoint import load_player

        loaded = load_player(path, device="cpu")
    except ImportError as exc:
        raise PlayError(f"argument --agent: playing a checkpoint needs torch: {exc}; install "
                        f"it with:\n    {TRAIN_HINT}", code=1) from None
    except Exception as exc:  # a bad or foreign file: say which and why, no traceback
        raise PlayError(f"argument --agent: cannot load {agent}: {exc}", code=1) from None
    if loaded.game != "liars_dice":
        raise PlayError(f"argument --agent: {agent} is a {loaded.game} checkpoint, not a "
                        f"Liar's Dice one", code=1)
    options = loaded.env_options
    theirs = (int(options.get("num_players", -1)), int(options.get("dice", -1)))
    if theirs != (num_players, dice):
        raise PlayError(f"argument --agent: {agent} was trained for {theirs[0]} players with "
                        f"{theirs[1]} dice each, and this table has {num_players} players with "
                        f"{dice} dice: play it with --players {theirs[0]} --dice {theirs[1]}")
    if options.get("observation") not in ("seed", "full"):
        raise PlayError(f"argument --agent: {agent} has an unknown observation "
                        f"{options.get('observation')!r} (expected 'seed' or 'full')")
    return _Checkpoint(agent, loaded)


# ---------------------------------------------------------------- the match


@dataclass
class RoundRecord:
    """One finished round: everyone's dice, the bids in order, and how the challenge went."""

    number: int  # 1-based
    opener: int
    dice: list[list[int]]
    bids: list[tuple[int, Bid]]  # (seat, bid), oldest first
    challenger: int
    bidder: int
    bid: Bid  # the challenged bid
    counted: int  # dice that counted for it
    loser: int


@dataclass
class PlayResult:
    """How a match ended: ``finished`` (all rounds played), ``quit`` (the person left) or
    ``truncated`` (a round hit the env's step cap); penalty points per seat and the rounds."""

    status: str
    penalty_points: list[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    seed: int = 0

    @property
    def ranking(self) -> list[tuple[int, int, int]]:
        """``(rank, seat, penalty points)``, best first; tied seats share a rank."""
        order = sorted(range(len(self.penalty_points)), key=lambda p: (self.penalty_points[p], p))
        rows: list[tuple[int, int, int]] = []
        for k, p in enumerate(order):
            tied = rows and self.penalty_points[p] == rows[-1][2]
            rows.append((rows[-1][0] if tied else k + 1, p, self.penalty_points[p]))
        return rows


def counted_dice(dice: Sequence[int], bid: Bid) -> int:
    """Dice among ``dice`` that count for ``bid``: the face, plus the ones in fei."""
    mode, _, face = bid
    wild = mode in ("fei", "飞") and face != 1
    return sum(1 for d in dice if d == face or (wild and d == 1))


class LiarsDiceGame:
    """One match at one table: the person at ``seat``, the agents everywhere else; with
    ``watch=True`` (spectator mode) the agents hold every seat, everyone's dice are shown, and
    ``delay`` seconds pass (``sleep_fn``) after each move.

    Build it, then :meth:`run`. ``env`` is the live ``LiarsDiceEnv`` (num_envs=1); while the
    person is asked for a move, ``env.dice(0)`` holds the round's dice.
    """

    def __init__(self, players: int = 2, rounds: int = 1, dice: int = 5, seat: int = 0,
                 agent: str | Sequence[str] = "heuristic", threshold: float = DEFAULT_THRESHOLD,
                 seed: int | None = None, render: bool = False, forbid_repeat_bids: bool = True,
                 variant: str = "zhai_fei", watch: bool = False, delay: float = 0.0,
                 input_fn: Callable[[str], str] = input,
                 print_fn: Callable[[str], Any] = print,
                 sleep_fn: Callable[[float], Any] = time.sleep):
        self.rules = make_rules(num_players=players, dice=dice, num_rounds=rounds,
                                forbid_repeat_bids=forbid_repeat_bids, variant=variant)
        self.watch = check_bool(watch, "watch")
        seat = check_int(seat, "seat", 0, players - 1)
        self.seat: int | None = None if self.watch else seat
        self.basic = bool(self.rules.basic)
        self.threshold = check_threshold(threshold)
        self.delay = check_delay(delay)
        self.seed = int(check_seed(secrets.randbits(63) if seed is None else seed))
        self.render = check_bool(render, "render")
        check_io(input_fn=input_fn, print_fn=print_fn, sleep_fn=sleep_fn)
        self.input_fn, self.print_fn, self.sleep_fn = input_fn, print_fn, sleep_fn
        computers = [p for p in range(players) if p != self.seat]
        self.agents = load_opponents(agent, computers, players, dice, self.threshold)
        table_variant = rules_to_options(self.rules)["variant"]
        for seat_agent in self.agents.values():  # a checkpoint plays the rules it learned
            if not isinstance(seat_agent, _Checkpoint):
                continue
            theirs = seat_agent.player.env_options.get("variant", "zhai_fei")
            if theirs != table_variant:
                raise PlayError(f"argument --agent: {seat_agent.path} was trained for variant "
                                f"{theirs!r} and this table plays {table_variant!r}: play it "
                                f"with --variant {theirs}")
        observation = next((a.observation for a in self.agents.values()
                            if isinstance(a, _Checkpoint)), "full")
        self.env = LiarsDiceEnv(num_envs=1, seed=self.seed, observation=observation,
                                **rules_to_options(self.rules))
        self.players, self.dice_each, self.num_rounds = players, dice, rounds

    # -- text ------------------------------------------------------------------------------
    def name(self, p: int) -> str:
        return "you" if p == self.seat else f"seat {p}"

    def label(self, p: int) -> str:
        return f"seat {p} (you)" if p == self.seat else f"seat {p}"

    def say(self, text: str = "") -> None:
        self.print_fn(text)

    def _penalties(self, points: Sequence[int]) -> str:
        return ", ".join(f"{self.label(p)} {int(points[p])}" for p in range(self.players))

    def _rules_text(self) -> str:
        return rules_text(self.players, self.dice_each, self.num_rounds,
                          bool(self.rules.forbid_repeat), self.basic, not self.watch)

    def _line_up(self) -> str:
        """Who plays which seat, and the seed."""
        groups: dict[str, list[int]] = {}
        for p, agent in self.agents.items():
            groups.setdefault(agent.describe(), []).append(p)
        seats = "; ".join(f"{', '.join(f'seat {p}' for p in ps)}: {who}"
                          for who, ps in groups.items())
        if self.seat is None:
            return f"Watching (spectator mode, every seat's dice shown): {seats}. Seed {self.seed}."
        return f"You are seat {self.seat}; {seats}. Seed {self.seed}."

    def _round_header(self, number: int, opener: int) -> None:
        why = "drawn at random" if number == 1 else "last round's loser"
        opens = "you open" if opener == self.seat else f"seat {opener} opens"
        self.say()
        self.say(f"=== Round {number}/{self.num_rounds}: {opens} ({why}) ===")
        if self.seat is None:  # a spectator sees every seat's dice from the start
            for p, d in enumerate(self.env.dice(0)):
                self.say(f"  seat {p} dice: {' '.join(map(str, d))}")

    # -- moves -----------------------------------------------------------------------------
    def _ask(self, bids: list[tuple[int, Bid]], mask: np.ndarray) -> int | None:
        """The person's move as a legal action id, or None to quit."""
        assert self.seat is not None  # only a person is asked
        own = self.env.dice(0)[self.seat]
        self.say(f"Your dice: {' '.join(map(str, own))}")
        if bids:
            self.say("Bids this round: " + ", ".join(f"{self.name(p)}: {format_bid(b)}"
                                                      for p, b in bids))
        else:
            self.say(f"No bids yet: you open (the first bid needs a count above "
                     f"{self.players}).")
        history = [b for _, b in bids]
        while True:
            try:
                text = self.input_fn(BASIC_PROMPT if self.basic else PROMPT)
            except EOFError:
                self.say()
                self.say("End of input: quitting.")
                return None
            words = text.strip().lower()
            if words in QUIT_WORDS:
                self.say("Quitting.")
                return None
            if words in HELP_WORDS:
                self.say(self._rules_text())
                continue
            if not words:
                self.say("  Type a bid such as 'fei 7 4' or 'zhai 3 1', 'c' to challenge, "
                         "'h' for the rules or 'q' to quit.")
                continue
            try:
                bid = parse_bid(text, "fei" if self.basic else None)
            except ValueError as exc:
                self.say(f"  {exc}")
                continue
            reason = explain_illegal(bid, history, self.players, self.dice_each,
                                     bool(self.rules.forbid_repeat), self.basic)
            action = 0
            if reason is None and bid is not None:
                action = bid_to_action(bid, self.players, self.dice_each)
            if reason is None and not mask[action]:  # the env has the last word
                reason = f"{format_bid(bid)} is not a legal move here"
            if reason is not None:
                self.say(f"  Not allowed: {reason}.")
                self.say(f"  ({lowest_legal(mask, self.players, self.dice_each)})")
                continue
            return action

    def _agent_move(self, p: int, obs: np.ndarray, mask: np.ndarray) -> int:
        """Seat p's move (a computer's); ``obs`` [obs_dim], ``mask`` [A]."""
        agent = self.agents[p]
        action = agent.act(self.env, obs[None], mask[None])
        if not (0 <= action < len(mask) and mask[action]):  # never pass an illegal move on
            self.say(f"  ({agent.describe()} chose the illegal action {action}; "
                     "the heuristic moves instead)")
            action = int(env_actions(self.env, "heuristic", self.threshold)[0])
        return action

    def _reveal(self, number: int, opener: int, dice: list[list[int]],
                bids: list[tuple[int, Bid]], challenger: int, loser: int,
                points: Sequence[int]) -> RoundRecord:
        bidder, bid = bids[-1]
        mode, count, face = bid
        per_seat = [counted_dice(d, bid) for d in dice]
        counted = sum(per_seat)
        what = (f"{face}s, and 1s are wild" if mode == "fei" and face != 1
                else f"{face}s only, 1s are not wild" if face != 1 else "1s")
        self.say("--- Dice revealed ---")
        width = max(len(self.label(p)) for p in range(self.players))
        for p, d in enumerate(dice):
            self.say(f"  {self.label(p):<{width}} : {' '.join(map(str, d))}  -> {per_seat[p]}")
        self.say(f"Counted for {format_bid(bid)} ({what}): {counted} dice.")
        holds = counted >= count
        expected = challenger if holds else bidder
        if holds:
            verdict = (f"{counted} >= {count}: the bid holds, so the challenger "
                       f"({self.name(challenger)}) loses the round")
        else:
            verdict = (f"{counted} < {count}: the bid fails, so the bidder "
                       f"({self.name(bidder)}) loses the round")
        self.say(f"{verdict}: +1 penalty point.")
        if expected != loser:  # not expected: the env is the authority on the outcome
            self.say(f"  (note: the environment scored the round against {self.label(loser)})")
        self.say(f"Penalty points: {self._penalties(points)}")
        return RoundRecord(number=number, opener=opener, dice=dice, bids=list(bids),
                           challenger=challenger, bidder=bidder, bid=bid, counted=counted,
                           loser=loser)

    def _final(self, result: PlayResult) -> None:
        self.say()
        title = {"finished": "Match over", "quit": "Match abandoned",
                 "truncated": "Match ended unresolved"}[result.status]
        self.say(f"=== {title}: penalty points after {len(result.rounds)} of "
                 f"{self.num_rounds} round(s) (fewer is better) ===")
        width = max(len(self.label(p)) for p in range(self.players))
        for rank, p, points in result.ranking:
            self.say(f"  {rank}. {self.label(p):<{width}}  {points}")
        if result.status == "finished" and self.seat is None:
            best = [p for r, p, _ in result.ranking if r == 1]
            self.say(f"Seat {best[0]} wins." if len(best) == 1 else
                     f"Seats {', '.join(map(str, best))} tie for first place.")
        elif result.status == "finished":
            mine = next(r for r, p, _ in result.ranking if p == self.seat)
            shared = sum(1 for r, _, _ in result.ranking if r == mine) > 1
            if mine == 1:
                self.say("You tied for first place." if shared else "You win!")
            else:
                self.say(f"You finished {'tied ' if shared else ''}{_ordinal(mine)} "
                         f"of {self.players}.")

    # -- the loop --------------------------------------------------------------------------
    def run(self) -> PlayResult:
        from ...core.simulation import numba_threads

        with numba_threads(1):  # one table: waking a thread pool per step costs more
            return self._run()

    def _run(self) -> PlayResult:
        env = self.env
        self.say(self._rules_text())
        self.say(self._line_up())
        obs, info = env.reset()
        result = PlayResult(status="finished", penalty_points=[0] * self.players,
                            seed=self.seed)
        number, opener = 1, int(info["current_player"][0])
        bids: list[tuple[int, Bid]] = []
        self._round_header(number, opener)
        if self.render:
            self.say(env.render(0))
        while True:
            p = int(info["current_player"][0])
            mask = info["action_mask"][0].copy()
            dice = env.dice(0)  # copied now: a match-ending step rolls the next match
            points = [int(x) for x in info["penalty_points"][0]]
            if p == self.seat:
                action = self._ask(bids, mask)
                if action is None:
                    result.status, result.penalty_points = "quit", points
                    self._final(result)
                    return result
            else:
                action = self._agent_move(p, obs[0].copy(), mask)
            bid = env.bid(action)
            if bid is not None:
                self.say(f"{'You bid' if p == self.seat else f'seat {p} bids'} "
                         f"{format_bid(bid)}")
            else:
                target = "your" if bids[-1][0] == self.seat else f"seat {bids[-1][0]}'s"
                who = "You challenge" if p == self.seat else f"seat {p} challenges"
                self.say(f"{who} {target} bid {format_bid(bids[-1][1])}!")
            obs, _, terminated, truncated, info = env.step(np.array([action]))
            if info["illegal"][0]:  # cannot happen: every action was checked against the mask
                raise RuntimeError(f"the env rejected action {action} as illegal")
            if self.delay and p != self.seat:  # let people follow the computer's moves
                self.sleep_fn(self.delay)
            if bid is not None:
                bids.append((p, bid))
            if info["round_over"][0]:
                over = bool(terminated[0] or truncated[0])
                now = info["final_penalty_points" if over else "penalty_points"][0]
                points = [int(x) for x in now]
                result.rounds.append(self._reveal(number, opener, dice, bids, p,
                                                  int(info["loser"][0]), points))
                result.penalty_points = points
                if not over:
                    number, opener, bids = number + 1, int(info["current_player"][0]), []
                    self._round_header(number, opener)
            if truncated[0] and not terminated[0]:
                self.say("The round reached the step limit (max_round_steps): the match ends "
                         "unresolved.")
                result.status = "truncated"
                result.penalty_points = [int(x) for x in info["final_penalty_points"][0]]
            if terminated[0] or truncated[0]:
                self._final(result)
                return result
            if self.render:
                self.say(env.render(0))


def play(players: int = 2, rounds: int = 1, dice: int = 5, seat: int = 0,
         agent: str | Sequence[str] = "heuristic", threshold: float = DEFAULT_THRESHOLD,
         seed: int | None = None, render: bool = False, forbid_repeat_bids: bool = True,
         variant: str = "zhai_fei", watch: bool = False, delay: float = 0.0,
         input_fn: Callable[[str], str] = input, print_fn: Callable[[str], Any] = print,
         sleep_fn: Callable[[float], Any] = time.sleep) -> PlayResult:
    """Play one match of ``rounds`` rounds with the person at ``seat``, or watch one with
    ``watch=True`` (see the module doc and :class:`LiarsDiceGame`). Raises ValueError/TypeError
    for bad options and :class:`PlayError` for a bad agent."""
    game = LiarsDiceGame(players=players, rounds=rounds, dice=dice, seat=seat, agent=agent,
                         threshold=threshold, seed=seed, render=render,
                         forbid_repeat_bids=forbid_repeat_bids, variant=variant, watch=watch,
                         delay=delay, input_fn=input_fn, print_fn=print_fn, sleep_fn=sleep_fn)
    return game.run()


# ---------------------------------------------------------------- the command


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog=PROG, description="Play Liar's Dice with 斋/飞 (zhai/fei) against the computer: "
        "type bids such as 'fei 7 4' or 'zhai 3 1', 'c' to challenge, 'q' to quit; or watch "
        "the computer play every seat (--watch).")
    add_seat_flags(p, "the computer's players (the same as --agent)")
    p.add_argument("--rounds", type=int, default=1, help="rounds in the match (default 1)")
    p.add_argument("--dice", type=int, default=5, help="dice per player (default 5)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0..players-1 (default 0)")
    p.add_argument("--agent", metavar="|".join(POLICIES) + "|PATH.pt[,...]",
                   help="the computer's players: a baseline policy or a checkpoint of "
                        "vecgames.training.liars_dice (needs torch; default heuristic), or a "
                        "comma list with one per computer seat in seat order")
    p.add_argument("--watch", action="store_true",
                   help="spectator mode: the agents play every seat and the match is printed "
                        "move by move with every seat's dice (--seat is ignored)")
    p.add_argument("--delay", type=float, default=0.0,
                   help="seconds to wait after each computer move (default 0)")
    p.add_argument("--variant", default="zhai_fei", choices=("zhai_fei", "basic"),
                   help="zhai_fei: bids in 斋 or 飞 (default); basic: the original's basic rules, "
                        "飞 bids only (ones always wild)")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                   help="heuristic: challenge when the last bid holds with a probability "
                        f"below this (default {DEFAULT_THRESHOLD})")
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed)")
    p.add_argument("--render", action="store_true",
                   help="also print the whole table (every seat's dice) after each move")
    repeat = p.add_mutually_exclusive_group()
    repeat.add_argument("--forbid-repeat-bids", dest="forbid_repeat_bids", action="store_true",
                        default=True, help="a bid may not repeat one made earlier in the "
                        "round (default)")
    repeat.add_argument("--allow-repeat-bids", dest="forbid_repeat_bids",
                        action="store_false", help="the original rule: repeats allowed")
    return p


def main(argv: list[str] | None = None, input_fn: Callable[[str], str] = input,
         print_fn: Callable[[str], Any] = print) -> int:
    """Run ``vecgames play liars-dice``; returns the exit code (0 played or quit, 1 failure,
    2 usage error, 130 interrupted)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, argparse usage errors
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        count, listed = seat_flags(args, PROG)
        if listed is not None and args.agent is not None:
            raise CLIError("argument --players: given twice (--players and --agent)")
    except CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    agent = listed or args.agent or "heuristic"
    return run_command(PROG, lambda: LiarsDiceGame(
        players=2 if count is None else count, rounds=args.rounds, dice=args.dice, seat=args.seat,
        agent=agent, threshold=args.threshold, seed=args.seed, render=args.render,
        forbid_repeat_bids=args.forbid_repeat_bids, variant=args.variant, watch=args.watch,
        delay=args.delay, input_fn=input_fn, print_fn=print_fn), FLAG_OF_ARG, print_fn)


if __name__ == "__main__":
    sys.exit(main())
