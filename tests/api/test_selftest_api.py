"""The self-test on the referee's API: sensing paused for it, cells fed from the table's own
polling, a stale skip refused, the sheet kept and nothing scored."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import run_for, state

from scorekeeper.clock import FakeClock
from web.table import selftest_record


def sim(client: TestClient) -> Any:
    return client.app.state.table.sensing.simulator  # type: ignore[attr-defined]


def test_a_start_or_a_stop_on_an_old_view_of_the_self_test_is_refused(
        referee: TestClient) -> None:
    # Two referees look at the page (no walk yet, run 0); the first starts it.
    assert referee.post("/api/referee/selftest/start", json={"run": 0}).status_code == 200
    again = referee.post("/api/referee/selftest/start", json={"run": 0})
    assert again.status_code == 409
    assert again.json()["detail"].startswith("someone else started or stopped the self-test")
    assert again.json()["selftest"]["running"] is True and again.json()["selftest"]["run"] == 1
    assert referee.post("/api/referee/selftest/start", json={}).status_code == 422
    # The first stops it and starts walk 2; the second's stop, meant for walk 1, is refused.
    assert referee.post("/api/referee/selftest/stop", json={"run": 1}).status_code == 200
    assert referee.post("/api/referee/selftest/start", json={"run": 1}).status_code == 200
    late = referee.post("/api/referee/selftest/stop", json={"run": 1})
    assert late.status_code == 409 and late.json()["selftest"]["running"] is True
    assert referee.post("/api/referee/selftest/stop", json={}).status_code == 422
    stopped = referee.post("/api/referee/selftest/stop", json={"run": 2})
    assert stopped.status_code == 200 and stopped.json()["running"] is False


def test_a_walk_from_the_referee_page(referee: TestClient, fake_clock: FakeClock) -> None:
    before = state(referee)
    assert referee.get("/api/selftest").json()["running"] is False
    started = referee.post("/api/referee/selftest/start", json={"run": 0})
    assert started.status_code == 200, started.text
    view = started.json()
    assert view["running"] and view["walk"]["step"]["key"] == "black.red"
    assert state(referee)["sensing"]["paused"] is True
    assert referee.post("/api/referee/selftest/start", json={"run": 1}).status_code == 422

    board = sim(referee)
    for cell in view["walk"]["step"]["cells"]:  # the first field, every cell on and off
        board.magnet_arrives(cell)
        run_for(referee, fake_clock, 0.1)
        board.magnet_leaves(cell)
        run_for(referee, fake_clock, 0.1)
    view = referee.get("/api/selftest").json()
    walk = view["walk"]
    assert walk["step"]["key"] == "black.yellow" and walk["steps"][0]["done"]
    assert walk["cells"]["0"]["result"] == "answered"

    # two referees: the second skip was meant for the step the first one left
    run = view["run"]
    skip = {"run": run, "step": 1}
    assert referee.post("/api/referee/selftest/skip", json=skip).status_code == 200
    stale = referee.post("/api/referee/selftest/skip", json={"run": run, "step": 1})
    assert stale.status_code == 409
    assert stale.json()["selftest"]["walk"]["step"]["index"] == 2

    stopped = referee.post("/api/referee/selftest/stop", json={"run": 1}).json()
    assert stopped["running"] is False
    last = stopped["last"]
    assert last["passed"] is False and last["complete"] is False
    rows = {r["item"]: r for r in last["rows"]}
    # the second field's step was skipped before anyone tried it: its cells are skipped,
    # not faults
    assert rows["cell 0"]["passed"] and rows["cell 4"]["result"] == "skipped"
    assert rows["cell 16"]["result"] == "not reached"
    after = state(referee)
    assert after["sensing"]["paused"] is False
    assert after["log_length"] == before["log_length"], "nothing the test placed was scored"
    table = referee.app.state.table  # type: ignore[attr-defined]
    assert selftest_record.load(table.store.path.parent)["date"] == last["date"]


def test_running_it_needs_the_referee(client: TestClient) -> None:
    assert client.post("/api/referee/selftest/start", json={"run": 0}).status_code == 401
    assert client.post("/api/referee/selftest/skip", json={"run": 0, "step": 0}).status_code == 401
    assert client.get("/api/selftest").status_code == 200


def test_the_boards_buttons_are_proven_without_touching_the_match(
    tmp_path: Any, mock_factory: Any,
) -> None:
    """On the referee page's walk the GPIO buttons are steps too; a press goes to the walk,
    never to the match (the undo button undoes nothing meanwhile)."""
    from firmware_bridge.profile import load_profile
    from web.table.controls import HardwareControls
    from web.table.selftest_run import SelfTestRun
    from web.table.wiring import open_table

    clock = FakeClock(0.0)
    table = open_table(tmp_path / "log.db", "sim", clock=clock, wall=clock)
    controls = HardwareControls(table, load_profile().gpio, pin_factory=mock_factory)
    try:
        table.new_match({}, {"first": "black", "big": {"black": "center", "white": "center"}},
                        {}, {})
        controls.poll()
        table.no_change()
        steps_before = len(table.full_log())
        run = SelfTestRun(table, tmp_path, "board-1", date=lambda: "today", controls=controls)
        table.feed.thread.submit(run.start).result(5)
        test = run.test
        assert test is not None
        while test.current is not None and test.current.kind != "button":
            test.skip()
        assert test.current is not None
        first = test.current.key  # e.g. button:black.end_turn
        role, name = first.split(":", 1)[1].split(".")
        pin = load_profile().gpio.buttons[role][name]  # type: ignore[union-attr]
        mock_factory.pin(pin).drive_low()
        mock_factory.pin(pin).drive_high()
        controls.poll()  # on the writer in serve; the press is handed to the sensing thread
        table.feed.thread.submit(lambda: None).result(5)
        assert test.current is None or test.current.key != first
        referee_undo = load_profile().gpio.buttons["referee"]["undo"]  # type: ignore[union-attr]
        mock_factory.pin(referee_undo).drive_low()
        mock_factory.pin(referee_undo).drive_high()
        controls.poll()
        table.feed.thread.submit(lambda: None).result(5)
        assert len(table.full_log()) == steps_before, "no press reached the match"
        sheet = table.feed.thread.submit(run.stop).result(5)
        rows = {r["part"]: r for r in sheet["rows"] if r["item"].startswith("button")}
        assert rows["the referee's undo button"]["result"] == "pressed"
        assert controls.divert is None
    finally:
        controls.close()
        table.close()


def test_a_walk_that_answers_its_last_step_ends_by_itself(tmp_path: Any) -> None:
    from web.table.selftest_run import SelfTestRun
    from web.table.wiring import open_table

    clock = FakeClock(0.0)
    table = open_table(tmp_path / "log.db", "sim", clock=clock, wall=clock)
    try:
        run = SelfTestRun(table, tmp_path, "board-1", date=lambda: "today")
        on_thread = table.feed.thread.submit
        on_thread(run.start).result(5)
        test = run.test
        assert test is not None and table.feed.paused
        sim = table.sensing.simulator  # type: ignore[union-attr]
        for step in test.steps:
            for cell in step.cells:
                for act in (sim.magnet_arrives, sim.magnet_leaves):
                    on_thread(act, cell).result(5)
                    clock.advance(0.05)
                    on_thread(table.poll).result(5)
        on_thread(lambda: None).result(5)  # the end was queued behind the last poll
        assert run.test is None, "nobody had to look for the walk to end"
        assert run.last_sheet is not None and run.last_sheet["passed"] is True
        assert not table.feed.paused
    finally:
        table.close()
