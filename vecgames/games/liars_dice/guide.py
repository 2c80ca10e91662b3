"""Liar's Dice for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc
from .rules import REWARDS, VARIANTS

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table, 2 to 8"),
    "dice": OptionDoc("Dice", "dice per player"),
    "num_rounds": OptionDoc("Rounds", "rounds per game; every round's loser gets a penalty point"),
    "variant": OptionDoc("Variant", "zhai_fei: 飞 and 斋 bids; basic: 飞 bids only (ones wild)",
                         VARIANTS),
    "forbid_repeat_bids": OptionDoc(
        "No repeated bids", "a bid already made this round may not be made again (without "
                            "it a round can go on for ever)"),
    "reward": OptionDoc("Points", "zero_sum: -1 to the loser, the rest shared by the others; "
                                  "'seed' (the original's): +1 to every other player", REWARDS),
    "max_round_steps": OptionDoc("Bid limit", "a round with this many bids is cut, no points"),
    "min_first_count": OptionDoc(
        "Least first bid", "the least count of a round's first bid (unset: players + 1)"),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Lose as few rounds as you can. Everyone rolls their dice in secret; you see "
             "only your own."),
    ("Bids", "A bid says how many dice of one face all players hold together, at least: "
             "'4 × 3' means four or more threes. Pick the mode, the count and the face, then Bid."),
    ("飞 fei and 斋 zhai", "飞 (wild): faces 2 to 6, and ones count as any face. 斋 (pure): "
                          "faces 1 to 6, ones count only as ones; 1 is the highest 斋 face."),
    ("Raising", "Each bid must beat the last: same mode and a higher count, or the same count "
                "and a higher face. 飞 to 斋 needs at least half the count (rounded up); 斋 to "
                "飞 at least twice the count. The first bid needs a count above the number of "
                "players; a bid may not repeat one made this round."),
    ("Challenge", "Instead of bidding, challenge the last bid: all dice are shown. If the "
                  "bid holds, the challenger loses the round; if not, the bidder does. The "
                  "loser gets a penalty point and opens the next round."),
)
