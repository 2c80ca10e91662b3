"""``python -m vecgames.training GAME [args]``: the trainer of GAME, as ``vecgames train GAME``
(every game's trainer is its package's ``train`` module, named by its spec; see __init__)."""

import sys

from vecgames.games.catalog import specs

if __name__ == "__main__":
    trainers = sorted(name for name, spec in specs().items() if spec.has("trainer"))
    if len(sys.argv) < 2 or sys.argv[1] not in trainers:
        sys.exit(f"usage: python -m vecgames.training GAME [trainer options]; GAME is one of "
                 f"{', '.join(trainers)} (`vecgames train GAME --help` lists the options)")
    trainer = specs()[sys.argv[1]].load("trainer")
    sys.exit(trainer.main(sys.argv[2:], prog=f"python -m vecgames.training {sys.argv[1]}"))
