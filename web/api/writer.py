"""Where work runs: every change on the table's one owner thread, sensing on its own.

SQLite commits (with ``synchronous=FULL``) wait on the disk; run on the event loop, a
stalled disk froze every page, ``/healthz`` and new WebSockets with it. The event loop hands
each change to ``Table.writer``, the table's one owner (a one-thread executor): changes and
what the sensors did are handled there one at a time, in the order they came, while reads
answer from the last published snapshot and downloads from committed data
(``web.table.records``). Sensing acts (the virtual board's taps, pausing sensing, muting a
cell) run on the sensing thread (:func:`on_sensing`, ``web.table.feed``), which never waits
on the disk: it sends what the sensors did on to the owner, in order with every step.

A change still waiting after ``Table.write_timeout`` is answered 503 with
:class:`StillWriting`. The change itself is not cancelled: the writer finishes it (stores,
applies, publishes), so the screens show it the moment it commits. It is never lost and
never applied twice; the referee sees it arrive rather than sending it again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from scorekeeper.store import StoreUnwritable
from web.table.snapshot import worded
from web.table.table import Table

T = TypeVar("T")

class StillWriting(StoreUnwritable):
    """The disk did not answer in time; the change is still being written (HTTP 503)."""

    def __init__(self, timeout: float) -> None:
        super().__init__(
            f"match log cannot be written: the disk did not answer within {timeout:g} s; "
            "the change is still being written and shows on the screens once it is stored "
            "(do not send it again)"
        )


async def on_writer(table: Table, fn: Callable[[], T], timeout: float | None = None) -> T:
    """Run ``fn`` on the table's writer thread and wait for it, at most ``timeout`` seconds.

    The wait is shielded: a timeout or a client that goes away ends only the wait, never
    the change, which the writer runs to the end either way.
    """
    limit = table.write_timeout if timeout is None else timeout
    job = asyncio.get_running_loop().run_in_executor(table.writer, fn)
    try:
        return await asyncio.wait_for(asyncio.shield(job), limit)
    except TimeoutError:
        raise StillWriting(limit) from None


async def change(
    table: Table, act: Callable[[], object], *, seq: int | None = None,
    boot: str | None = None, match: bool = True,
) -> dict[str, Any]:
    """A change on the owner: check ``seq`` (when the change carries one) and ``boot``,
    ``act``, and the new state, all there, so no other change can come between them. The
    answer is the snapshot the change published (composed once: the screens got the same
    one with the same ``seq``), or the newest one should sensing have published since.
    ``match`` False: an act that changes no match (pausing sensing) is stale only for a
    state this server never had (``Table.check_known``)."""
    def run() -> dict[str, Any]:
        table.check_boot(boot)
        if not match:
            table.check_known(seq)
        elif seq is not None:
            table.check_seq(seq)
        act()
        return table.published
    return worded(await on_writer(table, run))


async def on_sensing(
    table: Table, act: Callable[[], object], *, seq: int | None = None,
    boot: str | None = None,
) -> dict[str, Any]:
    """A sensing act on the sensing thread, answered with the state after it (a shot it
    concludes goes on to the writer; the answer does not wait for the disk). ``seq``: the
    state its person saw (``Table.check_known``)."""
    def run() -> dict[str, Any]:
        table.check_boot(boot)
        table.check_known(seq)
        act()
        return table.snapshot()
    return worded(await asyncio.get_running_loop().run_in_executor(table.feed.thread, run))
