"""``python -m vecgames.training [args]`` trains Zha Jin Hua (as ``python -m
vecgames.training.zhajinhua``); every game's trainer is its own module, see __init__."""

import sys

from .zhajinhua import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m vecgames.training"))
