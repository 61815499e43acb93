"""The sensor audit read from a board's files: the match log (steps and shot timelines)
and the health log (``web.table.sensor_health_log``). The folding is pure
(``firmware_bridge.audit``); this module only reads."""

from __future__ import annotations

from firmware_bridge.audit import SILENT_AFTER, Audit, MatchSensing, audit, match_sensing
from firmware_bridge.profile import BoardProfile
from scorekeeper.store import MatchStore, StoreError
from scorekeeper.words import ENGLISH, Words
from web.table import sensor_health_log

LAST = 20
"""Matches an audit looks at by default (the newest)."""


def read_audit(store: MatchStore, profile: BoardProfile, *, last: int = LAST,
               silent_after: int = SILENT_AFTER, t: Words = ENGLISH) -> Audit:
    """The audit of the newest ``last`` matches with at least one step, its parts of the
    board in the language ``t``."""
    health = sensor_health_log.load(store.path.parent)
    matches: list[MatchSensing] = []
    for header in store.list_matches():
        if len(matches) >= last:
            break
        if not header["events"]:
            continue
        match_id = int(header["id"])
        try:
            steps = [(e.source, e.body) for e in store.iter_events(match_id)]
            timelines = store.timelines(match_id)
        except (StoreError, ValueError):
            continue  # a damaged match says nothing about the sensors
        matches.append(match_sensing(match_id, steps, timelines, health.get(str(match_id))))
    return audit(profile, reversed(matches), silent_after=silent_after, t=t)
