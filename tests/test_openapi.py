"""``/openapi.json`` says what each call answers, and the answers are exactly the state."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from web_helpers import state, step


def schema_of(doc: dict, path: str, method: str, status: str = "200") -> str:
    content = doc["paths"][path][method]["responses"][status]["content"]
    return json.dumps(content["application/json"]["schema"])


def test_every_call_documents_what_it_answers(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert "Snapshot" in schema_of(doc, "/api/state", "get")
    for path in ("/api/match/steps", "/api/match/undo", "/api/match/new",
                 "/api/referee/pause", "/api/board/place"):
        assert "Snapshot" in schema_of(doc, path, "post"), path
        assert "StaleAnswer" in schema_of(doc, path, "post", "409"), path
        assert "Refusal" in schema_of(doc, path, "post", "422"), path
    assert "MatchLog" in schema_of(doc, "/api/match/log", "get")
    assert "StoredMatch" in schema_of(doc, "/api/matches", "get")
    assert "RefereeAnswer" in schema_of(doc, "/api/referee/login", "post")
    assert "Health" in schema_of(doc, "/healthz", "get", "503")
    snapshot = doc["components"]["schemas"]["Snapshot"]["properties"]
    assert {"seq", "state", "alerts", "link", "tracker"} <= set(snapshot)


def test_answers_hold_exactly_what_the_table_publishes(referee: TestClient) -> None:
    answer = step(referee, {"shot": {"by": "black", "big": "placed"}}).json()
    table = referee.app.state.table  # type: ignore[attr-defined]
    published = json.loads(json.dumps(table.snapshot()))
    assert answer == published
    assert state(referee) == published
