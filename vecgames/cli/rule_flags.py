"""Every game's rule options as flags (``--stack 200``, ``--dice 3``, ``--special-235``), read
from the game specs: the option's type from the rules' ``DEFAULT_OPTIONS``, its help and legal
values from the guide's ``OPTION_DOCS``. A new game's options become flags without an edit
here; ``--rule KEY=VALUE`` sets the same options by name."""

from __future__ import annotations

import argparse
from functools import cache
from typing import Any, NamedTuple

from ..cli_args import CLIError, convert_rule
from ..games.catalog import spec_of, specs

# Spellings of earlier releases, still taken: flag -> option.
LEGACY_FLAGS: dict[str, str] = {"--rounds": "num_rounds"}
# The seat count has its own flag in every subcommand (``--num-players``).
SEAT_OPTION = "num_players"


class RuleFlag(NamedTuple):
    """One option key as a flag, with what each game that has it says of it."""

    flag: str
    key: str
    defaults: dict[str, Any]  # game -> default value
    helps: dict[str, str]  # game -> one line of help
    choices: tuple[Any, ...] | None  # the legal values, where every game lists the same few

    @property
    def dest(self) -> str:
        return f"rule_{self.key}"

    @property
    def boolean(self) -> bool:
        return all(isinstance(v, bool) for v in self.defaults.values())


def flag_of(key: str) -> str:
    """The flag of a rule option: ``small_blind`` -> ``--small-blind``."""
    return "--" + key.replace("_", "-")


@cache
def rule_flags() -> tuple[RuleFlag, ...]:
    """One flag per rule option key of any game but the seat count, in key order."""
    defaults: dict[str, dict[str, Any]] = {}
    helps: dict[str, dict[str, str]] = {}
    choices: dict[str, set[tuple[Any, ...] | None]] = {}
    for name, spec in specs().items():
        docs = spec.load("guide").OPTION_DOCS if spec.has("guide") else {}
        for key, default in spec.load("rules").DEFAULT_OPTIONS.items():
            if key == SEAT_OPTION:
                continue
            doc = docs.get(key)
            defaults.setdefault(key, {})[name] = default
            helps.setdefault(key, {})[name] = doc.help if doc is not None else key
            choices.setdefault(key, set()).add(None if doc is None else doc.choices)
    out = []
    for key in sorted(defaults):
        same = choices[key]
        legal = next(iter(same)) if len(same) == 1 else None
        out.append(RuleFlag(flag_of(key), key, defaults[key], helps[key], legal))
    return tuple(out)


def flag_of_arg() -> dict[str, str]:
    """Option key -> its flag, for naming the flag in the library's error messages."""
    return {f.key: f.flag for f in rule_flags()}


def add_rule_flags(p: argparse.ArgumentParser) -> None:
    """The group of rule flags, and ``--rule KEY=VALUE``."""
    group = p.add_argument_group(
        "rule options (default: the game's; each flag names the games that have it; "
        "`vecgames list GAME` shows a game's options)")
    legacy = {key: flag for flag, key in LEGACY_FLAGS.items()}
    for f in rule_flags():
        text = "; ".join(f"{game}: {f.helps[game]} ({f.defaults[game]!r})" for game in f.defaults)
        names = [f.flag] + ([legacy[f.key]] if f.key in legacy else [])
        if f.boolean:
            group.add_argument(*names, dest=f.dest, action=argparse.BooleanOptionalAction,
                               default=None, help=text)
        else:
            group.add_argument(*names, dest=f.dest, default=None, help=text,
                               metavar=_metavar(f))
    group.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                       help="any rule option of the game, e.g. --rule min_raise=call "
                            "(repeatable)")


def _metavar(f: RuleFlag) -> str:
    if f.choices:
        return "|".join(map(str, f.choices))
    if all(isinstance(v, int) for v in f.defaults.values()):
        return "N"
    return "N|none" if all(v is None for v in f.defaults.values()) else "VALUE"


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options the flags give for ``args.game``, each as the type of the game's
    default; a flag of an option the game does not have is a CLIError."""
    defaults = spec_of(args.game).load("rules").DEFAULT_OPTIONS
    options: dict[str, Any] = {}
    for f in rule_flags():
        value = getattr(args, f.dest, None)
        if value is None:
            continue
        if f.key not in defaults:
            others = ", ".join(flag_of(k) for k in defaults if k != SEAT_OPTION) or "none"
            raise CLIError(f"argument {f.flag}: {args.game} has no rule option {f.key} (its "
                           f"rule flags: {others})")
        options[f.key] = value if f.boolean else convert_rule(f.key, value, defaults[f.key],
                                                              f.flag)
    return options
