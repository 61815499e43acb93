"""A referee who logs in while the page is still asking whether it has a session stays
logged in.

Seen in CI on a loaded machine: the tablet asks for its session as it connects; the referee
types the PIN and logs in before that answer arrives; the late answer ("no session", true when
it was asked) then logged the referee out again and said "Signed out". The page must believe
only an answer asked after the last login or logout. Here the first session answer is held
back until the login is through, then let go.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import LiveServer, answers_read, probe, pump_until, wait_answer_read
from hub_app_support import served_hub, tournament_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("path", ["/tablet", "/referee", "/board"])
def test_a_session_answer_from_before_the_login_does_not_log_the_referee_out(
    browser: Any, server: LiveServer, path: str
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    let_go = hold_first_session_answer(page, server.url + path)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    page.fill("#login input[name=pin]", server.pin)
    page.click("#login button[type=submit]")
    page.wait_for_function("document.body.classList.contains('referee')")
    let_go()
    assert page.evaluate("document.body.classList.contains('referee')"), \
        "the late answer from before the login logged the referee out"
    expect(page.locator("#login .msg")).not_to_contain_text("Signed out")
    ctx.close()


def test_the_hub_page_keeps_a_login_made_while_it_asked_for_its_session(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with tournament_of(tmp_path, ("Anna", "Ben")) as t, \
            served_hub(t, tmp_path, "2468") as (url, _):
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        page = ctx.new_page()
        let_go = hold_first_session_answer(page, url + "/")
        page.fill("#pin", "2468")
        page.locator("#login button").click()
        expect(page.locator("#logout")).to_be_visible()
        let_go()
        expect(page.locator("#logout")).to_be_visible()
        expect(page.locator("#login")).to_be_hidden()
        ctx.close()


def hold_first_session_answer(page: Any, url: str) -> Any:
    """Open ``url`` with the page's first session answer held back; returns the function that
    lets it go and waits until the page has read it."""
    held: list[tuple[Any, Any]] = []
    asked: list[Any] = []

    def hold(route: Any) -> None:
        if asked or route.request.method != "GET":  # only the first answer is held back
            route.continue_()
            return
        asked.append(route)
        held.append((route, route.fetch()))  # asked before the login: "no session"

    probe(page)
    page.route(lambda u: "/api/referee/session" in u, hold)
    page.goto(url)
    # the route handler runs while Playwright talks to the page
    pump_until(page, lambda: held, "the page asking for its session on opening")
    assert len(held) == 1, "the page did not ask for its session on opening"

    def let_go() -> None:
        route, answer = held[0]
        assert answer.json()["referee"] is False
        read = answers_read(page, "/api/referee/session")
        with page.expect_request_finished(lambda r: "/api/referee/session" in r.url):
            route.fulfill(response=answer)
        wait_answer_read(page, "/api/referee/session", read)  # read, and acted on

    return let_go
