"""Issue 36: every interleaving of a landing, a referee's tap, polling steps and a slow disk.

Ann's skitt lands on Bo's yellow at 0 ms; the referee taps "turn ended, no change" at an
offset from -300 to +500 ms, as the server takes it (on the writer, with the ``seq`` the
referee saw and the moment pressed); the disk may hold the writer up for a while, from any
moment; polling steps come every 10 to 40 ms. After every interleaving three things hold:

1. every shot in the log was made by the player it names: the landing is Ann's unless it
   came clearly after the tap (then it is Bo's), and a tap is about the player the
   referee saw due;
2. the skitt is accounted for: scored, or asked about (the referee's question is open);
3. no sensor cell is called stuck: the landing explains its cell.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from order_rig import OrderRig

from web.table.errors import Refused, Stale
from web.table.order import UNORDERED_S

pytestmark = pytest.mark.unit

YELLOW = "white.yellow"


@dataclass(frozen=True)
class Plan:
    tap_ms: int
    stall_ms: int | None
    """When the disk starts holding the writer up (None: it never does)."""
    stall_for_ms: int
    poll_ms: int


plans = st.builds(
    Plan,
    tap_ms=st.integers(-300, 500),
    stall_ms=st.none() | st.integers(-300, 600),
    stall_for_ms=st.integers(0, 600),
    poll_ms=st.sampled_from([10, 20, 40]),
)


def play(rig: OrderRig, plan: Plan) -> tuple[str | None, list[str]]:
    """Run ``plan``; who the referee saw due when tapping, and the tap's refusals."""
    table = rig.table
    start = rig.clock.now() + 1.0  # the earliest moment (-640 ms) is still ahead
    released = threading.Event()
    jobs = []
    seen_due: str | None = None
    refusals: list[str] = []
    moments = sorted(
        [(0, 1, "land"), (plan.tap_ms, 2, "tap")]
        + ([] if plan.stall_ms is None else [(plan.stall_ms, 0, "stall"),
                                             (plan.stall_ms + plan.stall_for_ms, 0, "free")]))
    t = min(m[0] for m in moments) - plan.poll_ms
    rig.clock.set(start + t / 1000)
    end = max(m[0] for m in moments) + 1000
    pending = list(moments)
    while t <= end:
        while pending and pending[0][0] <= t:
            _, _, what = pending.pop(0)
            if what == "land":
                table.watch.place_skitt(YELLOW)
            elif what == "stall":
                jobs.append(table.writer.submit(released.wait, 30))
            elif what == "free":
                released.set()
            else:
                seen = table.published["seq"]
                seen_due = table.published["state"]["turn"]
                pressed = rig.clock.now()

                def tap(seen: int = seen, pressed: float = pressed) -> None:
                    with table.watch.holding():
                        try:
                            table.check_seq(seen)
                            table.no_change(pressed_at=pressed)
                        except (Refused, Stale) as exc:
                            refusals.append(str(exc))
                jobs.append(table.writer.submit(tap))
        jobs += table.poll()
        t += plan.poll_ms
        rig.clock.set(start + t / 1000)
    released.set()
    for job in jobs:
        job.result(30)
    rig.wait_out()
    return seen_due, refusals


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(plan=plans)
def test_every_interleaving_keeps_the_three_invariants(plan: Plan) -> None:
    rig = OrderRig.open()
    try:
        seen_due, _ = play(rig, plan)
        table = rig.table
        shots = rig.shots()
        landed_after = plan.tap_ms < -UNORDERED_S * 1000
        for shot in shots:
            if shot.get("delta"):  # 1. the landing names its maker
                assert shot == {"by": "white" if landed_after else "black",
                                "delta": {YELLOW: 1}}, (plan, shots)
            else:  # the tap names the player the referee saw due
                assert shot["by"] == seen_due, (plan, shots)
        scored = any(s.get("delta") == {YELLOW: 1} for s in shots)
        asked = table.snapshot()["words"]["question"] is not None or \
            table.tracker.mode == "review"
        assert scored or asked, (plan, shots, table.tracker.status())  # 2.
        assert rig.flags() == [], plan  # 3.
    finally:
        rig.close()
