"""Settle: rest→decision time and false/missed shots on the held-out physics corpus.

Prints one line for the fixed window (``settle_ms`` alone) and one for the tuned settle rule
(the profile's ``[settle]`` table, or else waits tuned here on the training half), both
replayed through the real pipeline over the held-out half, in the same run:

    .venv/bin/python bench/settle.py [--per-kind 150] [--retune]

``--retune`` tunes the waits afresh on the training half (what to copy into the profile's
``[settle]`` table after the physics or the switches change) instead of replaying the
profile's own.

false = the first reading after a shot saw other cells than the true resting ones (a skitt
still moving); missed = no reading at all for a shot that left the board changed. The delay
runs from the board's true rest (its last physical change), so the switches' sample period
counts.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics

from firmware_bridge.profile import BoardProfile, load_profile
from firmware_bridge.shot_corpus import PHYSICS, Sample, corpus, decide, tune


def line(profile: BoardProfile, samples: list[Sample], label: str) -> str:
    decisions = [decide(profile, s) for s in samples]
    delays = sorted(d.delay_ms for d in decisions if d.delay_ms is not None)
    missed = sum(d.missed for d in decisions)
    false = sum(not d.right and not d.missed for d in decisions)
    p50 = statistics.median(delays) if delays else float("nan")
    p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))] if delays else float("nan")
    return (f"settle: {len(samples)} shots, rest→decision p50 {p50:.0f} ms, "
            f"p95 {p95:.0f} ms, false {false}, missed {missed}   ({label})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=150,
                        help="shots generated per kind (half are held out)")
    parser.add_argument("--retune", action="store_true",
                        help="tune the waits on the training half, not the profile's")
    args = parser.parse_args()
    profile = load_profile()
    held_out = list(corpus(profile, args.per_kind, held_out=True))
    fixed = dataclasses.replace(profile, settle=None)
    if profile.settle is not None and not args.retune:
        tuned, source = profile, "the profile's"
    else:
        training = list(corpus(profile, args.per_kind, held_out=False))
        waits = tune(profile, training, sample_ms=round(PHYSICS.sample_ms))
        tuned, source = dataclasses.replace(profile, settle=waits), \
            f"tuned on {len(training)} training shots"
    t = tuned.settle
    assert t is not None
    print(line(fixed, held_out, f"fixed window {profile.settle_ms} ms"))
    print(line(tuned, held_out, f"{source}: land {t.land_ms}, leave {t.leave_ms}/"
                                f"{t.leave_slow_ms}, knocked {t.knocked_ms}, "
                                f"launch {t.launch_ms} ms"))


if __name__ == "__main__":
    main()
