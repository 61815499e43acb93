"""Issue 43, item 5: while the board's self-test runs the TV says so, and tells nobody to
shoot; the printed sheet calls a cell of a skipped step "skipped", not a failed sensor."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer
from tv_support import one_server_per_module, post, snap, state

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server, api = one_server_per_module("selftest-tv")
TV = [(1920, 1080), (1280, 720)]
SAID = {"en": ("The board's self-test is running: play waits until it ends",
               re.compile(r"shoot|paused", re.I)),
        "de": ("Der Selbsttest des Bretts läuft: das Spiel wartet, bis er endet",
               re.compile(r"schie|pausiert|angehalten", re.I))}


def test_the_tv_during_a_self_test_and_the_sheet_of_a_skipped_step(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "black"})
    assert api.post(server.url + "/api/referee/selftest/start", data={"run": 0}).ok
    for lang, (said, not_said) in SAID.items():
        for size in TV:
            page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
            page.goto(f"{server.url}/?lang={lang}")
            page.wait_for_function("document.body.dataset.seq !== undefined")
            expect(page.locator("#alerts")).to_contain_text(said)
            top = page.locator("#turn").inner_text() + " " + page.locator("#alerts").inner_text()
            assert not not_said.search(top), top
            snap(page, f"tv-{lang}-{size[0]}x{size[1]}-selftest")
            page.context.close()
    view = api.get(server.url + "/api/selftest").json()
    assert api.post(server.url + "/api/referee/selftest/skip",
                    data={"run": view["run"], "step": view["walk"]["step"]["index"]}).ok
    assert api.post(server.url + "/api/referee/selftest/stop", data={"run": 1}).ok
    sheet = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    for lang, word, fail in (("en", "skipped", "FAIL"), ("de", "übersprungen", "FEHLER")):
        sheet.goto(f"{server.url}/selftest/sheet?lang={lang}")
        row = sheet.locator("#rows tr").filter(
            has=sheet.locator("td", has_text=re.compile(r"^(cell|Zelle) 0$")))
        expect(row).to_contain_text(word)
        assert fail not in row.inner_text() and "never" not in row.inner_text(), \
            row.inner_text()
    sheet.context.close()
    # play goes on afterwards: the TV tells the player due to shoot again
    assert state(api, server)["sensing"]["paused"] is False
