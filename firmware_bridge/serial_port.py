"""The USB serial port itself: finding it, opening it, and a thread reading it.

The host end of the sensor link (:mod:`firmware_bridge.serial_source`) takes every decision
about frames and time; this module only moves bytes. A reader thread does nothing but copy
what the port gives into a queue, so a stalled port never blocks the program, and a failing
port is reported in that queue as :class:`Closed`.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

SerialFactory = Callable[[str, int], Any]
"""Opens a port: ``(path, baudrate) -> port`` (tests may wrap pyserial)."""


def open_serial(path: str, baudrate: int) -> Any:
    """pyserial's port with a short read timeout, so the reader thread can stop promptly.

    Opened exclusively: a second program (``skitter sensors`` beside a live server) is told
    the port is in use instead of stealing the bytes and knocking the server's link down.
    """
    try:
        return serial.Serial(
            path, baudrate=baudrate, timeout=0.05, write_timeout=0.5, exclusive=True
        )
    except serial.SerialException as exc:
        if "exclusively lock" in str(exc):
            raise serial.SerialException(
                f"{path} is in use by another program (is skitter serve running?)"
            ) from exc
        raise


def find_port(usb_ids: Sequence[tuple[int, int]]) -> str | None:
    """The device path of the first USB serial port with one of ``usb_ids`` (vendor, product).

    CircuitPython offers a console and a data port under one id; the data port is preferred.
    Linux names them by USB interface string ("CircuitPython CDC control" for the console,
    "CircuitPython CDC2 control" for data); the data port is USB interface 2 (location
    ending in ``:1.2``), which is what the udev rule in ``hardware/pi`` names too.
    """
    wanted = {(int(v), int(p)) for v, p in usb_ids}
    matches = [p for p in list_ports.comports() if (p.vid, p.pid) in wanted]
    matches.sort(key=lambda p: (not _is_data_port(p), p.device))
    return matches[0].device if matches else None


def _is_data_port(port: Any) -> bool:
    interface = (getattr(port, "interface", None) or "").lower()
    location = getattr(port, "location", None) or ""
    return "cdc2" in interface or "data" in interface or location.endswith(":1.2")


@dataclass(frozen=True)
class Closed:
    """Queued by the reader thread when the port failed (unplugged, I/O error)."""

    why: str


class Connection:
    """An open port and the thread reading it into ``inbox``."""

    def __init__(self, path: str, port: Any) -> None:
        self.path = path
        self.port = port
        self.inbox: queue.SimpleQueue[bytes | Closed] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"serial-reader {path}", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.port.read(max(1, self.port.in_waiting))
            except Exception as exc:  # whatever the port raises ends this link
                if not self._stop.is_set():
                    self.inbox.put(Closed(str(exc) or type(exc).__name__))
                return
            if data:
                self.inbox.put(bytes(data))

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def close(self) -> None:
        self._stop.set()
        cancel = getattr(self.port, "cancel_read", None)
        # a vanished device may fail to cancel or close; it is gone either way
        if cancel is not None:
            with contextlib.suppress(Exception):
                cancel()
        self._thread.join(timeout=1.0)
        with contextlib.suppress(Exception):
            self.port.close()
