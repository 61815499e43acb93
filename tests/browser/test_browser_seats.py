"""Players without names are the first and second player on every board page, never a colour.

Issue 13, item 4: pages speak to players by name; a match started without names calls them by
their seat ("First player", "Second player"), as the tournament hub does. Checked in headless
Chromium at the five screen sizes, on the TV, the tablet (with its new-match form open), the
virtual board and the referee page (the raw step behind "details" is the referee's and stays
closed here).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, keep_screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SIZES = [(1920, 1080), (1280, 720), (1024, 768), (768, 1024), (390, 844)]
PAGES = {"tv": "/", "tablet": "/tablet", "board": "/board", "referee": "/referee"}
COLOUR = re.compile(r"\b(?:black|white)\b", re.IGNORECASE)


def log_in(page: Any, pin: str) -> None:
    page.fill("#login input[name=pin]", pin)
    page.click("#login button[type=submit]")
    page.wait_for_function("document.body.classList.contains('referee')")


def post(ctx: Any, server: LiveServer, path: str, body: dict[str, Any]) -> None:
    seq = ctx.request.get(server.url + "/api/state").json()["seq"]
    r = ctx.request.post(server.url + path, data={"seq": seq, **body})
    assert r.ok, r.text()


def seen_text(page: Any) -> str:
    """What a person reads on the page (a closed "details" shows only its summary)."""
    text: str = page.locator("body").inner_text()
    return text


def check_pages(browser: Any, server: LiveServer, moment: str) -> None:
    """Every page at every size: each page is loaded once for the screens without touch and
    seen at each of their sizes in turn (the pages lay themselves out again when the window
    changes size), and once more on a phone."""
    for sizes in ([size for size in SIZES if size[0] >= 500],
                  [size for size in SIZES if size[0] < 500]):
        w, h = sizes[0]
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 500)
        pages = {label: open_page(ctx, server, label, path) for label, path in PAGES.items()}
        for w, h in sizes:
            for label, page in pages.items():
                page.set_viewport_size({"width": w, "height": h})
                settled(page)
                check_page(page, moment, label, (w, h))
        ctx.close()


def open_page(ctx: Any, server: LiveServer, label: str, path: str) -> Any:
    page = ctx.new_page()
    page.goto(server.url + path)
    if label == "tablet":  # a fresh context: nobody has signed in on it yet
        log_in(page, server.pin)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    if label == "tablet":
        page.locator("#sec-new summary").click()
        assert page.locator("#new-match").is_visible()
    return page


def check_page(page: Any, moment: str, label: str, size: tuple[int, int]) -> None:
    w, h = size
    path = PAGES[label]
    if label == "tablet":
        assert page.locator("#new-match").is_visible(), (moment, size)
    text = seen_text(page)
    assert text.strip(), (path, w, h)
    found = [text[max(0, m.start() - 60):m.end() + 60] for m in COLOUR.finditer(text)]
    assert not found, (moment, path, (w, h), found)
    assert '{"' not in text, (moment, path, (w, h), text)
    if w == 390 or label in ("tv", "tablet"):
        keep_screenshot(page, f"seats-{moment}-{label}-{w}x{h}", full_page=True)


def test_a_match_without_names_speaks_of_the_first_and_second_player(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    setup = browser.new_context()
    check_pages(browser, server, "fresh")  # the match a new board starts with has no names

    # A match started on the tablet with the name fields left empty, and played a little:
    # big skitts, a point (the effect and the log entry) and a correction.
    tablet = setup.new_page()
    tablet.goto(server.url + "/tablet")
    log_in(tablet, server.pin)
    tablet.locator("#sec-new summary").click()
    form = tablet.locator("#new-match")
    expect(form.locator("input[name=black]")).to_have_value("")
    expect(form).to_contain_text("First player's name")
    expect(form).to_contain_text("Second player's hand")
    form.locator("select[name=first]").select_option("black")
    before = tablet.evaluate("document.body.dataset.seq")
    form.locator("#new-send").click()
    tablet.wait_for_function(f"document.body.dataset.seq !== '{before}'")
    state = setup.request.get(server.url + "/api/state").json()
    assert state["names"] == {"black": "First player", "white": "Second player"}
    assert state["given_names"] == {"black": "", "white": ""}
    for by in ("black", "white"):
        post(setup, server, "/api/match/steps", {"step": {"shot": {"by": by, "big": "placed"}}})
    post(setup, server, "/api/match/steps",
         {"step": {"correct": {"board": {"white.red": 2}, "reason": "example"}}})
    post(setup, server, "/api/match/steps",
         {"step": {"shot": {"by": "black", "delta": {"white.red": 1}}}})
    state = setup.request.get(server.url + "/api/state").json()
    assert state["words"]["effects"], state["words"]
    setup.close()
    check_pages(browser, server, "played")
