"""Cell states from a microcontroller over USB serial (docs/sensor-link.md, version 1).

The microcontroller (an RP2040 running ``hardware/firmware/``) scans the Hall switches and
sends one ``S`` frame per change and at least every 200 ms. This module is the host end; the
port itself (finding, opening, the reader thread) is :mod:`firmware_bridge.serial_port`,
and only these two import ``serial`` (pyserial).

A reader thread does nothing but move bytes from the port into a queue, so a stalled port
never blocks the program; :meth:`SerialSource.poll` drains the queue, parses the frames and
takes every decision about time (hello timeout, link down after 1 s of silence, reopening
with backoff) from the injected clock, so tests drive those rules with a ``FakeClock``.
The link never gives up: a port missing at start, a board unplugged and plugged back, a
board that answers with the wrong cell count are all "link down, still trying".
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from dataclasses import dataclass

import serial

from firmware_bridge.linkproto import (
    MAX_SEQ,
    DropReason,
    Fault,
    Hello,
    LineAssembler,
    LinkError,
    Query,
    State,
    encode,
    parse_line,
)
from firmware_bridge.profile_model import DEFAULT_USB_IDS
from firmware_bridge.serial_port import Closed, Connection, SerialFactory, find_port, open_serial
from firmware_bridge.source import LinkStatus, SensorEvent, SourceError, TroubleWindow
from scorekeeper.clock import Clock

HELLO_RETRY = 1.0
"""Seconds between ``?`` queries while no hello has been accepted."""
SILENCE_LIMIT = 1.0
"""Seconds without a valid frame after which the link is down."""
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 2.0
"""Reopen delays: doubling from the first up to the maximum, forever."""

@dataclass(frozen=True)
class SerialCounters:
    """What the host has seen on the link since it started."""

    too_long: int = 0
    not_ascii: int = 0
    malformed: int = 0
    bad_crc: int = 0
    unknown_type: int = 0
    """Frames of a type the host does not take (including ``?``/``L`` echoed back)."""
    before_hello: int = 0
    """``S`` frames dropped because no hello had been accepted on this connection."""
    gaps: int = 0
    """Jumps in the ``S`` sequence numbers (frames lost on the way)."""
    faults: int = 0
    """``E`` frames from the firmware."""
    states: int = 0
    """``S`` frames taken."""
    hellos: int = 0
    """Hellos accepted."""
    refused: int = 0
    """Hellos refused (wrong cell count or board id)."""
    opens: int = 0
    """Times the port was opened."""

    @property
    def dropped(self) -> int:
        """Every line dropped, for whatever reason."""
        return (self.too_long + self.not_ascii + self.malformed + self.bad_crc
                + self.unknown_type + self.before_hello)


_REASON_FIELD = {
    DropReason.TOO_LONG: "too_long",
    DropReason.NOT_ASCII: "not_ascii",
    DropReason.MALFORMED: "malformed",
    DropReason.BAD_CRC: "bad_crc",
    DropReason.UNKNOWN_TYPE: "unknown_type",
}


class SerialSource:
    """Cell states from a microcontroller on ``port`` (or found by ``usb_ids`` when None).

    ``cells`` and ``board_id`` come from the board profile: a hello that disagrees is
    refused. ``serial_factory(path, baudrate)`` opens a port (tests may wrap pyserial).
    """

    name = "serial"

    def __init__(
        self,
        *,
        port: str | None,
        cells: int,
        clock: Clock,
        board_id: str | None = None,
        usb_ids: Sequence[tuple[int, int]] = DEFAULT_USB_IDS,
        baudrate: int = 115200,
        serial_factory: SerialFactory | None = None,
    ) -> None:
        if cells < 1:
            raise SourceError(f"a serial board needs at least one cell (got {cells})")
        if port is None and not usb_ids:
            raise SourceError("no serial port named and no USB ids to look for one")
        self.cells = cells
        self.port = port
        self.board_id = board_id
        self.usb_ids = tuple((int(v), int(p)) for v, p in usb_ids)
        self.baudrate = baudrate
        self._clock = clock
        self._factory = serial_factory or open_serial
        self._conn: Connection | None = None
        self._assembler = LineAssembler()
        self._started = False
        self._next_open = 0.0
        self._backoff = BACKOFF_FIRST
        self._hello: Hello | None = None
        self._last_valid = 0.0
        self._last_query = 0.0
        self._last_seq: int | None = None
        self._bits = 0
        self._why_down = "not started"
        self._last_fault = ""
        self._trouble = TroubleWindow()
        self._counts: dict[str, int] = {}

    # -- Source protocol --------------------------------------------------------------------

    def start(self) -> None:
        """Try to open the port; a missing port is not an error (the link stays down)."""
        if self._started:
            return
        self._started = True
        self._open(self._clock.now())

    def poll(self) -> list[SensorEvent]:
        if not self._started:
            return []
        now = self._clock.now()
        if self._conn is None and now >= self._next_open:
            self._open(now)
        events: list[SensorEvent] = []
        conn = self._conn
        while conn is not None and conn is self._conn:
            try:
                item = conn.inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, Closed):
                self._lose(f"{conn.path} went away ({item.why})", now)
                break
            for line in self._assembler.feed(item):
                self._take_line(line, now, events)
        if self._conn is not None:
            if self._hello is None and now - self._last_query >= HELLO_RETRY:
                self._query(now)
            elif self._hello is not None and now - self._last_valid > SILENCE_LIMIT:
                self._lose(f"no valid frame for {now - self._last_valid:.1f} s", now)
        return events

    def snapshot(self) -> frozenset[int]:
        return frozenset(i for i in range(self.cells) if self._bits >> i & 1)

    def status(self) -> LinkStatus:
        now = self._clock.now()
        recent = self._trouble.recent(now)
        counters = self.counters()
        errors = counters.dropped + counters.gaps + counters.faults
        if self._hello is None or self._conn is None:
            return LinkStatus(up=False, message=f"sensor link down: {self._why_down}",
                              errors=errors)
        if recent:
            words = [f"{counters.dropped} bad lines", f"{counters.gaps} sequence gaps"]
            if self._last_fault:
                words.append(f"board fault {self._last_fault}")
            return LinkStatus(up=True, degraded=True, errors=errors,
                              message="sensor link: " + ", ".join(words))
        return LinkStatus(up=True, errors=errors)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._hello = None
        self._started = False
        self._why_down = "closed"

    # -- extras -------------------------------------------------------------------------------

    def counters(self) -> SerialCounters:
        """Drops, gaps, faults and reconnections so far."""
        return SerialCounters(**self._counts)

    @property
    def hello(self) -> Hello | None:
        """The hello accepted on the current connection."""
        return self._hello

    # -- inside -------------------------------------------------------------------------------

    def _count(self, name: str) -> None:
        self._counts[name] = self._counts.get(name, 0) + 1

    def _open(self, now: float) -> None:
        path = self.port or find_port(self.usb_ids)
        if path is None:
            ids = " or ".join(f"{v:04x}:{p:04x}" for v, p in self.usb_ids)
            self._retry_later(f"no board with USB id {ids} found; plug it in", now)
            return
        try:
            port = self._factory(path, self.baudrate)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._retry_later(f"cannot open {path}: {open_failure(exc)}", now)
            return
        self._conn = Connection(path, port)
        self._count("opens")
        self._assembler.reset()
        self._hello = None
        self._why_down = f"waiting for a hello from {path}"
        self._query(now)

    def _retry_later(self, why: str, now: float) -> None:
        self._why_down = why
        self._next_open = now + self._backoff
        self._backoff = min(self._backoff * 2, BACKOFF_MAX)

    def _lose(self, why: str, now: float) -> None:
        """The link is down: close the port and reopen it after the backoff."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._hello = None
        self._retry_later(why, now)

    def _send(self, data: bytes, now: float) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            conn.write(data)
        except (serial.SerialException, OSError) as exc:
            self._lose(f"cannot write to {conn.path} ({exc})", now)

    def _query(self, now: float) -> None:
        self._last_query = now
        self._send(encode(Query()), now)

    def _take_line(self, line: bytes, now: float, events: list[SensorEvent]) -> None:
        frame = parse_line(line, self._hello.cells if self._hello else None)
        if isinstance(frame, LinkError):
            self._count(_REASON_FIELD[frame.reason])
            self._trouble.note(now)
            return
        if isinstance(frame, Hello):
            self._take_hello(frame, now)
        elif isinstance(frame, State):
            if self._hello is None:
                self._count("before_hello")
                return
            self._last_valid = now
            self._count("states")
            self._take_state(frame, now, events)
        elif isinstance(frame, Fault):
            self._count("faults")
            self._last_fault = f"{frame.code} {frame.message}".strip()
            self._trouble.note(now)
            self._last_valid = now
        else:  # ``?`` or ``L`` coming back: an echoing REPL, not our firmware
            self._count("unknown_type")
            self._trouble.note(now)

    def _take_hello(self, hello: Hello, now: float) -> None:
        problems = []
        if hello.cells != self.cells:
            problems.append(
                f"board reports {hello.cells} cells, the profile expects {self.cells}"
            )
        if self.board_id is not None and hello.board_id != self.board_id:
            problems.append(
                f"board id is {hello.board_id!r}, the profile expects {self.board_id!r}"
            )
        if problems:
            self._count("refused")
            self._hello = None
            self._why_down = "hello refused: " + "; ".join(problems)
            return
        self._count("hellos")
        self._hello = hello
        self._last_seq = None
        self._last_valid = now
        self._backoff = BACKOFF_FIRST
        self._why_down = ""

    def _take_state(self, state: State, now: float, events: list[SensorEvent]) -> None:
        if self._last_seq is not None and state.seq != (self._last_seq + 1) % (MAX_SEQ + 1):
            self._count("gaps")
            self._trouble.note(now)
        self._last_seq = state.seq
        changed = state.bits ^ self._bits
        self._bits = state.bits
        for cell in range(self.cells):
            if changed >> cell & 1:
                events.append(SensorEvent(cell, bool(state.bits >> cell & 1), now))


def open_failure(exc: Exception) -> str:
    """Why a port did not open, once: pyserial wraps the system's error in a message that
    repeats it ("could not open port X: [Errno 2] No such file or directory: 'X'")."""
    wrapped = isinstance(exc, OSError) and exc.errno is not None
    cause = exc.__context__ if wrapped and isinstance(exc.__context__, OSError) else None
    return getattr(cause, "strerror", None) or str(exc)

