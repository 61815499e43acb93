"""Issue 29: the hub's stream overlays in German (``?lang=de``, else the browser's
Accept-Language): the table overlay's names, turn, last shot and round, and the standings'
headings; German words are long, so at 1920x1080 and 1280x720 nothing may leave its panel
or the screen. The players' names stay as given."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import keep_screenshot
from test_hub_overlay import Board, hub  # noqa: F401  (the hub with a board mid-game)

from hub.app import Hub
from hub.overlay import card_view
from hub.store import ReceivedEvent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup

SIZES = [(1920, 1080), (1280, 720)]
CLIPPED = """() => [...document.querySelectorAll(".ov *")].filter((e) =>
    e.getClientRects().length && (e.scrollWidth > e.clientWidth + 1
    || e.getBoundingClientRect().right > innerWidth + 0.5
    || e.getBoundingClientRect().bottom > innerHeight + 0.5 || e.getBoundingClientRect().x < 0))
  .map((e) => e.className || e.tagName)"""


def test_the_card_carries_its_words_in_german() -> None:
    names = {"black": "Ann", "white": ""}  # the second seat without a name
    match = Match(Rules(), Setup(first="black"), {"black": "Ann"})  # type: ignore[arg-type]
    match.apply({"shot": {"by": "black", "big": "placed"}})
    payload = {"match_id": 1, "seq": 1, "names": names, "state": match.state.to_json()}
    last = ReceivedEvent("b:1:1", "b", 1, 1, 0.0, "manual",
                         {"shot": {"by": "black", "big": "placed"}}, payload["state"], names)
    view = card_view(payload, last)
    assert view is not None
    assert view["last_shot"].startswith("Ann's shot (entered by the referee)")
    german = view["words_in"]["de"]
    assert german["names"] == {"black": "Ann", "white": "Zweiter Spieler"}
    assert german["turn_words"] == "Zweiter Spieler: den großen Skitt in die Mitte schießen"
    assert german["last_shot"].startswith("Schuss von Ann (vom Schiedsrichter eingetragen)")


@pytest.mark.parametrize("size", SIZES)
def test_the_table_overlay_reads_in_german(hub: tuple[str, Hub, Board], browser: Any,  # noqa: F811
                                           size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    url, app_hub, board = hub
    names = board.names
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(url + "/overlay?table=2&lang=de")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator(".ov-info")).to_have_text(f"Runde 1 · {names['white']} ist dran")
    expect(page.locator(".ov-last")).to_contain_text(f"Schuss von {names['black']}: ")
    assert "'s shot" not in page.locator(".ov-last").inner_text()
    rounds = page.locator('[data-player="black"] .ov-rounds')
    assert rounds.get_attribute("title") == "0 von 2 Runden gewonnen"
    assert page.locator('[data-player="black"] .ov-mark').get_attribute("aria-label") == "ist dran"
    board.step({"shot": {"by": "white", "delta": {}}})  # live, still in German
    app_hub.changed()
    expect(page.locator(".ov-last")).to_have_text(
        f"Schuss von {names['white']}: keine Punkte, kein Strafpunkt")
    assert page.evaluate(CLIPPED) == []
    keep_screenshot(page, f"hub-overlay-table-de-{size[0]}x{size[1]}")
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_standings_overlay_follows_the_browsers_language(
        hub: tuple[str, Hub, Board], browser: Any, size: tuple[int, int]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    url, app_hub, _ = hub
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="de-DE")
    page = ctx.new_page()
    page.goto(url + "/overlay/standings?top=4")
    expect(page.locator("#standings tr")).to_have_count(4)
    expect(page.locator(".ov-title")).to_have_text("Tabelle")
    assert page.locator(".ov-standings th").all_inner_texts() == [
        "#", "Spieler", "Gewonnen", "Gespielt", "Runden", "Punkte"]
    expect(page.locator("#standings tr").first.locator(".who")).to_have_text(
        app_hub.tournament.standings()[0].player)
    assert page.evaluate(CLIPPED) == []
    keep_screenshot(page, f"hub-overlay-standings-de-{size[0]}x{size[1]}")
    ctx.close()
