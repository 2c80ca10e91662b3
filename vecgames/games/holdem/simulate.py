"""Whole hands inside the kernels: ``vecgames.simulate("holdem", ...)``.

Hand g draws from the random stream of global index g under the seed (its deal, button and
every random choice), so results do not depend on the thread count or on how hands are split.
The policies are in ``vecgames.games.holdem.players``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numba import prange

from ...core.bits import lowest_bit, opaque
from ...core.jit import jit
from ...core.lanes import WIDTH, lane, lane_index, select, splat, srl
from ...core.rng import check_seed, seed_stream
from ...core.simulation import SimJob, numba_threads
from ...core.validation import check_bool, check_int
from ...poker.seven_card import category_of
from . import lockstep
from . import players as policies
from .rules import (
    BUTTON,
    END_STREET,
    HAND_OVER,
    MIN_RAISE_OPTIONS,
    PAID,
    PAYOUT,
    PFR,
    PLAYER,
    SHORT_STACK_OPTIONS,
    SHOWDOWN,
    STACK,
    START,
    STREET,
    STREET_NAMES,
    STRENGTH,
    VPIP,
    _finish,
    apply_action,
    deal_hand,
    make_rules,
    new_state,
    starting_stacks,
)

SLOTS = 64  # hand runs per kernel call, each in its own state row

@jit
def _play_hand(s, slot, r, seat_policy, seed, game):
    """Deal hand ``game`` into state row ``slot`` and play it to the end."""
    t = s.table[slot]
    seed_stream(s.rng, slot, seed, game)
    deal_hand(s, slot, r, game)
    while t[STREET] != HAND_OVER:
        kind, amount = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r)
        apply_action(s, slot, kind, amount, r)


@jit(inline=True)
def _record_row(t, n, g, chips, button, end_street, showdown, pot, vpip, pfr, category):
    """Row g of the per-hand columns, from a finished hand's fields ``t``."""
    total = 0
    for p in range(n):
        chips[g, p] = t[PAYOUT + p] - t[PAID + p]
        total += t[PAID + p]
        category[g, p] = category_of(t[STRENGTH + p]) if t[STRENGTH + p] > 0 else -1
    button[g] = t[BUTTON]
    end_street[g] = t[END_STREET]
    showdown[g] = t[SHOWDOWN]
    pot[g] = total
    vpip[g] = t[VPIP]
    pfr[g] = t[PFR]


@jit
def _play_hands(s, slot, r, seat_policy, seed, first, lo, hi, chips, button, end_street,
                showdown, pot, vpip, pfr, category):
    t = s.table[slot]
    n = r.num_players
    for g in range(lo, hi):
        _play_hand(s, slot, r, seat_policy, seed, first + g)
        _record_row(t, n, g, chips, button, end_street, showdown, pot, vpip, pfr, category)


@jit(parallel=True)
def _simulate_kernel(s, r, seat_policy, seed, first, chips, button, end_street, showdown, pot,
                     vpip, pfr, category):
    num = chips.shape[0]
    for slot in prange(SLOTS):
        _play_hands(s, slot, r, seat_policy, seed, first, num * slot // SLOTS,
                    num * (slot + 1) // SLOTS, chips, button, end_street, showdown, pot, vpip,
                    pfr, category)


# Per-slot totals of summary mode (float64, summed over slots in order afterwards): per seat
# chips, chips squared, hands won (chips > 0), VPIP, PFR; then hands ended on each street,
# showdowns, and the pot. The kernels leave hands won, VPIP and PFR at 0 and count seat sets
# in ``masks`` instead; ``run`` fills the three blocks from them.
S_CHIPS, S_CHIPS_SQ, S_WINS, S_VPIP, S_PFR = range(5)


@jit(inline=True)
def _tally(t, n, totals, masks):
    """Add a finished hand's fields ``t`` to a run's summary totals. The seats that won,
    called or raised are counted as one entry each in a histogram of seat sets (``masks``,
    per seat in ``run``): three increments instead of 3n."""
    ends = 5 * n
    pot = 0
    won = 0
    for p in range(n):
        c = opaque(t[PAYOUT + p] - t[PAID + p])  # (LLVM vectorised the loop with gathers)
        totals[S_CHIPS * n + p] += c
        totals[S_CHIPS_SQ * n + p] += np.float64(c) * c
        won |= np.int64(c > 0) << p
        pot += t[PAID + p]
    masks[0, won] += 1
    masks[1, t[VPIP]] += 1
    masks[2, t[PFR]] += 1
    totals[ends + t[END_STREET]] += 1
    totals[ends + 4] += t[SHOWDOWN]
    totals[ends + 5] += pot


@jit
def _summarize_hands(s, slot, r, seat_policy, seed, first, lo, hi, totals, masks):
    t = s.table[slot]
    n = r.num_players
    for g in range(lo, hi):
        _play_hand(s, slot, r, seat_policy, seed, first + g)
        _tally(t, n, totals, masks)


@jit(parallel=True)
def _summary_kernel(s, r, seat_policy, seed, first, num, totals, masks):
    for slot in prange(SLOTS):
        _summarize_hands(s, slot, r, seat_policy, seed, first, num * slot // SLOTS,
                         num * (slot + 1) // SLOTS, totals[slot], masks[slot])


@jit
def _lockstep_hands(lanes, decks, rng, r, seed, first, lo, hi, summary, totals, masks, chips,
                    button, end_street, showdown, pot, vpip, pfr, category):
    """Hands lo .. hi-1 of an all-random table, eight at a time (``lockstep``): each lane
    whose hand ended is finished, recorded and dealt the next hand of the range."""
    s = lockstep.lane_state(lanes, decks, rng)
    n = r.num_players
    games = splat(0)  # each lane's hand number
    active = 0  # lanes holding a hand (a pending lane outside it has none to finish)
    pending = (1 << WIDTH) - 1  # lanes that need a new hand
    next_game = lo
    while True:
        while pending:
            k = lowest_bit(pending)
            pending &= pending - 1
            t = s.table[k]
            if (active >> k) & 1:
                for q in range(n):  # the step keeps no PAID: chips put in so far
                    t[PAID + q] = t[START + q] - t[STACK + q]
                _finish(s, k, r)
            while True:
                if (active >> k) & 1:
                    if summary:
                        _tally(t, n, totals, masks)
                    else:
                        _record_row(t, n, lane(games, k), chips, button, end_street, showdown,
                                    pot, vpip, pfr, category)
                if next_game == hi:
                    active &= ~(1 << k)
                    t[PLAYER] = 0  # (the step treats an idle lane as seat 0 anyway)
                    break
                games = select(lane_index() == k, next_game, games)
                seed_stream(s.rng, k, seed, first + next_game)
                deal_hand(s, k, r, first + next_game)
                next_game += 1
                active |= 1 << k
                if t[STREET] != HAND_OVER:
                    break  # else the hand ended in its blinds: record it, deal the next
        if active == 0:
            return
        pending = lockstep.step(lanes, s.rng, r, -(srl(splat(active), lane_index()) & 1))


@jit(parallel=True)
def _lockstep_kernel(lanes, decks, rng, r, seed, first, num, summary, totals, masks, chips,
                     button, end_street, showdown, pot, vpip, pfr, category):
    for slot in prange(SLOTS):
        _lockstep_hands(lanes[slot], decks[slot], rng[slot], r, seed, first,
                        num * slot // SLOTS, num * (slot + 1) // SLOTS, summary, totals[slot],
                        masks[slot], chips, button, end_street, showdown, pot, vpip, pfr, category)


MAX_ROWS = 50_000_000  # per-hand frames above this need summary=True (memory)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             first_game: int = 0, num_threads: int | None = None, summary: bool = False,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` independent hands; one row per hand: ``chips_<seat>`` (chip change),
    ``button``, ``end_street`` (where the hand ended), ``showdown``, ``pot``.
    ``policy``: one of ``policies.POLICIES`` for every seat, or a list with one per seat. Also per
    seat: ``vpip_<seat>`` / ``pfr_<seat>`` (put chips in voluntarily / raised preflop) and
    ``category_<seat>`` (hand category 0..8 shown at showdown, -1 if not shown).
    ``attrs``: ``policies`` (one per seat) and ``rules``.

    ``summary=True`` keeps no per-hand rows (for very many hands): one row per seat with
    ``policy``, ``hands``, ``mean_chips``, ``std_chips``, ``win_share`` (hands with a gain),
    ``vpip``, ``pfr``; ``attrs`` adds ``end_counts`` (hands ended per street), ``showdowns``
    and ``mean_pot``. Its numbers equal those computed from the rows of the same hands."""
    job = plan(num_games, policy, seed, summary, first_game, **options)
    with numba_threads(num_threads):
        return frame(job, run(job))


def plan(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
         summary: bool = False, first_game: int = 0, **options: Any) -> SimJob:
    """The validated job of a ``simulate`` call (see ``vecgames.core.simulation``)."""
    num_games = check_int(num_games, "num_games", 1, 2**31 - 1)
    seed_u64 = check_seed(seed)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    rules = make_rules(**options)
    stacks = starting_stacks(**options)
    names, seat_policy = policies.seat_policies(policy, rules.num_players)
    summary = check_bool(summary, "summary")
    if not summary and num_games > MAX_ROWS:
        raise ValueError(f"num_games above {MAX_ROWS:,} needs summary=True "
                         f"(per-hand rows would not fit in memory), got {num_games:,}")
    return SimJob("holdem", num_games, first_game, int(seed_u64), summary,
                  {"rules": rules, "stacks": stacks, "names": names, "seat_policy": seat_policy})


def run(job: SimJob) -> dict[str, np.ndarray]:
    """Play the job's hands: per-hand columns (none with ``summary``) and ``totals``. An
    all-random table with the standard minimum raise plays in lockstep (``lockstep``: the
    same hands, faster). Setting
    ``job.params["lockstep"] = False`` forces the scalar engine (for the tests that compare
    the two; ``plan`` never sets it)."""
    rules, seat_policy = job.params["rules"], job.params["seat_policy"]
    seed, n, num = np.uint64(job.seed), rules.num_players, job.num_games
    totals = np.zeros((SLOTS, 5 * n + 6))
    masks = np.zeros((SLOTS, 3, 1 << n), np.int64)  # hands per set of seats that won/called/raised
    rows = 0 if job.summary else num
    out = {"chips": np.zeros((rows, n), np.int32), "button": np.zeros(rows, np.int8),
           "end_street": np.zeros(rows, np.int8), "showdown": np.zeros(rows, np.bool_),
           "pot": np.zeros(rows, np.int32), "vpip": np.zeros(rows, np.int16),
           "pfr": np.zeros(rows, np.int16), "category": np.zeros((rows, n), np.int8)}
    columns = (out["chips"], out["button"], out["end_street"], out["showdown"], out["pot"],
               out["vpip"], out["pfr"], out["category"])
    # the lockstep step implements the standard minimum raise only
    if (job.params.get("lockstep", True) and not rules.min_raise_call
            and bool(np.all(seat_policy == policies.RANDOM))):
        lanes, decks, rng = lockstep.new_lanes(SLOTS, job.params["stacks"])
        _lockstep_kernel(lanes, decks, rng, rules, seed, job.first_game, num, job.summary,
                         totals, masks, *columns)
    else:
        state = new_state(SLOTS, job.params["stacks"])
        if job.summary:
            _summary_kernel(state, rules, seat_policy, seed, job.first_game, num, totals, masks)
        else:
            _simulate_kernel(state, rules, seat_policy, seed, job.first_game, *columns)
    out["totals"] = totals.sum(axis=0)
    in_set = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1  # [seat set, seat]
    for k, block in enumerate((S_WINS, S_VPIP, S_PFR)):
        out["totals"][block * n:(block + 1) * n] = masks[:, k].sum(axis=0) @ in_set
    return out


def frame(job: SimJob, out: dict[str, np.ndarray]) -> pd.DataFrame:
    """The user's table from ``run``'s outputs (of one run, or of its shards merged)."""
    rules, names = job.params["rules"], job.params["names"]
    n = rules.num_players
    rules_attr = {"num_players": n, "stacks": job.params["stacks"],
                  "small_blind": rules.small_blind, "big_blind": rules.big_blind,
                  "short_stack": SHORT_STACK_OPTIONS[rules.short_stack_fold],
                  "min_raise": MIN_RAISE_OPTIONS[rules.min_raise_call]}
    if job.summary:
        summary = _summary_frame(out["totals"], n, job.num_games, names, rules_attr)
        summary.attrs.update(game="holdem", seed=job.seed, num_games=job.num_games)
        return summary
    df = pd.DataFrame({f"chips_{p}": out["chips"][:, p] for p in range(n)})
    df["button"] = out["button"]
    df["end_street"] = pd.Categorical.from_codes(out["end_street"], STREET_NAMES[:4])
    df["showdown"] = out["showdown"]
    df["pot"] = out["pot"]
    for p in range(n):
        df[f"vpip_{p}"] = (out["vpip"] >> p) & 1 == 1
    for p in range(n):
        df[f"pfr_{p}"] = (out["pfr"] >> p) & 1 == 1
    for p in range(n):
        df[f"category_{p}"] = out["category"][:, p]
    df.attrs["policies"] = names
    df.attrs["rules"] = rules_attr
    df.attrs.update(game="holdem", seed=job.seed, num_games=job.num_games)
    return df


def _summary_frame(totals: np.ndarray, n: int, hands: int, names: list[str],
                   rules_attr: dict[str, Any]) -> pd.DataFrame:
    def block(k: int) -> np.ndarray:
        return totals[k * n:(k + 1) * n]

    mean = block(S_CHIPS) / hands
    frame = pd.DataFrame({
        "seat": np.arange(n), "policy": names, "hands": hands, "mean_chips": mean,
        "std_chips": np.sqrt(np.maximum(block(S_CHIPS_SQ) / hands - mean**2, 0.0)),
        "win_share": block(S_WINS) / hands, "vpip": block(S_VPIP) / hands,
        "pfr": block(S_PFR) / hands})
    ends = totals[5 * n:]
    frame.attrs["end_counts"] = {STREET_NAMES[k]: int(ends[k]) for k in range(4)}
    frame.attrs["showdowns"] = int(ends[4])
    frame.attrs["mean_pot"] = float(ends[5] / hands)
    frame.attrs["policies"] = names
    frame.attrs["rules"] = rules_attr
    return frame


# -- what the runner of mixed tables asks of Hold'em (vecgames.simulators.mixed) ----------
def wave_start(env: Any, games: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
    """With a rotating button, simulate gives hand g the button at seat g % n; the env's
    rotation restarts at seat 0 on reset. Restart the same cards (env i dealt hand
    ``games[i]``) with simulate's buttons (the streams are left where the deal left them)."""
    if not env.rules.rotate_button:
        return env._obs, env._info
    n = env.rules.num_players
    decks = env.state.deck[:, :2 * n + 5].copy()
    return env.reset_from_deck(decks, button=np.asarray(games, np.int64) % n)


def exact_actions(env: Any, actions: np.ndarray, rows: np.ndarray, pairs: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(kinds, amounts) of every env for ``HoldemEnv.step_amounts``: the exact pairs at
    ``rows``, the discrete actions converted, and a check/call for the envs that wait (not
    read: the runner passes ``wait``)."""
    kinds = np.full(env.num_envs, policies.CALL, np.int64)
    amounts = np.zeros(env.num_envs, np.int64)
    policies.exact_actions_kernel(env.state, env.rules, env.fractions, actions, kinds, amounts)
    kinds[rows], amounts[rows] = pairs[:, 0], pairs[:, 1]
    return kinds, amounts
