"""The sensor-link frame codec (``docs/sensor-link.md``, version 1).

One frame per line of printable ASCII, ending in ``*`` and the CRC-8/SMBUS of everything
before that ``*`` as two hex digits. The firmware under ``hardware/firmware/`` writes the same
frames with its own small copy of the CRC (CircuitPython has no dataclasses); the tests check
that both ends agree.

Parsing never raises for anything a sender writes: :func:`parse_line` returns either a frame
or a :class:`LinkError` value saying why the line was dropped, so the serial source can count
drops by reason and carry on with the next line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

MAX_LINE = 256
"""Longest line a receiver accepts, counting the ``\\r`` and ``\\n``."""

PROTOCOL = 1
"""The protocol version this codec speaks (the ``1`` in ``H 1 ...``)."""

MAX_SEQ = 65535
"""``S`` sequence numbers run 0..65535 and wrap to 0."""

_DECIMAL = re.compile(r"[0-9]{1,10}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
_WORD = re.compile(r"[!-)+-~]+")  # printable, no space, no '*'


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS: polynomial 0x07, init 0x00, no reflection, no final XOR.

    ``crc8(b"123456789") == 0xF4`` (the catalogue's check value).
    """
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode_frame(text: str) -> bytes:
    """``text`` as one frame line: ``text*CC\\n`` with the CRC in upper-case hex.

    Raises :class:`ValueError` for text that no receiver would accept (not printable ASCII,
    too long), so a bug in the sender shows at the sender.
    """
    if not text or any(not (" " <= ch <= "~") for ch in text):
        raise ValueError(f"frame text must be non-empty printable ASCII: {text!r}")
    raw = text.encode("ascii")
    line = raw + b"*%02X\n" % crc8(raw)
    if len(line) > MAX_LINE:
        raise ValueError(f"frame of {len(line)} bytes is longer than {MAX_LINE}: {text[:40]!r}...")
    return line


# --- Frames -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """``H 1 <firmware> <board-id> <cells>``: who is talking and how many cells it scans."""

    firmware: str
    """The firmware's version word."""

    board_id: str
    """The board's id, compared with the profile's ``board_id`` when it names one."""

    cells: int
    """Number of sensor cells the board reports."""

    protocol: int = PROTOCOL
    """Protocol version (always 1 here)."""

    def text(self) -> str:
        return f"H {self.protocol} {self.firmware} {self.board_id} {self.cells}"


@dataclass(frozen=True)
class State:
    """``S <seq> <bits>``: every cell's state; bit *i* set means a magnet over cell *i*."""

    seq: int
    """0..65535, one more than the previous ``S`` frame's, wrapping to 0."""

    bits: int
    """The cells as a bit set (cell 0 is the least significant bit)."""

    def text(self) -> str:
        return f"S {self.seq} {self.bits:x}"

    def active(self) -> frozenset[int]:
        """The cells whose bit is set."""
        return frozenset(i for i in range(self.bits.bit_length()) if self.bits >> i & 1)


@dataclass(frozen=True)
class Fault:
    """``E <code> <text>``: a fault the firmware noticed (``i2c``, ``overrun``, ``brownout``)."""

    code: str
    """One word naming the fault."""

    message: str = ""
    """Free words, possibly none."""

    def text(self) -> str:
        return f"E {self.code} {self.message}" if self.message else f"E {self.code}"


@dataclass(frozen=True)
class Query:
    """``?`` from the Pi: send a hello and a full ``S`` frame now."""

    def text(self) -> str:
        return "?"


@dataclass(frozen=True)
class Leds:
    """``L <bits>`` from the Pi: set indicator LEDs (bit *i* = LED *i*)."""

    bits: int

    def text(self) -> str:
        return f"L {self.bits:x}"


Frame = Hello | State | Fault | Query | Leds


def encode(frame: Frame) -> bytes:
    """``frame`` as a complete line, CRC and newline included."""
    return encode_frame(frame.text())


# --- Dropped lines --------------------------------------------------------------------------


class DropReason(Enum):
    """Why a receiver dropped a line (each is counted separately)."""

    TOO_LONG = "too long"
    """More than 256 bytes, counting ``\\r\\n``."""
    NOT_ASCII = "not ASCII"
    """A byte above 0x7F."""
    MALFORMED = "malformed"
    """No CRC, control characters, wrong fields, or a state bit at or above the cell count."""
    BAD_CRC = "bad CRC"
    """The CRC does not match the text."""
    UNKNOWN_TYPE = "unknown type"
    """Well-formed, correct CRC, but a frame type this side does not know."""


@dataclass(frozen=True)
class LinkError:
    """A dropped line: returned by :func:`parse_line`, never raised."""

    reason: DropReason
    detail: str
    """Plain words for the log (the offending part, shortened)."""

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.detail}"


def _drop(reason: DropReason, detail: str) -> LinkError:
    return LinkError(reason, detail)


def parse_line(line: bytes, cells: int | None = None) -> Frame | LinkError:
    """Decode one line (with or without its ``\\n``) into a frame, or say why it is dropped.

    ``cells`` is the cell count from the accepted hello: a state bit at or above it makes the
    frame malformed. Without it (``None``) that check is skipped.
    """
    if len(line) > MAX_LINE:
        return _drop(DropReason.TOO_LONG, f"{len(line)} bytes")
    body = line[:-1] if line.endswith(b"\n") else line
    if body.endswith(b"\r"):
        body = body[:-1]
    if any(b > 0x7F for b in body):
        return _drop(DropReason.NOT_ASCII, repr(body[:40]))
    if any(b < 0x20 or b == 0x7F for b in body):
        return _drop(DropReason.MALFORMED, f"control character in {body[:40]!r}")
    text = body.decode("ascii")
    star = text.rfind("*")
    if star < 0:
        return _drop(DropReason.MALFORMED, f"no CRC in {text[:40]!r}")
    payload, crc_text = text[:star], text[star + 1 :]
    if len(crc_text) != 2 or not _HEX.fullmatch(crc_text):
        return _drop(DropReason.MALFORMED, f"CRC {crc_text[:8]!r} is not two hex digits")
    expected = crc8(payload.encode("ascii"))
    if int(crc_text, 16) != expected:
        return _drop(
            DropReason.BAD_CRC, f"{text[:40]!r} has CRC {crc_text}, expected {expected:02X}"
        )
    return _parse_payload(payload, cells)


def _parse_payload(payload: str, cells: int | None) -> Frame | LinkError:
    fields = payload.split(" ")
    if not payload or any(not f for f in fields):
        return _drop(DropReason.MALFORMED, f"empty field in {payload[:40]!r}")
    kind, args = fields[0], fields[1:]
    if kind == "S":
        return _parse_state(args, cells, payload)
    if kind == "H":
        return _parse_hello(args, payload)
    if kind == "E":
        if not args or not all(_WORD.fullmatch(a) for a in args):
            return _drop(DropReason.MALFORMED, f"fault without a code: {payload[:40]!r}")
        return Fault(args[0], " ".join(args[1:]))
    if kind == "?":
        return Query() if not args else _drop(DropReason.MALFORMED, payload[:40])
    if kind == "L":
        if len(args) != 1 or not _HEX.fullmatch(args[0]):
            return _drop(DropReason.MALFORMED, f"bad LED frame {payload[:40]!r}")
        return Leds(int(args[0], 16))
    return _drop(DropReason.UNKNOWN_TYPE, f"frame type {kind[:10]!r}")


def _parse_state(args: list[str], cells: int | None, payload: str) -> State | LinkError:
    if len(args) != 2 or not _DECIMAL.fullmatch(args[0]) or not _HEX.fullmatch(args[1]):
        return _drop(DropReason.MALFORMED, f"bad state frame {payload[:40]!r}")
    seq, bits = int(args[0]), int(args[1], 16)
    if seq > MAX_SEQ:
        return _drop(DropReason.MALFORMED, f"sequence number {seq} above {MAX_SEQ}")
    if cells is not None and bits >> cells:
        return _drop(
            DropReason.MALFORMED,
            f"state sets cell {bits.bit_length() - 1} but the board has {cells} cells",
        )
    return State(seq, bits)


def _parse_hello(args: list[str], payload: str) -> Hello | LinkError:
    if len(args) != 4 or not _DECIMAL.fullmatch(args[0]) or not _DECIMAL.fullmatch(args[3]):
        return _drop(DropReason.MALFORMED, f"bad hello {payload[:40]!r}")
    if not (_WORD.fullmatch(args[1]) and _WORD.fullmatch(args[2])):
        return _drop(DropReason.MALFORMED, f"bad hello words {payload[:40]!r}")
    protocol, cells = int(args[0]), int(args[3])
    if protocol != PROTOCOL:
        return _drop(DropReason.MALFORMED, f"protocol {protocol}, this host speaks {PROTOCOL}")
    if cells < 1:
        return _drop(DropReason.MALFORMED, f"hello with {cells} cells")
    return Hello(firmware=args[1], board_id=args[2], cells=cells, protocol=protocol)


class LineAssembler:
    """Cuts a byte stream into lines and resynchronises after junk.

    Bytes pile up until a ``\\n``; a line that grows past :data:`MAX_LINE` is cut off and the
    rest of it, up to the next ``\\n``, thrown away, so memory stays bounded whatever a broken
    sender writes. The cut-off head is still handed out, too long, for :func:`parse_line`
    to drop and count.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes]:
        """The complete lines in ``data`` (with what came before), each ending in ``\\n``.

        An over-long line is returned as its first ``MAX_LINE + 1`` bytes, without ``\\n``.
        """
        lines: list[bytes] = []
        start = 0
        while start < len(data):
            nl = data.find(b"\n", start)
            end = len(data) if nl < 0 else nl + 1
            chunk = data[start:end]
            start = end
            if self._skipping:
                if nl >= 0:
                    self._skipping = False
                continue
            self._buf += chunk
            if len(self._buf) > MAX_LINE:
                lines.append(bytes(self._buf[: MAX_LINE + 1]))
                self._buf.clear()
                self._skipping = nl < 0
            elif nl >= 0:
                lines.append(bytes(self._buf))
                self._buf.clear()
        return lines

    def reset(self) -> None:
        """Forget a half-received line (after the port was reopened)."""
        self._buf.clear()
        self._skipping = False
