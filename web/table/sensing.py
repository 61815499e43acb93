"""The sensing half of a table: a source polled through the pipeline, with its health.

One :meth:`Sensing.poll` is one step of the polling loop: take what the source saw, let the
pipeline debounce and settle it, and return the readings that became due. Everything the
pages show about the sensors (link, active cells, flagged and muted cells, why play is held,
the simulated board) is read here, so the table never reaches into the bridge itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from firmware_bridge.counts import big_spots, bridges, field_counts
from firmware_bridge.physics_board import MAX_ANGLE, PhysicsBoard
from firmware_bridge.physics_board import SPEEDS as PHYSICS_SPEEDS
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import BoardProfile
from firmware_bridge.simulator import SimulatedBoard, SimulatorError
from firmware_bridge.source import LinkStatus, SensorEvent, Source
from scorekeeper.options import BigState
from scorekeeper.reading import BoardReading


def no_source_view() -> dict[str, Any]:
    """What :meth:`Sensing.view` would say of a table without sensors."""
    return {
        "link": {"up": False, "message": "no sensor source", "degraded": False, "errors": 0},
        "sensors": None,
        "virtual": None,
    }


def link_json(link: LinkStatus) -> dict[str, Any]:
    return {"up": link.up, "message": link.message, "degraded": link.degraded,
            "errors": link.errors}


class Sensing:
    """A started source, its pipeline, and the virtual board when the source is simulated."""

    def __init__(self, source: Source, pipeline: Pipeline, profile: BoardProfile) -> None:
        self.source = source
        self.pipeline = pipeline
        self.profile = profile
        inner = getattr(source, "inner", source)  # a RecordingSource wraps the real one
        self.simulator: SimulatedBoard | None = (
            inner if isinstance(inner, SimulatedBoard) else None
        )
        self.errors = 0
        """Exceptions a source raised out of ``poll`` (it must not; counted, never fatal)."""
        self._last_error = ""
        self._rest_at: float | None = None
        self._events_seen = 0
        self.tap: Callable[[list[SensorEvent]], None] | None = None
        """Also given every raw event polled, before the pipeline (the board self-test's
        walk, ``web.table.selftest_run``); runs on the sensing thread."""

    def rest_deadline(self) -> float | None:
        """When the pipeline may next take a reading without anything new arriving from the
        source (clock time; :meth:`Pipeline.due_at`, the settle rule's own answer), as of the
        last polling step, or None when no reading is owed.

        The polling loop wakes at this moment instead of waiting for its next regular step.
        Kept as a value made on the sensing thread, so another thread may read it."""
        return self._rest_at

    def poll(self) -> list[BoardReading]:
        """One polling step: feed the source's new events, return the readings now due."""
        try:
            events = self.source.poll()
        except Exception as exc:  # noqa: BLE001 - a misbehaving source must not stop the table
            self.errors += 1
            self._last_error = f"{type(exc).__name__}: {exc}"
            events = []
        if events and self.tap is not None:
            self.tap(events)
        self._events_seen += len(events)
        self.pipeline.feed(events)
        readings = self.pipeline.tick()
        self._rest_at = self.pipeline.due_at()
        return readings

    def resync(self) -> None:
        """Sensing resumes after a gap: owe a reading of the board as it is from now on."""
        self.pipeline.resync()
        self._rest_at = self.pipeline.due_at()

    def change_key(self, link: LinkStatus) -> tuple[Any, ...]:
        """A cheap value that changes whenever what the pages are shown about the sensors
        may have changed (``link``: the status just read), so a polling step that saw
        nothing new can skip building and comparing the whole view.

        It covers every input of :meth:`view` (made right below, so the two cannot drift):
        the link, events taken from the source (the virtual board), debounced cells, flags
        and restore windows (they change with time), mutes and source errors. The tracker
        and the pause switch change only through the watch, which publishes then anyway.
        """
        health = self.pipeline.health
        return (
            link, self._events_seen, self.pipeline.active_cells(), tuple(health.flags()),
            health.unrestored(), health.muted, self.errors, self.tap is not None,
        )

    def view(self, link: LinkStatus) -> dict[str, Any]:
        """What the pages are shown about the sensors: the link (``link``: the status read
        once for this step, the one :meth:`change_key` was made of), the cells and the
        virtual board."""
        return {
            "link": link_json(link),
            "sensors": self.sensors_json(),
            "virtual": self.simulated_json(),
            "selftest": self.tap is not None,
        }

    def link(self) -> LinkStatus:
        """The source's link, or down with the error a source raised from ``status``."""
        try:
            return self.source.status()
        except Exception as exc:  # noqa: BLE001
            return LinkStatus(up=False, message=f"sensor link down: {exc}")

    def set_expected(self, counts: Mapping[str, int]) -> None:
        """Tell the health monitor what the match expects (stuck cells are judged by it)."""
        self.pipeline.set_expected(
            {k: int(v) for k, v in counts.items() if k in self.profile.fields}
        )

    def mute(self, cell: int, muted: bool = True) -> None:
        """The referee mutes (or unmutes) a cell; ``ValueError`` for a cell the profile lacks."""
        if muted:
            self.pipeline.mute(cell)
        else:
            self.pipeline.unmute(cell)
        self._rest_at = self.pipeline.due_at()  # counts changed: a reading is owed

    def sensors_json(self) -> dict[str, Any]:
        """Active, flagged and muted cells and the reasons play is held, for the pages."""
        return {
            "active": sorted(self.pipeline.active_cells()),
            "muted": sorted(self.pipeline.health.muted),
            "flags": [
                {"cell": f.cell, "field": f.field, "kind": str(f.kind), "muted": f.muted,
                 "message": f.message()}
                for f in self.pipeline.flags()
            ],
            "held": self.pipeline.hold_reasons(),
            "errors": self.errors,
            "last_error": self._last_error,
        }

    def profile_json(self) -> dict[str, Any]:
        """What each cell senses, for the referee's health map (static for a run)."""
        return {
            "name": self.profile.name,
            "cells": self.profile.cells,
            "roles": {str(c): role for c, role in sorted(self.profile.cell_roles().items())},
            "fields": {n: list(fc.cells) for n, fc in self.profile.fields.items()},
            "capacity": {n: fc.capacity for n, fc in self.profile.fields.items()},
            "bridges": [list(b.fields) for b in self.profile.bridges],
            "colors": list(self.profile.colors),
        }

    # -- the virtual board --------------------------------------------------------------------

    def simulated_json(self) -> dict[str, Any] | None:
        """The simulated board as it physically lies (None without a simulator)."""
        sim = self.simulator
        if sim is None:
            return None
        active = sim.snapshot()
        over = {name: sim.over(name) for name in self.profile.fields}
        sensed = field_counts(self.profile, active)
        return {
            "counts": {name: n + over[name] for name, n in sensed.items()},
            "sensed": sensed,
            "over": {name: n for name, n in over.items() if n},
            "big": dict(big_spots(self.profile, active)),
            "bridges": sorted(list(b) for b in bridges(self.profile, active)),
            "flick": self._flick_json(sim),
        }

    @staticmethod
    def _flick_json(sim: SimulatedBoard) -> dict[str, Any] | None:
        """What the page's flick offers (None: not the physics board), and whether a
        flicked skitt is still rolling."""
        if not isinstance(sim, PhysicsBoard):
            return None
        return {"rolling": sim.rolling(), "speeds": list(PHYSICS_SPEEDS),
                "max_angle": round(math.degrees(MAX_ANGLE))}

    def require_simulator(self) -> SimulatedBoard:
        if self.simulator is None:
            raise SimulatorError(
                f"the virtual board needs the simulated source; this table runs on "
                f"{self.source.name!r}"
            )
        return self.simulator

    def lay_out(self, counts: Mapping[str, int], big: Mapping[str, str | None]) -> None:
        """Put the simulated board into the given position (start, or the referee's restore):
        every skitt, also those beyond what a field's cells can count."""
        sim = self.require_simulator()
        for name in self.profile.fields:
            sim.set_count(name, int(counts.get(name, 0)))
        active = sim.snapshot()
        for b in bridges(self.profile, active):
            sim.remove_bridge(*b)
        spots = big_spots(self.profile, active)
        for player, on_spot in spots.items():
            want = big.get(player) == BigState.CENTER
            if want and not on_spot:
                sim.place_big(player)
            elif on_spot and not want:
                sim.remove_big(player)

    def close(self) -> None:
        self.source.close()
