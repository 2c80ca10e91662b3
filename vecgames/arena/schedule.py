"""Who sits where: the seat assignments an arena plays, and which deals each one gets.

For k players at a table of N seats (an assignment lists the player of each seat):

- k >= N: every ordered choice of N different players (k! / (k - N)! assignments); with two
  seats that is every pairing in both seat orders.
- k < N: every way to seat all k players with each in at least one seat (the maps from seats
  onto players; e.g. 2 players at 4 seats: 14 assignments).

So every player meets every other player in every pair of seats equally often, and a seat's
advantage cancels in any comparison. Each assignment plays ``num_games`` games: with
duplicate deals all assignments play the deals ``0 .. num_games - 1`` (game g of every
assignment has the same cards, seats swapped); without, assignment a plays its own deals
``a * num_games ..``.

A game budget (``balanced_assignments``) takes a smaller schedule with the same balance:
each player equally often in each seat, and each pair of players equally often at a table.
It is the exhaustive schedule when that fits the budget; else whole orbits of it under
relabeling the players. With fewer players than seats an orbit is the k! relabelings of one
seating (exactly balanced); with as many or more, the relabelings x -> m x + r (mod k), m
prime to k (each player in each seat equally often; each pair equally often when k is
prime or at most 5, and otherwise within ``MAX_PAIR_RATIO``, orbits chosen to even them).

Hanabi (cooperative) has its own schedule: each player with itself in every seat
(self-play), and for every two players A and B, A in one seat and B in all others, A's seat
going round the table (cross-play; with two seats both seat orders).
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product
from math import gcd

MAX_ASSIGNMENTS = 20_000  # above this a schedule is a mistake (e.g. many players at 6 seats)


def assignments(num_players: int, num_seats: int) -> list[tuple[int, ...]]:
    """The seat assignments of a zero-sum arena (player indices per seat), in a fixed order."""
    if num_players >= num_seats:
        return list(permutations(range(num_players), num_seats))
    return [seats for seats in product(range(num_players), repeat=num_seats)
            if len(set(seats)) == num_players]


def count_assignments(num_players: int, num_seats: int) -> int:
    """``len(assignments(num_players, num_seats))`` without listing them."""
    if num_players >= num_seats:
        count = 1
        for k in range(num_players - num_seats + 1, num_players + 1):
            count *= k
        return count
    # onto maps, by inclusion-exclusion over the players left out
    from math import comb

    return sum((-1) ** j * comb(num_players, j) * (num_players - j) ** num_seats
               for j in range(num_players + 1))


def hanabi_assignments(num_players: int, num_seats: int) -> list[tuple[int, ...]]:
    """Self-play assignments first (one per player), then cross-play ones (A alone in seat s,
    B in the others), each listed once."""
    out = [(a,) * num_seats for a in range(num_players)]
    seen = set(out)
    for a in range(num_players):
        for b in range(num_players):
            if a == b:
                continue
            for seat in range(num_seats):
                seats = tuple(a if s == seat else b for s in range(num_seats))
                if seats not in seen:
                    seen.add(seats)
                    out.append(seats)
    return out


def first_deal(index: int, num_games: int, duplicate: bool) -> int:
    """The first global game index (deal) of assignment ``index``."""
    return 0 if duplicate else index * num_games


def balanced_assignments(num_players: int, num_seats: int, budget: int
                         ) -> list[tuple[int, ...]]:
    """A balanced schedule (see the module docstring) of at most ``budget`` assignments, or
    of the smallest balanced set when even that is more (where pairs can only be evened,
    until no pair meets more than ``MAX_PAIR_RATIO`` times as often as another).
    Deterministic: the same arguments give the same list."""
    k, n = num_players, num_seats
    prime = k > 1 and all(k % d for d in range(2, k))
    if count_assignments(k, n) <= max(budget, 1) or (k >= n and k <= 5 and not prime):
        return assignments(k, n)  # (k >= n, k in 4..5 not prime: S_k's one orbit, 12-120)
    if k < n:
        relabel = list(permutations(range(k)))  # S_k: exact balance
        bases = _canonical_seatings(k, n)
    else:  # x -> m x + r: 2-transitive when k is prime
        relabel = [tuple((m * x + r) % k for x in range(k))
                   for m in range(1, k) if gcd(m, k) == 1 for r in range(k)]
        bases = _injective_seatings(k, n)
    candidates = _spread(bases, budget, len(relabel))
    exact = k < n or prime  # every orbit is balanced: take them in order
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    together: Counter[tuple[int, int]] = Counter()
    pairs = k * (k - 1) // 2
    while candidates:
        # exact: the next orbit; else the one (of the next few) that evens the pairs most
        pool = candidates[:1] if exact else candidates[:PAIR_CANDIDATES]
        best = min(pool, key=lambda base: _spread_after(together, _orbit(base, relabel, seen),
                                                        pairs))
        candidates.remove(best)
        fresh = _orbit(best, relabel, seen)
        if not fresh:
            continue
        seen.update(fresh)
        out.extend(fresh)
        together.update(_pairs(fresh))
        if (len(out) + len(relabel) > budget and len(together) == pairs
                and max(together.values()) <= MAX_PAIR_RATIO * min(together.values())):
            break
    return out


PAIR_CANDIDATES = 32  # seatings weighed for each orbit added when pairs can only be evened
MAX_PAIR_RATIO = 1.5  # then orbits are added past the budget until no pair meets more often


def _orbit(base: tuple[int, ...], relabel: list[tuple[int, ...]],
           seen: set[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The relabelings of ``base`` not yet in ``seen``, each once, in order."""
    return list(dict.fromkeys(a for a in (tuple(label[p] for p in base) for label in relabel)
                              if a not in seen))


def _pairs(schedule: list[tuple[int, ...]]) -> Counter[tuple[int, int]]:
    """How often each pair of players sits at a table together in ``schedule``."""
    return Counter((p, q) for a in schedule for p in set(a) for q in set(a) if p < q)


def _spread_after(together: Counter[tuple[int, int]], fresh: list[tuple[int, ...]],
                  pairs: int) -> tuple[int, float]:
    """How uneven the pairs' counts would be with ``fresh`` added: the pairs still never met
    (of ``pairs``), then the most over the fewest among the others."""
    after = together + _pairs(fresh)
    if not after:
        return (pairs, 0.0)
    return (pairs - len(after), max(after.values()) / min(after.values()))


def _canonical_seatings(k: int, n: int) -> list[tuple[int, ...]]:
    """One seating of each relabeling orbit (k < n): the onto maps whose players first appear
    in the order 0, 1, ..., k - 1."""
    def grow(prefix: tuple[int, ...], used: int) -> list[tuple[int, ...]]:
        if len(prefix) == n:
            return [prefix] if used == k else []
        if k - used > n - len(prefix):
            return []
        return [seat for p in range(min(used + 1, k))
                for seat in grow(prefix + (p,), max(used, p + 1))]
    return grow((), 0)


def _injective_seatings(k: int, n: int) -> list[tuple[int, ...]]:
    """Seatings of n different players out of k (k >= n): all of them, or past
    ``MAX_ASSIGNMENTS`` that many drawn from a fixed stream (the same list every time)."""
    if count_assignments(k, n) <= MAX_ASSIGNMENTS:
        return list(permutations(range(k), n))
    import numpy as np

    rng = np.random.default_rng(k * 1_000 + n)
    drawn = (tuple(int(p) for p in rng.permutation(k)[:n]) for _ in range(MAX_ASSIGNMENTS))
    return list(dict.fromkeys(drawn))


def _spread(listed: list[tuple[int, ...]], budget: int, orbit: int) -> list[tuple[int, ...]]:
    """The bases of as many orbits as the budget holds (at least one), spread evenly over
    ``listed`` in its order, so the seatings differ in their shape; then the rest, in case
    orbits overlap."""
    wanted = max(1, budget // max(orbit, 1))
    if wanted >= len(listed):
        return listed
    step = len(listed) / wanted
    picks = [listed[int(i * step)] for i in range(wanted)]
    chosen = set(picks)
    return picks + [b for b in listed if b not in chosen]
