"""What a person is told about a game's rule options: a label, one line of help and, for an
option with a fixed set of values, those values. Each game's ``guide`` module fills one
``OptionDoc`` per key of its ``DEFAULT_OPTIONS`` (a test checks they match), beside its
"how to play" text; the web lobby and ``vecgames list`` show them."""

from __future__ import annotations

from typing import Any, NamedTuple


class OptionDoc(NamedTuple):
    label: str
    help: str
    choices: tuple[Any, ...] | None = None  # the legal values, when they are a fixed few


def describe_options(docs: dict[str, OptionDoc]) -> dict[str, dict[str, Any]]:
    """``docs`` as JSON values: ``{name: {label, help, choices}}`` (choices null: any value
    the rules accept)."""
    return {name: {"label": d.label, "help": d.help,
                   "choices": None if d.choices is None else list(d.choices)}
            for name, d in docs.items()}
