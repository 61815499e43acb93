"""One scripted match played through each sensor source's production wiring.

The rigs the end-to-end and shot-review tests share.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from emulation.i2c import FakeI2C
from emulation.mcu import EmulatedMcu
from gpiozero.pins.mock import MockFactory
from waiting import wait_until

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import Source
from firmware_bridge.sources import open_source
from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore
from web.table.sensing import Sensing
from web.table.table import Table

PROFILE = load_profile()


ADDRESSES = PROFILE.mcp23017.addresses if PROFILE.mcp23017 else ()


BIG = {"black": 36, "white": 37}


SCRIPT: list[tuple[str, list[tuple[int, bool]]]] = [
    ("black places the big skitt", [(BIG["black"], True)]),
    ("white places the big skitt", [(BIG["white"], True)]),
    ("black: white.red", [(16, True)]),
    ("white: black.blue", [(9, True)]),
    ("black: white.red again", [(17, True)]),
    ("white: a flick that changes nothing, marked on the launch spot", [(40, True), (40, False)]),
    ("black: third skitt on white.red scores", [(18, True)]),
    ("white: into the minus field", [(32, True)]),
    ("black: white.blue", [(25, True)]),
    ("white: second skitt on black.blue", [(10, True)]),
    ("black: second on white.blue clears blue", [(26, True)]),
    ("the referee lifts the cleared skitts", [(25, False), (26, False), (9, False), (10, False)]),
    ("white: black.red", [(0, True)]),
]


class Rig:
    """A way of putting magnets over cells, and of letting the source see them."""

    source: Source

    def set(self, cell: int, present: bool) -> None:
        raise AssertionError("every rig overrides set")

    def deliver(self) -> None:
        """Let the source notice what changed (and keep its link alive)."""


class SimRig(Rig):
    def __init__(self, clock: FakeClock) -> None:
        self.sim = SimulatedBoard(PROFILE, clock)
        self.source = self.sim

    def set(self, cell: int, present: bool) -> None:
        if present:
            self.sim.magnet_arrives(cell)
        else:
            self.sim.magnet_leaves(cell)


class McpRig(Rig):
    def __init__(self, clock: FakeClock, factory: MockFactory) -> None:
        self.bus = FakeI2C(ADDRESSES)
        for address, pin in zip(ADDRESSES, PROFILE.gpio.interrupt, strict=True):
            self.bus.wire_interrupt(factory.pin(pin), (address, 0))
        self.source = open_source("mcp23017", PROFILE, clock, i2c=self.bus, pin_factory=factory)

    def set(self, cell: int, present: bool) -> None:
        self.bus.magnet(cell, present)


class Arrived:
    """The serial source, holding back what it read until the table polls.

    Bytes cross the pty in real time while the test's clock stands still; the rig reads them
    as soon as they arrive and the table gets them at its next poll, as on a real board.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.held: list[Any] = []

    def poll(self) -> list[Any]:
        out, self.held = self.held + self.inner.poll(), []
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class SerialRig(Rig):
    def __init__(self, clock: FakeClock, link: Path) -> None:
        self.mcu = EmulatedMcu(link, cells=PROFILE.cells)
        self.serial = open_source(f"serial:{link}", PROFILE, clock)
        self.source = Arrived(self.serial)  # type: ignore[assignment]

    def set(self, cell: int, present: bool) -> None:
        self.mcu.magnet(cell, present)

    def deliver(self) -> None:
        # The firmware's heartbeat; wait until the host has taken the frame.
        before = self.serial.counters().states  # type: ignore[attr-defined]
        self.mcu.heartbeat()

        def taken() -> bool:
            if self.serial.counters().states > before:  # type: ignore[attr-defined]
                return True
            self.source.held += self.serial.poll()  # type: ignore[attr-defined]
            return False

        wait_until(taken, f"a state frame from the heartbeat ({self.serial.status()})",
                   timeout=3.0, every=0.001)

    def close(self) -> None:
        self.mcu.close()

    def wait_link_up(self) -> None:
        """Poll until the emulated microcontroller's hello has brought the link up (3 s)."""

        def up() -> bool:
            if self.source.status().up:
                return True
            self.source.poll()
            return False

        wait_until(up, "the emulated microcontroller's hello", timeout=3.0, every=0.002)


def run_table(
    rig: Rig, clock: FakeClock, tmp_path: Path, wait: Callable[[], None]
) -> dict[str, Any]:
    rig.source.start()
    wait()
    pipeline = Pipeline(PROFILE, clock, initial=rig.source.snapshot())
    store = MatchStore(tmp_path / "log.db")
    table = Table(store, clock=clock, wall=clock, sensing=Sensing(rig.source, pipeline, PROFILE))
    try:
        table.new_match({}, {"first": "black"}, {"black": "Ann", "white": "Bo"}, {})
        settle(table, clock, rig)
        for what, changes in SCRIPT:
            for cell, present in changes:
                rig.set(cell, present)
                rig.deliver()
                table.tick()
                clock.advance(0.05)
            settle(table, clock, rig)
            assert table.tracker.mode != "review", f"after {what}: {table.tracker.status()}"
        return table.snapshot()
    finally:
        table.close()


def settle(table: Table, clock: FakeClock, rig: Rig) -> None:
    """Let the board rest past debounce and the settle window, polling as serve does."""
    for _ in range(16):
        rig.deliver()
        table.tick()
        clock.advance(0.05)
    rig.deliver()
    table.tick()


EXPECTED_SCORE = {"black": 1, "white": -1}


def check(snapshot: dict[str, Any]) -> None:
    state = snapshot["state"]
    assert state["score"] == EXPECTED_SCORE
    assert state["board"]["white.red"] == 3
    assert state["board"]["white.blue"] == 0 and state["board"]["black.blue"] == 0
    assert state["board"]["black.red"] == 1 and state["board"]["minus"] == 1
    assert state["turn"] == "black"
    assert snapshot["tracker"]["mode"] == "ready"
