"""A field never fills up silently (issue 24): whole rounds on the reference board.

The reference board counts 14 skitts on a colour field and 20 on the minus field. A round
won on one field by default takes 7 skitts, all counted; here the round asks for 15 points,
so 17 skitts end up on Bo's blue: from the shot that brings it to its capacity on, every
shot goes to the referee, who says with one tap how many skitts it added there. Every
point is scored, the referee is asked exactly while the field is full, and the answers
are stored as sensed shots, which the statistics count like any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from source_rigs import PROFILE, Rig, SerialRig, SimRig, settle
from web_helpers import run_for, state

from firmware_bridge.pipeline import Pipeline
from scorekeeper.clock import FakeClock
from scorekeeper.events import ShotEvent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import Shot
from scorekeeper.store import MatchStore
from web.stats.history import History
from web.table.sensing import Sensing
from web.table.table import Table

BLUE = "white.blue"  # Bo's blue, where Ann scores
CAP = PROFILE.fields[BLUE].capacity
MINUS_CAP = PROFILE.fields["minus"].capacity
TARGET = 15  # points that win the round: 17 skitts on one field


def test_the_reference_board_counts_a_whole_default_round_on_one_field():
    # two skitts open the field, five points win the round: seven skitts, all counted
    assert CAP >= 7 and all(PROFILE.fields[f].capacity >= 7 for f in PROFILE.field_names)
    assert CAP < TARGET + 2 <= Rules().pot  # so this file's long round does fill the field



def test_a_colour_field_counts_its_circle_and_its_ring_and_is_full_only_at_both():
    """Each colour field's fourteen cells (seven in its circle, seven in the ring a cluster
    grows into) tell fourteen skitts apart, one a cell: the count goes on past the circle's
    seven, and the field is full (the referee is asked) only when every cell reads, at 14.
    Asking from seven on would put the round's winning shot of a default round (seven
    skitts on one field) to the referee every time."""
    from firmware_bridge.counts import field_capacities, field_counts
    from firmware_bridge.simulator import SimulatedBoard
    from scorekeeper.reading import BoardReading

    board = SimulatedBoard(PROFILE, FakeClock())
    capacity = field_capacities(PROFILE)
    for name in PROFILE.field_names:
        cells = PROFILE.fields[name].cells
        assert len(set(cells)) == len(cells) == capacity[name], name
        assert capacity[name] == (20 if name == "minus" else 14), name
    for n in range(capacity[BLUE] + 3):
        board.set_count(BLUE, n)
        reading = BoardReading(counts=field_counts(PROFILE, board.snapshot()), at=0.0,
                               capacity=capacity)
        assert reading.count(BLUE) == min(n, 14), n
        assert reading.saturated(BLUE) == (n >= 14), n
        assert board.over(BLUE) == max(0, n - 14), n

# -- through the virtual board (the web API) -----------------------------------------------


def test_a_round_won_on_one_field_of_the_virtual_board(
    referee: TestClient, fake_clock: FakeClock, tmp_path: Path
) -> None:
    client, clock = referee, fake_clock
    s = state(client)
    assert client.post("/api/match/new", json={
        "seq": s["seq"], "points_to_win_round": TARGET, "rounds_to_win_game": 1,
        "first": "black", "names": {"black": "Ann", "white": "Bo"}}).status_code == 200
    run_for(client, clock, 1.0)  # the board is read at rest: ready for the first shot
    for player in ("black", "white"):
        assert client.post("/api/board/big", json={"player": player, "on": True}).is_success
        run_for(client, clock, 1.0)
    on_field, asked, shots = 0, [], 0
    while state(client)["state"]["phase"] == "playing":
        s = state(client)
        shooter = s["state"]["turn"]
        if shooter == "black":  # Ann lands one more skitt on Bo's blue
            assert client.post("/api/board/place", json={"field": BLUE}).is_success
            on_field += 1
        else:  # Bo misses: the flick off his launch spot changes nothing
            assert client.post("/api/board/launch", json={"player": "white"}).is_success
        run_for(client, clock, 1.0)
        shots += 1
        s = state(client)
        full = on_field >= CAP
        assert (s["tracker"]["mode"] == "question") == full, (shots, s["tracker"])
        if full:
            asked.append(shots)
            question = s["words"]["question"]
            who = "Ann" if shooter == "black" else "Bo"
            assert question["field"] == BLUE and question["by"] == shooter
            assert question["text"].startswith("Bo's blue is ")
            assert f"{who}'s" in question["text"]
            assert {"kind": "question", "message": question["alert"]} in s["alerts"]
            added = 1 if shooter == "black" else 0
            assert added in [c["skitts"] for c in question["choices"]]
            answer = client.post("/api/referee/board/answer", json={
                "seq": s["seq"], "field": BLUE, "skitts": added})
            assert answer.status_code == 200, answer.text
            run_for(client, clock, 0.5)
            s = state(client)
        if s["state"]["phase"] != "playing":
            break
        assert s["tracker"]["mode"] == "ready", (shots, on_field, s["tracker"], s["log"][-2:])
        assert s["state"]["board"][BLUE] == on_field
        assert s["state"]["score"]["black"] == max(0, on_field - 2)  # every point scored
        if on_field > CAP:
            assert s["virtual"]["over"] == {BLUE: on_field - CAP}
            assert s["virtual"]["sensed"][BLUE] == CAP
    final = state(client)["state"]
    assert final["phase"] == "game_over" and final["winner"] == "black"
    assert on_field == TARGET + 2
    # asked on the shot that filled the field to its capacity and on every shot after it
    first_full = 2 * (CAP - 1) + 1  # Ann's shots are the odd ones
    assert asked == list(range(first_full, shots + 1))
    log = client.get("/api/match/log").json()["entries"]
    assert [e["source"] for e in log if "shot" in e["step"]] == ["sensor"] * (shots + 2)
    # an answered shot keeps the sensor timeline that raised the question: its review
    # shows the board as the sensors saw it (the launch spot, the full field)
    review = client.get(f"/api/match/log/{log[-1]['seq']}/review").json()
    assert review["source"] == "sensor" and review["file"]["timeline"] is not None
    assert len(review["frames"]) >= 2
    # the statistics count the referee's answers as the sensed shots they are
    (record,) = [r for r in History(tmp_path / "skitter.db").overview().records
                 if r.match_id == state(client)["match_id"]]
    assert record.finished and record.winner == "black"
    big = 1  # each player's big-skitt shot counts too
    assert record.tally["black"].shots == big + on_field
    assert record.tally["black"].points == TARGET
    assert record.tally["white"].shots == big + shots - on_field


# -- through the serial emulator, on the table -----------------------------------------------


class Hands:
    """The physical board under a rig: each shot passes its launch spot, then its skitt
    lands; a field lights one cell per skitt up to its cells, the rest lie unseen."""

    def __init__(self, rig: Rig, table: Table, clock: FakeClock) -> None:
        self.rig, self.table, self.clock = rig, table, clock
        self.on = dict.fromkeys(PROFILE.field_names, 0)

    def step(self, cell: int, present: bool) -> None:
        self.rig.set(cell, present)
        for _ in range(2):
            self.rig.deliver()
            self.table.tick()
            self.clock.advance(0.05)

    def shoot(self, shooter: str, field: str | None) -> None:
        launch = PROFILE.launch[shooter][0]  # type: ignore[index]
        self.step(launch, True)
        self.step(launch, False)
        if field is not None and isinstance(self.rig, SimRig):
            self.rig.sim.place_skitt(field)  # the simulator's own physics of a full field
            self.on[field] += 1
        elif field is not None:
            cells = PROFILE.fields[field].cells
            if self.on[field] < len(cells):
                self.step(cells[self.on[field]], True)
            self.on[field] += 1
        settle(self.table, self.clock, self.rig)

    def place_big(self, player: str) -> None:
        self.step(PROFILE.big[player][0], True)  # type: ignore[index]
        settle(self.table, self.clock, self.rig)


def on_table(rig: Rig, clock: FakeClock, tmp_path: Path, rules: dict[str, Any]) -> Table:
    rig.source.start()
    if isinstance(rig, SerialRig):
        rig.wait_link_up()
    pipeline = Pipeline(PROFILE, clock, initial=rig.source.snapshot())
    table = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock,
                  sensing=Sensing(rig.source, pipeline, PROFILE))
    table.new_match(rules, {"first": "black"}, {"black": "Ann", "white": "Bo"}, {})
    settle(table, clock, rig)
    return table


def answer(table: Table, field: str, skitts: int) -> None:
    """The referee's tap (on the writer, as the web layer runs it)."""
    table.writer.submit(lambda: table.answer(field, skitts)).result()


def test_a_round_won_on_one_field_through_the_serial_emulator(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    rig = SerialRig(clock, tmp_path / "ttyACM-skitter")
    table = on_table(rig, clock, tmp_path, {"points_to_win_round": TARGET,
                                           "rounds_to_win_game": 1})
    try:
        hands = Hands(rig, table, clock)
        for player in ("black", "white"):
            hands.place_big(player)
        intended: list[ShotEvent] = []
        asked = []
        while table.match.state.phase == "playing":
            shooter = table.match.state.turn
            field = BLUE if shooter == "black" else None
            hands.shoot(shooter, field)
            full = hands.on[BLUE] >= CAP
            assert (table.tracker.mode == "question") == full, table.tracker.status()
            added = int(field is not None)
            intended.append(ShotEvent(Shot(by=shooter, delta={BLUE: added} if added else {})))
            if full:
                asked.append(len(intended))
                assert table.tracker.question.open.field == BLUE
                answer(table, BLUE, added)
                settle(table, clock, rig)
            if table.match.state.phase == "playing":
                assert table.tracker.mode == "ready", table.tracker.status()
                assert table.match.state.board[BLUE] == hands.on[BLUE]
        assert table.match.state.winner == "black"
        assert asked == list(range(2 * (CAP - 1) + 1, len(intended) + 1))
        played = [e for e in table.match.events if isinstance(e, ShotEvent)][2:]
        assert played == intended  # every shot as it happened, every point with it
        sources = [e.source for e in table.log.entries]
        assert sources == ["sensor"] * len(table.log.entries)
    finally:
        table.close()
        rig.close()  # type: ignore[attr-defined]


# -- the minus field -------------------------------------------------------------------------


def test_a_pile_up_on_the_minus_field_past_its_capacity_counts_every_penalty(
    tmp_path: Path,
) -> None:
    """Both players keep shooting into the minus field: from its twentieth skitt on the
    sensors cannot count it, and every penalty still lands where the rules put it."""
    clock = FakeClock(10.0)
    rig = SimRig(clock)
    rules = {"points_to_win_round": 15, "pot": 40}
    table = on_table(rig, clock, tmp_path, rules)
    try:
        hands = Hands(rig, table, clock)
        for player in ("black", "white"):
            hands.place_big(player)
        shots = MINUS_CAP + 6
        asked = []
        for n in range(1, shots + 1):
            shooter = table.match.state.turn
            hands.shoot(shooter, "minus")
            if table.tracker.mode == "question":
                asked.append(n)
                assert table.tracker.question.open.field == "minus"
                answer(table, "minus", 1)
                settle(table, clock, rig)
            assert table.tracker.mode == "ready", table.tracker.status()
        assert asked == list(range(MINUS_CAP, shots + 1))
        assert table.match.state.board["minus"] == shots
        assert rig.sim.sensed("minus") == MINUS_CAP and rig.sim.over("minus") == 6
        # the same shots typed in by hand give the same match
        by_hand = Match(Rules.from_json(rules), Setup.from_json({"first": "black"}))
        for event in table.match.events:
            by_hand.apply(event)
        assert by_hand.state == table.match.state
        penalties = [e for e in table.match.events[2:] if isinstance(e, ShotEvent)]
        assert all(e.shot.delta == {"minus": 1} for e in penalties) and len(penalties) == shots
    finally:
        table.close()


# -- the answer over the API -----------------------------------------------------------------


def _full_blue(client: TestClient, clock: FakeClock) -> dict[str, Any]:
    """A match whose Bo's blue the referee has corrected to 14 skitts, its cells full."""
    s = state(client)
    assert client.post("/api/match/new", json={
        "seq": s["seq"], "first": "black", "names": {"black": "Ann", "white": "Bo"}}).is_success
    run_for(client, clock, 1.0)
    for player in ("black", "white"):
        assert client.post("/api/board/big", json={"player": player, "on": True}).is_success
        run_for(client, clock, 1.0)
    s = state(client)
    fix = client.post("/api/match/steps", json={"seq": s["seq"], "step": {"correct": {
        "board": {BLUE: CAP}, "reason": "skitts piled up on Bo's blue"}}})
    assert fix.status_code == 200, fix.text
    assert client.post("/api/board/lay-out", json={"seq": state(client)["seq"]}).is_success
    run_for(client, clock, 1.0)
    assert state(client)["tracker"]["mode"] == "ready"
    return state(client)


def test_the_no_change_button_on_a_full_board_asks_the_referee(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    s = _full_blue(referee, fake_clock)
    r = referee.post("/api/match/no-change", json={"seq": s["seq"]})
    assert r.status_code == 200, r.text
    question = r.json()["words"]["question"]
    assert question["text"] == ("Bo's blue is as full as its sensors can count: did Ann's "
                                "skitt land there?")
    assert [c["label"] for c in question["choices"]] == ["0", "1", "2"]
    assert len(state(referee)["log"]) == len(s["log"])  # nothing recorded yet


def test_an_answer_that_does_not_fit_is_refused_and_changes_nothing(
    client: TestClient, referee: TestClient, fake_clock: FakeClock
) -> None:
    s = _full_blue(referee, fake_clock)
    assert referee.post("/api/board/launch", json={"player": "black"}).is_success
    run_for(referee, fake_clock, 1.0)
    s = state(referee)
    assert s["tracker"]["mode"] == "question"
    body = {"seq": s["seq"], "field": BLUE, "skitts": 1}
    bad = referee.post("/api/referee/board/answer", json={**body, "skitts": 7})
    assert bad.status_code == 422
    assert bad.json()["message"] == "Not possible: expected one of 0, 1, 2, got 7"
    wrong = referee.post("/api/referee/board/answer", json={**body, "field": "minus"})
    assert wrong.status_code == 422
    assert "the question is about white.blue" not in wrong.json()["message"]  # in names
    assert "Bo's blue" in wrong.json()["message"]
    typo = referee.post("/api/referee/board/answer", json={**body, "skitts": "one"})
    assert typo.status_code == 422 and typo.json()["field"] == "skitts"
    assert state(referee)["tracker"]["mode"] == "question"
    referee.post("/api/referee/logout")
    assert client.post("/api/referee/board/answer", json=body).status_code == 401
    assert state(client)["log_length"] == s["log_length"]


def test_an_answer_made_before_the_match_changed_is_stale(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _full_blue(referee, fake_clock)
    assert referee.post("/api/board/launch", json={"player": "black"}).is_success
    run_for(referee, fake_clock, 1.0)
    asked = state(referee)
    undo = referee.post("/api/match/undo", json={"seq": asked["seq"]})  # the other referee
    assert undo.status_code == 200
    late = referee.post("/api/referee/board/answer", json={
        "seq": asked["seq"], "field": BLUE, "skitts": 1})
    assert late.status_code == 409 and "the match changed since" in late.json()["detail"]
    assert state(referee)["words"]["question"] is None  # the match moved: nothing to answer


def test_a_restore_to_more_than_a_field_can_show_never_waits_for_the_sensors(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    """The referee corrects Bo's blue to 17 skitts: the players put them back, and once its
    cells show all they can (14) the board agrees with the match."""
    client, clock = referee, fake_clock
    s = state(client)
    assert client.post("/api/match/new", json={
        "seq": s["seq"], "first": "black", "names": {"black": "Ann", "white": "Bo"}}).is_success
    run_for(client, clock, 1.0)
    for player in ("black", "white"):
        assert client.post("/api/board/big", json={"player": player, "on": True}).is_success
        run_for(client, clock, 1.0)
    s = state(client)
    fix = client.post("/api/match/steps", json={"seq": s["seq"], "step": {"correct": {
        "board": {BLUE: CAP + 3}, "reason": "a pile-up the sensors missed"}}})
    assert fix.status_code == 200, fix.text
    run_for(client, clock, 1.0)
    assert state(client)["tracker"]["mode"] == "restore"
    for n in range(1, CAP + 1):
        assert client.post("/api/board/place", json={"field": BLUE}).is_success
        run_for(client, clock, 1.0)
        mode = state(client)["tracker"]["mode"]
        assert mode == ("ready" if n == CAP else "restore"), (n, state(client)["tracker"])
    s = state(client)
    assert s["state"]["board"][BLUE] == CAP + 3 and s["virtual"]["sensed"][BLUE] == CAP
    assert s["log_length"] == 3  # the two big-skitt shots and the correction: no shot taken
