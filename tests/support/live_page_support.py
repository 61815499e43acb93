"""Helpers of the browser tests that drive the real app's pages: a browser context, the
referee's PIN typed on a page, and the match state and steps through the API beside it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from browser_support import LiveServer

DUE = re.compile(r"\bdue\b")
"""The class a player's panel carries while that player is due to shoot."""


@contextmanager
def page_context(browser: Any) -> Iterator[Any]:
    """A 1280x860 browser context, closed after use (each test file's ``context`` fixture)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        yield ctx
    finally:
        ctx.close()


def log_in(page: Any, pin: str) -> None:
    """Type the referee's PIN on a page's login form and wait until it is the referee's."""
    page.fill("#login input[name=pin]", pin)
    page.click("#login button[type=submit]")
    page.wait_for_function("document.body.classList.contains('referee')")


def api_state(ctx: Any, server: LiveServer) -> dict[str, Any]:
    """The match state the API answers now."""
    return ctx.request.get(server.url + "/api/state").json()  # type: ignore[no-any-return]


def api_step(ctx: Any, server: LiveServer, step: dict[str, Any]) -> None:
    """Apply ``step`` through the API, on the state as it is now."""
    seq = api_state(ctx, server)["seq"]
    r = ctx.request.post(server.url + "/api/match/steps", data={"seq": seq, "step": step})
    assert r.ok, r.text()
