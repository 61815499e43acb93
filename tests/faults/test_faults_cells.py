"""A stuck cell and a chattering cell through a whole scripted match.

Both are flagged and hold play (no reading reaches the tracker while they are unmuted, so
neither can score a ghost point); once the referee mutes them, the match ends exactly as
it would have on a healthy board. The board is the simulator, the wiring the rig's
(source → pipeline → tracker → match, FakeClock).

Counts: a short match in CI; ``SKITTER_FULL_FAULTS=1`` plays a long one.
"""

from __future__ import annotations

import os

from fault_rig import ScoringRig, SimHands

from firmware_bridge.health import FlagKind, HealthMonitor
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import FakeClock
from scorekeeper.events import ShotEvent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
SHOTS = 150 if FULL else 30
PROFILE = load_profile()
RESTORE_TIMEOUT = 10.0
STUCK = 21  # white.yellow: a Hall switch stuck closed
CHATTER = 2  # black.red: a switch with a cracked solder joint
BURST = 300  # flickers per chatter burst: 3 s at 5 ms a flip


class FaultyTable:
    """The rig on a simulated board, with the faulty cells' physics."""

    def __init__(self, *, stuck: bool, chatter: bool, seed: int = 0) -> None:
        clock = FakeClock(20.0)
        self.board = SimulatedBoard(PROFILE, clock)
        self.chatter = chatter
        self._chatter_until = 0.0
        if stuck:
            self.board.magnet_arrives(STUCK)
        self.keep_chattering()
        # The hands never use the faulty cells, on a healthy board too, so both runs make
        # the same shots.
        self.rig = ScoringRig(
            self.board, SimHands(self.board), PROFILE, clock, faulty={STUCK, CHATTER},
            seed=seed, health=HealthMonitor(PROFILE, restore_timeout_s=RESTORE_TIMEOUT),
        )

    def keep_chattering(self) -> None:
        """Start another burst once the last one is over (chatter ends as it began)."""
        now = self.board.clock.now()
        if self.chatter and now >= self._chatter_until:
            self.board.chatter(CHATTER, BURST)
            self._chatter_until = now + 2 * BURST * self.board.chatter_interval_s

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds)):
            self.keep_chattering()
            self.rig.run(1.0)

    def play(self, shots: int) -> None:
        for _ in range(shots):
            self.keep_chattering()
            self.rig.shoot()
            self.keep_chattering()
            self.rig.run(0.3)

    def flags(self) -> dict[int, FlagKind]:
        return {f.cell: f.kind for f in self.rig.pipeline.flags()}


def test_stuck_and_chattering_cells_are_flagged_by_name_and_hold_play() -> None:
    table = FaultyTable(stuck=True, chatter=True)
    table.run(2)
    assert table.flags() == {CHATTER: FlagKind.JITTERY}
    assert table.rig.pipeline.is_held()
    reasons = " / ".join(table.rig.pipeline.hold_reasons())
    assert f"sensor cell {CHATTER} on black.red is jittery" in reasons
    table.run(RESTORE_TIMEOUT)
    assert table.flags() == {CHATTER: FlagKind.JITTERY, STUCK: FlagKind.STUCK_ACTIVE}
    assert table.rig.pipeline.last_reading is None  # not one reading reached the tracker
    assert table.rig.match.events == ()


def test_a_shot_made_while_play_is_held_scores_only_after_the_referee_mutes() -> None:
    table = FaultyTable(stuck=True, chatter=True)
    table.run(RESTORE_TIMEOUT + 2)
    shot, cells = table.rig.next_shot()
    table.rig.intended.append(ShotEvent(shot))
    for cell in cells:
        table.rig.hands.set(cell, True)
        table.rig.on.add(cell)
    table.run(5)
    assert table.rig.match.events == ()  # held: nothing is scored
    table.rig.mute(STUCK)
    table.rig.mute(CHATTER)
    table.rig.until(lambda: len(table.rig.match.events) == 1, "the held shot", timeout=10)
    assert table.rig.taken() == [ShotEvent(shot).to_json()]


def test_with_both_cells_muted_the_match_ends_as_on_a_healthy_board() -> None:
    healthy = FaultyTable(stuck=False, chatter=False, seed=11)
    healthy.play(SHOTS)

    faulty = FaultyTable(stuck=True, chatter=True, seed=11)
    faulty.run(RESTORE_TIMEOUT + 2)
    assert set(faulty.flags()) == {STUCK, CHATTER}
    faulty.rig.mute(STUCK)
    faulty.rig.mute(CHATTER)
    faulty.play(SHOTS)  # chattering all along, the stuck cell stuck all along

    assert faulty.rig.taken() == healthy.rig.taken() == healthy.rig.made()
    assert faulty.rig.match.state == healthy.rig.match.state
    assert faulty.rig.match.state == faulty.rig.reference().state
    assert faulty.rig.log.refusals == [] and faulty.rig.log.referee_accepts == 0
    assert len(healthy.rig.taken()) == SHOTS
    # points were scored along the way (the final score alone may be 0:0 after a round won):
    # the comparison above is of matches in which the cells' readings counted
    assert scoring_shots(healthy.rig.match.rules, healthy.rig.match.setup,
                         healthy.rig.intended) > 0


def scoring_shots(rules: Rules, setup: Setup, shots: list[ShotEvent]) -> int:
    """Shots after which a player had more points, or had won a round."""
    match = Match(rules, setup)
    scoring = 0
    for shot in shots:
        points, rounds = match.state.score, match.state.round_wins
        match.apply(shot)
        after = match.state
        scoring += any(after.score[p] > points[p] or after.round_wins[p] > rounds[p]
                       for p in after.score)
    return scoring
