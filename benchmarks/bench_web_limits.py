"""The web app under the requests issue 34 used to freeze it (no sockets: httpx's ASGI
transport): how fast a 99,999-move replay is refused, and how long ``GET /api/games`` takes
while CPU-heavy requests (replay uploads played back in the worker pool) run beside it.

    python benchmarks/bench_web_limits.py
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any


def long_replay(moves: int) -> dict[str, Any]:
    from vecgames.arena.replay import record_game

    replay = record_game("dayaoguai", ["random"] * 4, 0, 0)
    return {**replay, "actions": (replay["actions"] * (moves // len(replay["actions"]) + 1))
            [:moves]}


async def main() -> None:
    import httpx

    from vecgames.arena.replay import record_game
    from vecgames.web.app import create_app

    app = create_app()
    flood = long_replay(99_999)
    heavy = [record_game("dayaoguai", ["random"] * 4, 0, deal) for deal in range(8)]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://127.0.0.1") as client:
        await client.post("/api/replays", json=heavy[0])  # compiles the kernels
        refused = []
        for _ in range(5):
            t = time.perf_counter()
            res = await client.post("/api/replays", json=flood)
            refused.append(time.perf_counter() - t)
            assert res.status_code == 413, res.text
        print(f"99,999-move replay refused ({res.status_code}): median "
              f"{statistics.median(refused) * 1000:.1f} ms over 5")

        async def upload(replay: dict[str, Any]) -> float:
            t = time.perf_counter()
            res = await client.post("/api/replays", json=replay)
            assert res.status_code == 200, res.text
            await client.get(f"/api/replays/{res.json()['id']}?reveal=1")
            return time.perf_counter() - t

        async def poll(stop: asyncio.Event) -> list[float]:
            out = []
            while not stop.is_set():
                t = time.perf_counter()
                res = await client.get("/api/games")
                assert res.status_code == 200
                out.append(time.perf_counter() - t)
                await asyncio.sleep(0.01)
            return out

        stop = asyncio.Event()
        poller = asyncio.ensure_future(poll(stop))
        t = time.perf_counter()
        work = await asyncio.gather(*(upload(r) for r in heavy))
        busy = time.perf_counter() - t
        stop.set()
        lat = sorted(await poller)
        moves = sum(len(r["actions"]) for r in heavy)
        print(f"{len(heavy)} Da Yaoguai replays ({moves:,} moves) uploaded and fetched at once: "
              f"{busy:.1f} s (slowest request {max(work):.1f} s)")
        print(f"GET /api/games meanwhile: {len(lat)} requests, p50 {lat[len(lat) // 2] * 1000:.1f}"
              f" ms, max {lat[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
