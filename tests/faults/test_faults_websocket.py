"""Spectators' phones come and go while a match is played on a real ``skitter serve``.

Hundreds of WebSocket clients connect to ``/ws``, read a little and leave: half close
politely, half vanish (the TCP connection is aborted, as when a phone leaves the Wi-Fi).
Meanwhile the referee enters the match through the API. A few scoreboards stay all along,
and a few phones sit in pockets, connected but reading nothing, until the end. Then:

- every client still connected ends on the same, final sequence number;
- the server holds no connection for a client that left;
- its memory does not grow with the number of clients that came and went.

The server's resident memory rises by some 15-20 MB over its first several hundred
connections and then levels off (the allocator keeping freed pages; its Python heap stays
flat under tracemalloc), so a warm-up crowd passes first and growth is measured after it.

Counts: 120 passing clients in CI; ``SKITTER_FULL_FAULTS=1`` sends 500.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path
from typing import Any

import psutil
import pytest
import websockets
from matchgen import random_steps
from serve_proc import ServeProcess
from waiting import wait_until_async

from scorekeeper.options import Rules, Setup

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
PASSING = 500 if FULL else 120
ROUNDS = 10 if FULL else 4
STEPS_PER_ROUND = 12
WARM_UP = 800
"""Clients that pass before memory is measured."""
SCOREBOARDS = 5
POCKETS = 3


class Viewer:
    """One client that keeps reading, remembering the last ``seq`` it saw."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.last = -1

    async def read_until(self, seq: int, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while self.last < seq:
                self.last = json.loads(await self.ws.recv())["seq"]


async def connect(url: str) -> Any:
    return await websockets.connect(url, max_size=2**24, open_timeout=30)


async def passer_by(url: str, rng: random.Random) -> None:
    """Connect, read a message or a few, then leave, politely or not."""
    ws = await connect(url)
    for _ in range(rng.randint(1, 3)):
        await asyncio.wait_for(ws.recv(), 30)
    if rng.random() < 0.5:
        await ws.close()
    else:
        ws.transport.abort()  # gone without a word


async def warm_up(url: str) -> None:
    async def one() -> None:
        ws = await connect(url)
        await asyncio.wait_for(ws.recv(), 30)
        await ws.close()

    for _ in range(WARM_UP // 50):
        await asyncio.gather(*(one() for _ in range(50)))


def open_sockets(server: ServeProcess) -> int:
    """Established TCP connections the server holds on its port."""
    return sum(
        1 for c in server.process.net_connections(kind="tcp")
        if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == server.port
    )


async def wait_for(predicate: Any, timeout: float) -> bool:
    await wait_until_async(predicate, str(predicate), timeout=timeout, every=0.05)
    return True


async def session(server: ServeProcess) -> dict[str, Any]:
    rng = random.Random(500)
    steps = iter(list(random_steps(ROUNDS * STEPS_PER_ROUND + 10, seed=5, rules=Rules(),
                                   setup=Setup(first="black"))))
    scoreboards = [Viewer(await connect(server.ws_url)) for _ in range(SCOREBOARDS)]
    pockets = [await connect(server.ws_url) for _ in range(POCKETS)]
    readers = [asyncio.create_task(v.read_until(10**9, 3600)) for v in scoreboards]
    per_round = PASSING // ROUNDS
    await warm_up(server.ws_url)
    await wait_until_async(lambda: open_sockets(server) <= SCOREBOARDS + POCKETS,
                           "the server to let the warm-up's clients go", timeout=30,
                           every=0.05)
    memory: list[float] = [server.rss_mb()]
    for _ in range(ROUNDS):
        crowd = [asyncio.create_task(passer_by(server.ws_url, rng)) for _ in range(per_round)]
        for _ in range(STEPS_PER_ROUND):
            await asyncio.to_thread(server.step, next(steps))
        await asyncio.gather(*crowd)
        memory.append(server.rss_mb())
    final = server.get("/api/state")["seq"]
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    remaining = scoreboards + [Viewer(ws) for ws in pockets]  # the phones come out
    await asyncio.gather(*(v.read_until(final, 30) for v in remaining))
    ended_on = {v.last for v in remaining}
    # nothing newer can arrive afterwards: the final state is still the server's
    assert (await asyncio.to_thread(server.get, "/api/state"))["seq"] == final
    await wait_for(lambda: open_sockets(server) <= len(remaining), 15)
    held = open_sockets(server)
    for v in remaining:
        await v.ws.close()
    return {"final": final, "ended_on": ended_on, "held": held, "memory": memory,
            "remaining": len(remaining)}


@pytest.mark.timeout(180)
def test_clients_coming_and_going_leave_no_trace_and_the_rest_agree(tmp_path: Path) -> None:
    with ServeProcess(tmp_path) as server:
        server.login()
        result = asyncio.run(session(server))
    assert result["ended_on"] == {result["final"]}
    assert result["held"] == result["remaining"]
    memory = result["memory"]
    # After the warm-up, more waves of passing clients add nothing that stays.
    assert memory[-1] - memory[0] < 6.0, f"server RSS after warm-up, by round (MB): {memory}"
