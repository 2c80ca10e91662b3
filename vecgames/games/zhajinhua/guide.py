"""Zha Jin Hua for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc
from ...poker.three_card import A23_OPTIONS

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table, 2 to 6"),
    "ante": OptionDoc("Ante", "chips every player puts in the pot before the deal (0: none)"),
    "no_compare_rounds": OptionDoc(
        "Rounds without compare", "compare is allowed from this round on (1: not in round 1)"),
    "max_rounds": OptionDoc("Rounds", "after this many rounds everyone still in shows down"),
    "a23": OptionDoc("A-2-3 straight", "lowest: the lowest straight; second: just below A-K-Q",
                     A23_OPTIONS),
    "special_235": OptionDoc("2-3-5 beats trips",
                             "an off-suit 2-3-5 beats three of a kind (and nothing else)"),
    "first_player": OptionDoc("First player", "the seat that acts first (unset: drawn at random)"),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Win the pot: be the last player in, or hold the best hand when the rounds run "
             "out and everyone still in shows down."),
    ("A turn", "Two steps. Look phase: look at your three cards, or go on blind. Action phase: "
               "bet, compare or fold. Playing blind is cheaper: a player who has looked pays "
               "twice as many chips for the same bet."),
    ("Bets", "The table keeps a minimum bet, in units. The bet at the minimum is the call "
             "(跟注); a larger one raises the minimum. The buttons say what each bet costs you."),
    ("Compare (比牌)", "Pay twice the minimum bet to see one other player's hand against "
                       "yours: the weaker hand is out (on a tie, the one who asked). Not allowed "
                       "in the first round."),
    ("Hands, best first", "Three of a kind 豹子, straight flush 顺金, flush 金花, straight 顺子, "
                          "pair 对子, high card 单张. A-K-Q is the top straight; A-2-3 the "
                          "lowest (an option). Suits never rank: equal hands split."),
)
