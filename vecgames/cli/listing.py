"""``vecgames list [GAME]`` and ``vecgames players GAME``."""

from __future__ import annotations

import argparse

from ..games.catalog import game_names, spec_of
from .common import _options_text


def _add_list(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", choices=sorted(game_names()),
                   help="one game (default: every game)")
    p.add_argument("--json", action="store_true", help="print JSON (one object per game)")


def _add_players(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(game_names()))


def players_epilog() -> str:
    """Every game's built-in players, for a subcommand's help (from the game specs)."""
    from ..games.catalog import specs
    from ..policies.catalog import players

    games = "; ".join(f"{name}: {', '.join(players(name))}" for name in specs())
    return (f"built-in players ({games}). `vecgames players GAME` says how each plays; a "
            f"checkpoint path or a zoo name (zoo:...) seats a trained player.")


def _players(args: argparse.Namespace) -> int:
    from ..policies.catalog import players
    from ..simulators import default_policy

    described = players(args.game)
    width = max(map(len, described))
    default = default_policy(args.game)
    for player, how in described.items():
        mark = " (default)" if player == default else ""
        print(f"{player:<{width}}  {how}{mark}")
    return 0


def _list(args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from ..api import game_info, list_games
    from ..games.catalog import guide_module
    from ..policies.catalog import players
    from ..zoo import PREFIX, cards

    infos = list_games() if args.game is None else [game_info(args.game)]
    if args.json:
        print(json.dumps([dataclasses.asdict(g) for g in infos], indent=2))
        return 0
    for g in infos:
        sizes = ", ".join(f"{k!r} {v}" for k, v in g.obs_dim.items())
        print(f"{g.name}  ({g.gym_id}; report: {'yes' if spec_of(g.name).has('report') else 'no'})")
        print(f"  rules:    {_options_text(g.rule_options)}")
        docs = guide_module(g.name).OPTION_DOCS
        width = max(map(len, docs))
        for name, doc in docs.items():
            choices = "" if doc.choices is None else f" ({' or '.join(map(repr, doc.choices))})"
            print(f"    {name:<{width}}  {doc.label}: {doc.help}{choices}")
        print(f"  env:      {_options_text(g.env_options)}")
        if g.simulate_options:
            print(f"  simulate: {_options_text(g.simulate_options)}")
        print(f"  players:  {', '.join(g.policies)}  (simulate --policy; default "
              f"{g.default_policy})")
        width = max(map(len, g.policies))
        for player, how in players(g.name).items():
            print(f"    {player:<{width}}  {how}")
        zoo = [f"{PREFIX}{name} ({card['seats']} seats)" for name, card in cards().items()
               if card["game"] == g.name]
        if zoo:
            print(f"  zoo:      {', '.join(zoo)}  (trained players: vecgames.zoo(game))")
        print(f"  sizes:    obs {sizes}; actions {g.num_actions} ({g.num_players} players)")
    print(f"\n{LIST_LEGEND}")
    return 0


# What the sizes line counts. A layout named 'seed' is the original rules' observation: an
# env option value (obs= or observation=), so it keeps its name.
LIST_LEGEND = ("sizes: obs = floats in one seat's observation, per observation layout (the env "
               "option obs= or observation=; layout 'seed' is the original rules' layout), at "
               "the default rules; actions = the action ids of the env")
