"""Validation of board profile data: every builder's mistake named by key and problem.

One pass over the parsed TOML (``tomllib``) that remembers which key claimed each cell and
each GPIO pin, so a cell used twice names both places.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from firmware_bridge.profile_model import (
    BCM_PINS,
    BUTTON_NAMES,
    BUTTON_ROLES,
    DEFAULT_USB_IDS,
    I2C_PINS,
    MCP23017_ADDRESSES,
    OUTPUT_ONLY_PINS,
    TOP_KEYS,
    BoardProfile,
    Bridge,
    FieldCells,
    GpioConfig,
    Mcp23017Config,
    ProfileError,
    SerialConfig,
    SettleTuning,
)
from scorekeeper.fields import DEFAULT_COLORS, MINUS, PLAYERS, RED, Player, field_names


def parse_profile(data: Mapping[str, Any], *, path: Path | None = None) -> BoardProfile:
    """Validate already-parsed TOML data (see :mod:`firmware_bridge.profile` for the layout)."""
    try:
        return ProfileParser(data, path).profile()
    except ProfileError as exc:
        if path is not None:
            raise ProfileError(f"{path}: {exc}") from None
        raise


class ProfileParser:
    """One validation pass; ``used`` remembers which key claimed each cell and pin."""

    def __init__(self, data: Mapping[str, Any], path: Path | None) -> None:
        self.data = data
        self.path = path
        self.used_cells: dict[int, str] = {}
        self.used_pins: dict[int, str] = {}

    def profile(self) -> BoardProfile:
        d = self.data
        unknown = sorted(set(d) - TOP_KEYS)
        if unknown:
            raise ProfileError(f"unknown key {unknown[0]!r} (expected one of "
                               f"{', '.join(sorted(TOP_KEYS))})")
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
        settle = self._settle(d.get("settle"))
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
            settle=settle,
            big=MappingProxyType(big), bridges=bridges, launch=MappingProxyType(launch),
            gpio=gpio, mcp23017=self.mcp, serial=serial, path=self.path,
        )

    # -- pieces --------------------------------------------------------------------------

    def _settle(self, value: Any) -> SettleTuning | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise ProfileError(f"settle: expected a table of waits in ms, got {value!r}")
        keys = [f.name for f in dataclasses.fields(SettleTuning)]
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise ProfileError(f"settle.{unknown[0]}: unknown key (expected "
                               f"{', '.join(keys)})")
        missing = [k for k in keys if k not in value]
        if missing:
            raise ProfileError(f"settle.{missing[0]}: missing (the tuned rule needs all of "
                               f"{', '.join(keys)})")
        ms = {k: _int(value[k], f"settle.{k}", minimum=0) for k in keys}
        if ms["sample_ms"] == 0:
            raise ProfileError("settle.sample_ms: expected at least 1, got 0")
        return SettleTuning(**ms)

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
            table = _table(table, key, ("cells", "counts", "capacity"),
                           shape="a table with 'cells'")
            cells = self._cell_list(table.get("cells"), f"{key}.cells")
            counts = self._counts(table.get("counts"), len(cells), f"{key}.counts")
            trusted = table.get("capacity")
            if trusted is not None:
                trusted = _int(trusted, f"{key}.capacity", minimum=1)
                if trusted > counts[-1]:
                    raise ProfileError(
                        f"{key}.capacity: {trusted} is more than the counts reach "
                        f"({counts[-1]} with every cell active)")
            result[name] = FieldCells(name, cells, counts, trusted)
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
        value = _table(value, "gpio", ("interrupt", "buttons", "leds"))
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
        value = _table(value, "mcp23017", ("addresses", "active_low", "bus"))
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
        bus = _int(value.get("bus", 1), "mcp23017.bus", minimum=0)
        return Mcp23017Config(tuple(addresses), active_low, bus)

    def _serial(self, value: Any) -> SerialConfig:
        value = _table(value, "serial", ("baudrate", "usb_ids"))
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


def _table(value: Any, key: str, allowed: tuple[str, ...], *,
           shape: str = "a table") -> Mapping[str, Any]:
    """``value`` as a TOML table holding none but the ``allowed`` keys: a misspelt key is named,
    never silently ignored."""
    if not isinstance(value, Mapping):
        raise ProfileError(f"{key}: expected {shape}, got {value!r}")
    extra = sorted(set(value) - set(allowed))
    if extra:
        raise ProfileError(f"{key}: unknown key {extra[0]!r} (expected {', '.join(allowed)})")
    return value


def _int(value: Any, key: str, *, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(f"{key}: expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ProfileError(f"{key}: expected at least {minimum}, got {value}")
    return value
