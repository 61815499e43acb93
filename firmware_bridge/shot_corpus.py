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
from enum import StrEnum

from firmware_bridge.physics import Flick, Geometry, Outcome, Physics, Shot, play
from firmware_bridge.profile import BoardProfile
from firmware_bridge.profile_model import SettleTuning
from firmware_bridge.settle import Move, SettleWaits, still_since
from firmware_bridge.timeline import Change, Timeline

PHYSICS = Physics()



class ShotKind(StrEnum):
    """The kinds of shot the corpus plays (a sample's ``kind``, the same word)."""

    SINGLE = "single"
    KNOCK = "knock"
    CREEP = "creep"
    DOUBLE_BOUNCE = "double_bounce"
    THREE_CELLS = "three_cells"
    TWO_MOVING = "two_moving"
    CHAIN = "chain"


KINDS = tuple(ShotKind)


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
    if kind == ShotKind.SINGLE:
        return Shot(kind, seed, (launch,), (Flick(0, rng.uniform(250, 750),
                                                  rng.uniform(-0.3, 0.3)),))
    if kind == ShotKind.CREEP:  # just enough to reach the first field's edge
        return Shot(kind, seed, ((tx, -14.0 - rng.uniform(5, 20)),),
                    (Flick(0, rng.uniform(120, 200), rng.uniform(-0.05, 0.05)),))
    if kind == ShotKind.THREE_CELLS:  # along a field's row of cells
        return Shot(kind, seed, ((-30.0, ty),), (Flick(0, rng.uniform(350, 600),
                                                       math.pi / 2 + rng.uniform(-0.02, 0.02)),))
    target = (tx, ty)
    aim = math.atan2(target[0] - x, target[1] + 40.0)
    speed = math.hypot(target[0] - x, target[1] + 40) * rng.uniform(1.8, 3.5) + 100
    if kind == ShotKind.KNOCK:
        return Shot(kind, seed, (launch, target), (Flick(0, speed, aim),))
    if kind == ShotKind.DOUBLE_BOUNCE:
        behind = (target[0] + 20 * math.sin(aim), target[1] + 20 * math.cos(aim) + 5)
        return Shot(kind, seed, (launch, target, behind), (Flick(0, speed, aim),))
    if kind == ShotKind.CHAIN:
        nxt = (target[0] + geo.cell_pitch, target[1])
        return Shot(kind, seed, (launch, target, nxt), (Flick(0, speed * 0.6, aim),))
    if kind == ShotKind.TWO_MOVING:
        other = (rng.uniform(0, geo.width), -40.0)
        return Shot(kind, seed, (launch, other),
                    (Flick(0, rng.uniform(250, 700), rng.uniform(-0.3, 0.3)),
                     Flick(1, rng.uniform(250, 700), rng.uniform(-0.3, 0.3),
                           rng.uniform(0, 0.08))))
    raise ValueError(f"unknown shot kind {kind!r}; use one of {', '.join(KINDS)}")


MAX_WAIT_S = 2.0
"""A shot not read this long after its last change (beyond twice the fixed window) is
missed: no settle rule may wait longer."""
PRESS_S = 0.1
"""How long a flicked skitt holds its launch spot (as the physics board presses it)."""


def sample_of(outcome: Outcome, launch: tuple[int, ...] = ()) -> Sample | None:
    """The review timeline of ``outcome``; None when nothing changed. ``launch``: the
    launch spot cells the flicks press in turn (each for :data:`PRESS_S` from its flick,
    exactly as the physics board's flick does), so the timeline shows how many skitts
    were flicked."""
    presses = [] if not launch else [
        (f.at_s + dt, launch[i % len(launch)], dt == 0)
        for i, f in enumerate(sorted(outcome.shot.flicks, key=lambda f: f.at_s))
        for dt in (0.0, PRESS_S)]
    sensed = sorted([*presses, *outcome.changes])
    if not sensed:
        return None
    t0 = sensed[0][0]
    changes = tuple(Change(round((at - t0) * 1000), cell, active) for at, cell, active in sensed)
    # the true rest: the last physical change (its switch reports it up to a sample later)
    # or the last launch spot release
    rest_s = max([outcome.rest_s] + [at for at, _, _ in presses])
    rest_ms = round((rest_s - t0) * 1000)
    reading = {"cells": sorted(outcome.final)}
    timeline = Timeline(outcome.before, changes, max(changes[-1].ms, rest_ms), reading)
    return Sample(outcome.shot.kind, outcome.shot.seed, timeline, outcome.final, rest_ms)


def corpus(profile: BoardProfile, per_kind: int, *, held_out: bool | None = None,
           phys: Physics = PHYSICS) -> Iterator[Sample]:
    """``per_kind`` seeded shots of every kind; ``held_out`` True: odd seeds only, False:
    even seeds only, None: all."""
    geo = Geometry.of(profile)
    launch = tuple(cells[0] for _, cells in sorted(profile.launch.items()) if cells)
    for k, kind in enumerate(KINDS):
        for i in range(per_kind):
            seed = k * 1_000_000 + i
            if held_out is not None and (seed % 2 == 1) != held_out:
                continue
            outcome = play(profile, make_shot(geo, kind, seed), phys)
            sample = sample_of(outcome, launch)
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
    end = t0 + (sample.timeline.settled_ms + 2 * profile.settle_ms) / 1000 + MAX_WAIT_S
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


def read_early(sample: Sample, waits: SettleWaits | None, *, settle_s: float,
               debounce_s: float) -> tuple[bool, float]:
    """Where the settle rule (:func:`firmware_bridge.settle.still_since`) reads ``sample``
    without the pipeline around it: (read before the last change, the reading's ms after
    the first change). Each change counts from when the debounce confirmed it, and a raw
    change still being debounced holds the reading, as in the pipeline."""
    changes = sample.timeline.changes
    moves: list[Move] = []
    for i, c in enumerate(changes):
        moves.append(Move(c.ms / 1000 + debounce_s, c.cell, c.active))
        at = still_since(moves, waits, settle_s=settle_s, start=-1.0,
                         on_before=sample.timeline.before)
        if i + 1 == len(changes) or at < changes[i + 1].ms / 1000:
            return i + 1 < len(changes), at * 1000
    raise ValueError("a corpus sample without changes")


def quiet_after(sample: Sample, waits: SettleWaits) -> dict[str, int]:
    """How long ``sample``'s board stayed quiet after each kind of change the settle rule
    tells apart (ms, the longest of each kind): after a cell turned on, until it turned off
    with nothing else between (a pass: ``land_ms``); after a skitt left a cell quickly,
    slowly or from rest, until the next change; after a launch, until the first change on
    the board."""
    quiet = dict.fromkeys(("land_ms", "leave_ms", "leave_slow_ms", "knocked_ms", "launch_ms"), 0)
    on_at: dict[int, int | None] = dict.fromkeys(sample.timeline.before)
    changes = sample.timeline.changes
    for i, c in enumerate(changes):
        later = [d.ms for d in changes[i + 1:] if d.cell not in waits.launch_cells]
        if c.cell in waits.launch_cells:
            kind = "launch_ms" if c.active and later else None
        elif c.active:
            on_at[c.cell], kind = c.ms, None
        else:
            was = on_at.pop(c.cell, None)
            if was is not None and changes[i - 1].cell == c.cell:  # nothing between: a pass
                quiet["land_ms"] = max(quiet["land_ms"], c.ms - was)
            kind = ("knocked_ms" if was is None else
                    "leave_ms" if c.ms - was <= 1.5 * waits.sample_s * 1000 else "leave_slow_ms")
        if kind is not None and later:
            quiet[kind] = max(quiet[kind], later[0] - c.ms)
    return quiet


def tune(profile: BoardProfile, samples: list[Sample], *, sample_ms: int,
         room: float = 1.1) -> SettleTuning:
    """The settle waits for ``profile`` from ``samples`` (the training half). Each wait
    starts at the longest quiet time after its kind of change (:func:`quiet_after`; the
    landing's less the debounce the wait starts after) and grows while a sample is still
    read before its last change; then times ``room``, for shots a little slower than the
    slowest seen."""
    launch = frozenset(c for cells in profile.launch.values() for c in cells)
    names = ("land_ms", "leave_ms", "leave_slow_ms", "knocked_ms", "launch_ms")
    probe = SettleTuning(0, 0, 0, 0, 0, sample_ms).waits(launch)
    ms = dict.fromkeys(names, 0)
    for sample in samples:
        for name, quiet in quiet_after(sample, probe).items():
            ms[name] = max(ms[name], quiet)
    ms["land_ms"] = max(0, ms["land_ms"] - profile.debounce_ms + 1)

    def early(trial: dict[str, int]) -> bool:
        waits = SettleTuning(**trial, sample_ms=sample_ms).waits(launch)
        return any(read_early(s, waits, settle_s=profile.settle_s,
                              debounce_s=profile.debounce_s)[0] for s in samples)

    top = round(MAX_WAIT_S * 1000)
    for name in ("launch_ms", "leave_ms", "knocked_ms", "leave_slow_ms", "land_ms"):
        low, high = ms[name], top
        if not early(ms):
            break
        while low < high:
            mid = (low + high) // 2
            if early({**ms, name: mid}):
                low = mid + 1
            else:
                high = mid
        ms[name] = low
    return SettleTuning(**{k: round(v * room) for k, v in ms.items()}, sample_ms=sample_ms)
