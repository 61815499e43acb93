"""Benchmark 1: CPU cost of one full scan of eight MCP23017 expanders (112 cells).

Run: ``.venv/bin/python bench/pipeline_cost.py [--quick] [--scans N] [--rounds N]``

Three figures, all on the same :class:`~minimal_bus.MinimalI2C` (a register array lookup):

- *bus*: the eight two-byte GPIO transactions alone, called on the bus directly;
- *driver*: ``chip.gpio`` of eight ``adafruit_mcp230xx`` MCP23017 objects (lock, buffer,
  transaction, assemble the word): the reads any program must make;
- *pipeline*: one step of the real polling loop, ``Pipeline.pump(MCP23017Source)``: read
  all expanders, diff against the last read, debounce, health, settle and, when a reading is
  due, counts, big spots, bridges.

The pipeline is timed on a board at rest and on a busy board (a Hall switch changing every
half second, with a contact bounce shorter than the debounce time, so a reading is taken
after every change). Target: pipeline / driver <= 2. For comparison the pipeline is also
timed on the test suite's register model (``tests/support/emulation/i2c.py``), which costs more.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from adafruit_mcp230xx.mcp23017 import MCP23017
from machine import print_header
from minimal_bus import MinimalI2C

from firmware_bridge.mcp23017 import MCP23017Source
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import BoardProfile, loads_profile
from scorekeeper.clock import FakeClock

ADDRESSES = tuple(range(0x20, 0x28))
SCAN_PERIOD = 0.01
"""Seconds of simulated time between scans (the web app polls every 20 ms)."""
CHANGE_EVERY = 50
"""A busy board: one Hall switch changes every this many scans (0.5 s)."""
TARGET_RATIO = 2.0

FIELDS = ("black.red", "black.yellow", "black.blue", "white.red", "white.yellow",
          "white.blue", "minus")


def usable_cells() -> list[int]:
    """The 112 cells of eight expanders, GPA7/GPB7 (pins 7 and 15) left out."""
    return [i * 16 + p for i in range(len(ADDRESSES)) for p in range(16) if p not in (7, 15)]


def profile_112() -> BoardProfile:
    """A board with all 112 cells under the seven fields (16 each, spread over expanders)."""
    cells = usable_cells()
    lines = ["name = 'bench-112'", f"cells = {16 * len(ADDRESSES)}", ""]
    for k, name in enumerate(FIELDS):
        lines += [f"[fields.{name}]", f"cells = {cells[k::len(FIELDS)]}", ""]
    lines += ["[mcp23017]", f"addresses = {list(ADDRESSES)}", "active_low = true"]
    return loads_profile("\n".join(lines))


class BusyBoard:
    """Hall switches changing on a fixed, seeded schedule, with contact bounce."""

    def __init__(self, set_level: Callable[[int, int, bool], None], seed: int = 1) -> None:
        self._set_level = set_level
        self._rng = random.Random(seed)
        self._cells = usable_cells()
        self._active: set[int] = set()
        self._cell = 0

    def step(self, scan: int) -> None:
        """Scan ``scan`` is about to happen: change a switch, then bounce it once."""
        phase = scan % CHANGE_EVERY
        if phase == 0:
            self._cell = self._rng.choice(self._cells)
        if phase in (0, 2):  # the change, and its bounce back...
            self._flip(self._cell)
        if phase == 1:
            self._flip(self._cell)  # ...one scan apart: shorter than the 20 ms debounce

    @property
    def active(self) -> frozenset[int]:
        """The cells with a magnet over them now."""
        return frozenset(self._active)

    def _flip(self, cell: int) -> None:
        now_active = cell not in self._active
        if now_active:
            self._active.add(cell)
        else:
            self._active.discard(cell)
        # active low: a magnet pulls the input low
        self._set_level(ADDRESSES[cell // 16], cell % 16, not now_active)


def cpu_us_per_scan(
    runs: dict[str, Callable[[int], Any]], scans: int, rounds: int
) -> dict[str, float]:
    """Per name, the median over ``rounds`` of CPU microseconds per scan of ``run(scans)``.

    Rounds interleave the runs, so a neighbour's burst on a shared machine hits all of them
    alike and the ratios stay fair."""
    results: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time_ns()
            run(scans)
            results[name].append((time.process_time_ns() - start) / 1000 / scans)
    return {name: statistics.median(times) for name, times in results.items()}


def bus_alone(bus: MinimalI2C) -> Callable[[int], None]:
    out, buf = bytearray([0x12]), bytearray(3)
    transaction = bus.writeto_then_readfrom

    def run(scans: int) -> None:
        for _ in range(scans):
            for address in ADDRESSES:
                transaction(address, out, buf, out_end=1, in_start=1, in_end=3)

    return run


def driver_reads(bus: Any) -> Callable[[int], None]:
    chips = [MCP23017(bus, address, reset=False) for address in ADDRESSES]  # keep the setup

    def run(scans: int) -> None:
        for _ in range(scans):
            for chip in chips:
                chip.gpio  # noqa: B018 - the read is the point

    return run


def pipeline_scan(bus: Any, set_level: Callable[[int, int, bool], None] | None,
                  profile: BoardProfile) -> tuple[Callable[[int], None], Callable[[], None]]:
    """One polling step per scan; also a check that the pipeline saw the board right."""
    clock = FakeClock(0.0)
    wired = sorted(profile.cell_roles())
    source = MCP23017Source(addresses=ADDRESSES, cells=profile.cells, clock=clock, i2c=bus,
                            wired=wired)
    source.start()
    pipeline = Pipeline(profile, clock, initial=source.snapshot())
    board = BusyBoard(set_level) if set_level is not None else None
    stats = {"scans": 0, "readings": 0}

    def check() -> None:
        for _ in range(int(profile.settle_s / SCAN_PERIOD) + 3):  # let the last change settle
            run(1)
        expected = board.active if board is not None else frozenset()
        if pipeline.active_cells() != expected or pipeline.last_reading is None:
            raise SystemExit(f"bench bug: the pipeline sees {sorted(pipeline.active_cells())}, "
                             f"the board has {sorted(expected)}")
        print(f"  ({stats['readings']} settled readings in {stats['scans']} scans; the "
              "pipeline's cells match the board)")

    def run(scans: int) -> None:
        pump, advance = pipeline.pump, clock.advance
        readings = 0
        for scan in range(stats["scans"], stats["scans"] + scans):
            if board is not None:
                board.step(scan)
            readings += len(pump(source))
            advance(SCAN_PERIOD)
        stats["scans"] += scans
        stats["readings"] += readings

    return run, check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer scans (a rough figure)")
    parser.add_argument("--scans", type=int, help="scans per round")
    parser.add_argument("--rounds", type=int, help="rounds (the median is reported)")
    args = parser.parse_args(argv)
    scans = args.scans or (2_000 if args.quick else 20_000)
    rounds = args.rounds or (3 if args.quick else 7)

    print_header("Benchmark 1: sensor pipeline cost (8 x MCP23017, 112 cells)")
    profile = profile_112()
    print(f"{len(profile.cell_roles())} cells in 7 fields on {len(ADDRESSES)} expanders; "
          f"{scans} scans x {rounds} rounds (median), one scan every {SCAN_PERIOD * 1000:.0f} ms "
          "of simulated time")
    print()

    bus = MinimalI2C(ADDRESSES)
    rest_bus = MinimalI2C(ADDRESSES)
    rest, _ = pipeline_scan(rest_bus, None, profile)
    busy_bus = MinimalI2C(ADDRESSES)
    busy, busy_check = pipeline_scan(busy_bus, busy_bus.set_level, profile)

    from emulation.i2c import FakeI2C

    model_bus = FakeI2C(ADDRESSES)

    def model_level(address: int, pin: int, high: bool) -> None:
        model_bus.set_input(address, pin, None if high else 0)

    model, model_check = pipeline_scan(model_bus, model_level, profile)
    t = cpu_us_per_scan(
        {"bus": bus_alone(bus), "driver": driver_reads(bus), "rest": rest, "busy": busy,
         "model_driver": driver_reads(model_bus), "model": model},
        scans, rounds,
    )
    t_bus, t_driver, t_rest, t_busy = t["bus"], t["driver"], t["rest"], t["busy"]
    t_model_driver, t_model = t["model_driver"], t["model"]

    def row(label: str, us: float, note: str = "") -> None:
        print(f"  {label:<44} {us:9.1f} us/scan  {note}")

    print("Minimal bus (register array lookup):")
    row("bus transactions alone (8 x 2-byte read)", t_bus)
    row("driver reads alone (8 x MCP23017.gpio)", t_driver,
        f"(bus is {t_bus / t_driver:.0%} of it)")
    row("whole pipeline, board at rest", t_rest, f"ratio to driver {t_rest / t_driver:.2f}")
    row("whole pipeline, busy board", t_busy, f"ratio to driver {t_busy / t_driver:.2f}")
    busy_check()
    print()
    print("Test-suite register model (tests/support/emulation/i2c.py), for comparison:")
    row("driver reads alone (8 x MCP23017.gpio)", t_model_driver)
    row("whole pipeline, busy board", t_model, f"ratio to driver {t_model / t_model_driver:.2f}")
    model_check()
    print()
    worst = max(t_rest, t_busy) / t_driver
    verdict = "met" if worst <= TARGET_RATIO else "NOT met"
    print(f"Result: pipeline / driver reads = {worst:.2f} (target <= {TARGET_RATIO:.0f}): "
          f"{verdict}")
    print(f"        {max(t_rest, t_busy):.0f} us of CPU per 112-cell scan = "
          f"{max(t_rest, t_busy) / (SCAN_PERIOD * 1e6):.1%} of one core at "
          f"{1 / SCAN_PERIOD:.0f} scans/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
