"""Issue 29: the board self-test in German: each cell of the walk says its result in words
(the result's key stays in ``data-result``), the last self-test's date and the check sheet's
as German writes them, and the sheet fits a phone (its table scrolls in its own box)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, snap

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
GERMAN_DATE = re.compile(r"\b\d{1,2}\. \w+\.? \d{4}, \d\d:\d\d")
"""A date as German writes it: '2. Dez. 2026, 07:57' (English: '2 Dec 2026, 07:57')."""


def test_the_walk_the_last_self_test_and_the_sheet_read_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + "/referee?lang=de")
    page.wait_for_function("document.body.classList.contains('referee')")
    page.click("#st-start")
    expect(page.locator("#st-now .st-cell").first).to_have_attribute("data-result", "waiting")
    expect(page.locator("#st-now .st-cell span").first).to_have_text("wartet")
    page.click("#st-all-title")
    said = page.locator("#st-cells .st-cell span").all_inner_texts()
    assert "nicht erreicht" in said and "not reached" not in said and "waiting" not in said, said
    page.click("#st-stop")
    expect(page.locator("#st-last")).to_contain_text("nicht bestanden: ")
    last = page.locator("#st-last").inner_text()
    assert not ISO.search(last) and GERMAN_DATE.search(last), last

    sheet = ctx.new_page()
    sheet.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    sheet.goto(server.url + "/selftest/sheet?lang=de")
    expect(sheet.locator("#rows tr").first).to_contain_text("Zelle 0")
    meta = sheet.locator("#meta").inner_text()
    assert not ISO.search(meta) and GERMAN_DATE.search(meta), meta
    width = sheet.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES["phone"][0], width
    snap(sheet, "german-selftest-sheet-phone")
    ctx.close()
