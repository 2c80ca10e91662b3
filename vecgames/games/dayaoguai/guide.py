"""Da Yaoguai for a person: the rule options' labels and help, and how to play."""

from __future__ import annotations

from ...core.guide import OptionDoc

OPTION_DOCS: dict[str, OptionDoc] = {
    "num_players": OptionDoc("Players", "seats at the table, 3 to 6"),
    "base": OptionDoc("Beans per card", "beans a picked-up card costs per other player"),
    "max_steps": OptionDoc("Move limit", "a game with this many moves is cut (the beating "
                                         "order is a cycle: a game need not end)"),
    "must_beat": OptionDoc("Must beat", "pass only when no card of yours beats the top card"),
}

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("Goal", "Be the first to play out all your cards, and pick up as few as you can. 28 "
             "cards, J Q K 3 8 5 10 in four suits."),
    ("Card order", "J < Q < K < 3 < 8 < 5: a later card beats an earlier one. J, Q and K are "
                   "the monsters, 3, 8 and 5 the disciples, 10 the master: the 10 beats the "
                   "disciples and the monsters beat the 10. Equal ranks never beat each other; "
                   "no card is highest."),
    ("A trick", "The holder of the J♦ leads it. Then each player plays a card that beats the "
                "top card, or passes: passing picks up every card on the table and leads the "
                "next trick with any card."),
    ("Beans", "Picking up n cards costs n × base beans per other player; each other player "
              "gains n × base. The game ends when one player is left holding cards."),
)
