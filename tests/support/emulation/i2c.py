"""A fake ``busio.I2C`` bus hosting MCP23017 register models, for tests and benchmarks.

The real ``adafruit_mcp230xx.mcp23017.MCP23017`` driver runs unchanged against it. Each chip
is a 22-byte register array in BANK=0 addressing with the datasheet's behaviour where it
matters to us: sequential address increment, pull-ups, input polarity, interrupt-on-change
(compare with previous value or with DEFVAL), INTF/INTCAP latched until INTCAP or GPIO is
read, IOCON.MIRROR and the INT outputs, which drive ``gpiozero`` MockFactory pins.

Verbs for tests: :meth:`FakeI2C.set_input`, :meth:`FakeI2C.magnet`, :meth:`FakeI2C.fail_next`,
:meth:`FakeI2C.fail_randomly`, :meth:`FakeI2C.attach`, :meth:`FakeI2C.detach`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

IODIRA, IODIRB, IPOLA, IPOLB = 0x00, 0x01, 0x02, 0x03
GPINTENA, GPINTENB, DEFVALA, DEFVALB = 0x04, 0x05, 0x06, 0x07
INTCONA, INTCONB, IOCON, IOCON_B = 0x08, 0x09, 0x0A, 0x0B
GPPUA, GPPUB, INTFA, INTFB = 0x0C, 0x0D, 0x0E, 0x0F
INTCAPA, INTCAPB, GPIOA, GPIOB, OLATA, OLATB = 0x10, 0x11, 0x12, 0x13, 0x14, 0x15
NREGS = 0x16

IOCON_BANK, IOCON_MIRROR, IOCON_SEQOP = 0x80, 0x40, 0x20
IOCON_ODR, IOCON_INTPOL = 0x04, 0x02

EREMOTEIO = 121


class MCP23017Model:
    """One chip's registers and pin levels.

    ``levels[port]`` holds what each pin is driven to from outside: ``None`` means released
    (an open-collector Hall switch without a magnet), which reads high with the pull-up on and
    low without it (a floating input; the real chip reads noise).
    """

    def __init__(self) -> None:
        self.regs = bytearray(NREGS)
        self.regs[IODIRA] = self.regs[IODIRB] = 0xFF
        self.pointer = 0
        self.driven: list[list[int | None]] = [[None] * 8, [None] * 8]
        self._last = [self._port_value(0), self._port_value(1)]

    # -- pins ---------------------------------------------------------------------------------

    def _pin_levels(self, port: int) -> int:
        pullups = self.regs[GPPUA + port]
        value = 0
        for pin, level in enumerate(self.driven[port]):
            if (level if level is not None else pullups >> pin & 1):
                value |= 1 << pin
        return value

    def _port_value(self, port: int) -> int:
        """GPIO as read: inputs (with IPOL) and the latch for outputs."""
        iodir = self.regs[IODIRA + port]
        inputs = (self._pin_levels(port) ^ self.regs[IPOLA + port]) & iodir
        return inputs | (self.regs[OLATA + port] & ~iodir & 0xFF)

    def drive(self, pin: int, level: int | None) -> None:
        """Drive pin 0-15 high (1), low (0) or release it (None)."""
        self.driven[pin >> 3][pin & 7] = level
        self.update()

    def update(self) -> None:
        """Evaluate interrupt-on-change after any pin or register change."""
        for port in (0, 1):
            value = self._port_value(port)
            enabled = self.regs[GPINTENA + port] & self.regs[IODIRA + port]
            intcon = self.regs[INTCONA + port]
            changed = (value ^ self._last[port]) & ~intcon
            differs = (value ^ self.regs[DEFVALA + port]) & intcon
            fired = (changed | differs) & enabled
            if fired:
                if not self.regs[INTFA + port]:
                    self.regs[INTCAPA + port] = value
                self.regs[INTFA + port] |= fired
            self._last[port] = value

    def _clear(self, port: int) -> None:
        """Reading INTCAP or GPIO ends the interrupt; a pin still differing from DEFVAL
        (INTCON compare mode) raises it again at once (datasheet 3.6.5)."""
        self.regs[INTFA + port] = 0
        value = self._port_value(port)
        self._last[port] = value
        fired = (value ^ self.regs[DEFVALA + port]) & self.regs[INTCONA + port]
        fired &= self.regs[GPINTENA + port] & self.regs[IODIRA + port]
        if fired:
            self.regs[INTCAPA + port] = value
            self.regs[INTFA + port] = fired

    def interrupt(self, port: int) -> bool:
        """True while INTA (port 0) or INTB (port 1) is asserted."""
        if self.regs[IOCON] & IOCON_MIRROR:
            return bool(self.regs[INTFA] | self.regs[INTFB])
        return bool(self.regs[INTFA + port])

    def int_level(self, port: int) -> int | None:
        """The INT pin's electrical output: 0/1, or ``None`` when open drain and released."""
        asserted = self.interrupt(port)
        iocon = self.regs[IOCON]
        if iocon & IOCON_ODR:
            return 0 if asserted else None
        active_high = bool(iocon & IOCON_INTPOL)
        return int(asserted == active_high)

    # -- registers ----------------------------------------------------------------------------

    def read(self) -> int:
        reg = self.pointer
        if reg in (GPIOA, GPIOB):
            value = self._port_value(reg - GPIOA)
            self._clear(reg - GPIOA)
        elif reg in (INTCAPA, INTCAPB):
            value = self.regs[reg]
            self._clear(reg - INTCAPA)
        elif reg == IOCON_B:
            value = self.regs[IOCON]
        else:
            value = self.regs[reg]
        self._advance()
        return value

    def write(self, value: int) -> None:
        reg = self.pointer
        if reg in (IOCON, IOCON_B):
            if value & IOCON_BANK:
                raise ValueError("IOCON.BANK=1 addressing is not modelled")
            self.regs[IOCON] = value & 0xFE
        elif reg in (GPIOA, GPIOB):
            self.regs[OLATA + reg - GPIOA] = value
        elif reg not in (INTFA, INTFB, INTCAPA, INTCAPB):
            self.regs[reg] = value
        self._advance()

    def _advance(self) -> None:
        if self.regs[IOCON] & IOCON_SEQOP:
            self.pointer ^= 1  # byte mode, BANK=0: toggles within the A/B pair
        else:
            self.pointer = (self.pointer + 1) % NREGS


class FakeI2C:
    """A ``busio.I2C`` stand-in with MCP23017 chips at ``addresses``.

    ``addresses`` also fixes the cell numbering used by :meth:`magnet`
    (cell = index in ``addresses`` * 16 + pin), the same as the MCP23017 source's.
    ``present`` names the addresses that answer from the start (default: all).
    """

    def __init__(
        self,
        addresses: Sequence[int] = (0x20,),
        *,
        present: Sequence[int] | None = None,
        seed: int = 0,
    ) -> None:
        self.order = tuple(addresses)
        self.chips: dict[int, MCP23017Model] = {
            a: MCP23017Model() for a in (self.order if present is None else present)
        }
        self.transactions = 0
        self.errors_raised = 0
        self._fail_next = 0
        self._fail_probability = 0.0
        self._rng = random.Random(seed)
        self._locked = False
        self._wires: list[tuple[Any, list[tuple[int, int]]]] = []

    # -- busio.I2C interface ------------------------------------------------------------------

    def try_lock(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def deinit(self) -> None:
        self.chips.clear()

    def __enter__(self) -> FakeI2C:
        return self

    def __exit__(self, *exc: object) -> None:
        self.deinit()

    def scan(self) -> list[int]:
        return sorted(self.chips)

    def _chip(self, address: int) -> MCP23017Model:
        self.transactions += 1
        if self._fail_next or (
            self._fail_probability and self._rng.random() < self._fail_probability
        ):
            self._fail_next = max(0, self._fail_next - 1)
            self.errors_raised += 1
            raise OSError(EREMOTEIO, "Remote I/O error")
        chip = self.chips.get(address)
        if chip is None:
            raise OSError(EREMOTEIO, "Remote I/O error")
        return chip

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        chip = self._chip(address)
        data = buffer[start : len(buffer) if end is None else end]
        if data:
            chip.pointer = data[0] % NREGS
            for value in data[1:]:
                chip.write(value)
            if len(data) > 1:
                chip.update()
                self._drive_wires()

    def readfrom_into(
        self, address: int, buffer: Any, *, start: int = 0, end: int | None = None
    ) -> None:
        chip = self._chip(address)
        for i in range(start, len(buffer) if end is None else end):
            buffer[i] = chip.read()
        self._drive_wires()

    def writeto_then_readfrom(
        self,
        address: int,
        buffer_out: Any,
        buffer_in: Any,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        chip = self._chip(address)
        out = buffer_out[out_start : len(buffer_out) if out_end is None else out_end]
        if out:
            chip.pointer = out[0] % NREGS
            for value in out[1:]:
                chip.write(value)
        for i in range(in_start, len(buffer_in) if in_end is None else in_end):
            buffer_in[i] = chip.read()
        self._drive_wires()

    # -- test verbs ---------------------------------------------------------------------------

    def set_input(self, address: int, pin: int, level: int | bool | None) -> None:
        """Drive ``pin`` (0-15) of the chip at ``address``: 1, 0, or ``None`` (released)."""
        self.chips[address].drive(pin, None if level is None else int(level))
        self._drive_wires()

    def magnet(self, cell: int, present: bool, *, active_low: bool = True) -> None:
        """A Hall switch at ``cell`` senses a magnet or not.

        Active-low switches (A3144, DRV5032 open drain) pull low with a magnet and let go
        without one; active-high ones drive high with a magnet and low without.
        """
        address = self.order[cell // 16]
        if active_low:
            self.set_input(address, cell % 16, 0 if present else None)
        else:
            self.set_input(address, cell % 16, 1 if present else 0)

    def fail_next(self, count: int) -> None:
        """The next ``count`` transactions raise ``OSError(121)``."""
        self._fail_next = count

    def fail_randomly(self, probability: float) -> None:
        """Each transaction raises ``OSError(121)`` with this probability (seeded RNG)."""
        self._fail_probability = probability

    def detach(self, address: int) -> None:
        """The chip stops answering (unplugged, lost power)."""
        self.chips.pop(address, None)
        self._drive_wires()

    def attach(self, address: int) -> MCP23017Model:
        """A chip at ``address`` starts answering, with power-on register values."""
        self.chips[address] = MCP23017Model()
        self._drive_wires()
        return self.chips[address]

    def wire_interrupt(self, mock_pin: Any, *outputs: tuple[int, int]) -> None:
        """Connect INT outputs ``(address, port)`` (port 0 = INTA, 1 = INTB) to ``mock_pin``.

        Several open-drain outputs on one wire make a wired-OR: the line is low while any of
        them asserts, and the Pi's pull-up holds it high otherwise.
        """
        self._wires.append((mock_pin, list(outputs)))
        self._drive_wires()

    def _drive_wires(self) -> None:
        for pin, outputs in self._wires:
            levels = [
                None if (chip := self.chips.get(address)) is None else chip.int_level(port)
                for address, port in outputs
            ]
            # open drain: released outputs let the pull-up hold the line high; low wins
            want_low = 0 in levels
            if want_low and pin.state:
                pin.drive_low()
            elif not want_low and not pin.state:
                pin.drive_high()
