"""Texas Hold'em for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc
from .rules import BUTTON_OPTIONS, MIN_RAISE_OPTIONS, SHORT_STACK_OPTIONS

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table, 2 to 10"),
    "stack": OptionDoc("Stack", "chips every seat starts each hand with"),
    "small_blind": OptionDoc("Small blind", "chips the small blind (SB) posts before the deal"),
    "big_blind": OptionDoc("Big blind", "chips the big blind (BB) posts; the smallest bet"),
    "button": OptionDoc("Dealer button", "random: drawn each hand; rotate: moves one seat on",
                        BUTTON_OPTIONS),
    "short_stack": OptionDoc(
        "Short stack", "all-in: a player may call or raise all-in for less (side pots); "
                       "fold: who cannot cover the bet must fold", SHORT_STACK_OPTIONS),
    "min_raise": OptionDoc(
        "Minimum raise", "standard: at least the last raise (no-limit); call: one chip over "
                         "the bet", MIN_RAISE_OPTIONS),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Win chips: the best five-card hand from your two cards and the five on the "
             "board takes the pot at the showdown, or the last player in takes it."),
    ("Blinds", "D marks the dealer button, SB and BB the small and big blind, who post chips "
               "before the deal. Heads-up, the button posts the small blind."),
    ("Streets", "Preflop (two cards each), flop (three board cards), turn (one), river (one). "
                "Each street is a betting round."),
    ("Moves", "Check when nothing is owed, call to match the bet, fold to give up. Bet opens a "
              "street's betting; raise increases a bet. Raise buttons name their size: the "
              "minimum raise, ½ pot, pot, 2× pot and all-in; the slider raises to any amount."),
)
