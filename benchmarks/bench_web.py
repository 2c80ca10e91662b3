"""Request latency of ``vecgames serve``'s app under load: N concurrent games (default 200, the
five games in turn) in one process, driven by httpx's AsyncClient through the ASGI app (no
sockets: the app's own cost). Every request's latency is recorded; prints p50/p99 per kind of
request and the requests per second, and checks no game was lost or mixed up (each game
ends as the same seed and moves give when played alone).

    python benchmarks/bench_web.py               # 200 games
    python benchmarks/bench_web.py --games 400 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import time
from typing import Any

import numpy as np

OPTIONS = {"zhajinhua": {"num_players": 3}, "holdem": {"num_players": 3},
           "liars_dice": {"num_rounds": 2}, "hanabi": {}, "dayaoguai": {"num_players": 3}}


async def play(client: Any, k: int, lat: dict[str, list[float]],
               moves: list[int] | None = None) -> tuple[list[int], list[float]]:
    games = list(OPTIONS)
    game = games[k % len(games)]
    t = time.perf_counter()
    res = await client.post("/api/sessions", json={"game": game, "options": OPTIONS[game],
                                                   "seed": k})
    lat["create"].append(time.perf_counter() - t)
    msg = res.json()
    chosen: list[int] = []
    while msg["status"] == "playing":
        action = (msg["moves"][(k * 7 + len(chosen)) % len(msg["moves"])]["action"]
                  if moves is None else moves[len(chosen)])
        chosen.append(action)
        t = time.perf_counter()
        res = await client.post(f"/api/sessions/{msg['id']}/action",
                                json={"action": action, "version": msg["version"]})
        lat["action"].append(time.perf_counter() - t)
        assert res.status_code == 200, res.text
        msg = res.json()
        if len(chosen) % 5 == 0:  # a page also polls its state
            t = time.perf_counter()
            await client.get(f"/api/sessions/{msg['id']}")
            lat["get"].append(time.perf_counter() - t)
    return chosen, msg["score"]


async def run(num_games: int) -> tuple[dict[str, list[float]], float]:
    import httpx

    from vecgames.web.app import create_app

    app = create_app(max_sessions=10 * num_games, sessions_per_minute=10 * num_games)
    lat: dict[str, list[float]] = {"create": [], "action": [], "get": []}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
        await asyncio.gather(*(play(c, k, {"create": [], "action": [], "get": []})
                               for k in range(len(OPTIONS))))  # warm: compiled kernels
        start = time.perf_counter()
        together = await asyncio.gather(*(play(c, k, lat) for k in range(num_games)))
        wall = time.perf_counter() - start
        quiet: dict[str, list[float]] = {"create": [], "action": [], "get": []}
        for k in range(0, num_games, max(1, num_games // 25)):  # alone, the same moves
            alone = await play(c, k, quiet, together[k][0])
            assert alone == together[k], f"game {k} differs when played alone"
    return lat, wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the run (1)")
    args = parser.parse_args(argv)
    print(f"{args.games} concurrent games in one process, httpx AsyncClient -> ASGI app; "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for r in range(args.rounds):
        lat, wall = asyncio.run(run(args.games))
        total = sum(len(v) for v in lat.values())
        print(f"round {r + 1}: {total} requests in {wall:.2f} s ({total / wall:,.0f} "
              f"requests/s), every game intact")
        for kind, values in [*lat.items(), ("all", [x for v in lat.values() for x in v])]:
            ms = np.array(values) * 1e3
            print(f"  {kind:<7} n={ms.size:>6}  p50 {np.percentile(ms, 50):7.2f} ms  "
                  f"p99 {np.percentile(ms, 99):7.2f} ms")


if __name__ == "__main__":
    main()
