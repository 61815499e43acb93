"""The hub as a systemd service: "serving now", then a watchdog fed while the hub works.

The hub's unit (``hardware/hub/skitter-hub.service``) is ``Type=notify`` with ``WatchdogSec=``
like the board's, and the same :class:`web_common.watchdog.Watchdog` talks to systemd: READY once
uvicorn serves the tournament page, then WATCHDOG=1 every half period while the event loop
answers and none of the hub's own threads (storing what the boards send, asking for what is
missing) has ended or fallen behind (:meth:`HubLink.stalled`). A hung hub is killed and
restarted; the tournament, committed message by message, loses nothing, and the broker kept
what the boards sent meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

from hub.link import HubLink
from web_common.watchdog import Watchdog

STATUS = "serving the tournament"


def hub_watchdog(environ: Mapping[str, str], link: HubLink,
                 serving: Callable[[], bool]) -> Callable[[], Awaitable[None]] | None:
    """The coroutine that talks to systemd while the hub serves, or None when not started by
    systemd (no ``NOTIFY_SOCKET``)."""
    watchdog = Watchdog.from_environ(environ, serving)
    if watchdog is None:
        return None

    async def run() -> None:
        try:
            await watchdog.run([], healthy=lambda: not link.stalled(), status=STATUS)
        except asyncio.CancelledError:  # the hub is shutting down
            watchdog.stopping()
            raise

    return run
