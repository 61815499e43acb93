"""A request to the board waits for no worker thread to be handed what it already has: the
table, the login record, the history, the caller are read off the app in the event loop
(each plain dependency is a hop to FastAPI's thread pool and back, on every request).

The referee's session check (``require_referee``) stays a plain function on purpose: it may
read the PIN file (a PIN changed by ``skitter set-pin``), which is disk, not the loop's work.
``tests/hub/test_hub_app.py`` says the same of the hub.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from thread_hops import threaded_dependencies


def test_only_the_session_check_hops_to_a_thread(client: TestClient) -> None:
    hops = threaded_dependencies(client.app)  # type: ignore[arg-type]
    assert {hop.split(" ")[0] for hop in hops} == {"require_referee"}, sorted(hops)
