"""The ``vecgames`` command.

    vecgames list [--json]
    vecgames simulate zhajinhua --games 1000000 --num-players 6 --report report.md
    vecgames simulate hanabi --games 1000000000 --summary --backend ray --address auto
    vecgames arena holdem --players random,call,strength --games 100000 --plot arena.png
    vecgames preflop-matrix --out preflop.npz --backend ray
    vecgames train zhajinhua [trainer args...]
    vecgames play liars-dice --num-players 4 --rounds 3 --agent heuristic
    vecgames play holdem --num-players 3 --agent strength,call
    vecgames play hanabi --watch --seed 3
    vecgames equity AhKh QsQd --board 2c7d9h
    vecgames equity "QQ+,AKs" random --samples 1e7
    vecgames --version

Every subcommand's ``--help`` lists its options (``train GAME --help``: the trainer's;
``play GAME --help``: the terminal game's, with that game's rule options as flags). Library
errors (bad option values) print ``vecgames: error: ...`` and exit with code 2. Long runs
(simulate, preflop-matrix) draw a progress bar on stderr when it is a terminal.

The command is a package with one module per subcommand (``listing``, ``simulate``,
``arena``, ``equity``, ``train``, ``play``, ``serve``); ``main`` holds the parser and the
entry point.
"""

from .main import build_parser, main, subcommands
from .play import play_names

__all__ = ["build_parser", "main", "play_names", "subcommands"]
