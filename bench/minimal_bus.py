"""The cheapest bus the Adafruit MCP23017 driver can run on: a register array per chip.

The emulation in ``tests/support/emulation/i2c.py`` models interrupts, pull-ups and IOCON;
that costs CPU on every read, which would inflate the "driver's own reads" baseline and flatter the
pipeline's ratio. This bus does the least a bus can, so the baseline is the driver alone: it stores
written bytes and hands back stored ones. Its one concession to the chip is that a write to
GPIO lands in the output latch (OLAT), so the driver's ``gpio = 0`` at setup does not
pretend every Hall switch pulled its input low; the inputs are set with :meth:`set_level`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

NREGS = 0x16
GPIOA, GPIOB, OLATA = 0x12, 0x13, 0x14


class MinimalI2C:
    """A ``busio.I2C`` stand-in: ``regs[address]`` is a 22-byte register array (BANK=0)."""

    def __init__(self, addresses: Iterable[int]) -> None:
        self.regs: dict[int, bytearray] = {}
        for address in addresses:
            regs = bytearray(NREGS)
            regs[GPIOA] = regs[GPIOB] = 0xFF  # inputs released: pull-ups read high
            self.regs[address] = regs

    # -- busio.I2C ---------------------------------------------------------------------------

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def deinit(self) -> None:
        pass

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        regs = self.regs[address]  # KeyError would be a bench bug, not a bus error
        stop = len(buffer) if end is None else end
        if stop - start < 2:
            return  # a probe or a bare register pointer
        reg = buffer[start]
        for value in buffer[start + 1 : stop]:
            regs[OLATA + reg - GPIOA if reg in (GPIOA, GPIOB) else reg] = value
            reg = (reg + 1) % NREGS

    def readfrom_into(
        self, address: int, buffer: Any, *, start: int = 0, end: int | None = None
    ) -> None:
        regs = self.regs[address]
        for i in range(start, len(buffer) if end is None else end):
            buffer[i] = regs[0]

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
        regs = self.regs[address]
        reg = buffer_out[out_start]
        for i in range(in_start, len(buffer_in) if in_end is None else in_end):
            buffer_in[i] = regs[reg]
            reg = (reg + 1) % NREGS

    # -- the bench's verb --------------------------------------------------------------------

    def set_level(self, address: int, pin: int, high: bool) -> None:
        """Set input ``pin`` (0-15) of the chip at ``address`` high or low."""
        reg, bit = GPIOA + (pin >> 3), 1 << (pin & 7)
        regs = self.regs[address]
        regs[reg] = regs[reg] | bit if high else regs[reg] & ~bit & 0xFF
