"""systemd's end of ``NOTIFY_SOCKET`` for the tests: the Unix datagram socket the service
manager hands a ``Type=notify`` unit, recording what the service says and when."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path


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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, message in self.drain():
                if text in message.splitlines():
                    return at
            time.sleep(0.01)
        raise AssertionError(f"no {text} from skitter within {timeout} s: {self.messages}")

    def pings(self, since: float, until: float) -> int:
        return sum(1 for at, m in self.drain() if m == "WATCHDOG=1" and since <= at < until)

    def wait_for_pings(self, count: int, since: float, timeout: float = 30.0) -> None:
        """Wait until ``count`` WATCHDOG=1 arrived after ``since``."""
        deadline = time.monotonic() + timeout
        while self.pings(since, float("inf")) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"fewer than {count} pings within {timeout} s: "
                                     f"{self.messages}")
            time.sleep(0.01)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()
