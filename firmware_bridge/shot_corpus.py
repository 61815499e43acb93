"""A corpus of simulated shots for tuning and checking the settle rule.

:func:`corpus` plays seeded shots of every kind on the physics board
(:mod:`firmware_bridge.physics`) and returns each as the timeline the shot review stores
(:class:`firmware_bridge.timeline.Timeline`, ms after the first change) with the true
outcome beside it: the resting cells and when the board truly came to rest. Seeds split the
corpus: even seeds train, odd seeds are held out. Generated on demand (nothing stored), so
a real board's recorded review timelines can join it in the same form.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from firmware_bridge.physics import Flick, Geometry, Outcome, Physics, Shot, play
from firmware_bridge.profile import BoardProfile
from firmware_bridge.timeline import Change, Timeline

PHYSICS = Physics()

KINDS = ("single", "knock", "creep", "double_bounce", "three_cells", "two_moving", "chain")


@dataclass(frozen=True)
class Sample:
    """One shot of the corpus: what the board sensed, and what is true."""

    kind: str
    seed: int
    timeline: Timeline
    truth: frozenset[int]
    """The cells covered once every skitt is at rest."""
    rest_ms: int
    """When the board truly came to rest (its last physical change), ms after the timeline's
    first change: up to one sample period before the switches report it."""


def make_shot(geo: Geometry, kind: str, seed: int) -> Shot:
    """A seeded shot of ``kind`` on ``geo``."""
    rng = random.Random(seed)
    x = rng.uniform(0, geo.width)
    _, tx, ty = rng.choice(geo.centres)
    launch = (x, -40.0)
    if kind == "single":
        return Shot(kind, seed, (launch,), (Flick(0, rng.uniform(250, 750),
                                                  rng.uniform(-0.3, 0.3)),))
    if kind == "creep":  # just enough to reach the first field's edge
        return Shot(kind, seed, ((tx, -14.0 - rng.uniform(5, 20)),),
                    (Flick(0, rng.uniform(120, 200), rng.uniform(-0.05, 0.05)),))
    if kind == "three_cells":  # along a field's row of cells
        return Shot(kind, seed, ((-30.0, ty),), (Flick(0, rng.uniform(350, 600),
                                                       math.pi / 2 + rng.uniform(-0.02, 0.02)),))
    target = (tx, ty)
    aim = math.atan2(target[0] - x, target[1] + 40.0)
    speed = math.hypot(target[0] - x, target[1] + 40) * rng.uniform(1.8, 3.5) + 100
    if kind == "knock":
        return Shot(kind, seed, (launch, target), (Flick(0, speed, aim),))
    if kind == "double_bounce":
        behind = (target[0] + 20 * math.sin(aim), target[1] + 20 * math.cos(aim) + 5)
        return Shot(kind, seed, (launch, target, behind), (Flick(0, speed, aim),))
    if kind == "chain":
        nxt = (target[0] + geo.cell_pitch, target[1])
        return Shot(kind, seed, (launch, target, nxt), (Flick(0, speed * 0.6, aim),))
    if kind == "two_moving":
        other = (rng.uniform(0, geo.width), -40.0)
        return Shot(kind, seed, (launch, other),
                    (Flick(0, rng.uniform(250, 700), rng.uniform(-0.3, 0.3)),
                     Flick(1, rng.uniform(250, 700), rng.uniform(-0.3, 0.3),
                           rng.uniform(0, 0.08))))
    raise ValueError(f"unknown shot kind {kind!r}; use one of {', '.join(KINDS)}")


def sample_of(outcome: Outcome) -> Sample | None:
    """The review timeline of ``outcome``; None when no cell ever changed."""
    if not outcome.changes:
        return None
    t0 = outcome.changes[0][0]
    changes = tuple(Change(round((at - t0) * 1000), cell, active)
                    for at, cell, active in outcome.changes)
    rest_ms = round((outcome.rest_s - t0) * 1000)  # the switches report it up to a sample later
    reading = {"cells": sorted(outcome.final)}
    timeline = Timeline(outcome.before, changes, max(changes[-1].ms, rest_ms), reading)
    return Sample(outcome.shot.kind, outcome.shot.seed, timeline, outcome.final, rest_ms)


def corpus(profile: BoardProfile, per_kind: int, *, held_out: bool | None = None,
           phys: Physics = PHYSICS) -> Iterator[Sample]:
    """``per_kind`` seeded shots of every kind; ``held_out`` True: odd seeds only, False:
    even seeds only, None: all."""
    geo = Geometry.of(profile)
    for k, kind in enumerate(KINDS):
        for i in range(per_kind):
            seed = k * 1_000_000 + i
            if held_out is not None and (seed % 2 == 1) != held_out:
                continue
            sample = sample_of(play(profile, make_shot(geo, kind, seed), phys))
            if sample is not None:
                yield sample


@dataclass(frozen=True)
class Decision:
    """How the pipeline settled one corpus shot."""

    delay_ms: float | None
    """From true rest to the first reading after the shot (None: no reading)."""
    right: bool
    """The first reading saw exactly the true resting cells (or, when nothing stayed
    changed, no reading was taken)."""
    missed: bool
    """The board ended changed but no reading was ever taken."""


def decide(profile: BoardProfile, sample: Sample, *, tick_ms: float = 1.0) -> Decision:
    """Replay ``sample`` through the real pipeline (debounce and settle rule of
    ``profile``) on a fake clock ticked every ``tick_ms``."""
    from firmware_bridge.pipeline import Pipeline
    from firmware_bridge.source import SensorEvent
    from scorekeeper.clock import FakeClock

    clock = FakeClock(0.0)
    pipe = Pipeline(profile, clock, initial=sample.timeline.before)
    clock.advance(profile.settle_s + 0.01)
    pipe.tick()  # the initial reading
    t0 = clock.now() + 0.001
    events = [SensorEvent(c.cell, c.active, t0 + c.ms / 1000) for c in sample.timeline.changes]
    end = t0 + (sample.timeline.settled_ms + 2 * profile.settle_ms + 100) / 1000
    step = tick_ms / 1000
    while clock.now() < end:
        clock.advance(step)
        now = clock.now()
        due = [e for e in events if e.at <= now]
        events = events[len(due):]
        pipe.feed(due)
        if pipe.tick():
            right = pipe.active_cells() == sample.truth and not events
            return Decision((now - t0) * 1000 - sample.rest_ms, right, False)
    unchanged = sample.truth == sample.timeline.before
    return Decision(None, unchanged, not unchanged)
