"""``python -m vecgames.training [args]`` trains Zha Jin Hua (the only trainer so far)."""

import sys

from .zhajinhua import main

if __name__ == "__main__":
    sys.exit(main())
