"""Issue 29: the TV and the tablet in German, at every screen size.

German words are long: no page overflows sideways and no word on the TV is broken apart or
hyphenated. A round, a clearing, a chain and a refusal read in German; the players' names
stay as given.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, LiveServer, at_every_size, is_touch, snap
from tv_support import (
    BROKEN_WORDS,
    german,
    other,
    play_a_clearing,
    post,
    score_a_point,
    state,
    step,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAMES = {"black": "Annegret", "white": "Bo"}
OVERFLOW = """() => {
  const d = document.documentElement;
  const wide = [...document.querySelectorAll("body *")].filter((e) =>
    e.getClientRects().length && !e.closest("svg") && getComputedStyle(e).overflowX === "visible"
    && e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.id || e.className);
  return {scroll: d.scrollWidth, client: d.clientWidth, wide: wide.slice(0, 5)};
}"""
HYPHENATED = """() => [...document.querySelectorAll(".sb *")].filter((e) =>
  getComputedStyle(e).hyphens === "auto").map((e) => e.id || e.className)"""


def fits(page: Any) -> None:
    got = page.evaluate(OVERFLOW)
    assert got["scroll"] <= got["client"], got


def test_the_tv_reads_a_round_a_chain_and_a_clearing_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tv = german(browser, server, "/", SIZES["tv"])
    assert tv.evaluate("document.documentElement.lang") == "de"
    api = tv.context.request
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black",
                                         "points_to_win_round": 3, "rounds_to_win_game": 2})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    expect(tv.locator("#turn")).to_have_text("Annegret ist dran")
    expect(tv.locator("#round")).to_have_text("Runde 1")
    score_a_point(api, server)
    expect(tv.locator("#effects")).to_contain_text("Annegret +1: Wertung, Gelb bei Bo")
    # a chain between two of Annegret's fields, shot by Bo
    turn = state(api, server)["state"]["turn"]
    mine = other(turn)
    step(api, server, {"correct": {"board": {f"{mine}.red": 2, f"{mine}.blue": 2},
                                   "reason": "set-up"}})
    step(api, server, {"shot": {"by": turn, "chain": [f"{mine}.red", f"{mine}.blue"]}})
    expect(tv.locator("#effects")).to_contain_text(
        "Kette zwischen Rot bei Annegret und Blau bei Annegret")
    # a round: one point more wins it for the player due
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black",
                                         "points_to_win_round": 1, "rounds_to_win_game": 2})
    score_a_point(api, server)
    expect(tv.locator("#moment .title")).to_have_text("Annegret gewinnt Runde 1")
    expect(tv.locator("#moment .detail")).to_have_text("Rundensiege: Annegret 1, Bo 0")
    for name, size in SIZES.items():
        tv.set_viewport_size({"width": size[0], "height": size[1]})
        fits(tv)
        assert tv.evaluate(BROKEN_WORDS, ".sb") == [], name
        assert tv.evaluate(HYPHENATED) == [], name
        snap(tv, f"german-tv-{name}-round")
    tv.context.close()


def test_a_clearing_and_its_restore_read_in_german_on_the_tv(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tv = german(browser, server, "/", SIZES["tv"])
    api = tv.context.request
    play_a_clearing(api, server, 5, NAMES)
    expect(tv.locator("#effects")).to_contain_text("Blau auf beiden Seiten abgeräumt")
    expect(tv.locator("#alerts")).to_contain_text("Zurücklegen:")
    text = tv.locator("#alerts").inner_text()
    assert "take" not in text and "skitts off" not in text, text
    for name, size in SIZES.items():
        tv.set_viewport_size({"width": size[0], "height": size[1]})
        fits(tv)
        assert tv.evaluate(BROKEN_WORDS, ".sb") == [], name
        snap(tv, f"german-tv-{name}-clearing")
    tv.context.close()


def test_the_tablet_is_german_and_a_refusal_reads_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    for name, _, tablet in at_every_size(lambda size: german(browser, server, "/tablet", size)):
        expect(tablet.locator("body")).to_contain_text("Neues Spiel")
        fits(tablet)
        snap(tablet, f"german-tablet-{name}")
    tablet = german(browser, server, "/tablet", SIZES["tablet"])
    st = state(tablet.context.request, server)
    said = tablet.evaluate("""async (seen) => {
      const { Skitter } = await import("/static/live.js");  // the page's own module
      const r = await Skitter.api("/api/match/steps",
        {seq: seen.seq, boot: seen.boot, step: {shot: {by: "black", delta: {"white.red": 3}}}});
      return Skitter.errorText(r);
    }""", {"seq": st["seq"], "boot": st["boot"]})
    # issue 29: the whole refusal in German, made from its data (the big skitt first, R11)
    assert said == "Nicht möglich: Erster Spieler muss zuerst den großen Skitt schießen: er " \
        "ist noch in der Hand (R11, R12)", said
    tablet.context.close()


def test_the_german_tablet_names_the_callers_language_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = german(browser, server, "/tablet", SIZES["tablet"])
    try:
        status = tablet.locator("#caller-status")
        expect(status).to_contain_text("Der Ansager spricht Englisch am Fernseher")
        # the choice itself lists each language in its own words, as a picker does
        options = tablet.locator("#caller-language option").all_inner_texts()
        assert options == ["English", "Deutsch"], options
    finally:
        tablet.context.close()


@pytest.mark.parametrize("path, words", [
    ("/referee", "Spielprotokoll"), ("/board", "virtuelles Brett"), ("/stats", "Wertungen")])
def test_the_other_pages_are_german_at_every_size(
    browser: Any, server: LiveServer, path: str, words: str
) -> None:
    from playwright.sync_api import expect

    def opened(size: tuple[int, int]) -> Any:
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  has_touch=is_touch(size), locale="en-GB")
        assert ctx.request.post(server.url + "/api/referee/login",
                                data={"pin": server.pin}).ok
        page = ctx.new_page()
        page.goto(server.url + path + "?lang=de")
        return page

    for name, _, page in at_every_size(opened):
        expect(page.locator("body")).to_contain_text(words)
        assert page.evaluate("document.documentElement.lang") == "de"
        fits(page)
        snap(page, f"german{path.replace('/', '-')}-{name}")
