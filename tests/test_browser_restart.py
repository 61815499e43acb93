"""A tablet across a restart of ``skitter serve``: the page notices by itself that its
session is gone (a restarted server forgets sessions) and shows the login again before
anyone taps a control that would be refused (issue 13, item 11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import SCREENSHOTS
from serve_proc import PIN, ServeProcess

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_after_a_server_restart_the_tablet_asks_for_the_pin_before_the_first_tap(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=8000)
    first = ServeProcess(tmp_path)
    try:
        first.wait_ready()
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        tablet = ctx.new_page()
        tablet.goto(first.url + "/tablet")
        tablet.fill("#login input[name=pin]", PIN)
        tablet.click("#login button[type=submit]")
        tablet.wait_for_function("document.body.classList.contains('referee')")
        expect(tablet.locator("#no-change")).to_be_visible()
    finally:
        first.stop()
    expect(tablet.locator("#live-status")).to_have_text("reconnecting…")
    second = ServeProcess(tmp_path, pin=None, port=first.port)
    try:
        second.wait_ready()
        # nobody touches the tablet: it reconnects and finds its session gone
        tablet.wait_for_function(
            "!document.body.classList.contains('referee')", timeout=20000)
        expect(tablet.locator("#live-status")).to_have_text("live")
        expect(tablet.locator("#login")).to_be_visible()
        expect(tablet.locator("#login .msg")).to_contain_text("Signed out")
        for control in ("#no-change", "#undo", "#sec-correct", "#sec-new"):
            expect(tablet.locator(control)).to_be_hidden()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tablet.screenshot(path=str(SCREENSHOTS / "tablet-after-restart.png"), full_page=True)
        tablet.fill("#login input[name=pin]", PIN)  # the stored PIN still opens it
        tablet.click("#login button[type=submit]")
        expect(tablet.locator("#no-change")).to_be_visible()
        ctx.close()
    finally:
        second.stop()
