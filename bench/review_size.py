"""Benchmark 5: match log size per shot with shot timelines (the shot review, issue 15).

Run: ``.venv/bin/python bench/review_size.py [--shots N] [--seed S]``

A seeded random game (:mod:`matchgen`) gives ``--shots`` shots the rules accept (1,000 by
default) and the other steps between them (undos, corrections). Each shot gets a timeline
made by the real pipeline (:class:`~firmware_bridge.pipeline.Pipeline`, default profile,
its debounce and settle times) from raw events of a busy shot: the skitt leaves the launch
spot, bounces on the cells of one to three fields (contact blips shorter than the debounce
time, and real arrivals and departures), sometimes knocks another skitt along, and comes to
rest. The steps are written with :meth:`MatchStore.append`, each shot with its timeline in
the same transaction, as the table does; the file is checkpointed and measured, then
measured again after ``skitter log --prune-timelines 0`` (the steps alone).

Target: < 2 KB (2,048 bytes) per shot on average, file size over shots.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from machine import print_header
from matchgen import RULES, SETUP, random_steps

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.source import SensorEvent
from firmware_bridge.timeline import MAX_CHANGES, Timeline
from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore

TARGET = 2048
PROFILE = load_profile()
FIELD_CELLS = [list(fc.cells) for fc in PROFILE.fields.values()]
LAUNCH = [c for cells in PROFILE.launch.values() for c in cells]


def shot_events(rng: random.Random, t0: float, active: set[int]) -> list[tuple[float, int, bool]]:
    """Raw events of one busy shot starting at ``t0`` (``active``: the board, updated)."""
    events: list[tuple[float, int, bool]] = []
    t = t0
    if LAUNCH:
        cell = rng.choice(LAUNCH)
        events += [(t, cell, True), (t + 0.08, cell, False)]
        t += 0.1
    for _ in range(rng.randint(1, 3)):  # the skitt crosses one to three fields
        cells = rng.choice(FIELD_CELLS)
        for cell in rng.sample(cells, k=min(len(cells), rng.randint(1, 3))):
            if cell in active:
                continue
            for _ in range(rng.randint(0, 3)):  # contact bounce, shorter than the debounce
                events += [(t, cell, True), (t + 0.003, cell, False)]
                t += 0.006
            events.append((t, cell, True))
            t += rng.uniform(0.04, 0.2)
            events.append((t, cell, False))
            t += rng.uniform(0.02, 0.1)
    landing = rng.choice([c for cells in FIELD_CELLS for c in cells if c not in active])
    events.append((t, landing, True))
    active.add(landing)
    if rng.random() < 0.3 and len(active) > 1:  # it knocks another skitt along
        knocked = rng.choice(sorted(active - {landing}))
        t += 0.05
        events.append((t, knocked, False))
        active.discard(knocked)
    return events


def timelines(rng: random.Random, shots: int) -> list[Timeline]:
    """One timeline per shot, as the pipeline records it."""
    clock = FakeClock(0.0)
    pipeline = Pipeline(PROFILE, clock)
    active: set[int] = set()
    out: list[Timeline] = []
    while len(out) < shots:
        raw = sorted(shot_events(rng, clock.now() + 0.01, active))
        while raw or not pipeline.at_rest():
            due = [e for e in raw if e[0] <= clock.now()]
            raw = raw[len(due):]
            pipeline.feed(SensorEvent(cell, on, at) for at, cell, on in due)
            if pipeline.tick() and pipeline.last_timeline is not None:
                out.append(pipeline.last_timeline)
            clock.advance(0.005)
        if len(active) > 20:  # the players clear the board now and then
            for cell in sorted(active):
                pipeline.feed([SensorEvent(cell, False, clock.now())])
            active.clear()
            while not pipeline.tick():
                clock.advance(0.005)
    return out


def file_size(path: Path) -> int:
    """The file's bytes once the WAL is folded in and free pages are given back."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return path.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    print_header("benchmark 5: match log size per shot, with shot timelines")
    rng = random.Random(args.seed)
    steps: list[dict[str, Any]] = []
    shots = 0
    for step in random_steps(args.shots, seed=args.seed, shots_only=True):
        steps.append(step)
        shots += "shot" in step
    made = timelines(rng, shots)
    changes = [len(t.changes) for t in made]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "skitter.db"
        timeline_bytes = 0
        with MatchStore(path) as store:
            match_id = store.create_match(RULES.to_json(), SETUP.to_json(),
                                          {"black": "Ann", "white": "Bo"}, at=0.0)
            it = iter(made)
            for i, step in enumerate(steps, 1):
                timeline = next(it).to_json() if "shot" in step else None
                if timeline is not None:
                    timeline_bytes += len(json.dumps(timeline, separators=(",", ":")))
                store.append(match_id, step, at=float(i), source="sensor" if timeline else
                             "manual", timeline=timeline)
        with_timelines = file_size(path)
        with MatchStore(path) as store:
            pruned = store.prune_timelines(float(len(steps) + 1))
            assert pruned == shots, f"bench bug: pruned {pruned} of {shots} timelines"
        steps_only = file_size(path)
    capped = sorted(made, key=lambda t: -len(t.changes))[0]
    recorder_cap = len(json.dumps({**capped.to_json(), "changes": [[9999, 47, 1]] * MAX_CHANGES},
                                  separators=(",", ":")))
    per_shot = with_timelines / shots
    print(f"steps: {len(steps)} ({shots} shots, {len(steps) - shots} other steps)")
    print(f"changes per shot: mean {sum(changes) / len(changes):.1f}, max {max(changes)}")
    print(f"timeline JSON per shot: mean {timeline_bytes / shots:.0f} bytes")
    print(f"match log file with timelines: {with_timelines:,} bytes "
          f"= {per_shot:.0f} bytes per shot")
    print(f"match log file after pruning the timelines: {steps_only:,} bytes "
          f"= {steps_only / shots:.0f} bytes per shot")
    print(f"a timeline cut at {MAX_CHANGES} changes: about {recorder_cap:,} bytes")
    verdict = "met" if per_shot < TARGET else "MISSED"
    print(f"Result: {per_shot:.0f} bytes per shot (target < {TARGET}): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
