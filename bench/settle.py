"""Settle: rest→decision time and false/missed shots on the held-out physics corpus.

Prints one line for the profile's tuned settle rule and one for the fixed window it
replaced (``settle_ms`` alone), both replayed through the real pipeline:

    .venv/bin/python bench/settle.py [--per-kind 150]

false = the first reading after a shot saw other cells than the true resting ones (a skitt
still moving); missed = no reading at all for a shot that left the board changed.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics

from firmware_bridge.profile import BoardProfile, load_profile
from firmware_bridge.shot_corpus import Sample, corpus, decide


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
    args = parser.parse_args()
    profile = load_profile()
    samples = list(corpus(profile, args.per_kind, held_out=True))
    fixed = dataclasses.replace(profile, settle_land_ms=None, settle_leave_ms=None)
    if profile.settle_land_ms is None or profile.settle_leave_ms is None:
        # the waits tuned on the training half (longest pass 151 ms, longest crossing 371 ms)
        profile = dataclasses.replace(profile, settle_land_ms=160, settle_leave_ms=400)
    print(line(fixed, samples, f"fixed window {profile.settle_ms} ms"))
    print(line(profile, samples, f"tuned: land {profile.settle_land_ms} ms, "
                                 f"leave {profile.settle_leave_ms} ms"))


if __name__ == "__main__":
    main()
