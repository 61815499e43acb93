"""The one seam between hardware and the rest of the program.

Every source (MCP23017 expanders over I2C, a microcontroller over serial, the simulator, a
recorded log) yields :class:`SensorEvent` values: one sensor cell changed state at a clock
time. Sources are polled, never push: ``poll()`` returns what happened since the last call
and never blocks, so the pipeline, the web app and the tests drive every source the same way
with an injected clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

DEGRADED_WINDOW = 10.0
"""Seconds a hardware error (an I2C retry, a bad line, a sequence gap, a board fault) keeps
a source's status degraded."""


@dataclass(frozen=True)
class SensorEvent:
    """Cell ``cell`` became ``active`` (a magnet is sensed) at clock time ``at``."""

    cell: int
    """The cell's number in the board profile (0-based)."""

    active: bool
    """True when a magnet is sensed over the cell."""

    at: float
    """Clock time of the change, in seconds."""


@dataclass(frozen=True)
class LinkStatus:
    """How well a source is talking to its hardware."""

    up: bool
    """False while no trustworthy data arrives (serial link down, no expander answering)."""

    message: str = ""
    """Plain words for the scoreboard when something is wrong ("sensor link down: ...")."""

    degraded: bool = False
    """Data arrives but with errors (I2C retries, dropped frames)."""

    errors: int = 0
    """Hardware errors seen so far (I2C errors, bad frames)."""


@dataclass
class TroubleWindow:
    """The hardware errors of the last :data:`DEGRADED_WINDOW` seconds.

    Every hardware source shows "degraded" for a while after an error, so a single glitch is
    seen on the scoreboard and then clears by itself; one window so the sources agree on how
    long "a while" is.
    """

    seconds: float = DEGRADED_WINDOW
    _times: list[float] = field(default_factory=list)

    def note(self, at: float) -> None:
        """An error happened at clock time ``at``."""
        self._times.append(at)

    def recent(self, now: float) -> int:
        """How many errors happened within the window before ``now`` (older ones forgotten)."""
        self._times = [t for t in self._times if now - t < self.seconds]
        return len(self._times)


class SourceError(Exception):
    """A source cannot start at all (no I2C bus, a bad option); the program stops."""


@runtime_checkable
class Source(Protocol):
    """What every sensor source provides.

    Implementations must override all of these. ``poll`` must never raise for anything the
    hardware sends: errors are counted and shown through ``status()``.
    """

    name: str
    """Short name: ``sim``, ``mcp23017``, ``serial``, ``replay``."""

    cells: int
    """Number of sensor cells this source reports."""

    def start(self) -> None:
        """Open the hardware; raise :class:`SourceError` when it can never work."""

    def poll(self) -> list[SensorEvent]:
        """The cell changes since the last call, oldest first (never blocks)."""

    def snapshot(self) -> frozenset[int]:
        """The cells active right now, as far as the source knows."""

    def status(self) -> LinkStatus:
        """The link's health."""

    def close(self) -> None:
        """Release the hardware; safe to call twice."""
