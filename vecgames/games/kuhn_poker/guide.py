"""Kuhn poker for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc

# No ``choices`` for num_players: a fixed few would be offered, and the rules refuse a value
# of the wrong type (a string) with a TypeError, which the guides' test reads as a bad choice.
OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table: 2, the only count (OpenSpiel's "
                                        "two-player Kuhn poker)"),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Win the pot: hold the higher card when the cards are shown, or make the other "
             "player fold. Three cards: J < Q < K."),
    ("The deal", "Each player puts 1 chip in the pot (the ante) and gets one card; the third "
                 "card stays hidden from both."),
    ("Betting", "One round, player 0 first. Pass (check) or bet 1 chip. After a check the "
                "other player may check too, or bet. Facing a bet, pass (fold: the bettor "
                "takes the pot) or bet (call)."),
    ("Showdown", "After two checks (a pot of 2) or a called bet (a pot of 4) the higher card "
                 "takes the pot. A player wins or loses 1 chip, or 2 when a bet was called."),
)
