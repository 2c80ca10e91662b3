"""Which benchmark peers are importable: a missing peer gives a "not installed" row, not a crash."""

from __future__ import annotations

import importlib

# the extra that brings eval7, phevaluator and pokerkit (pyproject.toml)
PEERS_EXTRA = 'pip install -e ".[dev]"'


def installed(module: str) -> bool:
    """Whether ``module`` imports (a peer blocked or absent reads as not installed)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def not_installed_row(label: str, width: int, install: str = PEERS_EXTRA) -> tuple[str, ...]:
    """A table row for a peer that is not installed, saying how to install it."""
    return (f"{label} ({install})", "not installed", *([""] * (width - 2)))
