"""systemd's service notification: "serving now", then a watchdog fed only while work flows.

The unit runs skitter as ``Type=notify`` with ``WatchdogSec=``: systemd passes the socket to
talk to in ``$NOTIFY_SOCKET`` and the watchdog period in ``$WATCHDOG_USEC``. The protocol is
one datagram of ``KEY=value`` lines on a Unix socket (sd_notify(3)); it is small enough to
write here rather than depend on a binding to libsystemd.

``READY=1`` goes out once uvicorn is serving (the port is bound), so ``systemctl start`` and
units ordered after skitter wait for a scoreboard that answers. ``WATCHDOG=1`` goes out every
half period, but only after the event loop (the ping is a coroutine on it), the writer thread
and the sensing thread each ran a no-op in time. A hung loop, a writer stuck on a dead disk
or a wedged sensing thread stop the pings, and systemd kills and restarts the service; the
match log, committed step by step, loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future

log = logging.getLogger("skitter.watchdog")


def _noop() -> None:
    return None


class Watchdog:
    """Talks to systemd over ``address`` (a path, or ``@name`` for the abstract namespace).

    ``interval``: seconds between pings (half the watchdog period), None when systemd set no
    watchdog. ``serving``: true once the server accepts connections."""

    def __init__(self, address: str, interval: float | None,
                 serving: Callable[[], bool]) -> None:
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.interval = interval
        self._serving = serving
        self._pending: dict[int, Future[None]] = {}
        self._failed = False

    @classmethod
    def from_environ(cls, environ: Mapping[str, str],
                     serving: Callable[[], bool]) -> Watchdog | None:
        """The watchdog systemd asked for, or None when not started by systemd."""
        address = environ.get("NOTIFY_SOCKET", "")
        if not address:
            return None
        interval = None
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            interval = int(usec) / 1e6 / 2
        return cls(address, interval, serving)

    def notify(self, message: str) -> bool:
        """Send one notification; False (logged once) when systemd's socket is not there."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(message.encode(), self.address)
                return True
            except OSError as exc:
                if not self._failed:
                    log.warning("cannot notify systemd at %s: %s", self.address, exc)
                    self._failed = True
                return False

    async def run(self, threads: Sequence[Executor], *,
                  healthy: Callable[[], bool] = lambda: True,
                  status: str = "serving the scoreboard") -> None:
        """Wait until serving, say READY (and ``status``), then ping while the loop and
        ``threads`` answer and ``healthy()`` (the tournament hub's own threads) holds."""
        while not self._serving():
            await asyncio.sleep(0.05)
        self.notify(f"READY=1\nSTATUS={status}")
        if self.interval is None:
            return
        while True:
            if await self.answering(threads) and healthy():
                self.notify("WATCHDOG=1")
            await asyncio.sleep(self.interval)

    async def answering(self, threads: Sequence[Executor]) -> bool:
        """True when each thread ran a no-op within one interval.

        A probe still queued from last time is not sent again: a stuck thread is not given
        a growing pile of no-ops, and it answers as soon as it runs one."""
        timeout = self.interval or 1.0
        waiting = []
        for executor in threads:
            probe = self._pending.get(id(executor))
            if probe is None or probe.done():
                try:
                    probe = executor.submit(_noop)
                except RuntimeError:  # shut down: the service is stopping
                    return False
                self._pending[id(executor)] = probe
            waiting.append(asyncio.wrap_future(probe))
        if not waiting:
            return True
        done, _ = await asyncio.wait(waiting, timeout=timeout)
        return len(done) == len(waiting)

    def stopping(self) -> None:
        with contextlib.suppress(OSError):
            self.notify("STOPPING=1")
