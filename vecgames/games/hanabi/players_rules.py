"""The ``rules`` Hanabi player (described in ``vecgames.games.hanabi.players``), in a module of its
own so that players built on it (search) import it without importing the dispatch."""

from __future__ import annotations

from ...core.bits import lowest_bit
from ...core.jit import jit
from .rules import (
    FIRE,
    INFO,
    MAX_INFO,
    PLAYER,
    card_at,
    know_at,
    legal_bits,
    revealed_at,
)


@jit
def known_playable(t, know):
    """Whether every card the knowledge ``know`` allows fits the fireworks now."""
    for c in range(5):
        if (know >> c) & 1:
            for rank in range(5):
                if (know >> (5 + rank)) & 1 and t[FIRE + c] != rank:
                    return False
    return know != 0


@jit
def rule_based(s, i, r):
    t = s.table[i]
    n, h = r.num_players, r.hand_size
    p = t[PLAYER]
    for slot in range(h):
        if card_at(t, p, slot) >= 0 and known_playable(t, know_at(t, p, slot)):
            return h + slot
    if t[INFO] > 0:
        for k in range(1, 2 if r.hint_next_only else n):
            q = p + k
            if q >= n:
                q -= n
            for slot in range(h):
                c = card_at(t, q, slot)
                if (c >= 0 and t[FIRE + c // 5] == c % 5
                        and not known_playable(t, know_at(t, q, slot))):
                    if (revealed_at(t, q, slot) >> 5) == 0:
                        return r.rank_hints + 5 * (k - 1) + c % 5
                    return r.color_hints + 5 * (k - 1) + c // 5
    if t[INFO] < MAX_INFO:
        for slot in range(h):
            if card_at(t, p, slot) >= 0 and revealed_at(t, p, slot) == 0:
                return slot
        return 0
    return r.color_hints + lowest_bit(legal_bits(t, r) >> r.color_hints)
