"""The hub page as organisers read it and the referee's forms over results (issue 27,
items 2, 7 and 8), in headless Chromium at 1280x720 and 390x844, two referees each in a
browser context of their own; and the printable pages at every size."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    TOUCH_BELOW,
    at_every_size,
    is_touch,
    keep_screenshot,
    require_chromium,
    snap,
)
from hub_app_support import served_hub, tournament_of
from hub_support import game_steps, real_events

from hub.app import Hub
from hub.tournament import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
PIN = "1357"
SIDES = re.compile(r"\b(black|white)\b", re.IGNORECASE)
PUT_BACK = "Put back: take 1 skitt off the red"


def show(t: Tournament, board: str, events: list[Any], alerts: list[dict[str, str]]) -> None:
    """The board's latest state as its link publishes it."""
    last = events[-1]
    t.store.set_board_state(board, {"match_id": last.match_id, "seq": last.seq,
                                    "names": dict(last.names), "state": dict(last.state),
                                    "alerts": alerts}, at=last.at)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    """Round 1 of four players on two boards: board-1's game counted (its board to put
    back), board-2's typed with "Benn" for Ben, waiting for the referee."""
    require_chromium()
    with tournament_of(tmp_path, ("Ann", "Ben", "Cid", "Dee")) as t:
        clock = t.clock
        one, two = t.pair_next_round(["board-1", "board-2"])
        for board in ("board-1", "board-2"):
            t.store.set_board_status(board, True, at=1.0)
        benn = next(p for p in (one, two) if "Ben" in p.players())
        other = two if benn is one else one
        events = real_events(other.board or "", 1, (other.black, other.white or ""),
                             game_steps(black_wins=True))
        for i, ev in enumerate(events):
            clock.set(1_700_000_000.0 + i * 300)
            t.receive(ev)
        show(t, other.board or "", events, [{"kind": "restore", "message": PUT_BACK}])
        typed = tuple("Benn" if n == "Ben" else n for n in (benn.black, benn.white or ""))
        events = real_events(benn.board or "", 1, typed, game_steps(black_wins=False))
        for ev in events:
            t.receive(ev)
        show(t, benn.board or "", events, [])
        with served_hub(t, tmp_path, PIN) as (url, hub):
            yield url + "/", hub


def referee(browser: Any, url: str, size: tuple[int, int]) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    page.fill("#pin", PIN)
    page.click("#login button")
    page.locator("#logout").wait_for(state="visible")
    return page


def read_like_an_organiser(page: Any, w: int) -> None:
    text = page.locator("body").inner_text()
    assert not SIDES.findall(text) and '{"' not in text
    assert "–-" not in text and "-−" not in text  # never "points 3–-1"
    assert not re.search(r"\b\d+/\d+\b", text), "a bare '1/2' on the page"
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px at {w} px"
    # every table wider than its box says so; one that fits says nothing
    tables = page.evaluate("""() => [...document.querySelectorAll('main table')]
        .filter((t) => t.offsetParent !== null)
        .map((t) => [t.scrollWidth > t.clientWidth + 1,
                     !t.previousElementSibling.hidden
                     && t.previousElementSibling.classList.contains('swipe-hint')])""")
    assert tables and all(over == hinted for over, hinted in tables), tables
    if w < TOUCH_BELOW:  # a phone: each standing is a block of labelled figures, not a swipe
        over, label = page.evaluate("""() => {
            const t = document.querySelector('#standings');
            const td = t.querySelector('tbody td:nth-child(3)');
            return [t.scrollWidth - t.clientWidth, td && td.dataset.label]; }""")
        assert over <= 1, f"the standings are {over} px wider than the phone"
        assert label == "Played"


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_two_referees_put_results_right_and_the_page_reads_plainly(
    hub: tuple[str, Hub], browser: Any, size: tuple[int, int],
) -> None:
    from playwright.sync_api import expect

    url, h = hub
    t = h.tournament
    w = size[0]
    a, b = referee(browser, url, size), referee(browser, url, size)
    pairs = t.store.pairings(1)
    benn = next(p for p in pairs if "Ben" in p.players())
    played = next(p for p in pairs if p is not benn)

    # the board to put back after its game is a plain note, not a red alarm
    card = a.locator(f'article.board[data-board="{played.board}"]')
    expect(card.locator(".notes")).to_contain_text("Put back")
    expect(card.locator(".notes")).to_contain_text("Game over: counted for round 1")
    expect(card.locator(".alerts li")).to_have_count(0)
    red = card.locator(".notes li").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert red != "rgb(107, 16, 16)"
    # a result in plain words
    expect(a.locator("#rounds")).to_contain_text("won, rounds 1–0, points 5 to 2")
    expect(a.locator("#games")).to_contain_text(f"round 1, table {played.table}")
    expect(a.locator("#standings thead")).to_contain_text("Opponents' points")
    expect(a.locator("#forecast")).to_contain_text("Round 1 should end about")
    read_like_an_organiser(a, w)
    snap(a, f"hub-results-{w}-round1", full_page=True)

    # both open the Benn game to attach it; A attaches it, B's form says so and keeps its text
    for page in (a, b):
        page.locator("#attention li.claim button.attach").click()
        expect(page.locator("#attach-result")).to_be_visible()
        expect(page.locator("#attach-game")).to_have_value(f"1:{benn.table}")
        expect(page.locator("#attach-first-box")).to_be_visible()
    b.fill("#attach-reason", "typed Benn")
    snap(a, f"hub-results-{w}-attach")
    a.fill("#attach-reason", "Ben's name was mistyped on board-2")
    a.click("#attach-form button[type=submit]")
    expect(a.locator("#toast")).to_have_text("result counted")
    expect(b.locator("#attach-changed")).to_contain_text("no longer waits for you")
    assert b.input_value("#attach-reason") == "typed Benn"
    b.click("#attach-form button[type=submit]")
    expect(b.locator("#attach-note")).to_contain_text("waits for the referee")
    b.click("#attach-cancel")
    ben = b.locator("#standings tbody tr", has_text="Ben")
    expect(ben.locator("td").nth(3)).to_have_text("1")  # standings follow at once
    expect(a.locator("#decisions")).to_contain_text("Ben's name was mistyped")

    # both correct table 1's result; B, who saw the old one, is told what it is now
    for page in (a, b):
        row = page.locator("#rounds table").first.locator("tr").nth(played.table)
        row.locator("button.correct-result").click()
        expect(page.locator("#enter-result")).to_be_visible()
        expect(page.locator("#enter-first-points")).to_have_value("5")
    b.fill("#enter-second-points", "3")
    b.fill("#enter-reason", "a point missed")
    a.fill("#enter-first-points", "6")
    a.fill("#enter-reason", "the sheet says 6")
    a.click("#enter-form button[type=submit]")
    expect(a.locator("#toast")).to_have_text("result corrected")
    expect(b.locator("#enter-changed")).to_contain_text("points 6 to 2")
    assert b.input_value("#enter-second-points") == "3"  # kept under B's hands
    snap(b, f"hub-results-{w}-changed")
    b.click("#enter-form button[type=submit]")
    expect(b.locator("#enter-note")).to_contain_text("changed since you looked")
    b.click("#enter-renew")  # on purpose, for the result as it is now
    b.fill("#enter-first-points", "6")
    b.click("#enter-form button[type=submit]")
    expect(b.locator("#toast")).to_have_text("result corrected")
    expect(a.locator("#rounds")).to_contain_text("points 6 to 3")
    assert [d["action"] for d in t.store.decisions()] == ["accepted", "corrected", "corrected"]

    # round 2 paired: no card raises an alarm about its finished round-1 game
    assert a.locator("#pair").is_enabled()
    a.click("#pair")
    expect(a.locator("#toast")).to_have_text("round paired")
    for page in (a, b):
        expect(page.locator("#rounds h3")).to_have_count(2)
        for board in ("board-1", "board-2"):
            c = page.locator(f'article.board[data-board="{board}"]')
            expect(c.locator(".notes")).to_contain_text("Next on this board")
            expect(c.locator(".alerts li")).to_have_count(0)
    expect(a.locator("#forecast")).to_contain_text("Round 2 should end about")

    # a correction typed on a card with the keyboard goes on over the board's next event
    nxt = next(p for p in t.store.pairings(2) if p.board == "board-1")
    steps = real_events("board-1", 2, (nxt.black, nxt.white or ""), game_steps(True))
    for ev in steps[:2]:
        t.receive(ev)
    show(t, "board-1", steps[:1], [])
    h.changed()
    card = b.locator('article.board[data-board="board-1"]')
    expect(card.locator(".match")).to_have_text("match 2, event 1")
    card.locator(".reason").click()
    b.keyboard.type("a point ")
    show(t, "board-1", steps[:2], [])
    h.changed()
    expect(card.locator(".match")).to_have_text("match 2, event 2")
    b.keyboard.type("missed")
    expect(card.locator(".reason")).to_have_value("a point missed")
    read_like_an_organiser(b, w)
    snap(b, f"hub-results-{w}-round2", full_page=True)
    for part in ("#boards", "#standings", "#rounds"):  # each part, to look at closely
        keep_screenshot(b.locator(part), f"hub-results-{w}-{part[1:]}")
    assert a.errors == [] and b.errors == []  # type: ignore[attr-defined]
    a.context.close()
    b.context.close()


def test_the_printable_pages_are_black_on_white_and_fit_every_screen(
    hub: tuple[str, Hub], browser: Any,
) -> None:
    from playwright.sync_api import expect

    url, _ = hub
    for path, title in (("print/pairings", "Round 1 of 3: pairings"),
                        ("print/standings", "Standings")):
        def printed(size: tuple[int, int], path: str = path) -> Any:
            page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
            page.goto(url + path)
            return page

        for name, _, page in at_every_size(printed):
            expect(page.locator("h1")).to_have_text(title)
            colours = page.evaluate("[getComputedStyle(document.body).backgroundColor,"
                                    " getComputedStyle(document.body).color]")
            assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"], (path, name)
            wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert wide <= 0, f"{path} scrolls sideways by {wide} px at {name}"
            text = page.locator("body").inner_text()
            assert not SIDES.findall(text) and "Ann" in text
            snap(page, f"print-{path.split('/')[1]}-{name}", full_page=True)
            page.emulate_media(media="print")
            expect(page.locator("nav")).to_be_hidden()  # the links stay off the paper
            page.emulate_media(media="screen")
