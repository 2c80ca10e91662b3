"""A trainer's ``Config`` dataclass as its command line: one flag per field.

Each field becomes ``--field-name`` typed and defaulted from the field (``bool``: a switch;
``X | None``: an ``X`` or nothing; ``tuple[str, ...]``: a comma list). Help comes from the
trainer's ``help`` table, else from the comment on the field's line in its class. The run
flags (``--resume``, ``--overwrite``, ``--no-progress``) and the Ray worker flags
(``--workers``, ``--address``) are the same for every trainer. ``device`` left out means
CUDA when there is one."""

from __future__ import annotations

import argparse
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any

from . import runs
from .ray_rollouts import add_worker_arguments, check_worker_arguments

# Fields with flags of their own (runs.add_run_arguments, add_worker_arguments) or none.
OWN_FLAGS = frozenset({"progress", "resume", "overwrite", "workers", "ray_address", "game",
                       "env_options"})
_TYPES: dict[str, Callable[[str], Any]] = {"int": int, "float": float, "str": str}


def field_comments(config: type) -> dict[str, str]:
    """``{field: the comment on its line}`` of ``config`` and its bases (subclasses win)."""
    found: dict[str, str] = {}
    for cls in reversed(config.__mro__[:-1]):
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):  # no source shipped: the flags go without help
            continue
        found.update(re.findall(r"^    (\w+):[^#\n]*#\s*(.+)$", source, re.M))
    return found


def _kind(annotation: Any) -> tuple[str, bool]:
    """(base type name, whether None is allowed) of a field's annotation text."""
    text = str(annotation).replace(" ", "")
    optional = text.endswith("|None")
    return (text[:-len("|None")] if optional else text), optional


def _default(f: Any) -> Any:
    if f.default is not MISSING:
        return f.default
    return f.default_factory() if f.default_factory is not MISSING else None


def comma_list(text: str) -> tuple[str, ...]:
    """``a,b`` as ``("a", "b")``; an empty item stays (``""``) for the trainer to refuse."""
    return tuple(item.strip() for item in text.split(","))


def build_parser(config: type, prog: str, description: str,
                 help: Mapping[str, str] | None = None, skip: Sequence[str] = (),
                 choices: Mapping[str, Sequence[str]] | None = None) -> argparse.ArgumentParser:
    """The parser of ``config``'s fields (but ``skip``), help from ``help`` or the fields'
    comments, ``choices`` per field where a flag takes one of a few words."""
    help, choices = {**field_comments(config), **(help or {})}, dict(choices or {})
    p = argparse.ArgumentParser(prog=prog, allow_abbrev=False, description=description)
    by_name = {f.name: f for f in fields(config)}
    for f in by_name.values():
        if f.name in OWN_FLAGS or f.name in skip:
            continue
        flag = "--" + f.name.replace("_", "-")
        text = help.get(f.name, "")
        default = _default(f)
        kind, optional = _kind(f.type)
        if kind == "bool":
            if default:
                raise TypeError(f"{config.__name__}.{f.name}: a switch must default to False")
            p.add_argument(flag, action="store_true", help=text)
            continue
        if kind.startswith("tuple[str"):
            p.add_argument(flag, type=comma_list, default=default,
                           help=f"{text} (comma list; default {','.join(default)})")
            continue
        if kind not in _TYPES:
            raise TypeError(f"{config.__name__}.{f.name}: no flag for type {f.type}")
        if f.name == "device":
            default = None  # parse_config picks CUDA when there is one
        shown = "" if default is None else f" (default {default})"
        p.add_argument(flag, type=_TYPES[kind], default=default,
                       choices=choices.get(f.name), help=text + shown)
    if "workers" in by_name:
        add_worker_arguments(p, _default(by_name["workers"]))
    runs.add_run_arguments(p)
    return p


def parse_config(config: type, parser: argparse.ArgumentParser, argv: Sequence[str] | None,
                 checks: Callable[[Any], None] | None = None) -> Any:
    """The ``config`` of a command line: every flag's value, ``device`` CUDA when there is
    one and none was given; ``checks(cfg)`` may raise SystemExit with a usage message."""
    a = parser.parse_args(argv)
    names = {f.name for f in fields(config)}
    values = {name: getattr(a, name) for name in names
              if name not in OWN_FLAGS and hasattr(a, name)}
    if "workers" in names:
        check_worker_arguments(a)
        values.update(workers=a.workers, ray_address=a.address)
    if not values.get("device") and "device" in names:  # not given, or given empty
        import torch

        values["device"] = "cuda" if torch.cuda.is_available() else "cpu"
    cfg = config(**values, progress=not a.no_progress, resume=a.resume, overwrite=a.overwrite)
    if checks is not None:
        checks(cfg)
    return cfg


def given_flags(argv: Sequence[str] | None) -> set[str]:
    """The ``--flags`` a command line sets (``--a=b`` counted as ``--a``)."""
    return {x.split("=")[0] for x in (argv or []) if x.startswith("--")}


def at_least(cfg: Any, minimum: int, *names: str) -> None:
    """SystemExit naming the first of ``names`` below ``minimum`` (None passes)."""
    for name in names:
        value = getattr(cfg, name)
        if value is not None and value < minimum:
            raise SystemExit(f"--{name.replace('_', '-')} must be >= {minimum}")


def check_players(game: str, names: Sequence[str], flag: str, skip: Sequence[str] = ()) -> None:
    """SystemExit naming the first of ``names`` (but ``skip``) that is not a player of
    ``game`` who can sit at a table of many games (a person cannot)."""
    from vecgames.policies.protocol import resolve_player

    if not names or "" in names:
        raise SystemExit(f"--{flag}: a comma-separated list of players, got {','.join(names)!r}")
    for name in names:
        try:
            if name == "human":
                raise ValueError("a person cannot sit at every table")
            if name not in skip:
                resolve_player(game, name)
        except (TypeError, ValueError) as exc:
            raise SystemExit(f"--{flag}: {exc}") from None


def budget_checks(cfg: Any) -> None:
    """``--iterations`` >= 1, ``--minutes`` > 0: what every trainer requires."""
    at_least(cfg, 1, "iterations")
    if cfg.minutes is not None and cfg.minutes <= 0:
        raise SystemExit("--minutes must be > 0")


__all__ = ["at_least", "budget_checks", "build_parser", "comma_list",
           "given_flags", "parse_config"]
