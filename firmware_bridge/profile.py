"""Board profiles: which sensor cell belongs to which field, and how a board is wired.

A profile is a TOML file a builder edits (``hardware/boards/*.toml``). It is read with
``tomllib`` and validated once, on load: every mistake a builder can make (a cell used twice,
a cell out of range, a sensor on an MCP23017's output-only pin, a GPIO pin used twice) is a
:class:`ProfileError` that names the key and the problem, so a board never runs on a profile
that silently miscounts. ``skitter calibrate`` writes count maps back with ``tomlkit``.

Cells are numbered from 0 to ``cells - 1``. With MCP23017 expanders the number is fixed by
the wiring: ``cell = address_index * 16 + pin``, pin 0-7 is GPA0-GPA7 and pin 8-15 is
GPB0-GPB7 of the expander at ``addresses[address_index]``. GPA7 and GPB7 (pins 7 and 15) are
output-only on current silicon, so no sensor may be mapped to them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scorekeeper.fields import DEFAULT_COLORS, MINUS, PLAYERS, RED, Player, field_names

#: The button names a role may have on the Pi's GPIO header.
BUTTON_NAMES: tuple[str, ...] = ("end_turn", "undo", "red_back")
#: The roles that may have buttons.
BUTTON_ROLES: tuple[str, ...] = ("black", "white", "referee")
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

_TOP_KEYS = frozenset(
    {"name", "cells", "board_id", "debounce_ms", "settle_ms", "colors", "fields", "big",
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

    def count_for(self, active: int) -> int:
        """The skitt count for ``active`` active cells, clipped to the table."""
        if active <= 0:
            return self.counts[0]
        return self.counts[min(active, len(self.counts) - 1)]

    @property
    def capacity(self) -> int:
        """The most skitts the sensors can tell apart on this field."""
        return self.counts[-1]


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

    def locate(self, cell: int) -> tuple[int, str]:
        """The expander address and pin name (``GPA3``) of ``cell``."""
        index, pin = divmod(cell, 16)
        return self.addresses[index], pin_name(pin)


@dataclass(frozen=True)
class SerialConfig:
    """A microcontroller reporting cells over USB serial (spec/sensor-link.md)."""

    baudrate: int = 115200
    usb_ids: tuple[tuple[int, int], ...] = DEFAULT_USB_IDS
    """(vendor, product) pairs used to find the board when no port is named."""


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


def default_profile_path() -> Path:
    """``hardware/boards/default.toml`` of this checkout (also for an editable install)."""
    return Path(__file__).resolve().parent.parent / "hardware" / "boards" / "default.toml"


def load_profile(path: str | Path | None = None) -> BoardProfile:
    """Read and validate the profile at ``path`` (the default profile when None)."""
    p = Path(path) if path is not None else default_profile_path()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"board profile {p} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"board profile {p} cannot be read: {exc}") from None
    return loads_profile(text, path=p)


def loads_profile(text: str, *, path: Path | None = None) -> BoardProfile:
    """Parse and validate profile text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path or 'profile'}: not valid TOML: {exc}") from None
    return parse_profile(data, path=path)


def parse_profile(data: Mapping[str, Any], *, path: Path | None = None) -> BoardProfile:
    """Validate already-parsed TOML data (see the module docstring for the layout)."""
    try:
        return _Parser(data, path).profile()
    except ProfileError as exc:
        if path is not None:
            raise ProfileError(f"{path}: {exc}") from None
        raise


class _Parser:
    """One validation pass; ``used`` remembers which key claimed each cell and pin."""

    def __init__(self, data: Mapping[str, Any], path: Path | None) -> None:
        self.data = data
        self.path = path
        self.used_cells: dict[int, str] = {}
        self.used_pins: dict[int, str] = {}

    def profile(self) -> BoardProfile:
        d = self.data
        unknown = sorted(set(d) - _TOP_KEYS)
        if unknown:
            raise ProfileError(f"unknown key {unknown[0]!r} (expected one of "
                               f"{', '.join(sorted(_TOP_KEYS))})")
        name = d.get("name", self.path.stem if self.path else "board")
        if not isinstance(name, str) or not name:
            raise ProfileError(f"name: expected a non-empty string, got {name!r}")
        self.cells = _int(d.get("cells"), "cells", minimum=1)
        board_id = d.get("board_id")
        if board_id is not None and (not isinstance(board_id, str) or not board_id
                                     or " " in board_id):
            raise ProfileError(f"board_id: expected one word, got {board_id!r}")
        debounce_ms = _int(d.get("debounce_ms", 20), "debounce_ms", minimum=0)
        settle_ms = _int(d.get("settle_ms", 300), "settle_ms", minimum=0)
        colors = self._colors(d.get("colors", list(DEFAULT_COLORS)))
        self.mcp = self._mcp23017(d.get("mcp23017"))
        serial = self._serial(d.get("serial", {}))
        fields = self._fields(d.get("fields"), colors)
        big = self._per_player(d.get("big", {}), "big")
        bridges = self._bridges(d.get("bridges", []), colors)
        launch = self._per_player(d.get("launch", {}), "launch")
        gpio = self._gpio(d.get("gpio"))
        return BoardProfile(
            name=name, cells=self.cells, fields=MappingProxyType(fields), colors=colors,
            board_id=board_id, debounce_ms=debounce_ms, settle_ms=settle_ms,
            big=MappingProxyType(big), bridges=bridges, launch=MappingProxyType(launch),
            gpio=gpio, mcp23017=self.mcp, serial=serial, path=self.path,
        )

    # -- pieces --------------------------------------------------------------------------

    def _colors(self, value: Any) -> tuple[str, ...]:
        if (not isinstance(value, list) or len(value) != 3
                or not all(isinstance(c, str) and c and "." not in c for c in value)):
            raise ProfileError(f"colors: expected three colour names, got {value!r}")
        if value[0] != RED:
            raise ProfileError(f"colors: the first colour must be {RED!r}, got {value[0]!r}")
        if len(set(value)) != 3:
            raise ProfileError(f"colors: names must differ, got {value!r}")
        return tuple(value)

    def _cell_list(self, value: Any, key: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            raise ProfileError(f"{key}: expected a non-empty list of cell numbers, got {value!r}")
        cells = []
        for item in value:
            cell = _int(item, key)
            if not 0 <= cell < self.cells:
                raise ProfileError(
                    f"{key}: cell {cell} out of range 0..{self.cells - 1} (cells = {self.cells})"
                )
            if cell in self.used_cells:
                raise ProfileError(
                    f"{key}: cell {cell} is used twice (already in {self.used_cells[cell]})"
                )
            if self.mcp is not None and cell % 16 in OUTPUT_ONLY_PINS:
                address, pin = self.mcp.locate(cell)
                raise ProfileError(
                    f"{key}: cell {cell} is {pin} of the MCP23017 at 0x{address:02X}, "
                    "output-only on current silicon; wire the sensor to another pin"
                )
            self.used_cells[cell] = key
            cells.append(cell)
        return tuple(cells)

    def _fields(self, value: Any, colors: tuple[str, ...]) -> dict[str, FieldCells]:
        if not isinstance(value, Mapping):
            raise ProfileError("fields: missing; every field needs its cells "
                               "([fields.black.red] cells = [...])")
        names = field_names(colors)
        flat: dict[str, Any] = {}
        for key, table in value.items():
            if isinstance(table, Mapping) and "cells" not in table and key != MINUS:
                for sub, subtable in table.items():
                    flat[f"{key}.{sub}"] = subtable
            else:
                flat[key] = table
        for key in flat:
            if key not in names:
                raise ProfileError(
                    f"fields: unknown field {key!r} (expected one of {', '.join(names)})"
                )
        missing = [n for n in names if n not in flat]
        if missing:
            raise ProfileError(f"fields: missing field {missing[0]!r}; every field needs cells")
        result = {}
        for name in names:
            table = flat[name]
            key = f"fields.{name}"
            if not isinstance(table, Mapping):
                raise ProfileError(f"{key}: expected a table with 'cells', got {table!r}")
            extra = sorted(set(table) - {"cells", "counts"})
            if extra:
                raise ProfileError(f"{key}: unknown key {extra[0]!r} (expected cells, counts)")
            cells = self._cell_list(table.get("cells"), f"{key}.cells")
            counts = self._counts(table.get("counts"), len(cells), f"{key}.counts")
            result[name] = FieldCells(name, cells, counts)
        return result

    def _counts(self, value: Any, n: int, key: str) -> tuple[int, ...]:
        if value is None:
            return tuple(range(n + 1))
        if not isinstance(value, list) or len(value) != n + 1:
            raise ProfileError(
                f"{key}: expected {n + 1} counts (for 0..{n} active cells), got {value!r}"
            )
        counts = tuple(_int(v, key, minimum=0) for v in value)
        if counts[0] != 0:
            raise ProfileError(f"{key}: no active cell must mean 0 skitts, got {counts[0]}")
        if any(b < a for a, b in zip(counts, counts[1:], strict=False)):
            raise ProfileError(f"{key}: counts must not decrease as cells turn on, got {value!r}")
        return counts

    def _per_player(self, value: Any, section: str) -> dict[Player, tuple[int, ...]]:
        if not isinstance(value, Mapping):
            raise ProfileError(f"{section}: expected a table of player = [cells], got {value!r}")
        result: dict[Player, tuple[int, ...]] = {}
        for player, cells in value.items():
            if player not in PLAYERS:
                raise ProfileError(f"{section}: unknown player {player!r} (black or white)")
            result[player] = self._cell_list(cells, f"{section}.{player}")
        return result

    def _bridges(self, value: Any, colors: tuple[str, ...]) -> tuple[Bridge, ...]:
        if not isinstance(value, list):
            raise ProfileError(f"bridges: expected [[bridges]] tables, got {value!r}")
        names = field_names(colors)[:-1]
        result = []
        seen: set[frozenset[str]] = set()
        for i, table in enumerate(value):
            key = f"bridges[{i}]"
            if not isinstance(table, Mapping):
                raise ProfileError(f"{key}: expected a table with fields and cells")
            pair = table.get("fields")
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(isinstance(f, str) for f in pair)):
                raise ProfileError(f"{key}.fields: expected two field names, got {pair!r}")
            for f in pair:
                if f not in names:
                    raise ProfileError(f"{key}.fields: unknown colour field {f!r} "
                                       f"(expected one of {', '.join(names)})")
            if pair[0] == pair[1] or pair[0].split(".")[0] != pair[1].split(".")[0]:
                raise ProfileError(f"{key}.fields: a bridge joins two different fields on "
                                   f"the same side, got {pair!r}")
            if frozenset(pair) in seen:
                raise ProfileError(f"{key}.fields: a second bridge between {pair[0]} "
                                   f"and {pair[1]}; put all its cells in one")
            seen.add(frozenset(pair))
            cells = self._cell_list(table.get("cells"), f"{key}.cells")
            result.append(Bridge((pair[0], pair[1]), cells))
        return tuple(result)

    def _pin(self, value: Any, key: str) -> int:
        pin = _int(value, key)
        if pin not in BCM_PINS:
            raise ProfileError(f"{key}: GPIO pin {pin} out of range (BCM 0-27)")
        if self.mcp is not None and pin in I2C_PINS:
            raise ProfileError(f"{key}: GPIO pin {pin} is the I2C bus's "
                               f"{I2C_PINS[pin]}, which the MCP23017 expanders use")
        if pin in self.used_pins:
            raise ProfileError(f"{key}: GPIO pin {pin} is used twice "
                               f"(already {self.used_pins[pin]})")
        self.used_pins[pin] = key
        return pin

    def _gpio(self, value: Any) -> GpioConfig | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ProfileError(f"gpio: expected a table, got {value!r}")
        extra = sorted(set(value) - {"interrupt", "buttons", "leds"})
        if extra:
            raise ProfileError(f"gpio: unknown key {extra[0]!r} "
                               "(expected interrupt, buttons, leds)")
        interrupt = value.get("interrupt", [])
        if not isinstance(interrupt, list):
            raise ProfileError(f"gpio.interrupt: expected a list of BCM pins, got {interrupt!r}")
        pins = tuple(self._pin(p, "gpio.interrupt") for p in interrupt)
        buttons: dict[str, Mapping[str, int]] = {}
        raw_buttons = value.get("buttons", {})
        if not isinstance(raw_buttons, Mapping):
            raise ProfileError(f"gpio.buttons: expected a table per role, got {raw_buttons!r}")
        for role, table in raw_buttons.items():
            if role not in BUTTON_ROLES:
                raise ProfileError(f"gpio.buttons: unknown role {role!r} "
                                   f"(expected one of {', '.join(BUTTON_ROLES)})")
            if not isinstance(table, Mapping):
                raise ProfileError(f"gpio.buttons.{role}: expected button = pin, got {table!r}")
            role_buttons = {}
            for button, pin in table.items():
                if button not in BUTTON_NAMES:
                    raise ProfileError(f"gpio.buttons.{role}: unknown button {button!r} "
                                       f"(expected one of {', '.join(BUTTON_NAMES)})")
                role_buttons[button] = self._pin(pin, f"gpio.buttons.{role}.{button}")
            buttons[role] = MappingProxyType(role_buttons)
        raw_leds = value.get("leds", {})
        if not isinstance(raw_leds, Mapping):
            raise ProfileError(f"gpio.leds: expected name = pin, got {raw_leds!r}")
        leds = {name: self._pin(pin, f"gpio.leds.{name}") for name, pin in raw_leds.items()}
        return GpioConfig(pins, MappingProxyType(buttons), MappingProxyType(leds))

    def _mcp23017(self, value: Any) -> Mcp23017Config | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ProfileError(f"mcp23017: expected a table, got {value!r}")
        extra = sorted(set(value) - {"addresses", "active_low"})
        if extra:
            raise ProfileError(f"mcp23017: unknown key {extra[0]!r} "
                               "(expected addresses, active_low)")
        raw = value.get("addresses")
        if not isinstance(raw, list) or not raw:
            raise ProfileError(f"mcp23017.addresses: expected a list of I2C addresses, got {raw!r}")
        addresses = []
        for item in raw:
            address = _int(item, "mcp23017.addresses")
            if address not in MCP23017_ADDRESSES:
                raise ProfileError(f"mcp23017.addresses: address 0x{address:02X} out of range "
                                   "0x20-0x27")
            if address in addresses:
                raise ProfileError(f"mcp23017.addresses: address 0x{address:02X} listed twice")
            addresses.append(address)
        active_low = value.get("active_low", True)
        if not isinstance(active_low, bool):
            raise ProfileError(f"mcp23017.active_low: expected true or false, got {active_low!r}")
        if self.cells > 16 * len(addresses):
            raise ProfileError(f"cells: {self.cells} cells but {len(addresses)} MCP23017 "
                               f"expander(s) have only {16 * len(addresses)} pins")
        return Mcp23017Config(tuple(addresses), active_low)

    def _serial(self, value: Any) -> SerialConfig:
        if not isinstance(value, Mapping):
            raise ProfileError(f"serial: expected a table, got {value!r}")
        extra = sorted(set(value) - {"baudrate", "usb_ids"})
        if extra:
            raise ProfileError(f"serial: unknown key {extra[0]!r} (expected baudrate, usb_ids)")
        baudrate = _int(value.get("baudrate", 115200), "serial.baudrate", minimum=1)
        raw = value.get("usb_ids", [list(p) for p in DEFAULT_USB_IDS])
        ids = []
        if not isinstance(raw, list):
            raise ProfileError(f"serial.usb_ids: expected a list of [vid, pid], got {raw!r}")
        for pair in raw:
            if not isinstance(pair, list) or len(pair) != 2:
                raise ProfileError(f"serial.usb_ids: expected [vid, pid], got {pair!r}")
            vid, pid = (_int(v, "serial.usb_ids", minimum=0) for v in pair)
            if vid > 0xFFFF or pid > 0xFFFF:
                raise ProfileError(f"serial.usb_ids: USB ids are 16-bit, got {pair!r}")
            ids.append((vid, pid))
        return SerialConfig(baudrate, tuple(ids))


def _int(value: Any, key: str, *, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(f"{key}: expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ProfileError(f"{key}: expected at least {minimum}, got {value}")
    return value


def all_cells(profile: BoardProfile) -> Iterable[int]:
    """Every cell the profile uses, in order."""
    return sorted(profile.cell_roles())
