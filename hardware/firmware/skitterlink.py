"""The skitter sensor firmware's logic, with no board imports (docs/sensor-link.md, v1).

``code.py`` reads the pins and moves bytes; everything else is here: the CRC-8/SMBUS, frame
encoding, the per-cell debounce, the heartbeat and the host's commands. It runs unchanged
under CircuitPython on the RP2040 and under CPython in the tests, so it avoids what
CircuitPython lacks (dataclasses, typing, ``int.bit_length``, bytes formatting).

Time is ``supervisor.ticks_ms()``: integer milliseconds that wrap at 2**29, compared with
:func:`ticks_diff` (floats lose precision after a few hours of uptime on CircuitPython).
"""

PROTOCOL = 1
MAX_LINE = 256
MAX_SEQ = 65535
TICKS_PERIOD = 1 << 29
_TICKS_HALF = TICKS_PERIOD // 2

DEBOUNCE_MS = 10
"""A raw change must hold this long before it is reported (the Pi debounces again)."""
HEARTBEAT_MS = 150
"""Longest wait between ``S`` frames; the spec allows 200 ms, the rest is loop jitter."""
OVERRUN_MS = 100
"""A loop pass this late means the firmware stalled: report ``E overrun``."""


def ticks_diff(a, b):
    """``a - b`` in milliseconds for wrapping ``ticks_ms`` values."""
    d = (a - b) & (TICKS_PERIOD - 1)
    if d >= _TICKS_HALF:
        d -= TICKS_PERIOD
    return d


def crc8(data):
    """CRC-8/SMBUS (poly 0x07, init 0, no reflection, no final XOR); check value 0xF4."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(text):
    """``text`` as a frame line: ``text*CC\\n``."""
    return f"{text}*{crc8(text.encode()):02X}\n".encode()


def hello_frame(version, board_id, cells):
    return frame(f"H {PROTOCOL} {version} {board_id} {cells}")


def state_frame(seq, bits):
    return frame(f"S {seq} {bits:x}")


def fault_frame(code, text=""):
    return frame("E " + code + (" " + text if text else ""))


class Debouncer:
    """Per-cell debounce: a raw change counts once it has held for ``debounce_ms``."""

    def __init__(self, cells, debounce_ms=DEBOUNCE_MS):
        self.cells = cells
        self.debounce_ms = debounce_ms
        self.stable = 0
        self._raw = 0
        self._changed_at = [0] * cells

    def update(self, now, raw):
        """Feed the raw bits read at ``now``; True when the stable state changed."""
        moved = raw ^ self._raw
        if moved:
            for i in range(self.cells):
                if moved >> i & 1:
                    self._changed_at[i] = now
            self._raw = raw
        pending = raw ^ self.stable
        if not pending:
            return False
        before = self.stable
        for i in range(self.cells):
            if pending >> i & 1 and ticks_diff(now, self._changed_at[i]) >= self.debounce_ms:
                self.stable ^= 1 << i
        return self.stable != before


class Firmware:
    """The firmware's state: call :meth:`boot` once, then :meth:`step` on every loop pass.

    Both return the bytes to write to the USB serial port (possibly none).
    """

    def __init__(self, cells, board_id, version, debounce_ms=DEBOUNCE_MS,
                 heartbeat_ms=HEARTBEAT_MS):
        self.cells = cells
        self.board_id = board_id
        self.version = version
        self.heartbeat_ms = heartbeat_ms
        self.debouncer = Debouncer(cells, debounce_ms)
        self.seq = 0
        self.leds = 0
        self.dropped = 0
        self._last_state = None
        self._last_step = None
        self._rx = bytearray()
        self._skipping = False

    def boot(self, now, raw=0, brownout=False):
        """The hello and first state sent at start (and a brownout fault if that reset us)."""
        self.debouncer.stable = raw
        self.debouncer.update(now, raw)
        out = self._hello()
        if brownout:
            out += fault_frame("brownout", "reset by low supply voltage")
        self._last_step = now
        return out + self._state(now)

    def step(self, now, raw, incoming=b""):
        """One loop pass: ``raw`` bits read at ``now``, ``incoming`` bytes from the host."""
        out = b""
        force = False
        for command in self._commands(incoming):
            if command == "?":
                out += self._hello()
                force = True
            elif command.startswith("L "):
                self.leds = int(command[2:], 16)
        if self._last_step is not None:
            late = ticks_diff(now, self._last_step)
            if late > OVERRUN_MS:
                out += fault_frame("overrun", f"loop stalled {late} ms")
        self._last_step = now
        changed = self.debouncer.update(now, raw)
        due = self._last_state is None or ticks_diff(now, self._last_state) >= self.heartbeat_ms
        if changed or force or due:
            out += self._state(now)
        return out

    def _hello(self):
        return hello_frame(self.version, self.board_id, self.cells)

    def _state(self, now):
        line = state_frame(self.seq, self.debouncer.stable)
        self.seq = (self.seq + 1) % (MAX_SEQ + 1)
        self._last_state = now
        return line

    def _commands(self, data):
        """Complete, CRC-checked host commands in ``data``; anything else is dropped."""
        commands = []
        for byte in data:
            if byte == 0x0A:
                if not self._skipping:
                    command = self._check(bytes(self._rx))
                    if command is None:
                        self.dropped += 1
                    else:
                        commands.append(command)
                self._rx = bytearray()
                self._skipping = False
            elif not self._skipping:
                self._rx.append(byte)
                if len(self._rx) > MAX_LINE:
                    self._rx = bytearray()
                    self._skipping = True
                    self.dropped += 1
        return commands

    def _check(self, line):
        if line.endswith(b"\r"):
            line = line[:-1]
        star = line.rfind(b"*")
        if star < 0 or len(line) - star != 3:
            return None
        for byte in line:
            if byte < 0x20 or byte > 0x7E:
                return None
        payload = line[:star]
        try:
            crc = int(line[star + 1:].decode(), 16)
        except ValueError:
            return None
        if crc != crc8(payload):
            return None
        text = payload.decode()
        if text == "?":
            return text
        if text.startswith("L ") and len(text) > 2:
            try:
                int(text[2:], 16)
            except ValueError:
                return None
            return text
        return None


def settings_list(text, what, low, high):
    """The comma-separated integers of a ``settings.toml`` value (decimal or 0x hex), each
    from ``low`` to ``high``; ``ValueError`` naming ``what`` and the bad item."""
    out = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        value = _number(item)
        if value is None:
            raise ValueError("settings.toml " + what + ": " + repr(item) + " is not a number")
        if value < low or value > high:
            raise ValueError("settings.toml " + what + ": " + item + " is outside "
                             + str(low) + "-" + str(high))
        if value in out:
            raise ValueError("settings.toml " + what + ": " + item + " is listed twice")
        out.append(value)
    return tuple(out)


def _number(item):
    """``item`` as an integer (decimal, or hex after ``0x``), None when it is not one."""
    try:
        return int(item, 16) if item.lower().startswith("0x") else int(item)
    except ValueError:
        return None


def sensor_pins(text):
    """The GPIO numbers of ``SKITTER_SENSOR_PINS`` (GP0 and GP1 carry the expanders' I2C)."""
    return settings_list(text, "SKITTER_SENSOR_PINS", 0, 29)


def expander_addresses(text):
    """The I2C addresses of ``SKITTER_EXPANDERS`` (an MCP23017 answers at 0x20-0x27)."""
    return settings_list(text, "SKITTER_EXPANDERS", 0x20, 0x27)

