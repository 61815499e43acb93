"""Skibbitt's page in headless Chromium: a puzzle played to a win and to a loss at the five
screen sizes in English and German (no sideways scroll, no tiles on top of each other), the
page's tools at one size, and the whole puzzle at /puzzle on skitter serve."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    SCREENS,
    SIZES,
    TOUCH_BELOW,
    at_each_size,
    first_size,
    is_touch,
    serving,
    snap,
)

from skibbitt.generator import generate
from skibbitt.puzzle import Difficulty
from skibbitt_app.server import create_app

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SEED = 11
BEST = [[t.notation for t in x.tiles] for x in generate(Difficulty.EXPERT, SEED).solution.chain]
WORDS = {"en": {"select": "Select", "won": "You found the best chain!",
                "lost": "not the best chain"},
         "de": {"select": "Auswählen", "won": "Du hast die beste Kette gefunden!",
                "lost": "nicht die beste Kette"}}

LAYOUT_FAULTS = """() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) out.push(`sideways scroll ${doc.scrollWidth}`);
  const boxes = [...document.querySelectorAll('#deal .tile, #slots .tile, #slots .slot')]
    .map((e) => ({c: e.dataset.code || 'slot', r: e.getBoundingClientRect()}));
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i].r;
    if (a.right > window.innerWidth + 0.5 || a.left < -0.5) out.push(`${boxes[i].c} off screen`);
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j].r;
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
          && b.top < a.bottom - 0.5) out.push(`${boxes[i].c} overlaps ${boxes[j].c}`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def puzzle_url() -> Iterator[str]:
    with serving(lambda url: create_app()) as url:
        yield url


def open_page(browser: Any, url: str, size: tuple[int, int], query: str) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size), accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url + "/puzzle/" + query)
    page.wait_for_selector("body[data-screen=game] #deal .tile")
    return page


def tap(page: Any, code: str) -> None:
    tile = page.locator(f"#deal .tile[data-code={code}]")
    if page.viewport_size["width"] < TOUCH_BELOW:
        tile.tap()
    else:
        tile.click()


def play(page: Any, chain: list[list[str]]) -> None:
    for number, triple in enumerate(chain, start=1):
        assert page.locator("body").get_attribute("data-round") == str(number)
        for code in triple:
            tap(page, code)
        assert page.evaluate(LAYOUT_FAULTS) == []
        page.locator("#select").click()
    page.wait_for_selector("body[data-state=won], body[data-state=lost]")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("screens", list(SCREENS))
def test_a_puzzle_played_to_a_win_and_to_a_loss(browser: Any, puzzle_url: str, screens: str,
                                                lang: str) -> None:
    """Played once on the screens without touch (the page resized to each of their sizes
    where the layout is looked at) and once on the phone, by taps."""
    from playwright.sync_api import expect

    words = WORDS[lang]
    sizes = SCREENS[screens]
    page = open_page(browser, puzzle_url, first_size(sizes),
                     f"?lang={lang}&difficulty=expert&seed={SEED}")
    expect(page.locator("#select")).to_have_text(words["select"])
    for size, _ in at_each_size([page], sizes):
        assert page.evaluate(LAYOUT_FAULTS) == [], size
    play(page, BEST)
    assert page.locator("body").get_attribute("data-state") == "won"
    expect(page.locator("#result-head")).to_have_text(words["won"])
    assert page.locator("[data-chain=yours] .chain-row.good").count() == 3
    assert page.locator("[data-chain=best] .chain-row").count() == 3
    total = sum(generate(Difficulty.EXPERT, SEED).solution.scores)
    expect(page.locator("#result-score")).to_contain_text(f"{total}")
    for size, _ in at_each_size([page], sizes):
        assert page.evaluate(LAYOUT_FAULTS) == [], size
        snap(page, f"skibbitt-won-{size}-{lang}", full_page=True)

    # A loss: the same three round-1 tiles selected in every round.
    page.reload()
    page.wait_for_selector("body[data-screen=game] #deal .tile")
    first = page.locator(".deal-round[data-round='1'] .tile").evaluate_all(
        "(ts) => ts.map((t) => t.dataset.code)")
    triple = first[:3] if sorted(first[:3]) != sorted(BEST[0]) else first[3:]
    play(page, [triple, triple, triple])
    assert page.locator("body").get_attribute("data-state") == "lost"
    expect(page.locator("#result-head")).to_contain_text(words["lost"])
    assert page.locator("[data-chain=yours] .chain-row.bad").count() == 3
    assert page.locator("#deal .tile.rejected").count() == 9
    for size, _ in at_each_size([page], sizes):
        assert page.evaluate(LAYOUT_FAULTS) == [], size
        snap(page, f"skibbitt-lost-{size}-{lang}", full_page=True)
    assert page.errors == []
    page.context.close()


def test_the_page_tools_hints_bookmarks_undo_keys_timer_mute_and_boast(
        browser: Any, puzzle_url: str, tmp_path: Any) -> None:
    from playwright.sync_api import expect

    page = open_page(browser, puzzle_url, SIZES["tv-small"], f"?difficulty=expert&seed={SEED}")
    # Hints: one used for the round, red while the workspace is not the best choice ...
    expect(page.locator("#hint")).to_have_text("Hint (5 left)")
    page.locator("#hint").click()
    expect(page.locator("#hint-list li")).to_have_count(1)
    assert page.locator("#hint-list li").get_attribute("data-match") == "no"
    page.keyboard.press("Escape")
    expect(page.locator("#hint-overlay")).to_be_hidden()
    # ... green once it is; looking again in the same round costs nothing.
    for code in BEST[0]:
        tap(page, code)
    page.keyboard.press("h")
    assert page.locator("#hint-list li").get_attribute("data-match") == "yes"
    page.locator("#hint-close").click()
    expect(page.locator("#hint")).to_have_text("Hint (4 left)")
    # Bookmarks: kept, highlighted while in the workspace, loaded back after Clear.
    page.locator("#bookmark").click()
    expect(page.locator("#marks li.current")).to_have_count(1)
    page.locator("#clear").click()
    expect(page.locator("#marks li.current")).to_have_count(0)
    expect(page.locator("#select")).to_be_disabled()
    page.locator("#marks li .load").click()
    expect(page.locator("#slots .tile")).to_have_count(3)
    # A tile of a later round may be planned with, not selected.
    page.locator("#clear").click()
    tap(page, BEST[2][0] if BEST[2][0] not in BEST[0] + BEST[1] else BEST[2][1])
    expect(page.locator("#work-note")).to_contain_text("later round")
    page.locator("#clear").click()
    # Keyboard: Enter on a focused tile puts it in, "s" selects, "u" undoes a round.
    for code in BEST[0]:
        page.locator(f"#deal .tile[data-code={code}]").focus()
        page.keyboard.press("Enter")
    page.keyboard.press("s")
    expect(page.locator("body")).to_have_attribute("data-round", "2")
    page.keyboard.press("u")
    expect(page.locator("body")).to_have_attribute("data-round", "1")
    expect(page.locator("#slots .tile")).to_have_count(3)
    # The timer keeps running through Reset.
    page.wait_for_function("document.getElementById('timer').textContent !== '0:00'")
    page.locator("#reset").click()
    expect(page.locator("#slots .tile")).to_have_count(0)
    assert page.locator("#timer").text_content() != "0:00"
    # Mute is remembered.
    page.locator("#mute").click()
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    page.reload()
    page.wait_for_selector("body[data-screen=game] #deal .tile")
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    # Revealed on demand: the best chain beside the player's.
    page.locator("#reveal").click()
    expect(page.locator("[data-chain=best] .chain-row")).to_have_count(3)
    # Boast saves a PNG of the solved board.
    play(page, BEST)
    with page.expect_download() as download:
        page.locator("#boast").click()
    saved = tmp_path / "boast.png"
    download.value.save_as(saved)
    assert download.value.suggested_filename == f"skibbitt-{SEED}.png"
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    snap(page, "skibbitt-tools-tv-small")
    assert page.errors == []
    page.context.close()


def test_the_title_screen_leads_to_the_daily_puzzle_and_back(browser: Any,
                                                             puzzle_url: str) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    page.goto(puzzle_url + "/?lang=de")
    page.wait_for_selector("#motd:not(:empty)")
    expect(page.locator("#start-daily")).to_have_text("Tagesrätsel")
    expect(page.locator("#version")).not_to_be_empty()
    snap(page, "skibbitt-title-phone-de")
    page.locator(".level.expert").tap()
    expect(page.locator(".level.expert")).to_have_attribute("aria-pressed", "true")
    page.locator("#start-daily").tap()
    page.wait_for_selector("body[data-screen=game]")
    expect(page.locator("#kind")).to_contain_text("Tagesrätsel")
    expect(page.locator("#level")).to_have_text("Experte")
    assert page.locator("#deal .tile").count() == 12
    page.locator("#new-puzzle").tap()
    expect(page.locator("body")).to_have_attribute("data-screen", "title")
    page.locator("#howto").tap()
    expect(page.locator("#en")).to_be_hidden()
    expect(page.locator("#de h1")).to_have_text("So spielt man Skibbitt")
    ctx.close()


def test_the_puzzle_is_played_whole_at_slash_puzzle_on_skitter_serve(browser: Any,
                                                                     server: Any) -> None:
    page = open_page(browser, server.url, SIZES["tablet"], f"?difficulty=expert&seed={SEED}")
    play(page, BEST)
    assert page.locator("body").get_attribute("data-state") == "won"
    assert page.errors == []
    page.context.close()


def test_a_solved_puzzle_earns_quality_points_and_every_50_a_hint(browser: Any,
                                                                 puzzle_url: str) -> None:
    from playwright.sync_api import expect

    page = open_page(browser, puzzle_url, SIZES["tablet"], f"?difficulty=expert&seed={SEED}")
    page.evaluate("localStorage.setItem('skibbitt.quality', '48')")
    page.reload()
    page.wait_for_selector("body[data-screen=game] #deal .tile")
    expect(page.locator("#hint")).to_have_text("Hint (5 left)")
    play(page, BEST)
    assert page.evaluate("localStorage.getItem('skibbitt.quality')") == "51"  # Expert: 3
    expect(page.locator("#hint")).to_have_text("Hint (6 left)")
    # The same puzzle solved again (after Undo) earns nothing more.
    page.locator("#result-undo").click()
    page.locator("#select").click()
    page.wait_for_selector("body[data-state=won]")
    assert page.evaluate("localStorage.getItem('skibbitt.quality')") == "51"
    page.context.close()
