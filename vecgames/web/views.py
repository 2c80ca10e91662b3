"""What a seat may see of a table, as JSON: the only place the web app reads hidden state.

``table_view(game, s, env, seat, reveal, shown)`` turns a one-env state (``row_state``) into
plain JSON values. ``seat`` is the viewer's seat (None: a spectator); ``reveal`` (spectators
only) shows every hand; ``shown`` are seats whose cards the game has revealed (a showdown).
Otherwise a seat sees what the game shows it and nothing else: its own cards (Zha Jin Hua:
after looking; Hanabi: never, only what hints told), other seats' cards only when the rules
reveal them. Hanabi's cards face outward, so a spectator sees every hand without
``reveal``. Every card is a dict with a ``card`` id, so a test can check every message.

The move list and the move log reuse the terminal views (``vecgames.play.<game>.VIEW``):
their ``moves`` (legal ones only), ``narrate`` and ``game_over`` say only what every seat saw.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from ..core.cards import RANKS, SUITS
from ..policies.human import Move, View

# the terminal views, one per game (the web's move names, log lines and results)
VIEW_MODULES = {"zhajinhua": "vecgames.play.zhajinhua", "holdem": "vecgames.play.holdem",
                "liars_dice": "vecgames.play.liars_dice_view", "hanabi": "vecgames.play.hanabi",
                "dayaoguai": "vecgames.play.dayaoguai"}
TITLES = {"zhajinhua": "Zha Jin Hua", "holdem": "Texas Hold'em", "liars_dice": "Liar's Dice",
          "hanabi": "Hanabi", "dayaoguai": "Da Yaoguai"}


def view_of(game: str) -> View:
    import importlib

    return importlib.import_module(VIEW_MODULES[game]).VIEW  # type: ignore[no-any-return]


def poker_card(c: int) -> dict[str, Any]:
    c = int(c)
    return {"card": c, "r": RANKS[c >> 2], "s": SUITS[c & 3]}


def _sees(seat: int | None, reveal: bool, shown: Collection[int]) -> Callable[[int], bool]:
    return lambda p: reveal or p == seat or p in shown


# ---------------------------------------------------------------- Zha Jin Hua


def _zhajinhua(s: Any, env: Any, seat: int | None, reveal: bool,
               shown: Collection[int]) -> dict[str, Any]:
    from ..games.zhajinhua.rules import LOOK_PHASE, field
    from ..poker.three_card import CATEGORY_NAMES

    def f(name: str) -> Any:
        return field(s, name)[0]

    alive, seen = int(f("alive")), int(f("seen"))
    known = int(f("known")[seat]) if seat is not None else 0
    seats = []
    for p in range(env.rules.num_players):
        last = int(f("last_action")[p])
        own = p == seat
        visible = reveal or p in shown or (own and (seen >> p) & 1) or (known >> p) & 1
        row: dict[str, Any] = {"in": bool((alive >> p) & 1), "seen": bool((seen >> p) & 1),
                               "paid": int(f("paid")[p]),
                               "last": env.action_names[last] if last >= 0 else None,
                               "cards": None, "hand": None}
        if visible:
            row["cards"] = [poker_card(c) for c in s.deck[0, 3 * p:3 * p + 3]]
            row["hand"] = CATEGORY_NAMES[int(f("strength")[p]) >> 12]
        seats.append(row)
    return {"round": int(f("round")) + 1, "max_rounds": int(env.rules.max_rounds),
            "pot": int(f("pot")), "min_bet": int(f("min_bet")),
            "phase": "look" if int(f("phase")) == LOOK_PHASE else "bet", "seats": seats}


def _zhajinhua_shown(before: Any, env: Any, action: Any) -> list[int]:
    """The seats that show their cards at the end: the seats still in when the rounds ran
    out (as the terminal's game_over says)."""
    from ..games.zhajinhua.rules import BET0, COMPARE0, FOLD, field
    from ..play.zhajinhua import _compare_loser

    alive = [q for q in range(env.rules.num_players) if (int(field(before, "alive")[0]) >> q) & 1]
    p = int(field(before, "player")[0])
    if action == FOLD:
        alive.remove(p)
    elif COMPARE0 <= action < BET0:
        alive.remove(_compare_loser(before, env, p, action - COMPARE0))
    return alive if len(alive) > 1 else []


# ---------------------------------------------------------------- Hold'em


def _holdem(s: Any, env: Any, seat: int | None, reveal: bool,
            shown: Collection[int]) -> dict[str, Any]:
    from ..games.holdem.rules import STREET_NAMES, field, raise_bounds

    def f(name: str) -> Any:
        return field(s, name)[0]

    n = env.rules.num_players
    street = int(f("street"))
    dealt = int(f("end_street")) if street >= 4 else street  # a hand over: where it ended
    board = 0 if dealt == 0 else min(dealt + 2, 5)  # never a card the hand did not deal
    if shown:  # a showdown: the whole board was dealt
        board = 5
    sees = _sees(seat, reveal, shown)
    to_call, low, high = raise_bounds(s, 0, env.rules)
    folded, all_in = int(f("folded")), int(f("all_in"))
    seats = [{"stack": int(f("stack")[p]), "bet": int(f("bet")[p]),
              "status": ("folded" if (folded >> p) & 1 else "all-in" if (all_in >> p) & 1
                         else "in"),
              "cards": [poker_card(c) for c in s.deck[0, 2 * p:2 * p + 2]] if sees(p) else None}
             for p in range(n)]
    button = int(f("button"))
    small = button if n == 2 else (button + 1) % n  # as the rules post them (heads-up: button)
    return {"street": STREET_NAMES[min(street, 4)], "button": button,
            "blinds": {"small": small, "big": (small + 1) % n},
            "board": [poker_card(c) for c in s.deck[0, 2 * n:2 * n + board]],
            "pot": int(f("paid")[:n].sum()), "to_call": int(to_call),
            "raise": {"min": int(low), "max": int(high)} if low <= high else None,
            "seats": seats}


def _holdem_shown(before: Any, env: Any, action: Any) -> list[int]:
    """The seats at the showdown (none when everyone else folded)."""
    from ..games.holdem.rules import field
    from ..play.holdem import _exact

    fold = _exact(before, env, action)[0] == 0
    folded = int(field(before, "folded")[0]) | (
        (1 << int(field(before, "player")[0])) if fold else 0)
    left = [p for p in range(env.rules.num_players) if not (folded >> p) & 1]
    return left if len(left) > 1 else []


# ---------------------------------------------------------------- Liar's Dice


def _faces(packed: int) -> list[int]:
    from ..games.liars_dice.rules import unpack_counts

    return [f + 1 for f, c in enumerate(unpack_counts(packed)) for _ in range(int(c))]


def _bid(env: Any, action: int) -> dict[str, Any] | None:
    from ..games.liars_dice.bids import action_to_bid, format_bid

    bid = action_to_bid(action, env.rules.num_players, env.rules.dice)
    if bid is None:
        return None
    mode, count, face = bid
    return {"mode": str(mode), "count": int(count), "face": int(face), "text": format_bid(bid)}


def _liars_dice(s: Any, env: Any, seat: int | None, reveal: bool,
                shown: Collection[int]) -> dict[str, Any]:
    from ..games.liars_dice.rules import field

    def f(name: str) -> Any:
        return field(s, name)[0]

    sees = _sees(seat, reveal, shown)
    n = env.rules.num_players
    last = int(f("last"))
    seats = [{"penalty": int(f("penalty")[p]),
              "dice": _faces(int(f("dice")[p])) if sees(p) else None,
              "count": len(_faces(int(f("dice")[p])))} for p in range(n)]
    loser = int(f("loser"))
    finished = None
    if loser >= 0:  # the last finished round: every seat saw these dice at the challenge
        finished = {"loser": loser, "challenger": int(f("challenger")),
                    "bid": _bid(env, int(f("challenged"))), "actual": int(f("actual")),
                    "dice": [_faces(int(f("revealed")[p])) for p in range(n)]}
    return {"round": int(f("round")) + 1, "rounds": int(env.rules.num_rounds),
            "last_bid": _bid(env, last) if last else None,
            "bidder": int(f("bidder")) if last else None, "seats": seats,
            "last_round": finished}


# ---------------------------------------------------------------- Hanabi


def _hanabi(s: Any, env: Any, seat: int | None, reveal: bool,
            shown: Collection[int]) -> dict[str, Any]:
    from ..games.hanabi.rules import (
        COLOR_NAMES,
        DECK_SIZE,
        LAST_ACTION,
        LAST_ACTOR,
        MAX_INFO,
        MAX_LIFE,
        field,
        hands,
        knowledge,
    )

    def f(name: str) -> Any:
        return field(s, name)[0]

    def card(c: int) -> dict[str, Any]:
        return {"card": int(c), "color": COLOR_NAMES[c // 5], "rank": int(c % 5) + 1}

    def known(k: int) -> dict[str, Any]:
        """What the holder knows (every seat heard the hints): a colour and a rank once
        only one is possible, and the colours and ranks hints ruled out."""
        colors = [COLOR_NAMES[c] for c in range(5) if (k >> c) & 1]
        ranks = [v + 1 for v in range(5) if (k >> (5 + v)) & 1]
        return {"color": colors[0] if len(colors) == 1 else None,
                "rank": ranks[0] if len(ranks) == 1 else None,
                "not_colors": [] if len(colors) == 1 else
                [COLOR_NAMES[c] for c in range(5) if not (k >> c) & 1],
                "not_ranks": [] if len(ranks) == 1 else
                [v + 1 for v in range(5) if not (k >> (5 + v)) & 1]}

    cards, know = hands(s)[0], knowledge(s)[0]
    seats = []
    for p in range(env.rules.num_players):
        # cards face outward: a player sees every hand but their own, an onlooker every hand
        visible = reveal or seat is None or p != seat
        slots = []
        for k in range(env.rules.hand_size):
            if cards[p, k] < 0:
                continue
            slot: dict[str, Any] = {"slot": k, "know": known(int(know[p, k]))}
            if visible:
                slot["card"] = card(int(cards[p, k]))
            slots.append(slot)
        seats.append({"slots": slots})
    t = s.table[0]
    last = None
    if t[LAST_ACTOR] >= 0:
        last = f"seat {int(t[LAST_ACTOR])}: {env.action_name(int(t[LAST_ACTION]))}"
    return {"fireworks": [{"color": COLOR_NAMES[c], "height": int(h)}
                          for c, h in enumerate(f("fireworks"))],
            "score": int(f("score")), "info": int(f("info")), "max_info": MAX_INFO,
            "life": int(f("life")), "max_life": MAX_LIFE,
            "deck": int(DECK_SIZE - int(f("dealt"))), "turn": int(f("turn")) + 1,
            "last": last, "seats": seats,
            "discards": [card(int(c)) for c in sorted(s.pile[0, :int(f("piled"))])]}


# ---------------------------------------------------------------- Da Yaoguai

DYG_SUITS = "hscd"  # the order of the game's SUIT_SYMBOLS: ♥ ♠ ♣ ♦


def dyg_card(c: int) -> dict[str, Any]:
    from ..games.dayaoguai.rules import RANK_NAMES

    return {"card": int(c), "r": RANK_NAMES[c // 4], "s": DYG_SUITS[c % 4]}


def _bits(cards: int) -> list[dict[str, Any]]:
    from ..games.dayaoguai.rules import NUM_CARDS

    return [dyg_card(c) for c in range(NUM_CARDS) if (cards >> c) & 1]


def _dayaoguai(s: Any, env: Any, seat: int | None, reveal: bool,
               shown: Collection[int]) -> dict[str, Any]:
    from ..games.dayaoguai.names import seat_label
    from ..games.dayaoguai.rules import field

    def f(name: str) -> Any:
        return field(s, name)[0]

    sees = _sees(seat, reveal, shown)
    seats = []
    for p in range(env.rules.num_players):
        hand = int(f("hand")[p])
        seats.append({"name": seat_label(p, env.seat_names), "count": bin(hand).count("1"),
                      "beans": int(f("beans")[p]), "place": int(f("place")[p]),
                      "hand": _bits(hand) if sees(p) else None,
                      # cards it picked up from the table (everyone saw them) and still holds
                      "known": _bits(int(f("known")[p]))})
    return {"step": int(f("steps")),
            "table": [dyg_card(int(c)) for c in s.table_cards[0, :int(f("table_n"))]],
            "seats": seats}


TABLES: dict[str, Callable[..., dict[str, Any]]] = {
    "zhajinhua": _zhajinhua, "holdem": _holdem, "liars_dice": _liars_dice,
    "hanabi": _hanabi, "dayaoguai": _dayaoguai}


def _liars_dice_shown(before: Any, env: Any, action: Any) -> list[int]:
    """A challenge shows every seat's dice."""
    return list(range(env.rules.num_players)) if action == 0 else []


SHOWDOWNS: dict[str, Callable[[Any, Any, Any], list[int]]] = {
    "zhajinhua": _zhajinhua_shown, "holdem": _holdem_shown, "liars_dice": _liars_dice_shown}


def table_view(game: str, s: Any, env: Any, seat: int | None, reveal: bool = False,
               shown: Collection[int] = ()) -> dict[str, Any]:
    """The table of one-env state ``s`` as ``seat`` sees it (see the module docstring)."""
    out = TABLES[game](s, env, seat, bool(reveal), frozenset(shown))
    out["player"] = int(env_player(game, s))
    return out


def final_state(game: str, before: Any, after: Any, env: Any, action: Any, info: Any) -> Any:
    """The one-env state a game ended in, to show at its end. The env deals the next game in
    the step that ends one (``after`` is that deal), keeping the finished game's table row in
    ``env.final_table`` (Liar's Dice: its penalty points in ``info``); the arrays a deal does
    not touch are taken from ``after`` (Hanabi's discard pile, Da Yaoguai's table cards), the
    ones it does from ``before`` (the deck a game was dealt from)."""
    if game == "liars_dice":
        from ..games.liars_dice.rules import LOSER, PENALTY, REVEALED, ROUND_BIDS

        t = np.array(before.table)
        n = env.rules.num_players
        if action == 0:  # a challenge ended it: its outcome, as the step wrote it
            t[0, LOSER:ROUND_BIDS + 1] = after.table[0, LOSER:ROUND_BIDS + 1]
            t[0, REVEALED:REVEALED + n] = after.table[0, REVEALED:REVEALED + n]
        penalty = info.get("final_penalty_points") if isinstance(info, dict) else None
        if penalty is not None:
            t[0, PENALTY:PENALTY + n] = np.asarray(penalty)[0, :n]
        return before._replace(table=t)
    final = getattr(env, "final_table", None)
    if final is None:  # pragma: no cover - every other game keeps it
        return before
    keep = {"hanabi": ("pile",), "dayaoguai": ("table_cards",)}.get(game, ())
    return before._replace(table=np.array(final[0:1]),
                           **{name: np.array(getattr(after, name)) for name in keep})


def env_player(game: str, s: Any) -> int:
    import importlib

    field = importlib.import_module(f"vecgames.games.{game}.rules").field
    return int(field(s, "player")[0])


def showdown(game: str, before: Any, env: Any, action: Any) -> list[int]:
    """The seats whose cards the end of a game showed to everyone."""
    fn = SHOWDOWNS.get(game)
    return fn(before, env, action) if fn is not None else []


def move_list(game: str, view: View, s: Any, env: Any, mask: np.ndarray) -> list[dict[str, Any]]:
    """The legal moves of the seat to act: id, label, and a group for the page's layout."""
    return [{"action": int(m.action), "label": m.text, "short": m.short,
             "group": _group(game, env, m)} for m in view.moves(s, env, mask) if m.legal]


def _group(game: str, env: Any, move: Move) -> str:
    a = int(move.action)
    if game == "zhajinhua":
        from ..games.zhajinhua.rules import BET0, COMPARE0

        return "bet" if a >= BET0 else "compare" if a >= COMPARE0 else "turn"
    if game == "holdem":
        return "raise" if a >= 2 else "call"
    if game == "liars_dice":
        return "challenge" if a == 0 else move.short.split()[0]
    if game == "hanabi":
        h = env.rules.hand_size
        return "discard" if a < h else "play" if a < 2 * h else "hint"
    return "pass" if move.short == "p" else "card"
