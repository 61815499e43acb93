"""I2C errors injected into the emulated expanders while a whole match is played.

The real Adafruit driver reads three emulated MCP23017s (the default board) whose bus fails
at random (``OSError`` 121, as a loose SDA wire does) and in bursts that take an expander
off the bus for a while. The MCP23017 source must recover on its own, say it is degraded,
and never let a failed read become a shot: every shot scored is one that was made, in order.

Counts: a short match in CI; ``SKITTER_FULL_FAULTS=1`` plays long ones.
"""

from __future__ import annotations

import os

import pytest
from emulation.i2c import FakeI2C
from fault_rig import BusHands, ScoringRig
from gpiozero.pins.mock import MockFactory

from firmware_bridge.profile import load_profile
from firmware_bridge.sources import open_source
from scorekeeper.clock import FakeClock
from scorekeeper.events import ShotEvent

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
SHOTS = 150 if FULL else 24
PROFILE = load_profile()
ADDRESSES = PROFILE.mcp23017.addresses if PROFILE.mcp23017 else ()


def expander_rig(
    factory: MockFactory, seed: int, *, polled: bool = False
) -> tuple[ScoringRig, FakeI2C]:
    """The default board's expanders; ``polled``: no interrupt lines, every poll reads all
    three (far more bus traffic, so far more errors)."""
    clock = FakeClock(50.0)
    bus = FakeI2C(ADDRESSES, seed=seed)
    assert PROFILE.gpio is not None
    for address, pin in zip(ADDRESSES, PROFILE.gpio.interrupt, strict=True):
        bus.wire_interrupt(factory.pin(pin), (address, 0))
    options = {"interrupt_pins": ()} if polled else {}
    source = open_source("mcp23017", PROFILE, clock, i2c=bus, pin_factory=factory, **options)
    rig = ScoringRig(source, BusHands(bus), PROFILE, clock, seed=seed)
    rig.run(1.0)
    return rig, bus


def assert_only_real_shots_scored(rig: ScoringRig) -> None:
    assert rig.taken() == rig.made()
    assert rig.match.state == rig.reference().state
    assert rig.log.refusals == []


@pytest.mark.parametrize(("seed", "polled"), [(1, False), (2, True), (3, True)])
def test_random_i2c_errors_never_score_a_phantom_shot(mock_factory: MockFactory,
                                                      seed: int, polled: bool) -> None:
    rig, bus = expander_rig(mock_factory, seed, polled=polled)
    bus.fail_randomly(0.1)  # one transaction in ten fails; three tries per read
    for _ in range(SHOTS):
        rig.shoot()
        rig.run(0.5)
    rig.run(5.0)  # the board at rest under noise: nothing may be scored
    assert_only_real_shots_scored(rig)
    # every error the source saw was counted (the driver's probe swallows one on its own)
    assert 0 < rig.source.status().errors <= bus.errors_raised
    assert rig.log.degraded_polls > 0
    if polled:  # with this much traffic, expanders drop off the bus and come back
        assert rig.log.link_downs > 0


def test_source_reports_degraded_health_and_recovers_when_the_noise_stops(
    mock_factory: MockFactory,
) -> None:
    rig, bus = expander_rig(mock_factory, 4)
    bus.fail_randomly(0.3)
    rig.run(3.0)
    status = rig.source.status()
    assert status.degraded and status.errors > 0
    assert "I2C errors" in status.message or "not answering" in status.message
    bus.fail_randomly(0.0)
    rig.run(12.0)  # past the 10 s degraded window and any retry
    status = rig.source.status()
    assert status.up and not status.degraded
    rig.shoot()
    assert_only_real_shots_scored(rig)


@pytest.mark.parametrize("seed", [5, 6])
def test_expander_lost_mid_shot_comes_back_and_the_shot_scores_once(
    mock_factory: MockFactory, seed: int
) -> None:
    rig, bus = expander_rig(mock_factory, seed)
    for n in range(SHOTS // 2):
        if n % 3 == 1:
            bus.fail_next(12)  # a burst: every try of the next reads fails
        rig.shoot()
        rig.run(0.3)
    assert rig.log.link_downs > 0, "no burst took an expander off the bus"
    assert_only_real_shots_scored(rig)
    assert rig.source.status().up


def test_a_long_outage_pauses_play_and_changes_made_meanwhile_are_scored_once(
    mock_factory: MockFactory,
) -> None:
    rig, bus = expander_rig(mock_factory, 7)
    rig.shoot()
    bus.fail_next(10_000)  # the whole bus is gone for a while
    rig.run(2.0)
    assert rig.tracker.mode == "paused"
    assert not rig.source.status().up
    before = len(rig.match.events)
    shot, cells = rig.next_shot()  # the player shoots while the sensors are blind
    rig.intended.append(ShotEvent(shot))
    for cell in cells:
        rig.hands.set(cell, True)
        rig.on.add(cell)
    rig.run(5.0)
    assert len(rig.match.events) == before  # nothing is scored from a half-seen board
    bus.fail_next(0)
    rig.until(lambda: len(rig.match.events) > before, "the blind shot scored after recovery")
    rig.lay_out()
    rig.run(2.0)
    assert_only_real_shots_scored(rig)
