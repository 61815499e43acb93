"""A lost connection is obvious on the tablet, the virtual board and the referee page (issue 13,
item 6): the full-width "Disconnected, reconnecting" bar shows while the scorekeeper cannot be
reached, stays through refused reconnects, and clears by itself once it is back.

The page's WebSocket is routed through Playwright: while "down", every link is cut and every
reconnect is refused, as when the scorekeeper is stopped; then links pass again.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SCREENSHOTS, LiveServer, is_touch, keep_screenshot, pump_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

OFFLINE = re.compile(r"\boffline\b")


class Link:
    """The page's WebSockets, passed to the server or refused at will."""

    def __init__(self) -> None:
        self.down = False
        self.open: list[Any] = []
        self.refused = 0

    def route(self, ws: Any) -> None:
        if self.down:
            self.refused += 1
            ws.close()
            return
        # kept before it is passed on: once the page is live, the test can cut it (appended
        # after, a test running on could find the list still empty)
        self.open.append(ws)
        ws.connect_to_server()

    def cut(self) -> None:
        self.down = True
        for ws in self.open:
            ws.close()
        self.open.clear()


BACKOFF_MS = 5000
"""The longest a page waits before it tries to reconnect (``web/static/api.js``)."""


def backoff_passed(page: Any) -> bool:
    """The page's clock moved on past its reconnect backoff: the attempt due is made now
    (a test waits on the page's attempts, not on its timers in real time)."""
    page.clock.fast_forward(BACKOFF_MS)
    return True


@pytest.mark.parametrize("path", ["/tablet", "/board", "/referee"])
@pytest.mark.parametrize("size", [(1024, 768), (390, 844)], ids=["1024x768", "390x844"])
def test_a_lost_connection_shows_a_full_width_bar_until_the_scorekeeper_is_back(
    browser: Any, server: LiveServer, path: str, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size))
    link = Link()
    page = ctx.new_page()
    page.clock.install()  # the reconnect backoff is waited out on the page's clock
    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), link.route)
    page.goto(server.url + path)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    body = page.locator("body")
    expect(body).not_to_have_class(OFFLINE)
    expect(page.locator("#live-status")).to_have_text("live")

    link.cut()
    expect(body).to_have_class(OFFLINE)
    # it keeps trying, and stays offline while refused
    pump_until(page, lambda: backoff_passed(page) and link.refused >= 2,
               "two refused reconnects", every=0.05)
    assert link.refused >= 2
    expect(body).to_have_class(OFFLINE)
    bar = page.evaluate("""() => {
        const s = getComputedStyle(document.body, '::before');
        return {content: s.content, display: s.display, width: parseFloat(s.width),
                position: s.position, top: parseFloat(s.top)};
    }""")
    assert "Disconnected, reconnecting" in bar["content"], bar
    assert bar["display"] == "block" and size[0] - 1 <= bar["width"] <= size[0], bar
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]  # no sideways
    assert bar["position"] in ("sticky", "fixed") and bar["top"] == 0, bar
    # the bar is the first thing on the page, above the header
    first = page.evaluate("document.body.firstElementChild.getBoundingClientRect().top")
    assert first >= 30, first
    expect(page.locator("#live-status")).to_have_text("reconnecting…")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = path.strip("/")
    keep_screenshot(page, f"{name}-{size[0]}x{size[1]}-disconnected")

    link.down = False  # the scorekeeper is back: the page finds it by itself
    pump_until(page, lambda: backoff_passed(page) and bool(link.open), "the page reconnects",
               every=0.05)
    expect(body).not_to_have_class(OFFLINE)
    expect(page.locator("#live-status")).to_have_text("live")
    assert link.open, "the page reconnected"
    ctx.close()
