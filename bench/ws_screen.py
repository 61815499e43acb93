"""A minimal WebSocket client for benchmark 2: one scoreboard that notes when a state arrives.

Two hundred screens share the benchmark's one Python process. With a full client library
each message is parsed, decoded and handed to its own task; a screen's arrival stamp then
waits for every other screen's frame handled in the same turn of the event loop, and the
figure measures this process rather than the server (on this machine that was ~50 us per
frame, 10 ms per round of 200). Here a frame is stamped when its last byte is read, on
the machine's monotonic clock (the server's clock too), and nothing else is done with it
but find ``log_length``. It offers ``permessage-deflate`` as browsers do and inflates what
the server compressed; it answers pings, so the server's keepalive is satisfied.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
import zlib

_TAIL = b"\x00\x00\xff\xff"  # removed by the sender of a permessage-deflate message


class Screen(asyncio.Protocol):
    """One connected screen; :attr:`arrived` is set when a state with
    ``log_length >= want`` has arrived (see :meth:`expect`)."""

    def __init__(self, host: str, port: int, *, offer_deflate: bool = True) -> None:
        self.host, self.port = host, port
        self.offer_deflate = offer_deflate
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.open = False
        self.inflater: zlib._Decompress | None = None
        self.compressed = False
        self.want = 1 << 30
        self.arrived: float | None = None
        self.messages = 0

    @classmethod
    async def connect(cls, host: str, port: int, *, offer_deflate: bool = True) -> Screen:
        loop = asyncio.get_running_loop()
        _, screen = await loop.create_connection(
            lambda: cls(host, port, offer_deflate=offer_deflate), host, port)
        await asyncio.wait_for(screen.ready, 10)
        return screen

    def expect(self, log_length: int) -> None:
        self.arrived, self.want = None, log_length

    # -- asyncio.Protocol ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        offer = ("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                 if self.offer_deflate else "")
        transport.write(
            f"GET /ws HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{offer}\r\n".encode())

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()  # stamped before any parsing
        self.buffer += data
        if not self.open and not self._handshake():
            return
        self._frames(now)

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"screen lost its connection: {exc}"))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._send(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()

    # -- the protocol, as little of it as the server uses ---------------------------------

    def _handshake(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self.buffer[:end]).decode("latin-1").lower()
        del self.buffer[:end + 4]
        if not head.startswith("http/1.1 101"):
            self.ready.set_exception(ConnectionError(f"handshake refused: {head[:80]!r}"))
            return False
        self.compressed = "permessage-deflate" in head
        self.inflater = zlib.decompressobj(wbits=-15) if self.compressed else None
        self.open = True
        self.ready.set_result(None)
        return True

    def _frames(self, now: float) -> None:
        buf = self.buffer
        while len(buf) >= 2:
            size, start = buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    return
                size, start = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    return
                size, start = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < start + size:
                return
            head = buf[0]
            payload = bytes(buf[start:start + size])
            del buf[:start + size]
            opcode = head & 0x0F
            if opcode == 0x9:
                self._send(0xA, payload)  # pong
            elif opcode == 0x8:
                self.close()
            elif opcode in (0x1, 0x2):
                if not head & 0x80:
                    raise RuntimeError("bench bug: the server fragmented a message")
                if head & 0x40:
                    assert self.inflater is not None
                    payload = self.inflater.decompress(payload + _TAIL)
                self._message(payload, now)

    def _message(self, message: bytes, now: float) -> None:
        self.messages += 1
        if self.arrived is None:
            start = message.find(b'"log_length":') + 13
            end = message.find(b",", start)
            if int(message[start:end]) >= self.want:
                self.arrived = now

    def _send(self, opcode: int, payload: bytes) -> None:
        """A client frame: masked, as RFC 6455 requires (control frames only here)."""
        assert self.transport is not None and len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)
