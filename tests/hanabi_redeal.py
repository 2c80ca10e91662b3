"""Shared by the Hanabi player tests: the player to act dealt other cards consistent with what
it knows, and the honesty check built on that (its move, and what it writes to the memo, must
not change)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vecgames.games.hanabi import players as hanabi
from vecgames.games.hanabi.rules import DEALT, HAND, HINT_BITS, HINTS, PLAYER, TERMINAL, State

# (state, env, seat, hand size) -> per slot, the set of types (bit t) the player allows there
PublicSets = Callable[[State, int, int, int], list[int]]


def copy_state(state: State) -> State:
    return State(*(np.array(a, copy=True) for a in state))


def own_cards(state: State, i: int, seat: int, hand_size: int) -> list[int]:
    word = int(state.table[i, HAND + seat])
    return [((word >> (8 * k)) & 255) - 1 for k in range(hand_size)]


def act(state: State, rules, code: int, i: int) -> int:
    """The move of built-in player ``code`` in env i (as ``BuiltinPlayer.act_env``)."""
    out = np.zeros(1, np.int64)
    hanabi.rows_actions_kernel(state, rules, code, np.array([i], np.int64), out)
    return int(out[0])


def redeal_own_cards(state: State, i: int, rules, public_sets: PublicSets,
                     rng: np.random.Generator, tries: int = 50) -> bool:
    """Give the player to act other cards, each allowed by ``public_sets`` for its slot, taken
    with its old ones from the pool it cannot see (own hand + deck), the rest back into the
    deck in a random order: the counts it can see stay. False if no deal other than the
    position itself was found."""
    seat = int(state.table[i, PLAYER])
    h = rules.hand_size
    own = own_cards(state, i, seat, h)
    held = [k for k in range(h) if own[k] >= 0]
    dealt = int(state.table[i, DEALT])
    pool = [c for c in own if c >= 0] + [int(c) for c in state.deck[i, dealt:]]
    sets = public_sets(state, i, seat, h)
    for _ in range(tries):
        left = [pool[j] for j in rng.permutation(len(pool))]
        new = {}
        for k in held:
            pick = next((j for j, c in enumerate(left) if (sets[k] >> c) & 1), None)
            if pick is None:
                break
            new[k] = left.pop(pick)
        if len(new) != len(held):
            continue
        hand = hints = 0
        for k, c in new.items():
            hand |= (c + 1) << (8 * k)
            hints |= int(HINT_BITS[c + 1]) << (10 * k)
        state.table[i, HAND + seat] = hand
        state.table[i, HINTS + seat] = hints
        state.deck[i, dealt:] = left
        return [new[k] for k in held] != [own[k] for k in held] or len(left) > 1
    return False


def honesty_counts(env, code: int, public_sets: PublicSets,
                   rng: np.random.Generator) -> tuple[int, int]:
    """For every live env: the player's move and memo writes with its own cards dealt again
    (``redeal_own_cards``) equal those of the real position (asserted). Returns how many
    positions were checked and in how many the player's own cards changed."""
    checked = changed = 0
    h = env.rules.hand_size
    for i in range(env.num_envs):
        if env.state.table[i, TERMINAL]:
            continue
        ref = copy_state(env.state)
        action = act(ref, env.rules, code, i)
        other = copy_state(env.state)
        if not redeal_own_cards(other, i, env.rules, public_sets, rng):
            continue
        seat = int(env.state.table[i, PLAYER])
        changed += own_cards(other, i, seat, h) != own_cards(env.state, i, seat, h)
        assert act(other, env.rules, code, i) == action
        np.testing.assert_array_equal(other.memo[i], ref.memo[i])
        checked += 1
    return checked, changed
