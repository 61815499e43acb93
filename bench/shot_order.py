"""Benchmark: the cost of judging one shot, with R10's search for the shooter's best order.

Run: ``.venv/bin/python bench/shot_order.py [--base PATH] [--shots N] [--rounds N]``

Times :func:`scorekeeper.rules.apply` for a few kinds of shot, from the most common (one
field changed) to the worst the rules allow (a big skitt shot that lands on a colour field,
knocks the other big skitt onto a colour field and takes the pot's last skitt, or a
clearing and a gift with flipping and an unblock): microseconds of CPU per shot, the median
over ``--rounds``. With ``--base PATH`` (a checkout of the code before, e.g. ``git worktree
add /tmp/base 2baab9d``) the same shots are timed on that code in a child process, so both
columns come from the same run on the same machine. A shot is judged once per settled
reading; the figure to keep small is its share of the scan loop's 10 ms period
(``bench/pipeline_cost.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import print_header

ROOT = Path(__file__).resolve().parent.parent
SCAN_PERIOD_US = 10_000.0
"""One scan every 10 ms (``bench/pipeline_cost.py``)."""

CENTER = {"black": "center", "white": "center"}
SHOTS: dict[str, tuple[dict, dict, dict]] = {
    # name: (rules, setup, shot)
    "one field, one point": (
        {}, {"first": "black", "big": CENTER, "board": {"white.red": 2}},
        {"by": "black", "delta": {"white.red": 1}}),
    "points, penalty, own goal": (
        {}, {"first": "black", "big": CENTER,
             "board": {"white.red": 2, "white.blue": 1, "black.red": 2}},
        {"by": "black", "delta": {"white.red": 1, "white.blue": -1, "black.red": 1},
         "off_board": 1}),
    "clearing and a gift": (
        {"pot": 10}, {"first": "black", "big": CENTER, "score": {"white": 4},
                      "board": {"white.yellow": 1, "black.yellow": 2, "black.red": 2,
                                "minus": 4}},
        {"by": "black", "delta": {"white.yellow": 1}, "knocked_big": "white.red"}),
    "two gifts, last skitt": (
        {"pot": 10}, {"first": "black", "big": {"black": "hand", "white": "center"},
                      "board": {"black.red": 2, "minus": 7}, "score": {"black": 4, "white": 3}},
        {"by": "black", "big": "white.red", "knocked_big": "white.yellow"}),
    "flipping: clearing, unblock, gifts": (
        {"flipping": True}, {"first": "black", "big": CENTER, "blocked": ["white.blue"],
                             "board": {"white.yellow": 1, "black.yellow": 2, "black.red": 2}},
        {"by": "black", "delta": {"white.yellow": 1}, "unblock": "white.blue",
         "knocked_big": ["white.red", "white.yellow"]}),
}


def measure(shots: int, rounds: int) -> dict[str, float]:
    """CPU microseconds per shot, per kind of shot, for the code on ``sys.path``."""
    from scorekeeper.events import parse_event
    from scorekeeper.match import Match
    from scorekeeper.options import Rules, Setup
    from scorekeeper.rules import apply

    cases = []
    for name, (rules, setup, shot) in SHOTS.items():
        state = Match(Rules(**rules), Setup(**setup)).state
        event = parse_event({"shot": shot})
        apply(state, event)  # refused shots would make the figure meaningless
        cases.append((name, state, event))
    times: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _ in range(rounds):
        for name, state, event in cases:  # interleaved: a neighbour's burst hits all alike
            start = time.process_time_ns()
            for _ in range(shots):
                apply(state, event)
            times[name].append((time.process_time_ns() - start) / 1000 / shots)
    return {name: statistics.median(t) for name, t in times.items()}


def on_base(base: Path, shots: int, rounds: int) -> dict[str, float]:
    """:func:`measure` on the checkout at ``base``, in a child process."""
    code = ("import sys, json; sys.path[:0] = [sys.argv[1], sys.argv[2]]; "
            "import shot_order; print(json.dumps(shot_order.measure(int(sys.argv[3]), "
            "int(sys.argv[4]))))")
    out = subprocess.run(
        [sys.executable, "-c", code, str(base), str(ROOT / "bench"), str(shots), str(rounds)],
        cwd=base, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="a checkout of the code before, to compare")
    parser.add_argument("--shots", type=int, default=2_000, help="shots per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is reported)")
    args = parser.parse_args(argv)
    print_header("Benchmark: judging one shot (R10's best order)")
    now = measure(args.shots, args.rounds)
    before = on_base(args.base, args.shots, args.rounds) if args.base else {}
    print(f"{args.shots} shots x {args.rounds} rounds (median), CPU us per shot; share of one "
          f"{SCAN_PERIOD_US / 1000:.0f} ms scan period")
    head = f"  {'shot':<36} {'this code':>10} {'share':>7}"
    print(head + (f" {'before':>10} {'ratio':>6}" if before else ""))
    for name, us in now.items():
        line = f"  {name:<36} {us:10.1f} {us / SCAN_PERIOD_US:7.2%}"
        if name in before:
            line += f" {before[name]:10.1f} {us / before[name]:6.2f}"
        print(line)
    worst = max(now, key=now.__getitem__)
    print()
    print(f"Result: the costliest shot ({worst}) takes {now[worst]:.1f} us, "
          f"{now[worst] / SCAN_PERIOD_US:.2%} of a scan period"
          + (f" (before: {before[worst]:.1f} us)" if worst in before else ""))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
