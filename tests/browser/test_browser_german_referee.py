"""Issue 29, the referee page in German: the match log (its steps, effects, reasons, who
made each step, the dates), the match clock, the score chart's labels and the sensor map
read in German; no field id or seat colour in what the referee reads or hovers over."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, snap
from tv_support import ENGINEER_WORDS, german, post, score_a_point, step

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ENGLISH = re.compile(r"\b(?:reason|details|manual|started|round|ends|steps|Match|shot|"
                     r"correction|unused|mute|Mar|May|Oct|Dec)\b")  # months German writes otherwise


def test_the_referee_log_clock_chart_and_sensor_map_read_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = german(browser, server, "/referee", SIZES["tv-small"])
    api = page.context.request
    post(api, server, "/api/match/new", {"names": {"black": "Annegret", "white": "Bo"},
                                         "first": "black", "points_to_win_round": 1,
                                         "rounds_to_win_game": 2})
    step(api, server, {"correct": {"board": {"white.blue": 1}, "reason": "Skitt verrutscht"}})
    score_a_point(api, server)  # Annegret wins round 1
    log = page.locator("#log")
    expect(log).to_contain_text("Schuss von Annegret")
    expect(log).to_contain_text("Grund: Skitt verrutscht")
    expect(log.locator(".tag").first).to_have_text("von Hand")
    expect(log.locator("summary").first).to_have_text("Einzelheiten")
    expect(page.locator("#chart .round-label")).to_have_text(["Runde 1 endet"])
    expect(page.locator("#clock")).to_contain_text("Spiel ")
    # the date as German writes it: '2. Dez. 2026, 07:57:05' (English: '2 Dec 2026, ...')
    expect(page.locator("#clock")).to_contain_text(re.compile(r"\d\. \w+\.? \d{4}, "))
    # (the raw step stays behind the closed "Einzelheiten": innerText leaves it out)
    said = [page.locator(x).inner_text() for x in ("#log", "#clock", "#cells")]
    said.append(page.locator("#chart").text_content() or "")
    for text in said:
        assert not ENGLISH.search(text), ENGLISH.search(text)
        assert not ENGINEER_WORDS.search(text), ENGINEER_WORDS.search(text)
    titles = page.evaluate("[...document.querySelectorAll('#cells [title]')].map(e => e.title)")
    assert titles and not [x for x in titles if ENGINEER_WORDS.search(x) or "unused" in x], \
        titles[:8]
    assert "Rot bei Annegret" in titles, titles[:8]
    snap(page, "german-referee-log", full_page=True)
    page.context.close()
