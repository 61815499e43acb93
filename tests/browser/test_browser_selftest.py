"""The board self-test on the referee page and its printable check sheet, in Chromium: the
step to do in words, the cells answering live, skip and stop, the sheet with a fail."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import LiveServer, at_every_size, live_server
from tv_support import snap

from firmware_bridge.profile import load_profile

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

COLOURS = re.compile(r"\b(?:black|white)\b", re.IGNORECASE)
SIZES = [(1920, 1080), (1280, 720), (1024, 768), (768, 1024), (390, 844)]
FIELDS = load_profile().fields
FIRST_RED = FIELDS["black.red"].cells
"""The cells of the walk's first step (14 on the reference board)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("selftest")) as s:
        yield s


def on_board(server: LiveServer, cell: int, present: bool) -> None:
    """A hand on the (simulated) board, on the sensing thread like a real change."""
    table: Any = server.table
    sim = table.sensing.simulator
    act = sim.magnet_arrives if present else sim.magnet_leaves
    table.feed.thread.submit(act, cell).result(5)


def referee_page(browser: Any, server: LiveServer, size: tuple[int, int]) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + "/referee")
    page.wait_for_function("document.body.classList.contains('referee')")
    return page


def section_text(page: Any) -> str:
    return str(page.locator("#selftest").inner_text())


def test_a_walk_on_the_referee_page(browser: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    page = referee_page(browser, server, (1280, 720))
    box = page.locator("#selftest")
    expect(box.locator("#st-last")).to_have_text("No self-test yet on this board.")
    page.click("#st-start")
    expect(box).to_have_attribute("data-running", "true")
    expect(page.locator("#st-instruction")).to_have_text(
        "Place a skitt on each spot of the first player's red field in turn, lifting it each time")
    expect(page.locator("#st-progress")).to_have_text("Step 1 of 15")
    now = page.locator("#st-now .st-cell")
    expect(now).to_have_count(len(FIRST_RED))
    on_board(server, 0, True)
    expect(page.locator('#st-now [data-cell="0"]')).to_have_class("st-cell waiting active")
    on_board(server, 0, False)
    expect(page.locator('#st-now [data-cell="0"]')).to_have_class("st-cell answered")
    assert not COLOURS.search(section_text(page)), section_text(page)
    snap(page, "referee-selftest-1280x720")
    for cell in FIRST_RED[1:]:
        on_board(server, cell, True)
        on_board(server, cell, False)
    expect(page.locator("#st-progress")).to_have_text("Step 2 of 15")  # moved on by itself
    every = len(load_profile().cell_roles())
    expect(page.locator("#st-all-title")).to_have_text(
        f"Every cell of the board: {len(FIRST_RED)} of {every} answered")
    assert page.locator("#st-cells").is_hidden()  # the whole board folded under the step
    page.click("#st-all-title")
    expect(page.locator("#st-cells .st-cell")).to_have_count(every)
    expect(page.locator("#st-cells .st-cell.answered")).to_have_count(len(FIRST_RED))
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.locator("#selftest").scroll_into_view_if_needed()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], (size, width)
        b = page.locator("#st-skip").bounding_box()
        assert b and b["height"] >= 40 and b["x"] + b["width"] <= size[0], (size, b)
        said = page.locator("#st-instruction").bounding_box()
        assert said and b["y"] + b["height"] - said["y"] <= size[1], (size, said, b)  # one screen
        snap(page, f"referee-selftest-{size[0]}x{size[1]}")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.click("#st-skip")
    expect(page.locator("#st-progress")).to_have_text("Step 3 of 15")
    page.click("#st-stop")
    expect(box).to_have_attribute("data-running", "false")
    expect(box.locator("#st-last")).to_contain_text("checks failed")

    sheet = page.context.new_page()
    sheet.goto(server.url + "/selftest/sheet")
    expect(sheet.locator("#verdict")).to_contain_text("FAILED")
    rows = sheet.locator("#rows tr")
    first = rows.first
    expect(first).to_contain_text("pass")
    expect(first).to_contain_text("cell 0")
    expect(first).to_contain_text("the first player's red field")
    def row(item: str) -> Any:
        return sheet.locator("#rows tr").filter(
            has=sheet.locator("td", has_text=re.compile(f"^{item}$")))

    expect(row("cell 4")).to_contain_text("skipped")  # its step was skipped: not a fault
    expect(row("cell 16")).to_contain_text("not reached")
    # cell numbers and expanders are what a check sheet is for; players are never colours
    assert not COLOURS.search(sheet.locator("main").inner_text())
    for size in SIZES:
        sheet.set_viewport_size({"width": size[0], "height": size[1]})
        snap(sheet, f"selftest-sheet-{size[0]}x{size[1]}")
    sheet.emulate_media(media="print")
    assert sheet.locator("#print").is_hidden()
    pdf = sheet.pdf()
    assert pdf.startswith(b"%PDF")
    # issue 29: the same kept sheet, read in German (worded on the server from its data)
    sheet.goto(server.url + "/selftest/sheet?lang=de")
    expect(sheet.locator("#verdict")).to_contain_text("NICHT BESTANDEN (")
    expect(sheet.locator("#verdict")).not_to_contain_text("failed")
    expect(sheet.locator("#rows tr").first).to_contain_text("Zelle 0")
    expect(sheet.locator("#rows tr").first).to_contain_text("Feld Rot des ersten Spielers")
    expect(sheet.locator("#rows")).to_contain_text("nie gewechselt")
    expect(sheet.locator("#rows")).not_to_contain_text("never changed")
    page.goto(server.url + "/referee?lang=de")
    expect(page.locator("#st-last")).to_contain_text("nicht bestanden: ")
    expect(page.locator("#st-last")).to_contain_text("Prüfungen fehlgeschlagen")
    page.context.close()


def test_logged_out_the_section_only_reads(browser: Any, server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    page.goto(server.url + "/referee")
    page.locator("#selftest").wait_for()
    assert page.locator("#st-start").is_hidden()
    assert page.locator("#selftest .needs-login").is_visible()
    ctx.close()


def test_the_sensor_audit_section(browser: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context()
    api = ctx.request
    assert api.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    for _ in range(3):  # three matches, each with a step entered by hand
        seq = api.get(server.url + "/api/state").json()["seq"]
        assert api.post(server.url + "/api/match/new", data={"seq": seq, "first": "black"}).ok
        seq = api.get(server.url + "/api/state").json()["seq"]
        assert api.post(server.url + "/api/match/steps", data={
            "seq": seq, "step": {"shot": {"by": "black", "big": "placed"}}}).ok
    ctx.close()
    for _, size, page in at_every_size(lambda size: referee_page(browser, server, size)):
        expect(page.locator("#audit-summary")).to_contain_text("Over the last")
        silent = page.locator("#audit-silent")
        expect(silent).to_contain_text(
            "Not changed in the last 3 matches or more: the first player's red field (all "
            f"{len(FIRST_RED)} cells); the first player's yellow field (all "
            f"{len(FIELDS['black.yellow'].cells)} cells)")
        expect(silent).to_contain_text("cell 13 (the bridge between the first player's red and "
                                       "yellow fields)")
        expect(page.locator("#audit-fields tbody tr")).to_have_count(7)
        assert not COLOURS.search(page.locator("#audit").inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        page.locator("#audit").scroll_into_view_if_needed()
        snap(page, f"referee-audit-{size[0]}x{size[1]}")


def test_two_referees_skip_the_same_step(browser: Any, server: LiveServer) -> None:
    """Each skip names the step its referee saw: the slower one is told the walk moved on
    and shown where it stands, and the walk moves on once only."""
    from playwright.sync_api import expect

    a = referee_page(browser, server, (1280, 720))
    b = referee_page(browser, server, (1024, 768))
    a.click("#st-start")
    expect(a.locator("#st-progress")).to_have_text("Step 1 of 15")
    expect(b.locator("#st-progress")).to_have_text("Step 1 of 15")
    # b looks away: no refresh (the page asks for /api/selftest?lang=..., so a pattern that
    # takes the query too; without it b's refresh raced its skip)
    looked_away = re.compile(r"/api/selftest(\?.*)?$")
    b.route(looked_away, lambda route: route.abort())
    a.click("#st-skip")
    expect(a.locator("#st-progress")).to_have_text("Step 2 of 15")
    b.click("#st-skip")  # meant for step 1
    expect(b.locator("#toast")).to_contain_text("Someone else moved the self-test on first")
    expect(b.locator("#st-progress")).to_have_text("Step 2 of 15")
    b.unroute(looked_away)
    expect(a.locator("#st-progress")).to_have_text("Step 2 of 15")  # not skipped twice
    a.click("#st-stop")
    expect(b.locator("#selftest")).to_have_attribute("data-running", "false", timeout=8000)
    a.context.close()
    b.context.close()
