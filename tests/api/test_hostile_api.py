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
from lanes import examples
from schemathesis import GenerationMode

from scorekeeper.clock import FakeClock
from web.api.app import create_app
from web.api.deps import Auth
from web.table.wiring import open_table
from web_common.auth import COOKIE
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
PIN = "5173"
EXAMPLES = examples(60 if FULL else 10)
"""Generated requests per operation and mode (the board's and the hub's API together take
about half a minute)."""
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
def sim_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
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


NEVER_ENDS = frozenset({"GET /api/events"})
"""Operations whose answer is a stream that never ends: a generated request would wait out the
client's 10 s timeout each time. The live feed takes no input to generate (its language comes
from the middleware every request passes); ``tests/api/test_events_feed.py`` reads it."""


def operations(sim_api: Api) -> list[Any]:
    """Every operation the app's OpenAPI document lists, the never-ending streams aside."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", sim_api.app)
    return [op for op in (result.ok() for result in schema.get_all_operations())
            if op.label not in NEVER_ENDS]


def exercise(sim_api: Api, operation: Any, mode: GenerationMode, seen: Counter[str],
             examples: int = EXAMPLES) -> None:
    """Run ``operation`` with generated requests; fail on the first server error.

    ``seen`` counts the answers as ``"POST 200"``..., to show the handlers were reached."""

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        as_referee = next(_turn) % 2 == 0
        body = case.body
        if as_referee and isinstance(body, dict) and isinstance(body.get("seq"), int):
            body["seq"] = sim_api.seq  # reach the handler, not just the 409 in front of it
        cookies = {COOKIE: sim_api.token} if as_referee else None
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
    sim_api: Api, mode: GenerationMode
) -> None:
    ops = operations(sim_api)
    assert len(ops) >= 15, [op.label for op in ops]  # the whole API is documented
    assert sim_api.app.openapi()["paths"]["/api/events"], "the feed left: NEVER_ENDS is stale"
    seen: Counter[str] = Counter()
    for operation in ops:
        exercise(sim_api, operation, mode, seen)
    assert seen["POST 422"] > 0 and seen["POST 401"] > 0
    if mode is GenerationMode.POSITIVE:
        assert seen["POST 200"] > 0, seen  # changes went through, not only refusals


class HubApi(Api):
    """The hub's app: no table, so a body's ``seq`` is left as generated."""

    @property
    def seq(self) -> int:
        return 0


@pytest.fixture(scope="module")
def hub_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    from hub_support import play_game

    from hub.app import Hub, create_hub_app
    from hub.store import HubStore
    from hub.tournament import Tournament

    class Sender:
        connected = True

        def problems(self) -> list[str]:
            return []

        def send_command(self, board: str, kind: str, **_: object) -> str:
            return f"{board}-{kind}"

    tmp: Path = tmp_path_factory.mktemp("hub")
    clock = FakeClock(1_700_000_000.0)
    pins = PinStore(tmp / "pin")
    pins.set(PIN)
    tournament = Tournament(HubStore(tmp / "hub.db"), clock)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        tournament.add_player(name)
    tournament.pair_next_round(["board-1", "board-2"])
    play_game(tournament, "board-1", 1, ("Ann", "Bob"), True)
    app = create_hub_app(Hub(tournament, Sender(), pins, clock))  # type: ignore[arg-type]
    with TestClient(app) as client:
        response = client.post("/api/referee/login", json={"pin": PIN})
        assert response.status_code == 200, response.text
        token = response.cookies[COOKIE]
    try:
        yield HubApi(app, token)
    finally:
        tournament.store.close()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_makes_the_hub_answer_with_a_server_error(
    hub_api: Api, mode: GenerationMode
) -> None:
    ops = operations(hub_api)
    assert len(ops) >= 10, [op.label for op in ops]
    seen: Counter[str] = Counter()
    for operation in ops:
        exercise(hub_api, operation, mode, seen, examples=max(3, EXAMPLES // 2))
    assert seen["POST 422"] > 0 and seen["POST 401"] > 0


BEYOND_64_BITS = str(2**64 + 1)


@pytest.mark.parametrize("path", [f"/api/match/log/{BEYOND_64_BITS}/review",
                                  f"/api/match/log/{BEYOND_64_BITS}/review-file",
                                  f"/api/match/log/{10**30}/review"])
def test_an_integer_beyond_64_bits_in_a_boards_path_is_422(client: TestClient,
                                                           path: str) -> None:
    assert client.get(path).status_code == 422


@pytest.mark.parametrize("method,path", [
    ("get", f"/api/matches/board-1/{BEYOND_64_BITS}"),
    ("post", f"/api/rounds/{BEYOND_64_BITS}/tables/1/board"),
    ("post", f"/api/rounds/1/tables/{BEYOND_64_BITS}/board"),
])
def test_an_integer_beyond_64_bits_in_a_hub_path_is_422(hub_client: TestClient, method: str,
                                                        path: str) -> None:
    from web_helpers import PIN as HUB_PIN

    assert hub_client.post("/api/referee/login", json={"pin": HUB_PIN}).status_code == 200
    kwargs: dict[str, Any] = {"json": {"board": "board-1"}} if method == "post" else {}
    answer = hub_client.request(method.upper(), path, **kwargs)
    assert answer.status_code == 422, answer.text
