"""Leduc Hold'em for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table: 2, the only count (OpenSpiel's "
                                        "two-player Leduc)"),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Win the pot: hold the better hand when the cards are shown, or make the other "
             "player fold. Six cards: the J, Q and K of two suits."),
    ("The deal", "Each player puts 1 chip in the pot (the ante) and gets one private card. A "
                 "public card is shown after the first betting round."),
    ("Betting", "Two rounds, the first player opens each. Check or call (match the bet), "
                "raise (2 chips in the first round, 4 in the second, at most two raises a "
                "round), or fold when facing a bet. A round ends after two checks or when a "
                "raise is called."),
    ("Showdown", "A private card of the public card's rank makes a pair, which beats any "
                 "single card; otherwise the higher private card wins (K > Q > J). Equal "
                 "ranks split the pot."),
)
