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

Hanabi (cooperative) has its own schedule: each player with itself in every seat
(self-play), and for every two players A and B, A in one seat and B in all others, A's seat
going round the table (cross-play; with two seats both seat orders).
"""

from __future__ import annotations

from itertools import permutations, product

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
