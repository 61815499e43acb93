"""A request to the board waits for no worker thread to be handed what it already has: the
table, the login record, the history, the caller are read off the app in the event loop
(each plain dependency is a hop to FastAPI's thread pool and back, on every request).

The referee's session check (``require_referee``) stays a plain function on purpose: it may
read the PIN file (a PIN changed by ``skitter set-pin``), which is disk, not the loop's work.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from thread_hops import threaded_dependencies

ON_PURPOSE = "require_referee"


def test_no_request_hops_to_a_thread_for_the_apps_own_state(client: TestClient) -> None:
    hops = threaded_dependencies(client.app)  # type: ignore[arg-type]
    hops = {hop for hop in hops if not hop.startswith(ON_PURPOSE + " ")}
    assert hops == set(), sorted(hops)


def test_the_session_check_is_the_one_threaded_step(client: TestClient) -> None:
    names = {hop.split(" ")[0] for hop in threaded_dependencies(client.app)}  # type: ignore[arg-type]
    assert names == {ON_PURPOSE}
