"""``vecgames serve``: play, watch and replay the games in a browser (the ``web`` extra).

The app (``vecgames.web.app.create_app``, Starlette under uvicorn) holds every game on the
server and sends each seat only what it may see (``views``); sessions (``sessions``), arena
replays (``replays``) and arenas run from the page (``arena_jobs``) are plain Python, tested
without a browser. Importing ``vecgames`` does not import this package, nor this package
Starlette: only :func:`serve` and ``app`` do.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence

MISSING = ("vecgames serve needs the web extra (Starlette and uvicorn): "
           'pip install -e ".[web]" (from a clone)')
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(host: str = "127.0.0.1", port: int = 8765, checkpoints: Sequence[str] = (),
          replays: str | None = None, log_level: str = "warning", warm: bool = True) -> None:
    """Load the ``checkpoints`` (the only ones a page may seat), print the URL and serve
    until interrupted; with ``warm`` compile the games' kernels in the background meanwhile
    (``vecgames.web.warmup``). Raises ImportError with the install line when the extra is
    missing."""
    try:
        import uvicorn

        from .app import LOCAL_HOSTS, create_app
    except ImportError as exc:
        raise ImportError(f"{MISSING} ({exc})") from None
    from ..arena.api import FewUnitsWarning
    from .sessions import Catalog

    catalog = Catalog()
    catalog.load_zoo()  # the zoo's players, by their zoo: names (with torch installed)
    catalog.load(list(checkpoints))
    local = host in LOOPBACK
    app = create_app(catalog, replays, allowed_hosts=LOCAL_HOSTS if local else ["*"])
    # an arena's early stages rest on few deals: the page shows their intervals, the
    # server's log need not warn of each
    warnings.filterwarnings("ignore", category=FewUnitsWarning)
    if warm:
        from .warmup import start_warm_up

        start_warm_up(app.state.vecgames)  # prints its progress on stderr
    shown = f"[{host}]" if ":" in host else host
    print(f"vecgames serve: http://{shown}:{port}/  (Ctrl-C to stop)", flush=True)
    if not local:
        print("warning: listening beyond this machine; the app has no login: anyone who "
              "can reach the port can play and start arenas", file=sys.stderr, flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
