"""Issue 29: the players' page in German writes its figures as German does (a decimal comma:
a rating of 3,4, 0,50 points per shot), at every screen size without overflowing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, snap
from tv_support import post, score_a_point

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

FIGURES = """() => [...document.querySelectorAll('#players-table tbody tr')].map((r) =>
  [...r.children].map((c) => c.textContent))"""


def test_the_players_figures_read_in_german(browser: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    post(ctx.request, server, "/api/match/new", {
        "names": {"black": "Annegret", "white": "Bo"}, "first": "black",
        "points_to_win_round": 1, "rounds_to_win_game": 1})
    score_a_point(ctx.request, server)  # Annegret wins the match
    page = ctx.new_page()
    page.goto(server.url + "/stats?lang=de")
    page.wait_for_function("document.body.dataset.loaded === 'yes'")
    expect(page.locator("#players-table tbody tr")).to_have_count(2)
    rows = page.evaluate(FIGURES)
    ann = next(r for r in rows if r[0] == "Annegret")
    assert re.fullmatch(r"−?-?\d+,\d", ann[1]), ann  # the rating
    assert re.fullmatch(r"\d+,\d\d", ann[4]), ann  # points per shot
    assert re.fullmatch(r"\d+,\d", ann[10]), ann  # shots per round
    assert "." not in "".join(ann[1:]) and "not rated" not in page.locator("main").inner_text()
    for name, size in SIZES.items():
        # The page redraws the chart for the new width a moment after a resize (the figures
        # and the players chosen stay as they are), and marks itself loaded once done: the
        # mark is cleared here and waited for, so the width is measured on the chart drawn
        # for this size.
        page.evaluate("delete document.body.dataset.loaded")
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function("document.body.dataset.loaded === 'yes'")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], (name, width)
    snap(page, "german-stats-figures")
    ctx.close()
