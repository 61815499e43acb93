"""Hall switches read by MCP23017 I/O expanders on the Raspberry Pi's I2C bus.

Wiring (hardware/README.md has the full picture):

- Up to eight MCP23017s share the Pi's I2C bus (SDA = GPIO2, SCL = GPIO3, 3.3 V). Each one's
  address is 0x20 + A2A1A0, set by tying its A0-A2 pins to GND or 3.3 V; ``addresses`` lists
  them, and the order fixes the cell numbers: ``cell = address_index * 16 + pin``, pin 0-7
  being GPA0-GPA7 and 8-15 GPB0-GPB7.
- One Hall switch per cell. Open-drain switches (DRV5032FC, DRV5032AJ) pull their input LOW when
  a magnet is present and let go otherwise; the expander's internal 100 kΩ pull-ups, which
  this source enables, hold a free input HIGH. So with ``active_low=True`` (the default) a
  low input means "magnet present"; ``active_low=False`` is for push-pull switches that
  drive HIGH on a magnet.
- GPA7 and GPB7 are output-only on current silicon: no sensor may be wired there. This source
  drives them low as outputs and refuses a ``wired`` cell on them.
- Each expander's INTA (mirrored to cover both ports, open drain) goes to a Pi GPIO named in
  ``interrupt_pins``, held high by the Pi's pull-up: one pin per expander, or one pin shared
  by all of them (open drain makes a wired-OR). Without interrupt pins the source reads every
  expander on every ``poll()``.

Reading happens in :meth:`MCP23017Source.poll` (never on gpiozero's threads): it reads an
expander when its interrupt line fell or is still low, and every expander at least every
``full_read_interval`` seconds as a backstop against a lost edge. Reading GPIO also clears the
expander's interrupt. I2C errors (``OSError`` 121 "Remote I/O error", 5 EIO: a loose wire,
noise) are retried, counted and reported as degraded health, never raised; an expander that
does not answer is retried every ``retry_interval`` seconds and the link is down meanwhile.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.gpio import InterruptLine, Pin
from firmware_bridge.i2c_bus import blinka_failure, open_i2c_bus, quiet_blinka
from firmware_bridge.profile_model import MCP23017_ADDRESSES, OUTPUT_ONLY_PINS
from firmware_bridge.source import LinkStatus, SensorEvent, SourceError, TroubleWindow
from scorekeeper.clock import Clock

quiet_blinka()  # before Blinka's first import: no pip prompt on a terminal
try:
    from adafruit_mcp230xx.mcp23017 import MCP23017
except RuntimeError as exc:  # Blinka's Pi pin module without its platform library (gpiod)
    raise blinka_failure(exc) from None

IOCON_MIRROR = 0x40
"""INTA and INTB both report changes on either port."""
IOCON_ODR = 0x04
"""INT outputs open drain, so several expanders may share one Pi pin."""

def pin_name(pin: int) -> str:
    """``GPA0``..``GPA7`` for pins 0-7, ``GPB0``..``GPB7`` for 8-15."""
    return f"GP{'AB'[pin // 8]}{pin % 8}"


@dataclass(frozen=True)
class I2CCounters:
    """What the source has seen on the bus so far (for ``skitter sensors`` and benchmarks)."""

    errors: int
    """I2C transactions that failed (each retry counts)."""
    interrupt_reads: int
    """Expander reads triggered by an interrupt line."""
    full_reads: int
    """Backstop reads of every expander."""
    reconfigurations: int
    """Times an expander was (re)configured: at start, after it came back or lost its setup."""


class _Expander:
    """One MCP23017: its place in the cell numbering and what we last read from it."""

    def __init__(self, address: int, index: int, mask: int) -> None:
        self.address = address
        self.index = index
        self.mask = mask
        """Pins with a sensor (bit i = pin i)."""
        self.chip: MCP23017 | None = None
        self.gpio: int | None = None
        self.next_attempt = 0.0
        self.failure = ""

    @property
    def label(self) -> str:
        return f"0x{self.address:02X}"


class MCP23017Source:
    """Cell states from MCP23017 expanders; see the module docstring for the wiring.

    ``wired`` names the cells that have a sensor (the profile's mapped cells); it defaults to
    every cell below ``cells`` except those on GPA7/GPB7. ``i2c`` is a ``busio.I2C``-like bus
    (tests pass a fake); ``None`` opens ``/dev/i2c-<bus>`` at :meth:`start` (the profile's
    ``[mcp23017] bus``, 1 on the Pi's header). ``pin_factory`` is
    gpiozero's, for the interrupt lines.
    """

    name = "mcp23017"

    def __init__(
        self,
        *,
        addresses: Sequence[int],
        active_low: bool = True,
        cells: int,
        clock: Clock,
        i2c: Any = None,
        bus: int = 1,
        interrupt_pins: Sequence[Pin] = (),
        pin_factory: Any = None,
        full_read_interval: float = 1.0,
        wired: Collection[int] | None = None,
        retry_interval: float = 2.0,
        retries: int = 3,
    ) -> None:
        addresses = tuple(addresses)
        if not 1 <= len(addresses) <= len(MCP23017_ADDRESSES):
            raise SourceError(f"{len(addresses)} MCP23017 addresses given: use 1 to 8")
        for a in addresses:
            if a not in MCP23017_ADDRESSES:
                raise SourceError(f"MCP23017 address 0x{a:02X} is outside 0x20-0x27 (A2-A0)")
            if addresses.count(a) > 1:
                raise SourceError(f"MCP23017 address 0x{a:02X} is listed twice")
        if not 1 <= cells <= 16 * len(addresses):
            raise SourceError(
                f"{cells} cells do not fit {len(addresses)} expander(s) of 16 pins each"
            )
        if len(interrupt_pins) not in (0, 1, len(addresses)):
            raise SourceError(
                f"{len(interrupt_pins)} interrupt pins for {len(addresses)} expanders: give "
                "none, one shared line, or one per expander"
            )
        if full_read_interval <= 0:
            raise SourceError(f"full_read_interval must be positive ({full_read_interval})")
        if wired is None:
            wired = [c for c in range(cells) if c % 16 not in OUTPUT_ONLY_PINS]
        masks = [0] * len(addresses)
        for cell in sorted(set(wired)):
            if not 0 <= cell < cells:
                raise SourceError(f"cell {cell} is outside 0..{cells - 1}")
            index, pin = divmod(cell, 16)
            if pin in OUTPUT_ONLY_PINS:
                raise SourceError(
                    f"cell {cell} is on {pin_name(pin)} of the expander at "
                    f"0x{addresses[index]:02X}: GPA7/GPB7 are output-only on current "
                    "MCP23017 silicon; wire the sensor to another pin"
                )
            masks[index] |= 1 << pin
        self.cells = cells
        self.active_low = active_low
        self._clock = clock
        self._bus = i2c
        self._bus_number = bus
        self._interrupt_pins = tuple(interrupt_pins)
        self._pin_factory = pin_factory
        self._full_interval = full_read_interval
        self._retry_interval = retry_interval
        self._retries = max(1, retries)
        self._expanders = [_Expander(a, i, masks[i]) for i, a in enumerate(addresses)]
        self._lines: list[InterruptLine] = []
        self._active: set[int] = set()
        self._pending: list[SensorEvent] = []
        self._next_full = 0.0
        self._trouble = TroubleWindow()
        self._errors = 0
        self._errors_at: dict[int, int] = dict.fromkeys(addresses, 0)
        self._interrupt_reads = 0
        self._full_reads = 0
        self._configs = 0
        self._started = False
        self._owns_bus = False

    # -- Source protocol --------------------------------------------------------------------

    def start(self) -> None:
        """Open the bus and the interrupt lines, configure every expander that answers.

        Raises :class:`SourceError` when there is no I2C bus or a GPIO pin is unusable; an
        expander that does not answer is not an error (the status says so; it is retried).
        """
        if self._started:
            return
        if self._bus is None:
            self._bus = open_i2c_bus(self._bus_number)
            self._owns_bus = True
        try:
            for pin in self._interrupt_pins:
                self._lines.append(InterruptLine(pin, pin_factory=self._pin_factory))
        except SourceError:
            self.close()
            raise
        now = self._clock.now()
        for exp in self._expanders:
            self._attach(exp, now)
        self._next_full = now + self._full_interval
        self._started = True

    def poll(self) -> list[SensorEvent]:
        if not self._started:
            return []
        now = self._clock.now()
        for exp in self._expanders:
            if exp.chip is None and now >= exp.next_attempt:
                self._attach(exp, now)
        if now >= self._next_full:
            self._next_full = now + self._full_interval
            self._full_reads += 1
            for exp in self._expanders:
                self._verify_setup(exp, now)
                self._read(exp, now)
        elif not self._lines:
            for exp in self._expanders:
                self._read(exp, now)
        else:
            for exp in self._due_by_interrupt():
                self._interrupt_reads += 1
                self._read(exp, now)
        events, self._pending = self._pending, []
        return events

    def snapshot(self) -> frozenset[int]:
        return frozenset(self._active)

    def status(self) -> LinkStatus:
        now = self._clock.now()
        recent = self._trouble.recent(now)
        missing = [e for e in self._expanders if e.chip is None]
        if not self._started:
            return LinkStatus(up=False, message="MCP23017 source not started", errors=self._errors)
        if missing:
            names = ", ".join(e.label for e in missing)
            why = missing[0].failure
            return LinkStatus(
                up=False,
                degraded=True,
                errors=self._errors,
                message=f"MCP23017 at {names} not answering ({why}); check its power, "
                "SDA/SCL and A0-A2 wiring; retrying",
            )
        if recent:
            return LinkStatus(
                up=True,
                degraded=True,
                errors=self._errors,
                message=f"I2C errors: {recent} in the last "
                f"{self._trouble.seconds:.0f} s (retried)",
            )
        return LinkStatus(up=True, errors=self._errors)

    def close(self) -> None:
        for line in self._lines:
            line.close()
        self._lines.clear()
        self._started = False
        if self._owns_bus and self._bus is not None:
            self._bus.deinit()
            self._bus = None
            self._owns_bus = False

    # -- extras -------------------------------------------------------------------------------

    def counters(self) -> I2CCounters:
        """Bus statistics so far."""
        return I2CCounters(self._errors, self._interrupt_reads, self._full_reads, self._configs)

    def errors_by_expander(self) -> dict[str, int]:
        """I2C errors so far per expander (``0x21`` → count), for the board self-test."""
        return {f"0x{a:02X}": n for a, n in self._errors_at.items()}

    # -- inside -------------------------------------------------------------------------------

    def _due_by_interrupt(self) -> list[_Expander]:
        due: list[_Expander] = []
        for i, line in enumerate(self._lines):
            fired = line.take()
            if fired or line.is_active:
                if len(self._lines) == 1:
                    return [e for e in self._expanders if e.chip is not None]
                exp = self._expanders[i]
                if exp.chip is not None:
                    due.append(exp)
        return due

    def _note_error(self, now: float, exp: _Expander) -> None:
        self._errors += 1
        self._errors_at[exp.address] = self._errors_at.get(exp.address, 0) + 1
        self._trouble.note(now)

    def _attach(self, exp: _Expander, now: float) -> None:
        """Probe and configure ``exp``; on failure mark it missing until ``next_attempt``."""
        try:
            chip = self._with_retries(lambda: MCP23017(self._bus, exp.address), now, exp)
            self._configure(chip, exp, now)
        except (OSError, ValueError) as exc:
            exp.chip = None
            exp.failure = _describe(exc)
            exp.next_attempt = now + self._retry_interval
            return
        exp.chip = chip
        exp.failure = ""
        self._read(exp, now)

    def _configure(self, chip: MCP23017, exp: _Expander, now: float) -> None:
        """Inputs with pull-ups, interrupt on change from the previous value, INT mirrored and
        open drain; GPA7/GPB7 outputs driven low."""
        inputs = 0xFFFF & ~sum(1 << p for p in OUTPUT_ONLY_PINS)

        def setup() -> None:
            chip.io_control = IOCON_MIRROR | IOCON_ODR
            chip.gpio = 0x0000  # output latches: GPA7/GPB7 low
            chip.iodir = inputs
            chip.gppu = inputs
            chip.ipol = 0x0000
            chip.interrupt_configuration = 0x0000  # compare with the previous value
            chip.default_value = 0x0000
            chip.interrupt_enable = exp.mask

        self._with_retries(setup, now, exp)
        self._configs += 1

    def _verify_setup(self, exp: _Expander, now: float) -> None:
        """Reconfigure an expander that lost its setup (a brown-out resets its registers)."""
        chip = exp.chip
        if chip is None:
            return
        try:
            intact = self._with_retries(lambda: chip.interrupt_enable, now, exp) == exp.mask
            if not intact:
                self._configure(chip, exp, now)
        except OSError as exc:
            self._lose(exp, exc, now)

    def _read(self, exp: _Expander, now: float) -> None:
        chip = exp.chip
        if chip is None:
            return
        try:
            gpio = self._with_retries(lambda: chip.gpio, now, exp)
        except OSError as exc:
            self._lose(exp, exc, now)
            return
        if gpio == exp.gpio:
            return  # the same word as last time: every cell is as already recorded
        exp.gpio = gpio
        levels = ~gpio if self.active_low else gpio
        base = exp.index * 16
        for pin in range(16):
            if not exp.mask >> pin & 1:
                continue
            cell = base + pin
            active = bool(levels >> pin & 1)
            if active != (cell in self._active):
                if active:
                    self._active.add(cell)
                else:
                    self._active.discard(cell)
                self._pending.append(SensorEvent(cell, active, now))

    def _lose(self, exp: _Expander, exc: Exception, now: float) -> None:
        exp.chip = None
        exp.failure = _describe(exc)
        exp.next_attempt = now + self._retry_interval

    def _with_retries(self, action: Any, now: float, exp: _Expander) -> Any:
        """``action()``, tried up to ``retries`` times on I2C errors (each one counted)."""
        attempt = 1
        while True:
            try:
                return action()
            except OSError:
                self._note_error(now, exp)
                if attempt >= self._retries:
                    raise
                attempt += 1


def _describe(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"I2C error {exc.errno}: {exc.strerror}"
    return "no answer at its address"
