"""Building a table from names: a source spec, a profile file, a match log file.

``skitter serve`` and the tests build tables the same way, so what the tests run is what
the venue runs. A source that cannot work (no I2C bus, a bad replay file) raises
:class:`~firmware_bridge.source.SourceError` here and the program stops; nothing falls back
to the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.replay import RecordingSource
from firmware_bridge.sources import open_source
from scorekeeper.clock import Clock
from scorekeeper.store import Connect, MatchStore, open_sqlite
from web.table.sensing import Sensing
from web.table.sensor_health_log import HealthLog
from web.table.table import Table

Publish = Callable[[Mapping[str, Any]], None]
"""Where a table's snapshots go."""


def publishing(*to: Publish) -> Publish:
    """One publisher handing each snapshot to every one of ``to`` in turn (the broadcaster
    first, then the tournament link), given to the table when it is built."""
    if len(to) == 1:
        return to[0]

    def publish(snapshot: Mapping[str, Any]) -> None:
        for each in to:
            each(snapshot)

    return publish


def open_sensing(
    spec: str,
    clock: Clock,
    *,
    profile_path: str | Path | None = None,
    record: str | Path | None = None,
    settle_ms: int | None = None,
    debounce_ms: int | None = None,
) -> Sensing:
    """Open and start the source ``spec`` names and put a pipeline behind it."""
    profile = load_profile(profile_path)
    source = open_source(spec, profile, clock)
    if record is not None:
        source = RecordingSource(source, record, clock=clock, profile=profile.name)
    source.start()
    try:
        pipeline = Pipeline(
            profile, clock,
            debounce_s=None if debounce_ms is None else debounce_ms / 1000,
            settle_s=None if settle_ms is None else settle_ms / 1000,
            initial=source.snapshot(),
        )
    except Exception:
        source.close()
        raise
    return Sensing(source, pipeline, profile)


def open_table(
    db: str | Path,
    spec: str,
    *,
    clock: Clock,
    wall: Clock,
    profile_path: str | Path | None = None,
    record: str | Path | None = None,
    settle_ms: int | None = None,
    debounce_ms: int | None = None,
    publish: Publish | None = None,
    connect: Connect = open_sqlite,
) -> Table:
    """A table on the match log ``db`` (resuming its newest match) fed by source ``spec``,
    handing every snapshot to ``publish`` (the app's broadcaster, see :func:`publishing`).
    ``connect``: how the log's connection is opened (:class:`~scorekeeper.store.MatchStore`;
    the fault tests wrap it to give the served app a failing or stalling disk)."""
    store = MatchStore(db, connect=connect)
    try:
        sensing = open_sensing(
            spec, clock, profile_path=profile_path, record=record, settle_ms=settle_ms,
            debounce_ms=debounce_ms,
        )
    except Exception:
        store.close()
        raise
    if str(db) != ":memory:":  # each match's sensor flags and I2C errors, for the audit
        health = HealthLog(Path(db).parent)
        publish = health.observe if publish is None else publishing(publish, health.observe)
    try:
        return Table(store, clock=clock, wall=wall, sensing=sensing, publish=publish)
    except Exception:
        sensing.close()
        store.close()
        raise
