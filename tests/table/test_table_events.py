"""Events, not JSON, through the table: a step is parsed once at the edge, the match and its
log hold that event, and JSON is made where a step is stored or sent."""

from __future__ import annotations

from pathlib import Path

import pytest

import scorekeeper.events
from scorekeeper.clock import FakeClock
from scorekeeper.events import Shot, ShotEvent
from scorekeeper.store import MatchStore
from web.table.table import Table

CENTER = {"black": "center", "white": "center"}


@pytest.fixture
def table(tmp_path: Path):
    clock = FakeClock(100.0)
    t = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock)
    t.new_match({}, {"first": "black", "big": CENTER}, {"black": "Ann", "white": "Bo"}, {})
    yield t
    t.close()


def test_an_event_goes_through_the_table_as_it_is(table: Table) -> None:
    event = ShotEvent(Shot(by="black", delta={"white.red": 1}))
    table.apply_step(event, source="sensor")
    assert table.match.events[-1] is event
    assert table.log.entries[-1].event is event
    with MatchStore(table.store.path) as store:
        assert store.load(table.match_id).events[-1].body == event.to_json()


def test_a_pages_step_is_parsed_once(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    parse_shot = scorekeeper.events.parse_shot

    def counting(obj: object) -> Shot:
        calls.append(obj)
        return parse_shot(obj)

    monkeypatch.setattr(scorekeeper.events, "parse_shot", counting)
    table.apply_step({"shot": {"by": "black", "delta": {"white.red": 1}}})
    assert len(calls) == 1
    assert table.full_log()[-1]["text"] == "black's shot"


def test_the_trackers_proposal_is_the_event_the_match_takes(table: Table) -> None:
    table.no_change()
    (event,) = table.match.events
    assert event == ShotEvent(Shot(by="black")) and table.log.entries[-1].event is event


def test_the_log_asks_the_match_what_an_undo_took_back(table: Table) -> None:
    table.apply_step({"shot": {"by": "black", "delta": {}}})
    table.apply_step({"shot": {"by": "white", "delta": {}}})
    table.apply_step({"undo": True})
    assert [e["undone"] for e in table.full_log()] == [False, True, False]
    assert table.log.last_standing() is table.log.entries[0]
    table.amend_last_shot({"off_board": 1})
    assert [e["undone"] for e in table.full_log()] == [True, True, False, False, False]
    assert table.log.last_standing() is table.log.entries[-1]
    assert table.log.entries[-1].event.shot.off_board == 1


def test_a_correction_reason_is_checked_by_one_rule_whoever_sends_it(table: Table) -> None:
    """The hub's referee reaches the table over MQTT, past the API's checks: a reason too
    long or holding control characters is refused there as on the tablet; a person's
    correction needs one, the board's own (``board_as_sensed``) says its own."""
    from web.table.errors import Refused

    score = {"black": 1}
    for reason, why in (("x" * 501, "longer than 500"), ("slip\x07", "control character")):
        with pytest.raises(Refused, match=why) as refused:
            table.apply_step({"correct": {"score": score, "reason": reason}}, source="hub")
        assert refused.value.field == "correct.reason"
    with pytest.raises(Refused, match="needs a reason"):
        table.apply_step({"correct": {"score": score, "reason": "  "}})
    table.apply_step({"correct": {"score": score}}, source="hub")
    assert table.match.state.score["black"] == 1
