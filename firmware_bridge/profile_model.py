"""The values a board profile is made of (see :mod:`firmware_bridge.profile`).

Frozen dataclasses only; validation lives in :mod:`firmware_bridge.profile_parse`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType

from firmware_bridge.settle import SettleWaits
from scorekeeper.fields import DEFAULT_COLORS, Player


class Button(StrEnum):
    """A button a role may have on the Pi's GPIO header (its name in a profile, the same
    word)."""

    END_TURN = "end_turn"
    UNDO = "undo"
    RED_BACK = "red_back"


class ButtonRole(StrEnum):
    """Whose buttons: a player's side or the referee's (the same word in a profile)."""

    BLACK = "black"
    WHITE = "white"
    REFEREE = "referee"


#: The button names a role may have on the Pi's GPIO header.
BUTTON_NAMES: tuple[str, ...] = tuple(Button)
#: The roles that may have buttons.
BUTTON_ROLES: tuple[str, ...] = tuple(ButtonRole)
#: Raspberry Pi user GPIO lines, by BCM number.
BCM_PINS = range(0, 28)
#: The Pi's I2C bus lines (BCM), taken when expanders are used.
I2C_PINS: Mapping[int, str] = MappingProxyType({2: "SDA", 3: "SCL"})
#: The I2C addresses an MCP23017 can be strapped to (A2..A0).
MCP23017_ADDRESSES = range(0x20, 0x28)
#: Expander pins that cannot be inputs on current silicon (GPA7, GPB7).
OUTPUT_ONLY_PINS: frozenset[int] = frozenset({7, 15})
#: Raspberry Pi Pico under MicroPython, and CircuitPython on a Pico.
DEFAULT_USB_IDS: tuple[tuple[int, int], ...] = ((0x2E8A, 0x0005), (0x239A, 0x80F4))

TOP_KEYS = frozenset(
    {"name", "cells", "board_id", "debounce_ms", "settle_ms", "settle", "colors", "fields",
     "big",
     "bridges", "launch", "gpio", "mcp23017", "serial"}
)

class ProfileError(ValueError):
    """A board profile that cannot be used; the message names the key and the problem."""


@dataclass(frozen=True)
class FieldCells:
    """The sensor cells under one field and how many skitts a number of active cells means."""

    name: str
    """The field's name (``white.red``, ``minus``...)."""

    cells: tuple[int, ...]
    """The cells under the field."""

    counts: tuple[int, ...]
    """``counts[k]`` is the skitt count when ``k`` of the cells are active (identity unless
    calibrated: one skitt may cover two cells)."""

    trusted: int | None = None
    """The most skitts the counts are trustworthy for (``capacity`` in the profile, written
    by ``skitter calibrate`` where two numbers of skitts showed the same cells); None: up to
    the table's last count."""

    def count_for(self, active: int) -> int:
        """The skitt count for ``active`` active cells, clipped to the table and to the
        capacity: a count at the capacity means "this many or more"."""
        if active <= 0:
            return self.counts[0]
        return min(self.counts[min(active, len(self.counts) - 1)], self.capacity)

    @property
    def capacity(self) -> int:
        """The most skitts the sensors can tell apart on this field; the scorekeeper takes a
        count at it as "this many or more" and asks the referee (scorekeeper.saturation)."""
        last = self.counts[-1]
        return last if self.trusted is None else min(self.trusted, last)

    def capacity_with(self, muted: int) -> int:
        """The capacity left when ``muted`` of the field's cells are muted."""
        return self.count_for(len(self.cells) - muted)


@dataclass(frozen=True)
class Bridge:
    """Cells between two neighbouring fields of one side: a skitt there makes a chain."""

    fields: tuple[str, str]
    """The two fields the bridge connects."""

    cells: tuple[int, ...]
    """The cells on the bridge (any one active means a skitt lies on it)."""


@dataclass(frozen=True)
class GpioConfig:
    """Lines of the Pi's own GPIO header (BCM numbers)."""

    interrupt: tuple[int, ...] = ()
    """Lines wired to the MCP23017s' INTA/INTB outputs (open drain, active low)."""

    buttons: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Per role (``black``, ``white``, ``referee``): button name → BCM pin. Buttons connect
    the pin to ground (internal pull-up)."""

    leds: Mapping[str, int] = field(default_factory=dict)
    """LED name → BCM pin (active high)."""


@dataclass(frozen=True)
class Mcp23017Config:
    """MCP23017 expanders on the Pi's I2C bus."""

    addresses: tuple[int, ...]
    """Expander addresses, 0x20-0x27; the index gives the cell block (16 cells each)."""

    active_low: bool = True
    """True when a magnet pulls the input low (Hall switches with open-drain outputs, read
    with the expander's pull-ups on)."""

    bus: int = 1
    """The Linux I2C bus number, ``/dev/i2c-<bus>``: 1 is the header's SDA/SCL (GPIO2/3) on
    every Pi; a HAT on a Pi 5 may use another bus."""

    def locate(self, cell: int) -> tuple[int, str]:
        """The expander address and pin name (``GPA3``) of ``cell``."""
        index, pin = divmod(cell, 16)
        return self.addresses[index], pin_name(pin)


@dataclass(frozen=True)
class SerialConfig:
    """A microcontroller reporting cells over USB serial (docs/sensor-link.md)."""

    baudrate: int = 115200
    usb_ids: tuple[tuple[int, int], ...] = DEFAULT_USB_IDS
    """(vendor, product) pairs used to find the board when no port is named."""


@dataclass(frozen=True)
class SettleTuning:
    """The ``[settle]`` table: how long the settle rule waits after each kind of change
    (ms), tuned on the shot corpus (``bench/settle.py``, docs/sensor-link.md)."""

    land_ms: int
    leave_ms: int
    leave_slow_ms: int
    knocked_ms: int
    launch_ms: int
    sample_ms: int
    """The Hall switches' sample period."""

    def waits(self, launch_cells: frozenset[int]) -> SettleWaits:
        return SettleWaits(
            land_s=self.land_ms / 1000, leave_s=self.leave_ms / 1000,
            leave_slow_s=self.leave_slow_ms / 1000, knocked_s=self.knocked_ms / 1000,
            launch_s=self.launch_ms / 1000, sample_s=self.sample_ms / 1000,
            launch_cells=launch_cells)


@dataclass(frozen=True)
class BoardProfile:
    """A validated board profile. Build it with :func:`load_profile` or :func:`parse_profile`."""

    name: str
    cells: int
    """Number of sensor cells (0 .. cells-1)."""
    fields: Mapping[str, FieldCells]
    """All seven fields, in board order."""
    colors: tuple[str, ...] = DEFAULT_COLORS
    board_id: str | None = None
    """The id a serial board must announce in its hello, when given."""
    debounce_ms: int = 20
    settle_ms: int = 300
    settle: SettleTuning | None = None
    """The tuned settle rule's waits (the ``[settle]`` table); None: the fixed window."""
    big: Mapping[Player, tuple[int, ...]] = field(default_factory=dict)
    """Each player's big-skitt centre spot cells."""
    bridges: tuple[Bridge, ...] = ()
    launch: Mapping[Player, tuple[int, ...]] = field(default_factory=dict)
    """Each player's launch spot cells in their shooting area."""
    gpio: GpioConfig | None = None
    mcp23017: Mcp23017Config | None = None
    serial: SerialConfig = SerialConfig()
    path: Path | None = None
    """Where the profile was read from (None when parsed from text)."""

    @property
    def debounce_s(self) -> float:
        return self.debounce_ms / 1000

    @property
    def settle_s(self) -> float:
        return self.settle_ms / 1000

    @property
    def settle_waits(self) -> SettleWaits | None:
        """The tuned settle rule (:mod:`firmware_bridge.settle`), None: the fixed window."""
        if self.settle is None:
            return None
        launch = frozenset(c for cells in self.launch.values() for c in cells)
        return self.settle.waits(launch)

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(self.fields)

    def cell_roles(self) -> dict[int, str]:
        """Every used cell → what it senses: a field name, ``big:black``,
        ``bridge:white.red/white.yellow`` or ``launch:white``."""
        roles: dict[int, str] = {}
        for fc in self.fields.values():
            roles.update(dict.fromkeys(fc.cells, fc.name))
        for player, cells in self.big.items():
            roles.update(dict.fromkeys(cells, f"big:{player}"))
        for bridge in self.bridges:
            label = f"bridge:{bridge.fields[0]}/{bridge.fields[1]}"
            roles.update(dict.fromkeys(bridge.cells, label))
        for player, cells in self.launch.items():
            roles.update(dict.fromkeys(cells, f"launch:{player}"))
        return roles

    def describe_cell(self, cell: int) -> str:
        """``cell 16 (white.red, 0x21 GPA0)``: for messages a builder can act on."""
        parts = [self.cell_roles().get(cell, "unused")]
        if self.mcp23017 is not None and cell < 16 * len(self.mcp23017.addresses):
            address, pin = self.mcp23017.locate(cell)
            parts.append(f"0x{address:02X} {pin}")
        return f"cell {cell} ({', '.join(parts)})"


def pin_name(pin: int) -> str:
    """``GPA0``..``GPA7`` for pins 0-7, ``GPB0``..``GPB7`` for 8-15."""
    return f"GP{'AB'[pin // 8]}{pin % 8}"
