"""Choosing a source by name, as gpiozero chooses a pin factory.

``open_source("mcp23017", profile, clock)`` imports the hardware module only then, by its
dotted path, so ``import firmware_bridge`` works on a laptop. Specs:

- ``sim``: the simulated board (asked for by name only; never a fallback).
- ``physics``: the simulated board whose shots are flicked and roll in
  (:mod:`firmware_bridge.physics_board`).
- ``mcp23017``: expanders on the Pi's I2C bus, as the profile's ``[mcp23017]`` says.
- ``serial`` or ``serial:PORT``: a microcontroller over USB serial (found by USB id
  when no port is named).
- ``replay:FILE``: a recorded sensor log (option ``speed``).

When hardware is missing the source raises :class:`SourceError` and the program stops; it
never quietly runs on the simulator instead.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firmware_bridge.profile import BoardProfile
from firmware_bridge.source import Source, SourceError
from scorekeeper.clock import Clock

#: Hardware sources, imported lazily by ``module:Class`` path.
HARDWARE_SOURCES: dict[str, str] = {
    "mcp23017": "firmware_bridge.mcp23017:MCP23017Source",
    "serial": "firmware_bridge.serial_source:SerialSource",
}

SPECS_HELP = "sim, physics, mcp23017, serial, serial:PORT or replay:FILE"


def load_source_class(name: str) -> type:
    """Import the hardware source ``name``; :class:`SourceError` when it cannot load (the
    module itself may raise one, in a sentence that names the missing piece)."""
    dotted = HARDWARE_SOURCES[name]
    module_name, _, class_name = dotted.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SourceError(f"source {name!r} cannot be loaded ({module_name}): {exc}") from None
    try:
        return getattr(module, class_name)  # type: ignore[no-any-return]
    except AttributeError:
        raise SourceError(f"source {name!r}: {module_name} has no {class_name}") from None


class SourceKind(StrEnum):
    """Which sensor source a spec names (the word before its colon)."""

    SIM = "sim"
    PHYSICS = "physics"
    MCP23017 = "mcp23017"
    SERIAL = "serial"
    REPLAY = "replay"


SOURCE_KINDS = tuple(SourceKind)


class SpecError(SourceError):
    """A source spec that does not follow the grammar; the message says what is wrong."""

    def __init__(self, message: str, *, unknown: bool = False) -> None:
        super().__init__(message)
        self.unknown = unknown
        """The kind before the colon is none this bridge knows."""


@dataclass(frozen=True)
class SourceSpec:
    """A parsed source spec: ``kind`` plus the part after the colon, if any."""

    kind: SourceKind

    argument: str | None = None
    """The serial port (``serial:/dev/skitter-board``) or the replay file; None otherwise."""


def parse_spec(spec: str) -> SourceSpec:
    """Split a spec (the one grammar: the configuration and every command read it so);
    :class:`SpecError` saying what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"must be one of {SPECS_HELP}")
    word, colon, argument = spec.strip().partition(":")
    if word not in SOURCE_KINDS:
        raise SpecError(f"unknown source {spec!r}; use {SPECS_HELP}", unknown=True)
    kind = SourceKind(word)
    if kind in (SourceKind.SIM, SourceKind.PHYSICS, SourceKind.MCP23017) and colon:
        raise SpecError(f"{word!r} takes no ':' argument, got {spec!r}")
    if kind is SourceKind.SERIAL and colon and not argument:
        raise SpecError("'serial:' needs a port after the colon, e.g. serial:/dev/ttyACM0")
    if kind is SourceKind.REPLAY and not argument:
        raise SpecError("'replay' needs a file, e.g. replay:match.log")
    return SourceSpec(kind, argument or None)


def open_source(spec: str, profile: BoardProfile, clock: Clock, **opts: Any) -> Source:
    """Build the source ``spec`` names for ``profile`` (not started yet).

    ``opts`` go to the source: ``i2c``/``pin_factory`` for mcp23017, ``speed`` for replay,
    anything SerialSource takes for serial."""
    try:
        parsed = parse_spec(spec)
    except SpecError as exc:
        if exc.unknown:
            raise SpecError(f"unknown sensor source {spec!r}: expected {SPECS_HELP}",
                            unknown=True) from None
        raise
    kind, arg = parsed.kind, parsed.argument
    if kind is SourceKind.SIM:
        from firmware_bridge.simulator import SimulatedBoard

        return SimulatedBoard(profile, clock, **opts)
    if kind is SourceKind.PHYSICS:
        from firmware_bridge.physics_board import PhysicsBoard

        return PhysicsBoard(profile, clock, **opts)
    if kind is SourceKind.REPLAY and arg:
        from firmware_bridge.replay import ReplaySource

        source = ReplaySource(arg, clock, speed=float(opts.pop("speed", 1.0)))
        if source.cells != profile.cells:
            raise SourceError(
                f"sensor log {arg} has {source.cells} cells but board profile "
                f"{profile.name!r} has {profile.cells}"
            )
        return source
    if kind is SourceKind.MCP23017:
        if profile.mcp23017 is None:
            raise SourceError(f"board profile {profile.name!r} has no [mcp23017] section: "
                              "which addresses are the expanders at?")
        cls = load_source_class("mcp23017")
        if profile.gpio is not None and "interrupt_pins" not in opts:
            opts["interrupt_pins"] = profile.gpio.interrupt
        opts.setdefault("wired", sorted(profile.cell_roles()))
        return cls(  # type: ignore[no-any-return]
            addresses=profile.mcp23017.addresses, active_low=profile.mcp23017.active_low,
            bus=profile.mcp23017.bus, cells=profile.cells, clock=clock, **opts,
        )
    if kind is SourceKind.SERIAL:
        cls = load_source_class("serial")
        opts.setdefault("usb_ids", profile.serial.usb_ids)
        opts.setdefault("baudrate", profile.serial.baudrate)
        return cls(  # type: ignore[no-any-return]
            port=arg or None, cells=profile.cells, clock=clock, board_id=profile.board_id,
            **opts,
        )
    raise SourceError(f"unknown sensor source {spec!r}: expected {SPECS_HELP}")
