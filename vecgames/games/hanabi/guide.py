"""Hanabi for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc
from .rules import CHOICES

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table, 2 to 5 (hands of 5 cards, 4 from "
                                        "4 players)"),
    "random_start": OptionDoc("Random first player", "off: seat 0 starts"),
    "end": OptionDoc("End", "final_round: one more turn each after the deck runs out; "
                            "deck_empty: the game ends as the last card is drawn",
                     CHOICES["end"]),
    "discard_at_max": OptionDoc(
        "Discard at 8 tokens", "forbidden: no discard with all 8 hint tokens; capped: allowed, "
                               "the token is lost", CHOICES["discard_at_max"]),
    "hint_target": OptionDoc("Hint whom", "any: any other player; next: only the next player",
                             CHOICES["hint_target"]),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Together, build five fireworks, red, yellow, green, white and blue, each from 1 "
             "up to 5. The score is the number of cards played, 25 at most."),
    ("Your hand", "You see every hand but your own. Cards hold their slot number; when a card "
                  "is played or discarded, the cards to its right move one slot left and the "
                  "new card goes into the last slot, on the right."),
    ("Moves", "Play a card (it must be the next of its colour, or you lose a life), discard a "
              "card (you get a hint token back), or give a hint: tell one player all their "
              "cards of one colour or of one rank (it costs a hint token)."),
    ("Tokens", "Blue dots are the hint tokens (8), red dots the lives (3); a hollow dot is "
               "spent. A completed 5 gives a hint token back. Losing the last life ends the game "
               "with score 0."),
    ("Hint badges", "The small badge on a card is what its holder knows from hints: a colour "
                    "and a rank when told, '?' when not, and a 'not ...' line for the colours "
                    "and ranks hints have ruled out."),
    ("End", "All lives lost, all 25 played, or the deck is empty and everyone has had one more "
            "turn."),
)
