"""Every documented command line parses: each ``vecgames ...`` and ``python -m
vecgames.training.<game> ...`` line of a shell block in README.md and docs/*.md (not
docs/notes/) goes through the parser that would read it (the CLI's, the trainer's or the
terminal game's), and each ``python benchmarks/...`` or ``examples/...`` script it names exists.
Nothing is run: a flag that was renamed or dropped fails here, not in a user's shell."""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
from pathlib import Path

import pytest

from vecgames.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
SHELL = re.compile(r"```(?:bash|sh|console)\n(.*?)```", re.S)
PLACEHOLDER = re.compile(r"<[^>]*>|\bPATH\b|PATH/|\bGAME\b|\.\.\.|\$")


def commands() -> list[tuple[str, list[str]]]:
    """(where, argv) of every documented command line."""
    found = []
    for page in PAGES:
        for block in SHELL.findall(page.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"\s+#.*$", "", line).strip()
                for part in re.split(r"\s*(?:&&|;|\|)\s*", line):
                    if (not re.match(r"(\w+=\S+\s+)*(nice (-n \d+ )?)?(vecgames|python) ", part)
                            or part.startswith("python -c")):
                        continue  # pip, ray, shell loops, Python code
                    words = shlex.split(part)
                    while words and "=" in words[0] and not words[0].startswith("-"):
                        words = words[1:]  # VAR=value prefixes
                    if words[:1] == ["nice"]:
                        words = words[3:] if words[1:2] == ["-n"] else words[1:]
                    if not words or PLACEHOLDER.search(part):
                        continue
                    if words[0] == "vecgames" or words[:2] == ["python", "-m"] or (
                            words[0] == "python" and len(words) > 1
                            and words[1].startswith(("benchmarks/", "examples/"))):
                        found.append((f"{page.name}: {part}", words))
    return found


COMMANDS = commands()


def _parse(parser: argparse.ArgumentParser, argv: list[str], where: str) -> argparse.Namespace:
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        raise AssertionError(f"{where}: does not parse (exit {exc.code})") from None


def _check_trainer(game: str, argv: list[str], where: str) -> None:
    from vecgames.games.catalog import spec_of
    pytest.importorskip("torch")
    if game == "liars_dice" and "--algo" in argv:  # the tabular self-play learner
        from vecgames.games.liars_dice.train_equilibrium import (
            build_parser as equilibrium_parser,
        )

        _parse(equilibrium_parser("vecgames train liars_dice"), argv, where)
        return
    trainer = spec_of(game).load("trainer")
    try:
        trainer.TRAINER.parse(argv, f"vecgames train {game}")
    except SystemExit as exc:
        raise AssertionError(f"{where}: the trainer refuses it ({exc.code})") from None


def _check_play(game: str, argv: list[str], where: str) -> None:
    from vecgames.games.catalog import spec_of
    from vecgames.play.terminal import build_parser as terminal_parser

    spec = spec_of(game, aliases=True)
    _parse(terminal_parser(spec.load("view"), f"vecgames play {game}"), argv, where)


def test_commands_are_found():
    assert sum(words[0] == "vecgames" for _, words in COMMANDS) >= 20


@pytest.mark.parametrize("where, words", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_command_parses(where, words, capsys):
    if words[0] == "python" and words[1] != "-m":
        assert (ROOT / words[1]).is_file(), f"{where}: no script {words[1]}"
        return
    if words[0] == "python":  # python -m MODULE ...
        module = words[2]
        if module.startswith("vecgames.training."):
            _check_trainer(module.rpartition(".")[2], words[3:], where)
        elif module.startswith("benchmarks."):
            assert (ROOT / (module.replace(".", "/") + ".py")).is_file(), where
        else:
            assert importlib.util.find_spec(module) is not None, f"{where}: no module {module}"
        return
    args = _parse(build_parser(), words[1:], where)
    if args.command == "train" and "--help" not in args.args:
        _check_trainer(args.game, list(args.args), where)
    elif args.command == "exploit" and "--help" not in args.args:
        from training.exploit import build_parser as exploit_parser

        _parse(exploit_parser("vecgames exploit"), list(args.args), where)
    elif args.command == "play" and "--help" not in args.args:
        _check_play(args.game, list(args.args), where)
    capsys.readouterr()


# Games a README arena command may play: about 3 minutes of checkpoint play on 2 cores.
README_ARENA_GAMES = 100_000


def test_readme_arenas_finish_in_minutes():
    """``--games`` is the arena's total (a balanced schedule), ``--per-assignment`` games per
    seat assignment: three players at six Zha Jin Hua seats have 540, so an old
    ``--games 10000`` per assignment was 5.4 M games, over an hour."""
    from vecgames.arena.api import GAMES_PER_ASSIGNMENT
    from vecgames.arena.schedule import balanced_assignments, count_assignments
    from vecgames.cli.arena import ARENA_TOTAL
    from vecgames.games.catalog import rules_module

    arenas = [(where, argv) for where, argv in COMMANDS
              if where.startswith("README.md") and argv[:2] == ["vecgames", "arena"]]
    assert arenas
    for where, argv in arenas:
        args = _parse(build_parser(), argv[1:], where)
        rules = rules_module(args.game)
        options = dict(rule.split("=", 1) for rule in args.rule or [])
        seats = int(options.get("num_players", rules.DEFAULT_OPTIONS["num_players"]))
        players = len(args.players.split(","))
        if args.per_assignment is not None:
            total = count_assignments(players, seats) * args.per_assignment
        else:
            games = ARENA_TOTAL if args.games is None else args.games
            schedule = balanced_assignments(players, seats, games // GAMES_PER_ASSIGNMENT)
            total = len(schedule) * max(1, games // len(schedule))
        assert total <= README_ARENA_GAMES, f"{where}: {total:,} games"
