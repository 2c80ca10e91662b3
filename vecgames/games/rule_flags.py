"""Every game's rule options as flags (``--stack 200``, ``--dice 3``, ``--special-235``), read
from the game specs: the option's type from the rules' ``DEFAULT_OPTIONS``, its help and legal
values from the guide's ``OPTION_DOCS``. A new game's options become flags without an edit
here; ``--rule KEY=VALUE`` sets the same options by name.

``vecgames simulate`` takes every game's flags (its game is an argument of the same command
line); ``vecgames play GAME`` only its game's. Both commands read them here, so this module
sits below both (the games layer: it reads the catalogue, and only argparse of the CLI)."""

from __future__ import annotations

import argparse
from functools import cache
from typing import Any, NamedTuple

from ..cli_args import FLAG_OF_ARG, CLIError, convert_rule, parse_rule
from .catalog import spec_of, specs


class LegacyFlag(NamedTuple):
    """A spelling of an earlier release, still taken (hidden from the help when a switch)."""

    key: str  # the rule option it sets
    const: Any = None  # None: an other name of the option's flag; else the value it sets


# flag -> what it sets.
LEGACY_FLAGS: dict[str, LegacyFlag] = {
    "--rounds": LegacyFlag("num_rounds"),
    "--allow-repeat-bids": LegacyFlag("forbid_repeat_bids", False),
}
# The seat count has its own flag in every subcommand (``--num-players``).
SEAT_OPTION = "num_players"


class RuleFlag(NamedTuple):
    """One option key as a flag, with what each game that has it says of it."""

    flag: str
    key: str
    defaults: dict[str, Any]  # game -> default value
    helps: dict[str, str]  # game -> one line of help
    legal: dict[str, tuple[Any, ...] | None]  # game -> its legal values (None: not listed)

    @property
    def dest(self) -> str:
        return f"rule_{self.key}"

    @property
    def boolean(self) -> bool:
        return all(isinstance(v, bool) for v in self.defaults.values())

    @property
    def choices(self) -> tuple[Any, ...] | None:
        """The legal values, where every game lists the same few."""
        same = set(self.legal.values())
        return next(iter(same)) if len(same) == 1 else None

    def only(self, game: str) -> RuleFlag:
        """This flag as ``game`` alone has it."""
        return RuleFlag(self.flag, self.key, {game: self.defaults[game]},
                        {game: self.helps[game]}, {game: self.legal[game]})


def flag_of(key: str) -> str:
    """The flag of a rule option: ``small_blind`` -> ``--small-blind``."""
    return "--" + key.replace("_", "-")


@cache
def rule_flags() -> tuple[RuleFlag, ...]:
    """One flag per rule option key of any game but the seat count, in key order."""
    defaults: dict[str, dict[str, Any]] = {}
    helps: dict[str, dict[str, str]] = {}
    legal: dict[str, dict[str, tuple[Any, ...] | None]] = {}
    for name, spec in specs().items():
        docs = spec.load("guide").OPTION_DOCS if spec.has("guide") else {}
        for key, default in spec.load("rules").DEFAULT_OPTIONS.items():
            if key == SEAT_OPTION:
                continue
            doc = docs.get(key)
            defaults.setdefault(key, {})[name] = default
            helps.setdefault(key, {})[name] = doc.help if doc is not None else key
            legal.setdefault(key, {})[name] = None if doc is None else doc.choices
    return tuple(RuleFlag(flag_of(key), key, defaults[key], helps[key], legal[key])
                 for key in sorted(defaults))


def game_rule_flags(game: str | None = None) -> tuple[RuleFlag, ...]:
    """The flags of ``game``'s rule options (None: every game's)."""
    if game is None:
        return rule_flags()
    name = spec_of(game, aliases=True).name
    return tuple(f.only(name) for f in rule_flags() if name in f.defaults)


def flag_of_arg() -> dict[str, str]:
    """Option key -> its flag, for naming the flag in the library's error messages."""
    return {f.key: f.flag for f in rule_flags()}


def add_rule_flags(p: argparse.ArgumentParser, game: str | None = None) -> None:
    """The group of rule flags of ``game`` (None: of every game, each flag's help naming the
    games that have it), the legacy spellings of those options, and ``--rule KEY=VALUE``."""
    flags = game_rule_flags(game)
    title = ("rule options (default: the game's; each flag names the games that have it; "
             "`vecgames list GAME` shows a game's options)" if game is None else
             "rule options (the game's default in parentheses)")
    group = p.add_argument_group(title)
    names = {f.key: [f.flag] for f in flags}
    for flag, legacy in LEGACY_FLAGS.items():
        if legacy.key in names and legacy.const is None:
            names[legacy.key].append(flag)
    for f in flags:
        text = "; ".join(f"{'' if game else name + ': '}{f.helps[name]} ({f.defaults[name]!r})"
                         for name in f.defaults)
        if f.boolean:
            group.add_argument(*names[f.key], dest=f.dest, default=None, help=text,
                               action=argparse.BooleanOptionalAction)
        else:
            group.add_argument(*names[f.key], dest=f.dest, default=None, help=text,
                               metavar=_metavar(f))
    for flag, legacy in LEGACY_FLAGS.items():
        if legacy.key in names and legacy.const is not None:
            group.add_argument(flag, dest=f"rule_{legacy.key}", action="store_const",
                               const=legacy.const, help=argparse.SUPPRESS)
    group.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                       help="any rule option of the game, e.g. --rule min_raise=call "
                            "(repeatable)" if game is None else
                            "any rule option of the game by its name (repeatable)")


def _metavar(f: RuleFlag) -> str:
    if f.choices:
        return "|".join(map(str, f.choices))
    if all(isinstance(v, int) for v in f.defaults.values()):
        return "N"
    return "N|none" if all(v is None for v in f.defaults.values()) else "VALUE"


def rule_options(args: argparse.Namespace, game: str | None = None) -> dict[str, Any]:
    """The rule options the flags give for ``game`` (default ``args.game``), each as the type
    of the game's default; a flag of an option the game does not have is a CLIError."""
    spec = spec_of(args.game if game is None else game, aliases=True)
    defaults = spec.load("rules").DEFAULT_OPTIONS
    options: dict[str, Any] = {}
    for f in rule_flags():
        value = getattr(args, f.dest, None)
        if value is None:
            continue
        if f.key not in defaults:
            others = ", ".join(flag_of(k) for k in defaults if k != SEAT_OPTION) or "none"
            raise CLIError(f"argument {f.flag}: {spec.name} has no rule option {f.key} (its "
                           f"rule flags: {others})")
        options[f.key] = value if f.boolean else convert_rule(f.key, value, defaults[f.key],
                                                              f.flag)
    return options


def add_rule_texts(game: str, texts: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (from flags) plus the ``--rule KEY=VALUE`` texts of ``game``; an option
    given twice is a CLIError naming both places."""
    defaults = spec_of(game, aliases=True).load("rules").DEFAULT_OPTIONS
    given = {key: FLAG_OF_ARG.get(key) or flag_of_arg().get(key, f"--rule {key}")
             for key in options}
    for text in texts:
        key, value = parse_rule(text, defaults)
        if key in given:
            raise CLIError(f"argument --rule: {key} given twice ({given[key]} and --rule "
                           f"{text})")
        options[key], given[key] = value, f"--rule {text}"
    return options
