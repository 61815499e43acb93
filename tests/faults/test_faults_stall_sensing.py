"""A disk that stalls does not stop sensing, and downloads answer from what was committed.

The app runs as ``skitter serve`` runs it: its own polling loop on a real clock (short
debounce and settle windows, so a test takes a second or two), on the simulated board or on
an emulated microcontroller behind a pty. While a step waits on the stalled disk, the board
is still read: taps on the virtual board answer, the sensors' view and the link are
published. A shot sensed during the stall is stored once when the disk answers, and the
next shot, made while the first still waited, is judged against the match the first one
left, never against the one before. The log's downloads answer during the stall with the
committed steps only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from emulation.mcu import EmulatedMcu
from fastapi.testclient import TestClient
from stall_rig import WAIT_S, StallingDisk, answered, events_stored, in_thread
from waiting import wait_until
from web_helpers import PIN, logged_in, run_for, state, step

from firmware_bridge.clocks import MonotonicClock, WallClock
from firmware_bridge.profile import load_profile
from scorekeeper.clock import FakeClock
from scorekeeper.events import parse_event
from web.api.app import create_app
from web.api.deps import Auth
from web.table import feed
from web.table.table import Table
from web.table.wiring import open_table
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore

PROFILE = load_profile()
BIG = {"player": "black", "on": True}
"""A tap on the virtual board: black's big skitt lands on its spot (black is due to)."""


@pytest.fixture
def disk() -> StallingDisk:
    return StallingDisk()


@pytest.fixture
def referee(make_client: Callable[..., TestClient], disk: StallingDisk) -> TestClient:
    """The referee's client on a table whose match log lies on ``disk``."""
    return logged_in(make_client(connect=disk.connect))


@contextmanager
def serving(tmp_path: Path, disk: StallingDisk, spec: str = "sim") -> Iterator[TestClient]:
    """The app with its polling loop running, its match log on ``disk``, logged in as the
    referee."""
    clock = MonotonicClock()
    broadcaster = Broadcaster()
    table = open_table(tmp_path / "skitter.db", spec, clock=clock, wall=WallClock(),
                       settle_ms=60, debounce_ms=10, publish=broadcaster.publish,
                       connect=disk.connect)
    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    app = create_app(table, Auth.create(pins, clock), broadcaster, poll_interval=0.02)
    try:
        with TestClient(app) as c:
            assert c.post("/api/referee/login", json={"pin": PIN}).status_code == 200
            yield c
    finally:
        table.close()


def table_of(client: TestClient) -> Table:
    return client.app.state.table  # type: ignore[attr-defined, no-any-return]


def published(client: TestClient) -> dict[str, Any]:
    """What the WebSockets were last sent."""
    return client.app.state.broadcaster.latest  # type: ignore[attr-defined, no-any-return]


def until(done: Callable[[], bool], what: str) -> None:
    wait_until(done, what, timeout=WAIT_S)


def polled_at_rest(table: Table) -> None:
    """The board has come to rest (every reading is due) and the sensing thread has polled
    since: whatever it read is queued or judged, and a shot it concluded is with the writer."""
    until(lambda: table.seconds_to_rest() is None, "the board at rest")
    table.feed.thread.submit(table.poll).result(timeout=WAIT_S)


@contextmanager
def stalled_disk(disk: StallingDisk) -> Iterator[StallingDisk]:
    """The store stalls every step until the block ends (or a safety timer does)."""
    stalling = disk.stall()
    safety = threading.Timer(4 * WAIT_S, stalling.released.set)
    safety.start()
    try:
        yield stalling
    finally:
        stalling.released.set()
        safety.cancel()


def test_taps_and_the_sensor_view_stay_live_while_a_step_waits_on_the_disk(
    tmp_path: Path, disk: StallingDisk,
) -> None:
    with serving(tmp_path, disk) as client:
        table = table_of(client)
        until(lambda: state(client)["tracker"]["mode"] == "ready", "the board is ready")
        with stalled_disk(disk):
            poster, posted = in_thread(
                lambda: step(client, {"shot": {"by": "black", "big": "missed"}}))
            assert disk.reached.wait(WAIT_S)
            tap = answered(lambda: client.post("/api/board/big", json=BIG))
            assert tap.status_code == 200, tap.text
            assert tap.json()["virtual"]["big"]["black"] is True
            until(lambda: published(client)["sensors"]["active"] != [],
                  "the sensors' view shows the big skitt")
            assert state(client)["log_length"] == 0  # the step still waits on the disk
            assert not disk.released.is_set()
        poster.join(WAIT_S)
        assert posted["result"].status_code == 200, posted["result"].text
        # The step is stored first. The tap's reading is judged after it: on a loaded machine
        # it has been read once as white's next shot (CI, 2026-12-02); what that reading
        # should mean is an open question, not this test's.
        assert events_stored(table)[0] == {"shot": {"by": "black", "big": "missed"}}


def test_a_shot_sensed_during_a_stall_is_stored_once_and_the_next_is_judged_after_it(
    tmp_path: Path, disk: StallingDisk,
) -> None:
    with serving(tmp_path, disk) as client:
        table = table_of(client)
        until(lambda: state(client)["tracker"]["mode"] == "ready", "the board is ready")
        with stalled_disk(disk):
            assert answered(lambda: client.post("/api/board/big", json=BIG)).status_code == 200
            assert disk.reached.wait(WAIT_S), "the sensed shot did not reach the disk"
            # white shoots while black's shot still waits: its reading settles meanwhile
            white = answered(lambda: client.post(
                "/api/board/big", json={"player": "white", "on": True}))
            assert white.status_code == 200, white.text
            until(lambda: len(published(client)["sensors"]["active"]) == 2,
                  "both big skitts are seen")
            polled_at_rest(table)  # white's reading is due, and was read
            assert state(client)["log_length"] == 0
        until(lambda: state(client)["log_length"] == 2, "both shots are stored")
        until(lambda: state(client)["tracker"]["mode"] == "ready", "the board is ready")
        now = state(client)
        assert events_stored(table) == [
            {"shot": {"by": "black", "big": "placed"}},
            {"shot": {"by": "white", "big": "placed"}},
        ]
        assert [e["source"] for e in table.full_log()] == ["sensor", "sensor"]
        assert now["state"]["turn"] == "black"
        # nothing more: no reading is judged twice (a poll at rest, then the writer idle)
        polled_at_rest(table)
        table.writer.submit(lambda: None).result(timeout=WAIT_S)
        assert events_stored(table) == [
            {"shot": {"by": "black", "big": "placed"}},
            {"shot": {"by": "white", "big": "placed"}},
        ]


def test_the_link_going_down_and_back_is_published_while_a_step_waits_on_the_disk(
    tmp_path: Path, disk: StallingDisk,
) -> None:
    port = tmp_path / "ttyACM-skitter"
    mcu = EmulatedMcu(port, cells=PROFILE.cells)
    stop_beating = threading.Event()

    def heartbeats() -> None:  # the firmware's state frames, every 0.1 s; silence: link down
        while True:
            mcu.heartbeat()
            if stop_beating.wait(0.1):
                return

    beat = threading.Thread(target=heartbeats, daemon=True)
    beat.start()
    try:
        with serving(tmp_path, disk, f"serial:{port}") as client:
            table = table_of(client)
            until(lambda: published(client)["link"]["up"], "the link is up")
            with stalled_disk(disk):
                poster, posted = in_thread(
                    lambda: step(client, {"shot": {"by": "black", "big": "missed"}}))
                assert disk.reached.wait(WAIT_S)
                mcu.unplug()
                until(lambda: not published(client)["link"]["up"], "the link is down")
                # shown by the sensing thread; the owner hears of it in order once the
                # step it waits on is stored
                assert any(a["kind"] == "link" for a in published(client)["alerts"])
                mcu.plug()
                until(lambda: published(client)["link"]["up"], "the link is back")
                assert not disk.released.is_set()
            poster.join(WAIT_S)
            assert posted["result"].status_code == 200, posted["result"].text
            assert events_stored(table) == [{"shot": {"by": "black", "big": "missed"}}]
    finally:
        stop_beating.set()
        beat.join(1.0)
        mcu.close()


def test_the_log_downloads_answer_from_what_was_committed_during_a_stall(
    referee: TestClient, fake_clock: FakeClock, disk: StallingDisk,
) -> None:
    table = table_of(referee)
    run_for(referee, fake_clock, 1.0)
    assert referee.post("/api/board/big", json=BIG).status_code == 200
    run_for(referee, fake_clock, 1.0)
    assert state(referee)["log_length"] == 1  # a sensed shot, with its timeline
    with stalled_disk(disk):
        poster, _ = in_thread(lambda: step(referee, {"shot": {"by": "white", "big": "missed"}}))
        assert disk.reached.wait(WAIT_S)
        log, jsonl, csv, review, review_file, matches = answered(lambda: [
            referee.get(path) for path in (
                "/api/match/log", "/api/match/log.jsonl", "/api/match/log.csv",
                "/api/match/log/1/review", "/api/match/log/1/review-file", "/api/matches")
        ])
        for got in (log, jsonl, csv, review, review_file, matches):
            assert got.status_code == 200, got.text
        assert [e["step"] for e in log.json()["entries"]] == [
            {"shot": {"by": "black", "big": "placed"}}]
        lines = jsonl.text.splitlines()
        assert len(lines) == 2 and '"placed"' in lines[1] and '"timeline"' in lines[1]
        assert len(csv.text.strip().splitlines()) == 2  # the header and the committed step
        assert review.json()["frames"] and review_file.json()["timeline"]
        assert matches.json()[0]["events"] == 1
    poster.join(WAIT_S)
    assert len(events_stored(table)) == 2


def test_a_landing_after_a_tablet_s_step_that_waits_on_the_disk_is_judged_after_it(
    tmp_path: Path, fake_clock: FakeClock
) -> None:
    """Issue 36: the tablet's "black's big skitt missed" reaches the owner first and waits
    on the disk; black's big skitt comes down on its spot as it was pressed. The landing is
    judged after the step, ordered against the moment it was pressed: too close to tell,
    so the referee is asked whose shot it was; never a phantom shot of white's, never "not
    recorded"."""
    table = open_table(tmp_path / "skitter.db", "sim", clock=fake_clock, wall=fake_clock)
    try:
        for _ in range(50):
            fake_clock.advance(0.02)
            table.tick()
        assert table.tracker.mode == "ready", table.tracker.status()
        busy = threading.Event()
        table.writer.submit(busy.wait, WAIT_S)  # the owner is held up, e.g. by the disk
        tablet = table.writer.submit(  # as the server takes a tablet's step
            table.take_step, parse_event({"shot": {"by": "black", "big": "missed"}}),
            pressed_at=fake_clock.now())
        assert table.sensing is not None and table.sensing.simulator is not None
        table.feed.thread.submit(table.sensing.simulator.place_big, "black").result(WAIT_S)
        jobs: list[Any] = []
        for _ in range(50):
            fake_clock.advance(0.02)
            jobs += table.feed.thread.submit(table.poll).result(WAIT_S)
        assert jobs, "the landing was sent to the owner"
        busy.set()
        tablet.result(WAIT_S)
        for job in jobs:
            job.result(WAIT_S)
        assert events_stored(table) == [{"shot": {"by": "black", "big": "missed"}}]
        order = table.snapshot()["tracker"]["order"]
        assert order is not None and order["landed"] == {"by": "black", "big": "placed"}
        assert "not recorded" not in table.snapshot()["tracker"]["message"]
        table.settle_order("black")  # it was black's big skitt, placed
        assert events_stored(table)[-1] == {"shot": {"by": "black", "big": "placed"}}
    finally:
        table.close()


def test_more_readings_than_can_wait_send_the_board_to_the_referee(
    tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judging only the newest of many waiting readings could merge two shots into one:
    when readings would be dropped, the referee decides instead."""
    monkeypatch.setattr(feed, "QUEUE_LIMIT", 3)
    table = open_table(tmp_path / "skitter.db", "sim", clock=fake_clock, wall=fake_clock)

    def run(seconds: float) -> None:
        for _ in range(round(seconds / 0.02)):
            fake_clock.advance(0.02)
            table.tick()

    try:
        run(1.0)
        assert table.tracker.mode == "ready", table.tracker.status()
        assert table.sensing is not None and table.sensing.simulator is not None
        sim = table.sensing.simulator
        busy = threading.Event()
        table.writer.submit(busy.wait, WAIT_S)  # as while a step waits on the disk
        jobs: list[Any] = []
        for i in range(5):  # five settled readings: black's big skitt on, off, on, ...
            (sim.place_big if i % 2 == 0 else sim.remove_big)("black")
            for _ in range(50):
                fake_clock.advance(0.02)
                jobs += table.feed.thread.submit(table.poll).result(WAIT_S)
        assert table.tracker.mode == "ready"  # nothing judged yet
        busy.set()
        for job in jobs:
            job.result(WAIT_S)
        run(0.1)
        assert table.tracker.mode == "review", table.tracker.status()
        assert "changed too often" in table.snapshot()["tracker"]["message"]
        assert events_stored(table) == []
    finally:
        table.close()


def test_an_undo_waiting_on_the_disk_takes_nothing_back_in_the_downloads_yet(
    referee: TestClient, disk: StallingDisk,
) -> None:
    """The live match takes a step before the disk does: the downloads read the log as
    committed, so a shot is shown struck through only once its undo is stored."""
    assert step(referee, {"shot": {"by": "black", "big": "placed"}}).status_code == 200
    with stalled_disk(disk):
        poster, posted = in_thread(lambda: step(referee, {"undo": True}))
        assert disk.reached.wait(WAIT_S)
        log = answered(lambda: referee.get("/api/match/log")).json()
        assert [(e["kind"], e["undone"]) for e in log["entries"]] == [("shot", False)]
        review = answered(lambda: referee.get("/api/match/log/1/review")).json()
        assert review["can_amend"] is True
    poster.join(WAIT_S)
    assert posted["result"].status_code == 200, posted["result"].text
    log = referee.get("/api/match/log").json()
    assert [(e["kind"], e["undone"]) for e in log["entries"]] == [("shot", True), ("undo", False)]


def test_a_sensed_shot_reaches_the_screens_in_one_snapshot_holding_the_shot(
    tmp_path: Path, fake_clock: FakeClock
) -> None:
    """The step that hands a shot to the writer publishes nothing itself: the writer's
    snapshot after the commit is the one the screens get (a sensing snapshot first would
    keep the event loop busy sending it to every screen while the shot is stored: that
    doubled the server's part of the sensor-to-screen latency at 200 screens). With the
    owner held up, the board is shown live all the same."""
    sent: list[dict[str, Any]] = []
    table = open_table(tmp_path / "skitter.db", "sim", clock=fake_clock, wall=fake_clock,
                       publish=sent.append)
    try:
        for _ in range(50):
            fake_clock.advance(0.02)
            table.tick()
        assert table.sensing is not None and table.sensing.simulator is not None
        feed = table.feed
        table.sensing.simulator.place_big("black")
        jobs: list[Any] = []
        sent_readings = feed.sent
        while feed.sent == sent_readings:  # until the settled reading goes to the owner
            fake_clock.advance(0.02)
            before = len(sent)
            jobs = table.poll()
        jobs[0].result(WAIT_S)
        after = sent[before:]
        assert [s["log_length"] for s in after] == [1], [s["tracker"] for s in after]

        busy = threading.Event()
        table.writer.submit(busy.wait, WAIT_S)  # the disk holds the writer up
        mark = len(sent)
        table.sensing.simulator.place_big("white")
        sent_readings = feed.sent
        while feed.sent == sent_readings:
            fake_clock.advance(0.02)
            jobs = table.poll()
        fake_clock.advance(0.02)
        table.poll()
        live = sent[mark:]  # the board shown live while the owner waits on the disk
        assert any(s["virtual"]["big"]["white"] for s in live), [s["virtual"] for s in live]
        assert all(s["log_length"] == 1 for s in live)
        busy.set()
        jobs[0].result(WAIT_S)
        assert sent[-1]["log_length"] == 2
    finally:
        table.close()
