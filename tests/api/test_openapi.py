"""``/openapi.json`` says what each call answers, and the answers are exactly the state."""

from __future__ import annotations

import json
import typing
from typing import Any, cast

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.testclient import TestClient
from hub_support import play_game
from web_helpers import PIN, state, step

from hub.app import Hub
from hub.responses import HubHealth, HubMatchLog, HubState, RatingRow


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


def described(schema: dict[str, Any]) -> bool:
    """A named model, a list of described items, or a plain value: never a bare object."""
    if "$ref" in schema:
        return True
    if schema.get("type") == "array":
        return described(schema.get("items", {}))
    if "anyOf" in schema:
        return all(described(s) for s in schema["anyOf"])
    return schema.get("type") in {"string", "integer", "number", "boolean", "null"}


def undocumented(app: FastAPI) -> list[str]:
    """Every call of ``app`` whose success answer ``/openapi.json`` does not describe."""
    doc = app.openapi()
    missing, seen = [], set()
    for context in iter_route_contexts(app.routes):  # the routes of included routers too
        if not isinstance(context.original_route, APIRoute):
            continue
        route = cast(APIRoute, context)
        if not route.include_in_schema:
            # hidden only as a page, a file or a script, never as a JSON call
            answer = typing.get_type_hints(route.endpoint).get("return")
            kinds = set(typing.get_args(answer)) or {answer}
            if not kinds <= {FileResponse, HTMLResponse}:
                missing.append(f"{route.path}: hidden from the documentation")
            continue
        for method in route.methods:
            seen.add((route.path_format, method.lower()))
            answers = doc["paths"][route.path_format][method.lower()]["responses"]
            for status, answer in answers.items():
                if not status.startswith("2"):
                    continue
                content = answer.get("content") or {}
                json_schema = content.get("application/json", {}).get("schema")
                if not content or (json_schema is not None and not described(json_schema)):
                    missing.append(f"{method} {route.path} {status}: {json.dumps(content)}")
    documented = {(path, m) for path, ops in doc["paths"].items() for m in ops}
    assert seen == documented, "every documented call was looked at"
    return missing


def test_every_board_call_describes_its_answer(client: TestClient) -> None:
    assert undocumented(client.app) == []  # type: ignore[arg-type]






def test_every_hub_call_describes_its_answer(hub_client: TestClient) -> None:
    assert undocumented(hub_client.app) == []  # type: ignore[arg-type]


def test_a_call_without_a_model_is_found() -> None:
    app = FastAPI()

    @app.get("/api/loose")
    async def loose() -> dict[str, Any]:
        return {}

    @app.get("/api/hidden", include_in_schema=False)
    async def hidden() -> dict[str, Any]:
        return {}

    assert len(undocumented(app)) == 2


def test_the_hub_answers_what_it_documents(hub_client: TestClient) -> None:
    c = hub_client
    assert c.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    for name in ("Ann", "Bob", "Cy"):
        assert c.post("/api/players", json={"name": name}).status_code == 200
    seen = c.get("/api/hub").json()["field_seq"]
    assert c.post("/api/rounds", json={"seq": seen}).status_code == 200
    hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
    store = hub.tournament.store
    store.set_board_status("b1", True, at=1.0)
    store.set_board_state("b1", {"match_id": 1, "seq": 4, "names": {"black": "Cy"},
                                 "state": {"phase": "playing"}}, at=1.0)
    assert c.post("/api/rounds/1/tables/1/board",
                  json={"board": "b1", "seq": c.get("/api/hub").json()["field_seq"]}
                  ).status_code == 200
    play_game(hub.tournament, "b1", 1, ("Cy", "Bob"), black_wins=True)
    assert c.post("/api/boards/b1/command", json={"kind": "undo"}).status_code == 202
    # /api/hub sends its text as encoded for the feed: nothing checks it on the way out
    whole = HubState.model_validate(c.get("/api/hub").json())
    assert whole.boards[0].pairing is not None
    assert whole.games and whole.standings and whole.rounds[0].pairings[0].result is not None
    HubMatchLog.model_validate(c.get("/api/matches/b1/1").json())
    HubHealth.model_validate(c.get("/healthz").json())
    rows = [RatingRow.model_validate(r) for r in c.get("/api/ratings").json()]
    assert [r.player for r in rows if r.rating is not None] == ["Cy", "Bob"]
