"""Issue 36: a referee's step and a skitt landing are judged in the order they happened.

Ann (black) is due. Her skitt lands on Bo's yellow while the referee taps "turn ended, no
change" a little before or after it. Whatever the offset, no shot is scored for a player
who did not make it, the skitt is never swallowed, and no sensor is called stuck: the
landing is Ann's shot when it came first, Bo's when it came clearly after the tap, and when
the two cannot be told apart the referee is asked, naming both players.

A shot made during a restore, and a change made while the referee is asked a full field's
count, are scored or asked about, never held until a cell is called stuck.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from order_rig import OrderRig

from firmware_bridge.profile import load_profile
from scorekeeper.events import parse_event
from web.table.errors import Stale
from web.table.order import UNORDERED_S

YELLOW = "white.yellow"  # Bo's yellow: where Ann's skitt lands


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[OrderRig]:
    rig = OrderRig.open(tmp_path)
    try:
        yield rig
    finally:
        rig.close()


def tap_and_land(rig: OrderRig, tap_ms: int, *, roll_ms: int = 0) -> None:
    """Ann's skitt comes down at 0 ms; the referee taps "turn ended" at ``tap_ms``.
    ``roll_ms``: the skitt first rolls over a cell of Bo's red for 40 ms, and lands on his
    yellow ``roll_ms`` later."""
    red = rig.table.sensing.profile.fields["white.red"].cells[0]  # type: ignore[union-attr]
    moments = sorted([(0, "land" if not roll_ms else "over"), (tap_ms, "tap")]
                     + ([(40, "off"), (roll_ms, "land")] if roll_ms else []))
    now = 0
    for at, what in moments:
        rig.run((at - now) / 1000)
        now = at
        if what == "land":
            rig.land(YELLOW)
        elif what == "over":
            rig.table.on_simulator(lambda sim: sim.magnet_arrives(red))
        elif what == "off":
            rig.table.on_simulator(lambda sim: sim.magnet_leaves(red))
        else:
            rig.turn_ended()
    rig.wait_out()


@pytest.mark.parametrize("tap_ms", [-100, -40, 0, 60, 120])
def test_a_tap_the_sensors_cannot_order_against_a_landing_is_asked_in_names(
    rig: OrderRig, tap_ms: int
) -> None:
    tap_and_land(rig, tap_ms)
    assert rig.shots() in ([], [{"by": "black", "delta": {}}]), rig.shots()  # nothing guessed
    status = rig.table.snapshot()
    order = status["tracker"]["order"]
    assert order is not None, status["tracker"]
    assert order["landed"]["by"] == "black" and order["next"] == "white"
    asked = status["words"]["question"]
    assert asked["text"] == ("Ann's skitt landed on Bo's yellow as you pressed 'turn ended': "
                             "score it for Ann, or is it Bo's shot?")
    assert [c["label"] for c in asked["choices"]] == ["Score it for Ann", "Bo's shot"]
    assert {"kind": "order", "message": asked["text"]} in status["alerts"]
    assert rig.flags() == []


@pytest.mark.parametrize("tap_ms", [200, 240])
def test_a_tap_decided_before_ann_s_shot_was_shown_is_stale_never_bo_s_shot(
    rig: OrderRig, tap_ms: int
) -> None:
    """A skitt that simply lands is read as soon as it has outlasted the longest pass, so a
    tap 200 ms after it comes once Ann's shot is scored and shown: the referee decided on
    the board before it, and the tap carries that state. It is refused as stale (the page
    says what changed), never taken as Bo's "turn ended"."""
    seen = rig.table.snapshot()["seq"]
    rig.land(YELLOW)
    rig.run(tap_ms / 1000)
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]
    with pytest.raises(Stale):
        rig.table.writer.submit(lambda: (rig.table.check_seq(seen), rig.turn_ended())) \
            .result(timeout=10)
    rig.wait_out()
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]
    assert rig.table.snapshot()["state"]["turn"] == "white"
    assert rig.flags() == []


@pytest.mark.parametrize("tap_ms", [280, 300])
def test_a_tap_while_an_earlier_landing_settles_leaves_it_ann_s_shot(
    rig: OrderRig, tap_ms: int
) -> None:
    """Ann's skitt rolls over Bo's red and lands on his yellow 400 ms later; the referee
    taps "turn ended" as it rolls, clearly after it started moving: it is Ann's shot."""
    assert tap_ms / 1000 > UNORDERED_S
    tap_and_land(rig, tap_ms, roll_ms=400)
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]
    assert len(rig.refusals) == 1 and "Ann" in rig.refusals[0], rig.refusals
    assert rig.table.tracker.mode == "ready"
    assert rig.table.snapshot()["state"]["turn"] == "white"
    assert rig.flags() == []


def test_a_landing_clearly_after_the_tap_is_the_next_player_s_shot(rig: OrderRig) -> None:
    tap_and_land(rig, -round(UNORDERED_S * 1000) - 60)
    assert rig.shots() == [{"by": "black", "delta": {}}, {"by": "white", "delta": {YELLOW: 1}}]
    assert rig.flags() == []


@pytest.mark.parametrize("by, shots", [
    ("black", [{"by": "black", "delta": {YELLOW: 1}}]),
    ("white", [{"by": "black", "delta": {}}, {"by": "white", "delta": {YELLOW: 1}}]),
])
@pytest.mark.parametrize("tap_ms", [-100, 100])
def test_the_referee_s_answer_scores_the_landing_for_the_player_named(
    rig: OrderRig, tap_ms: int, by: str, shots: list[dict[str, object]]
) -> None:
    tap_and_land(rig, tap_ms)
    rig.table.settle_order(by)
    rig.run(1.0)
    assert rig.shots() == shots
    assert rig.table.tracker.mode == "ready", rig.table.tracker.status()
    assert rig.table.snapshot()["tracker"]["order"] is None


def test_a_shot_during_a_restore_is_asked_about_never_called_stuck(rig: OrderRig) -> None:
    """After a correction the board must lose two skitts from Bo's red; one is taken off,
    then Ann shoots onto Bo's empty yellow before the second is taken off too."""
    table = rig.table
    table.apply_step({"correct": {"board": {"white.red": 2}, "reason": "seen"}})
    table.lay_out()
    rig.run(1.0)
    assert table.tracker.mode == "ready", table.tracker.status()
    table.apply_step({"correct": {"board": {"white.red": 0}, "reason": "seen"}})
    rig.run(1.0)
    assert table.tracker.mode == "restore", table.tracker.status()
    assert table.sensing is not None and table.sensing.simulator is not None
    table.on_simulator(lambda sim: sim.remove_skitt("white.red"))
    rig.run(0.1)
    rig.land(YELLOW)
    rig.run(0.5)
    table.on_simulator(lambda sim: sim.remove_skitt("white.red"))  # the restore is done
    rig.wait_out()
    assert rig.flags() == []
    status = table.tracker.status()
    assert status.mode == "review", status
    assert "looks like black's shot" in status.message, status.message
    # the referee scores it: the yellow skitt is Ann's
    table.accept_board()
    assert rig.shots()[-1] == {"by": "black", "delta": {YELLOW: 1}}


def test_a_change_while_a_full_field_is_asked_is_asked_about_once_answered(
    rig: OrderRig,
) -> None:
    table = rig.table
    cap = load_profile().fields["white.blue"].capacity
    table.apply_step({"correct": {"board": {"white.blue": cap - 1}, "reason": "seen"}})
    table.lay_out()
    rig.run(1.0)
    assert table.tracker.mode == "ready", table.tracker.status()
    rig.land("white.blue")  # Ann fills Bo's blue: how many did she add?
    rig.run(1.0)
    assert table.tracker.mode == "question", table.tracker.status()
    rig.land("black.yellow")  # meanwhile a skitt lands on Ann's yellow
    rig.run(1.0)
    table.answer("white.blue", 1)
    rig.run(1.0)
    assert rig.shots() == [{"by": "black", "delta": {"white.blue": 1}}]
    status = table.tracker.status()
    assert status.mode == "review", status
    assert "looks like white's shot" in status.message, status.message
    table.accept_board()
    assert rig.shots()[-1] == {"by": "white", "delta": {"black.yellow": 1}}
    rig.wait_out()
    assert rig.flags() == []


@pytest.mark.parametrize("tap_ms", [-100, 0, 120])
def test_big_skitt_missed_tapped_as_it_lands_on_its_spot_is_asked_never_bo_s(
    tmp_path: Path, tap_ms: int
) -> None:
    """The tablet's "big skitt missed" for Ann as her big skitt lands on its spot: never a
    phantom "Bo's big skitt missed", never a restore asking to take Ann's big skitt off."""
    rig = OrderRig.open(tmp_path, big_in_hand=True)
    try:
        table = rig.table
        assert table.sensing is not None and table.sensing.simulator is not None
        sim = table.sensing.simulator
        moments = sorted([(0, "land"), (tap_ms, "tap")])
        now = 0
        for at, what in moments:
            rig.run((at - now) / 1000)
            now = at
            if what == "land":
                table.on_simulator(lambda sim: sim.place_big("black"))
            else:
                table.take_step(parse_event({"shot": {"by": "black", "big": "missed"}}))
        rig.wait_out()
        assert {"by": "white", "big": "missed"} not in rig.shots()
        order = table.snapshot()["tracker"]["order"]
        assert order is not None and order["landed"] == {"by": "black", "big": "placed"}
        table.settle_order("black")
        rig.run(1.0)
        assert rig.shots() == [{"by": "black", "big": "placed"}], rig.shots()
        assert table.tracker.mode == "ready" and sim.snapshot(), table.tracker.status()
        assert rig.flags() == []
    finally:
        rig.close()


def test_a_tap_while_ann_s_shot_waits_to_be_stored_leaves_it_ann_s_shot(
    rig: OrderRig,
) -> None:
    """Ann's skitt has come to rest and her shot waits for the writer (busy with a commit)
    when the referee's "turn ended" reaches it: the landing began well before the tap, so
    it is Ann's shot, stored; the tap is refused, and nothing goes to the referee."""
    job = rig.sensed_waiting_for_the_writer(YELLOW)
    rig.clock.advance(UNORDERED_S)  # the tap comes well after the landing began
    press = rig.turn_ended_while_busy()
    rig.free_the_writer(job, press)
    rig.wait_out()
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]
    assert len(rig.refusals) == 1 and "Ann" in rig.refusals[0], rig.refusals
    assert rig.table.tracker.mode == "ready", rig.table.tracker.status()
    assert rig.table.snapshot()["state"]["turn"] == "white"
    assert rig.flags() == []


def late_tap_as_ann_s_skitt_lands(rig: OrderRig) -> None:
    """The referee taps "turn ended" 50 ms after Ann's skitt came down, but the tap reaches
    the table only after her shot was stored (the owner was busy)."""
    landed_at = rig.clock.now()
    job = rig.sensed_waiting_for_the_writer(YELLOW)
    press = rig.turn_ended_while_busy(pressed_at=landed_at + 0.05)
    rig.free_the_writer(job, press)
    rig.wait_out()


def test_a_tap_pressed_as_ann_s_skitt_landed_and_reaching_the_writer_late_is_asked(
    rig: OrderRig,
) -> None:
    """The tap was pressed as the skitt landed, but reaches the table only after the
    landing was stored as Ann's shot: the referee is asked whose shot it is, and Bo's
    answer takes the stored shot back."""
    late_tap_as_ann_s_skitt_lands(rig)
    assert rig.refusals == []
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]  # as it reached the table
    order = rig.table.snapshot()["tracker"]["order"]
    assert order is not None and order["landed"]["by"] == "black", rig.table.tracker.status()
    rig.table.settle_order("white")
    rig.run(1.0)
    assert rig.shots() == [{"by": "black", "delta": {}}, {"by": "white", "delta": {YELLOW: 1}}]
    assert rig.flags() == []


def test_a_tap_pressed_clearly_before_a_landing_but_reaching_the_table_after_it_stands(
    rig: OrderRig,
) -> None:
    """The referee pressed "turn ended" for Ann 300 ms before a skitt came down, but the
    tap reaches the table while that skitt is still settling (the writer was busy). The
    tap stands as pressed, and the landing is Bo's shot, judged after it."""
    pressed_at = rig.clock.now()
    rig.run(0.3)
    rig.land(YELLOW)
    rig.run(0.1)
    rig.table.no_change(pressed_at=pressed_at)
    rig.wait_out()
    assert rig.shots() == [{"by": "black", "delta": {}}, {"by": "white", "delta": {YELLOW: 1}}]
    assert rig.table.tracker.mode == "ready", rig.table.tracker.status()
    assert rig.flags() == []


def test_turn_ended_waits_for_a_board_that_keeps_moving_a_second_at_most(
    rig: OrderRig,
) -> None:
    """A skitt rocks on the edge of Bo's yellow, its cell flickering for three seconds, as
    the referee taps "turn ended": the tap waits for the board to come to rest, but not for
    ever; a second later it stands, and Ann's turn is over while the skitt still rocks."""
    table = rig.table
    assert table.sensing is not None
    cell = table.sensing.profile.fields[YELLOW].cells[0]

    def rock(seconds: float) -> None:  # the cell turns on and off every 100 ms
        for _ in range(round(seconds / 0.1)):
            on = cell in table.sensing.simulator.snapshot()
            table.on_simulator(lambda sim, on=on: sim.magnet_leaves(cell) if on
                               else sim.magnet_arrives(cell))
            rig.run(0.1)

    rock(0.2)
    rig.turn_ended()
    assert table.watch.waiting_press()
    rock(0.6)
    assert rig.shots() == [], "the tap waits while the board moves"
    rock(0.6)
    assert rig.shots() == [{"by": "black", "delta": {}}]
    assert table.sensing.pipeline.moving_since() is not None, "the skitt still rocks"
    rock(1.0)
    if cell in table.sensing.simulator.snapshot():  # it comes off the yellow in the end
        table.on_simulator(lambda sim: sim.magnet_leaves(cell))
    rig.wait_out()
    assert rig.shots() == [{"by": "black", "delta": {}}]
    assert table.tracker.mode == "ready", table.tracker.status()
    assert rig.flags() == []


def test_a_late_tap_answered_as_ann_s_shot_leaves_her_stored_shot_and_asks_nothing_more(
    rig: OrderRig,
) -> None:
    """The tap pressed as Ann's skitt landed reaches the table after her shot was stored;
    the referee answers that it was Ann's shot: it stands as stored, the tap is dropped, and
    the board is ready for Bo."""
    late_tap_as_ann_s_skitt_lands(rig)
    assert rig.table.snapshot()["tracker"]["order"] is not None
    rig.table.settle_order("black")
    rig.run(1.0)
    assert rig.shots() == [{"by": "black", "delta": {YELLOW: 1}}]
    status = rig.table.snapshot()
    assert status["tracker"]["order"] is None and status["words"]["question"] is None
    assert rig.table.tracker.mode == "ready", rig.table.tracker.status()
    assert status["state"]["turn"] == "white"
    assert rig.flags() == []
