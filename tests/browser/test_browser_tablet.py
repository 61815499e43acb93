"""The referee's tablet in words and out of harm's way (issue 13, items 7, 9 and 11).

A refusal of the rules reads as a sentence with its ruling; Undo is not placed beside "Turn
ended, no change"; the new-match form starts from the current names; the last shot breaks
lines only between words, even on a phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, at_every_size
from tv_support import (
    BROKEN_WORDS,
    LONG,
    one_server_per_module,
    post,
    score_a_point,
    snap,
    state,
    step,
    tablet,
    wait_for,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NOT_WORDS = re.compile(r"shot\.delta|\{\"|\b(?:black|white)\.[a-z]+|\[round \d")


server, api = one_server_per_module("tablet")


def new_match(api: Any, server: LiveServer, names: dict[str, str]) -> None:
    post(api, server, "/api/match/new", {"names": names, "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})


def test_a_refusal_of_the_rules_reads_in_words_without_its_rule_code(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    new_match(api, server, {"black": "Ann", "white": "Bo"})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    # Ann's shot puts two skitts on Bo's red at once: the rules refuse it (R2)
    assert api.post(server.url + "/api/board/place",
                    data={"field": "white.red", "skitts": 2}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "review")
    page = tablet(browser, server, (1024, 768))
    expect(page.locator("#accept-board")).to_be_visible()
    page.locator("#accept-board").click()
    toast = page.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bshow\b"))
    text = toast.inner_text()
    # issue 22, item 6: rule codes stay on the referee page, not on the tablet
    assert re.fullmatch(r"Not possible: [A-Za-z][^{}\[\]()]+", text), text
    assert not re.search(r"\bR\d{1,2}\b", text), text
    assert not NOT_WORDS.search(text), text
    assert not NOT_WORDS.search(page.locator("body").inner_text())
    snap(page, "tablet-1024x768-refusal")
    page.context.close()


def test_undo_is_apart_from_turn_ended_no_change(
    browser: Any, server: LiveServer, api: Any
) -> None:
    new_match(api, server, {"black": "Ann", "white": "Bo"})
    for name, _, page in at_every_size(lambda size: tablet(browser, server, size)):
        apart = page.evaluate("""() => {
          const undo = document.getElementById("undo"), none = document.getElementById("no-change");
          const a = undo.getBoundingClientRect(), b = none.getBoundingClientRect();
          const dx = Math.max(0, a.left - b.right, b.left - a.right);
          const dy = Math.max(0, a.top - b.bottom, b.top - a.bottom);
          return {sameSection: undo.closest("section") === none.closest("section"),
                  siblings: undo.parentElement === none.parentElement,
                  distance: Math.hypot(dx, dy)};
        }""")
        assert not apart["sameSection"] and not apart["siblings"], (name, apart)
        assert apart["distance"] >= 48, (name, apart)  # more than a finger's width apart


def test_the_new_match_form_keeps_the_current_names(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    page = tablet(browser, server, (1024, 768))
    page.locator("#sec-new summary").click()
    form = page.locator("#new-match")
    form.locator("input[name=black]").fill("Ann")
    form.locator("input[name=white]").fill("Bo")
    form.locator("#new-send").click()
    wait_for(api, server, lambda s: s["names"] == {"black": "Ann", "white": "Bo"})
    expect(page.locator("#st-black")).to_contain_text("Ann")
    # closed and opened again, and on a fresh page: the form holds the current names
    if page.locator("#sec-new").evaluate("e => e.open"):
        page.locator("#sec-new summary").click()
    page.locator("#sec-new summary").click()
    expect(form.locator("input[name=black]")).to_have_value("Ann")
    expect(form.locator("input[name=white]")).to_have_value("Bo")
    page.reload()
    page.locator("#sec-new summary").click()
    expect(form.locator("input[name=black]")).to_have_value("Ann")
    expect(form.locator("input[name=white]")).to_have_value("Bo")
    page.context.close()


def test_the_last_shot_breaks_lines_only_between_words(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    new_match(api, server, {"black": LONG, "white": "Bo"})
    score_a_point(api, server)  # "… +1: third skitt on Bo's yellow field"
    seq = state(api, server)["seq"]
    for _, (w, h), page in at_every_size(lambda size: tablet(browser, server, size)):
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
        expect(page.locator("#last-shot")).to_contain_text("third skitt")
        assert page.evaluate(BROKEN_WORDS, "#last-shot") == [], f"a word split at {w}x{h}"
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        page.locator("#last-shot").scroll_into_view_if_needed()
        snap(page, f"tablet-{w}x{h}-last-shot")
