"""A step from a page is decoded once, at the edge, into the engine's frozen event, and that
event goes inward to the table and the store (issue 41, item 3): no layer reads the step's
dict again, and a correction's reason is checked once, on the event."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import step

import web.table.core
import web_common.schemas
from scorekeeper.events import Correction, Event
from scorekeeper.names import MAX_REASON

pytestmark = pytest.mark.unit

CORRECTION = {"correct": {"score": {"black": 1}, "reason": "seen by both"}}


def test_the_table_is_given_the_decoded_event(referee: TestClient) -> None:
    table: Any = referee.app.state.table  # type: ignore[attr-defined]
    given: list[object] = []
    take = table.take_step

    def spy(event: Event, **kwargs: Any) -> None:
        given.append(event)
        take(event, **kwargs)

    table.take_step = spy
    assert step(referee, CORRECTION).status_code == 200
    assert given == [Correction(score={"black": 1}, reason="seen by both")], given


def test_a_corrections_reason_is_checked_once(referee: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[object] = []

    def counting(real: Any) -> Any:
        def check(*args: Any, **kwargs: Any) -> Any:
            checked.append(args[0])
            return real(*args, **kwargs)
        return check

    monkeypatch.setattr(web.table.core, "check_reason",
                        counting(web.table.core.check_reason))
    monkeypatch.setattr(web_common.schemas, "check_reason_text",  # the bodies' check
                        counting(web_common.schemas.check_reason_text))
    assert step(referee, CORRECTION).status_code == 200
    assert checked == ["seen by both"]


def test_a_step_that_is_not_a_step_is_refused_naming_its_key(referee: TestClient) -> None:
    response = step(referee, {"shot": {"by": "black", "delta": {"white.red": "one"}}})
    assert response.status_code == 422, response.text
    assert response.json()["field"].startswith("shot.delta"), response.json()
    response = step(referee, {"correct": {"score": {"black": 1},
                                          "reason": "x" * (MAX_REASON + 1)}})
    assert response.status_code == 422 and response.json()["field"] == "correct.reason"
    assert str(MAX_REASON) in response.json()["detail"]
    assert referee.get("/api/match/log").json()["entries"] == []
