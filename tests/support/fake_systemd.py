"""systemd's end of ``NOTIFY_SOCKET`` for the tests: the Unix datagram socket the service
manager hands a ``Type=notify`` unit, recording what the service says and when."""

from __future__ import annotations

import math
import socket
import threading
import time
from pathlib import Path

from waiting import wait_until


class FakeSystemd:
    """The receiving end of NOTIFY_SOCKET: a thread records (arrival time, message)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._receive, daemon=True)
        self._thread.start()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def drain(self) -> list[tuple[float, str]]:
        return list(self.messages)

    def wait_for(self, text: str, timeout: float = 30.0) -> float:
        def said() -> float | None:
            return next((at for at, message in self.drain() if text in message.splitlines()),
                        None)

        try:
            return wait_until(said, f"{text} from skitter", timeout=timeout)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {self.messages}") from None

    def pings(self, since: float, until: float = math.inf) -> int:
        return sum(1 for at, m in self.drain() if m == "WATCHDOG=1" and since <= at < until)

    def last_ping(self) -> float:
        return max((at for at, m in self.drain() if m == "WATCHDOG=1"), default=-math.inf)

    def wait_for_pings(self, count: int, since: float, timeout: float = 30.0) -> None:
        """Wait until ``count`` WATCHDOG=1 arrived after ``since``."""
        wait_until(lambda: self.pings(since) >= count, f"{count} watchdog pings",
                   timeout=timeout)

    def caught_up(self) -> float:
        """Once every datagram sent before this call is recorded (a socket keeps their
        order, so a marker sent now is recorded after them): the time it was."""
        marked = sum(m == "MARK" for _, m in self.drain()) + 1
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(b"MARK", str(self.path))
        wait_until(lambda: sum(m == "MARK" for _, m in self.drain()) >= marked,
                   "the fake systemd recording every datagram sent so far")
        return time.monotonic()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()
