"""A tablet across a restart of ``skitter serve``: it stays logged in mid-match (issue 22,
item 8: sessions are signed with a secret kept in the data directory); once the PIN is
changed its session is gone, and the page shows the login again before anyone taps a
control that would be refused (issue 13, item 11)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_support import SCREENSHOTS, answers_read, keep_screenshot, probe, wait_answer_read
from serve_proc import PIN, ROOT, ServeProcess

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_after_a_server_restart_the_tablet_stays_logged_in_until_the_pin_changes(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    first = ServeProcess(tmp_path)
    try:
        first.wait_ready()
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        tablet = ctx.new_page()
        probe(tablet)
        tablet.goto(first.url + "/tablet")
        tablet.fill("#login input[name=pin]", PIN)
        tablet.click("#login button[type=submit]")
        tablet.wait_for_function("document.body.classList.contains('referee')")
        expect(tablet.locator("#no-change")).to_be_visible()
    finally:
        first.stop()
    expect(tablet.locator("#live-status")).to_have_text("reconnecting…")
    asked = answers_read(tablet, "/api/referee/session")
    second = ServeProcess(tmp_path, pin=None, port=first.port)
    try:
        second.wait_ready()
        expect(tablet.locator("#live-status")).to_have_text("live", timeout=20000)
        # the page has asked for its session again, and read the answer
        wait_answer_read(tablet, "/api/referee/session", asked)
        assert tablet.evaluate("document.body.classList.contains('referee')")
        expect(tablet.locator("#login")).to_be_hidden()
        tablet.locator("#pause").click()  # a change goes through, no PIN asked
        expect(tablet.locator("#pause")).to_have_text("Resume sensing")
        tablet.locator("#pause").click()
        expect(tablet.locator("#pause")).to_have_text("Pause sensing")
        # the PIN changed while serving: the old session ends, the page asks again
        subprocess.run([sys.executable, "-m", "skitter_cli.main", "set-pin", "--data-dir",
                        str(tmp_path), "--pin", "97531"], cwd=ROOT, check=True,
                       capture_output=True, timeout=60)
        tablet.locator("#pause").click()
        tablet.wait_for_function(
            "!document.body.classList.contains('referee')", timeout=20000)
        expect(tablet.locator("#login")).to_be_visible()
        expect(tablet.locator("#login .msg")).to_contain_text("Signed out")
        for control in ("#no-change", "#undo", "#sec-correct", "#sec-new"):
            expect(tablet.locator(control)).to_be_hidden()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        keep_screenshot(tablet, "tablet-after-pin-change", full_page=True)
        tablet.fill("#login input[name=pin]", "97531")  # the new PIN opens it
        tablet.click("#login button[type=submit]")
        expect(tablet.locator("#no-change")).to_be_visible()
        ctx.close()
    finally:
        second.stop()
