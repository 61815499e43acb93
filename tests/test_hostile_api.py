"""The HTTP API under schemathesis, against its own OpenAPI document: no request gets a 500.

Schemathesis generates requests for every operation the app documents (valid bodies, and
bodies that break the schema), in-process through the ASGI transport. Half of them carry
the referee's session and, where a body has a ``seq``, the current one, so the handlers are
reached, not just the 401 and 409 in front of them. Whatever the answer (200, 401, 409, 422,
429), it must not be a server error. A bounded number of examples keeps this well under a
minute; ``SKITTER_FULL_FAULTS=1`` runs more.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from scorekeeper.clock import FakeClock
from web.api.app import create_app
from web.api.auth import COOKIE
from web.api.broadcaster import Broadcaster
from web.api.deps import Auth
from web.config.pin import PinStore
from web.table.wiring import open_table

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
PIN = "5173"
EXAMPLES = 60 if FULL else 15
"""Generated requests per operation and mode."""
_turn = itertools.count()


class Api:
    """The app under test, the referee's session token, and its table."""

    def __init__(self, app: FastAPI, token: str) -> None:
        self.app = app
        self.token = token

    @property
    def seq(self) -> int:
        return int(self.app.state.table.seq)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("api")
    clock = FakeClock(1000.0)
    pins = PinStore(tmp / "data")
    pins.set(PIN)
    broadcaster = Broadcaster()
    table = open_table(tmp / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=broadcaster.publish)
    app = create_app(table, Auth.create(pins, clock), broadcaster, poll_interval=None)
    with TestClient(app) as client:
        response = client.post("/api/referee/login", json={"pin": PIN})
        assert response.status_code == 200, response.text
        token = response.cookies[COOKIE]
    try:
        yield Api(app, token)
    finally:
        table.close()


def operations(api: Api) -> list[Any]:
    """Every operation the app's OpenAPI document lists."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", api.app)
    return [result.ok() for result in schema.get_all_operations()]


def exercise(api: Api, operation: Any, mode: GenerationMode, seen: Counter[str]) -> None:
    """Run ``operation`` with generated requests; fail on the first server error.

    ``seen`` counts the answers as ``"POST 200"``..., to show the handlers were reached."""

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        as_referee = next(_turn) % 2 == 0
        body = case.body
        if as_referee and isinstance(body, dict) and isinstance(body.get("seq"), int):
            body["seq"] = api.seq  # reach the handler, not just the 409 in front of it
        cookies = {COOKIE: api.token} if as_referee else None
        response = case.call(cookies=cookies)
        seen[f"{case.method} {response.status_code}"] += 1
        assert response.status_code < 500, (
            f"{case.method} {case.formatted_path} with {body!r} -> "
            f"{response.status_code}: {response.text[:500]}"
        )

    try:
        run()
    except Unsatisfiable:
        assert mode is GenerationMode.NEGATIVE  # nothing in it can be made invalid


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_makes_the_api_answer_with_a_server_error(
    api: Api, mode: GenerationMode
) -> None:
    ops = operations(api)
    assert len(ops) >= 15, [op.label for op in ops]  # the whole API is documented
    seen: Counter[str] = Counter()
    for operation in ops:
        exercise(api, operation, mode, seen)
    assert seen["POST 422"] > 0 and seen["POST 401"] > 0
    if mode is GenerationMode.POSITIVE:
        assert seen["POST 200"] > 0, seen  # changes went through, not only refusals
