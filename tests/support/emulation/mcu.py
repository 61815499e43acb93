"""An emulated sensor microcontroller on a pseudo-terminal, speaking docs/sensor-link.md.

The host opens ``link`` (a symlink to the pty's slave side), as it would open
``/dev/ttyACM0``. The emulator answers ``?`` with a hello and a full ``S`` frame from its own
thread; everything else is a verb the test calls: change cells, send a heartbeat, inject
garbage, a bad CRC, an over-long line or a sequence gap, unplug and replug.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from pathlib import Path

from firmware_bridge.linkproto import (
    MAX_SEQ,
    Hello,
    LineAssembler,
    Query,
    State,
    encode,
    encode_frame,
    parse_line,
)


class EmulatedMcu:
    """A board with ``cells`` Hall cells behind the path ``link``.

    ``hello_cells`` lets the board lie about its cell count; ``answer_queries=False`` makes it
    deaf to ``?`` (a firmware that hangs, or not ours).
    """

    def __init__(
        self,
        link: Path,
        *,
        cells: int,
        board_id: str = "bench-1",
        firmware: str = "1.0.0",
        hello_cells: int | None = None,
        answer_queries: bool = True,
    ) -> None:
        self.link = link
        self.cells = cells
        self.board_id = board_id
        self.firmware = firmware
        self.hello_cells = cells if hello_cells is None else hello_cells
        self.answer_queries = answer_queries
        self.bits = 0
        self.seq = 0
        self.queries = 0
        self.received: list[object] = []
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    # -- USB ----------------------------------------------------------------------------------

    def plug(self) -> None:
        """A new pty, reachable at ``link`` (as a replugged board gets a new device node)."""
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.link)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="emulated-mcu", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """The board disappears: the device node goes and the host's reads fail."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        self.link.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def close(self) -> None:
        if self._master is not None:
            self.unplug()

    def _serve(self) -> None:
        assembler = LineAssembler()
        master = self._master
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 1024)  # type: ignore[arg-type]
            except OSError:
                return
            for line in assembler.feed(data):
                frame = parse_line(line)
                self.received.append(frame)
                if isinstance(frame, Query):
                    self.queries += 1
                    if self.answer_queries:
                        self.send_hello()
                        self.send_state()

    # -- frames -------------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    def send_hello(self) -> None:
        self.send_raw(encode(Hello(self.firmware, self.board_id, self.hello_cells)))

    def send_state(self) -> None:
        """One ``S`` frame with the current cells (also the heartbeat)."""
        with self._lock:
            seq = self.seq
            self.seq = (self.seq + 1) % (MAX_SEQ + 1)
        self.send_raw(encode(State(seq, self.bits)))

    heartbeat = send_state

    def set_bits(self, bits: int) -> None:
        self.bits = bits
        self.send_state()

    def magnet(self, cell: int, present: bool) -> None:
        """A magnet arrives at or leaves ``cell``; the board reports it at once."""
        self.set_bits(self.bits | 1 << cell if present else self.bits & ~(1 << cell))

    def skip(self, frames: int) -> None:
        """Lose ``frames`` S frames on the way (the sequence jumps)."""
        self.seq = (self.seq + frames) % (MAX_SEQ + 1)

    def reboot(self) -> None:
        """The firmware restarts: sequence back to 0, hello sent unasked."""
        self.seq = 0
        self.send_hello()
        self.send_state()

    def send_garbage(self) -> None:
        self.send_raw(b"\x00\xff\xfe noise \x1b[0m\r\n#### \n")

    def send_bad_crc(self, bits: int) -> None:
        """A state frame whose CRC does not match (a flipped bit on the wire)."""
        line = bytearray(encode(State(self.seq, bits)))
        line[-3] = ord("0") if line[-3] != ord("0") else ord("1")
        self.send_raw(bytes(line))

    def send_long_line(self) -> None:
        self.send_raw(b"S 1 " + b"f" * 400 + b"*00\n")

    def send_fault(self, code: str, text: str = "") -> None:
        self.send_raw(encode_frame(f"E {code} {text}".strip()))
