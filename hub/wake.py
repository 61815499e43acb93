"""The hub's "something changed" signal, given from any thread, awaited by its refresher.

It is made before the MQTT link and the hub, so the link that gives it and the hub that waits
on it both take it in their constructors (neither is attached to the other afterwards).
"""

from __future__ import annotations

import asyncio


class Wake:
    """Call it (any thread) to wake the refresher; :meth:`listen` on the refresher's loop."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event = asyncio.Event()

    def __call__(self) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._event.set)

    def listen(self) -> asyncio.Event:
        """Bind to the running loop; the event is set at once (the first refresh) and again
        at every call."""
        self.loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        self._event.set()
        return self._event
