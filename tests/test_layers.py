"""The import layers of docs/architecture.md ("Layers"): every module imports only from its
own layer or the layers below it, so data flows kernels <- env <- players <- simulate <-
arena/bridge <- analysis/training, and no import cycle between packages can come back.

Read from the source (``ast``), not by importing: every ``import`` and ``from ... import``,
at module level or inside a function, and every module path written as a string (the
``importlib`` look-ups by name, e.g. ``GAMES`` or ``REPORTS``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# installed name -> folder (pyproject's package-dir: analysis/ and training/ install inside)
SOURCES = {"vecgames": ROOT / "vecgames", "vecgames.analysis": ROOT / "analysis",
           "vecgames.training": ROOT / "training"}
# Bottom to top. A module may import its own unit and any unit of a lower layer.
LAYERS: list[tuple[str, ...]] = [
    ("core", "cli_args"),  # shared machinery: cards, rng, jit, validation; CLI helpers
    ("poker",),  # hand evaluators, equity, preflop tables
    ("games", "torch_bridge"),  # rules, observations, envs, the game catalogue; env -> torch
    ("policies", "zoo"),  # players: built-in kernels, the protocol, checkpoints, a person;
    # the model zoo's shipped weights and cards
    ("simulators",),  # whole games inside the kernels; any mix of players through env.step
    ("distributed", "solve"),  # Ray shards; the Liar's Dice solver
    ("arena", "play", "adapters"),  # matches and ratings; terminal games; Gymnasium & co
    ("api",),  # vecgames.simulate (local or Ray), list_games
    ("__init__", "analysis", "training"),  # the package's names; reports; trainers
    ("web",),  # vecgames serve: the browser app over the players, arena and games
    ("cli",),  # the vecgames command
]
RANK = {unit: rank for rank, units in enumerate(LAYERS) for unit in units}
# A game's spec (``vecgames.games.<game>.spec``) names the modules that make up the game at
# every layer, as entry points: the layer that uses a part imports it (``GameSpec.load``), so
# these names are declarations, not imports of the games layer.
SPEC_MODULE = re.compile(r"vecgames\.games\.[a-z_0-9]+\.spec")
MODULE_PATH = re.compile(r"vecgames(\.[a-z_][a-z0-9_]*)+")


def _modules() -> dict[str, Path]:
    found = {}
    for name, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([name, *parts])] = path
    return found


# Inside a game's package (one game, one package), a module sits at the layer of its role,
# the first word of its name: its players at the players' layer, its simulate and recorder at
# the simulators', its solver-backed players at the solver's, its report at the reports' and
# its trainer at the trainers'; every other module (rules, env, views, its spec and its
# public tree) at the games layer.
ROLES = {"players": "policies", "simulate": "simulators", "record": "simulators",
         "solver": "solve", "report": "analysis", "train": "training"}


def _unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 4 and parts[1] == "games" and parts[3].split("_")[0] in ROLES:
        return ROLES[parts[3].split("_")[0]]
    return parts[1] if len(parts) > 1 else "__init__"


def _module_path(text: str) -> str | None:
    """The module a string names or begins to name: ``"vecgames.a.b"``, and the constant
    head of a name built at run time (``f"vecgames.a.{x}"``, ``"vecgames.a." + x``)."""
    text = text.partition(":")[0].rstrip(".")
    return text if MODULE_PATH.fullmatch(text) else None


def _imports(module: str, path: Path) -> set[tuple[str, str]]:
    """(module, how) of every vecgames module named in the file: how is "import" for import
    statements, "name" for module paths in strings."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update((alias.name, "import") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add((target, "import"))
            out.update((f"{target}.{alias.name}", "import") for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = _module_path(node.value)
            if name:
                out.add((name, "name"))
        elif isinstance(node, ast.Call) and len(node.args) == 2 and (
                getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"):
            # import_module(".x", "vecgames") hides its target from this check
            raise AssertionError(f"{module}: import_module with a package: name it in full")
    return {(name, how) for name, how in out if name.split(".")[0] == "vecgames"}


MODULES = _modules()


def test_every_unit_has_a_layer():
    units = {_unit(module) for module in MODULES}
    assert units <= set(RANK), f"give these a layer in LAYERS: {sorted(units - set(RANK))}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    mine = RANK[_unit(module)]
    upward = sorted(target for target, how in _imports(module, MODULES[module])
                    if _unit(target) in RANK and RANK[_unit(target)] > mine
                    and not (how == "name" and SPEC_MODULE.fullmatch(module)))
    assert not upward, f"{module} (layer {_unit(module)}) imports from above it: {upward}"


def test_units_import_without_cycles():
    # units of one layer may import each other, but not both ways round
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        for target, how in _imports(module, path):
            if how == "import" and _unit(target) != _unit(module) and _unit(target) in RANK:
                graph.setdefault(_unit(module), set()).add(_unit(target))
    done: set[str] = set()

    def visit(unit: str, trail: tuple[str, ...]) -> None:
        assert unit not in trail, f"import cycle: {' -> '.join((*trail, unit))}"
        if unit not in done:
            for nxt in sorted(graph.get(unit, ())):
                visit(nxt, (*trail, unit))
            done.add(unit)

    for unit in sorted(graph):
        visit(unit, ())


def test_the_check_sees_an_upward_import(tmp_path):
    # the test itself: a games module that names a player is caught, however it names it
    for text in ("from ...policies import hanabi\n", "import vecgames.games.hanabi.players\n",
                 'MODULE = "vecgames.games.hanabi.simulate"\n',
                 'm = importlib.import_module(f"vecgames.simulators.{game}")\n',
                 'm = importlib.import_module("vecgames.simulators." + game)\n',
                 'ENTRY = "vecgames.games.hanabi.simulate:simulate"\n'):
        path = tmp_path / "rules.py"
        path.write_text(text)
        targets = _imports("vecgames.games.hanabi.rules", path)
        assert any(RANK[_unit(t)] > RANK["games"] for t, _ in targets), text
