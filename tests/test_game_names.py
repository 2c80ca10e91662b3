"""One game, one package: outside a game's package, no module names a game.

Read from the source (``ast``), as ``tests/test_layers.py`` reads imports. A module names a
game when a string in it is exactly the game's name (or an alias: ``"liars-dice"``), or when it
imports from a game's package (``vecgames.games.<game>``) or from a module named after a game
(``vecgames.games.holdem.players``). Every layer reads a game from its spec instead
(``vecgames.games.catalog.spec_of``). The catalogue's list of packages is the one exception.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"vecgames": ROOT / "vecgames", "vecgames.analysis": ROOT / "analysis",
           "vecgames.training": ROOT / "training"}
GAME_PACKAGE = re.compile(r"vecgames\.games\.([a-z_0-9]+)(\.|$)")
EXEMPT = {"vecgames.games.catalog"}  # the list of the games' packages


def _games() -> set[str]:
    names = {p.name for p in (ROOT / "vecgames" / "games").iterdir()
             if p.is_dir() and (p / "spec.py").is_file()}
    return names | {"liars-dice"}


GAMES = _games()


def _modules() -> dict[str, Path]:
    found = {}
    for name, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([name, *parts])] = path
    return found


def _own_game(module: str) -> str | None:
    m = GAME_PACKAGE.match(module)
    return m.group(1) if m and m.group(1) in GAMES else None


def _names_game(target: str) -> bool:
    """Whether an imported module path is a game's package or a module named after a game."""
    if _own_game(target):
        return True
    parts = target.split(".")
    return any(part in GAMES or part.removesuffix("_record").removesuffix("_report")
               .removesuffix("_view") in GAMES for part in parts[1:])


def mentions(module: str, path: Path) -> int:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    count = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            count += node.value in GAMES
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            count += _names_game(target)
        elif isinstance(node, ast.Import):
            count += sum(_names_game(alias.name) for alias in node.names)
    return count


def _counts() -> dict[str, int]:
    out = {}
    for module, path in _modules().items():
        if _own_game(module) or module in EXEMPT:
            continue
        n = mentions(module, path)
        if n:
            out[module] = n
    return out


def test_no_module_outside_a_game_names_one():
    named = _counts()
    assert not named, (f"these modules name a game (module: times); read it from its spec "
                       f"instead (vecgames.games.catalog.spec_of): {named}")


def test_the_check_sees_a_game_name(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('from vecgames.games.holdem.rules import field\n'
                    'from vecgames.games.hanabi.players import POLICIES\nGAME = "liars_dice"\n'
                    'TEXT = "a liars_dice game"\n')
    assert mentions("vecgames.arena.m", path) == 3


def test_every_game_package_has_a_spec_in_the_catalogue():
    from vecgames.games.catalog import PACKAGES

    assert {p.rpartition(".")[2] for p in PACKAGES} == GAMES - {"liars-dice"}
