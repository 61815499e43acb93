"""The tournament page in headless Chromium: boards live, standings, a match log, the referee."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import keep_screenshot, require_chromium, serving
from hub_support import game_steps, real_events

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

pytestmark = pytest.mark.browser


STOPPED = ("the hub has stopped storing what the boards send (its storing thread ended): "
           "restart it")

class Sender:
    connected = True

    def problems(self) -> list[str]:
        return list(self.broken)

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.broken: list[str] = []

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        self.sent.append((board, kind))
        return "c1"


def finish(t: Tournament, board: str, names: tuple[str, str]) -> None:
    """A real one-round game on ``board`` that the second player wins, step by step."""
    for ev in real_events(board, 1, names, game_steps(black_wins=False)):
        t.receive(ev)


@pytest.fixture
def page_url(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    require_chromium()

    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    pins = PinStore(tmp_path / "pin")
    pins.set("1357")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        tournament.add_player(name)
    pairs = tournament.pair_next_round(["board-1", "board-2"])
    store = tournament.store
    store.set_board_status("board-1", True, at=1.0)
    store.set_board_status("board-2", True, at=1.0)
    store.set_board_state("board-2", {
        "match_id": 1, "seq": 4, "names": {"black": pairs[1].black, "white": pairs[1].white},
        "state": {"phase": "playing", "turn": "white", "round": 1,
                  "score": {"black": 3, "white": 1}, "round_wins": {"black": 0, "white": 0}},
        "alerts": [{"kind": "link", "message": "sensor link down"}]}, at=1.0)
    # a board whose match has no names yet, and one without a match
    store.set_board_status("board-3", True, at=1.0)
    store.set_board_state("board-3", {
        "match_id": 2, "seq": 1, "names": {},
        "state": {"phase": "playing", "turn": "white", "round": 1,
                  "score": {"black": 0, "white": 0}, "round_wins": {"black": 0, "white": 0}}},
        at=1.0)
    store.set_board_status("board-4", True, at=1.0)
    finish(tournament, "board-1", (pairs[0].black, pairs[0].white or ""))
    # the second game, reported by a board it is not paired to: it waits for the referee
    finish(tournament, "board-3", (pairs[1].black, pairs[1].white or ""))
    hub = Hub(tournament, Sender(), pins, clock)
    try:
        with serving(lambda url: create_hub_app(hub)) as url:
            yield url + "/", hub
    finally:
        store.close()


def test_the_tournament_page_shows_boards_standings_and_lets_the_referee_act(
    page_url: tuple[str, Hub], browser: Any,
) -> None:
    from playwright.sync_api import expect

    url, hub = page_url
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    card = page.locator('article.board[data-board="board-2"]')
    expect(card.locator(".score")).to_have_text("3 : 1")
    expect(card.locator(".alerts")).to_contain_text("sensor link down")
    expect(card.locator(".white")).to_have_class("white turn")
    expect(page.locator("#standings tbody tr").first).to_contain_text("1")
    first = page.locator("#standings tbody tr").first.locator("td").nth(1)
    expect(first).to_have_text(hub.tournament.standings()[0].player)
    page.locator("#games tbody button").click()
    expect(page.locator("#log tbody tr")).to_have_count(4)
    second = hub.tournament.store.pairings(1)[0].white
    expect(page.locator("#log tbody")).to_contain_text(f"{second}'s shot")
    # Nobody logged in: no referee controls.
    expect(card.locator(".undo")).to_be_hidden()
    page.fill("#pin", "1357")
    page.click("#login button")
    expect(card.locator(".undo")).to_be_visible()
    page.once("dialog", lambda d: d.accept())
    card.locator(".undo").click()
    expect(page.locator("#toast")).to_have_text("undo sent")
    assert hub.sender.sent == [("board-2", "undo")]  # type: ignore[attr-defined]
    assert errors == []
    page.close()


HUB_SIZES = [(1920, 1080), (1280, 720), (1024, 768), (768, 1024), (390, 844)]
SIDES = re.compile(r"\b(black|white)\b", re.IGNORECASE)
SMALL_TARGETS = """() => [...document.querySelectorAll("button, a, input, select, summary")]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
    .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
    .filter(([, r]) => r.height < 44 || r.width < 44)
    .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def test_the_tournament_page_looks_like_the_board_pages_and_fits_tv_tablet_and_phone(
    page_url: tuple[str, Hub], browser: Any,
) -> None:
    from browser_support import SCREENSHOTS
    from playwright.sync_api import expect

    url, hub = page_url
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in HUB_SIZES:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(url)
        card = page.locator('article.board[data-board="board-2"]')
        expect(card.locator(".score")).to_have_text("3 : 1")
        # the board pages' dark panel colour, from the shared style sheet
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(18, 22, 28)", bg
        for who in ("anyone", "referee"):
            if who == "referee":
                page.fill("#pin", "1357")
                page.click("#login button")
                expect(card.locator(".undo")).to_be_visible()
                page.locator("#games tbody button").click()
                expect(page.locator("#log tbody tr")).to_have_count(4)
            wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert wide <= 0, f"horizontal scroll of {wide} px at {w}x{h} ({who})"
            small = page.evaluate(SMALL_TARGETS)
            assert small == [], f"touch targets under 44 px at {w}x{h} ({who}): {small}"
            text = page.locator("body").inner_text()
            assert not SIDES.findall(text), f"black/white on the page ({who})"
            assert '{"' not in text
        if (w, h) == HUB_SIZES[0]:
            unnamed = page.locator('article.board[data-board="board-3"]')
            expect(unnamed.locator(".detail")).to_contain_text("Second player to shoot")
            expect(unnamed.locator(".cb-who")).to_have_text("First player's score")
            named = page.locator('article.board[data-board="board-2"]')
            pair = hub.tournament.store.pairings(1)[1]
            expect(named.locator(".cw-who")).to_have_text(f"{pair.white}'s score")
            idle = page.locator('article.board[data-board="board-4"]')
            expect(idle.locator(".match")).to_have_text("no match yet")
            expect(idle.locator(".names")).to_be_hidden()
            expect(idle.locator(".detail")).to_have_text("no game started on this board")
            expect(idle.locator(".undo")).to_be_hidden()  # nothing to take back
        keep_screenshot(page, f"hub-{w}x{h}", full_page=True)
        page.close()


def _board_state(names: dict[str, str], seq: int, score: tuple[int, int]) -> dict[str, Any]:
    return {"match_id": 1, "seq": seq, "names": names,
            "state": {"phase": "playing", "turn": "black", "round": 1,
                      "score": {"black": score[0], "white": score[1]},
                      "round_wins": {"black": 0, "white": 0}}}


def test_the_page_follows_changes_and_recovers_from_a_missed_version_and_a_reconnect(
    page_url: tuple[str, Hub], browser: Any,
) -> None:
    import asyncio

    from playwright.sync_api import expect

    url, hub = page_url
    t, store = hub.tournament, hub.tournament.store
    second = store.pairings(1)[1]
    names = {"black": second.black, "white": second.white or ""}
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    one = page.locator('article.board[data-board="board-1"]')
    two = page.locator('article.board[data-board="board-2"]')
    expect(two.locator(".score")).to_have_text("3 : 1")
    page.evaluate("document.querySelector('[data-board=\"board-1\"]').dataset.kept = 'y'")

    # A board's change: its card alone is drawn again (the other is the same node).
    store.set_board_state("board-2", _board_state(names, 5, (4, 1)), at=2.0)
    hub.changed()
    expect(two.locator(".score")).to_have_text("4 : 1")
    assert one.get_attribute("data-kept") == "y"

    # A game ends: standings and finished games change.
    played = page.locator("#standings tbody tr", has_text=second.white or "")
    expect(played.locator("td").nth(2)).to_have_text("0")
    finish(t, "board-2", (second.black, second.white or ""))
    hub.changed()
    expect(page.locator("#games tbody tr")).to_have_count(2)
    expect(played.locator("td").nth(2)).to_have_text("1")

    # A frame lost on its way: the next one does not follow on, the page fetches the
    # whole state again and shows both changes.
    sent = hub.broadcaster.publish_frame
    lost: list[str] = []
    hub.broadcaster.publish_frame = lambda frame, full: lost.append(frame)  # type: ignore[method-assign]
    store.set_board_state("board-2", _board_state(names, 6, (4, 2)), at=3.0)
    hub.refresh()
    assert len(lost) == 1
    hub.broadcaster.publish_frame = sent  # type: ignore[method-assign]
    store.set_board_status("board-1", False, at=3.0)
    hub.changed()
    expect(two.locator(".score")).to_have_text("4 : 2")
    expect(one.locator(".alerts")).to_contain_text("offline")
    expect(page.locator("body")).to_have_attribute("data-version", str(hub.feed.version))

    # The hub drops every socket: the page reconnects and starts from the whole state.
    loop = hub.wake.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(hub.broadcaster.close_all(), loop).result(5)
    expect(page.locator("body")).to_have_class("offline")
    store.set_board_state("board-2", _board_state(names, 7, (5, 2)), at=4.0)
    hub.changed()
    expect(page.locator("body")).not_to_have_class("offline")
    expect(two.locator(".score")).to_have_text("5 : 2")
    expect(page.locator("body")).to_have_attribute("data-version", str(hub.feed.version))
    assert errors == []
    page.close()


def test_the_referee_counts_refuses_enters_and_removes_results_and_two_referees_do_not_collide(
    page_url: tuple[str, Hub], browser: Any,
) -> None:
    from playwright.sync_api import expect

    url, hub = page_url
    t = hub.tournament
    first, second = t.store.pairings(1)[0], t.store.pairings(1)[1]
    pages = []
    for _ in range(2):  # two referees, each in a browser of their own
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(url)
        page.fill("#pin", "1357")
        page.click("#login button")
        pages.append(page)
    a, b = pages
    claim = a.locator("#attention li.claim")
    expect(claim).to_contain_text(f"the game of {second.black} and {second.white} ended")
    expect(claim).to_contain_text("does not count until the referee accepts it")
    expect(a.locator("#decisions-box")).to_be_hidden()

    a.once("dialog", lambda d: d.accept())
    claim.locator("button.accept").click()
    expect(a.locator("#toast")).to_have_text("result counted")
    expect(claim).to_have_count(0)
    expect(b.locator("#attention li.claim")).to_have_count(0)  # the other referee sees it too
    expect(a.locator("#decisions tbody tr")).to_have_count(1)
    expect(a.locator("#decisions tbody")).to_contain_text("Result counted")
    assert len(t.store.games()) == 2

    # Both referees open "Remove result" on table 1: the reason is asked in a dialog of the
    # page (never the browser's prompt). The second one's typed reason is kept while the
    # first one removes the result, and its own removal is refused, saying why.
    table_one = a.locator("#rounds table").first.locator("tr").nth(1)
    b.locator("#rounds table").first.locator("tr").nth(1).locator("button.remove").click()
    expect(b.locator("#reason-result")).to_be_visible()
    expect(b.locator("#reason-title")).to_contain_text(
        f"Remove the result of round 1, table {first.table}: {first.black} v {first.white}")
    b.fill("#reason-text", "wrong board")
    table_one.locator("button.remove").click()
    expect(a.locator("#reason-send")).to_have_text("Remove the result")
    a.fill("#reason-text", "the points were typed wrong")
    keep_screenshot(a, "hub-remove-result-1280x720")
    a.click("#reason-send")
    expect(a.locator("#toast")).to_have_text("result removed")
    expect(a.locator("#reason-result")).to_be_hidden()
    expect(a.locator("#decisions tbody")).to_contain_text("the points were typed wrong")
    expect(b.locator("#reason-changed")).to_have_text(
        "Meanwhile this table's result changed: it has no result now.")
    assert b.input_value("#reason-text") == "wrong board"  # not cleared under the hands
    b.click("#reason-send")
    expect(b.locator("#reason-note")).to_contain_text("changed since you looked")
    expect(b.locator("#reason-result")).to_be_visible()
    assert b.input_value("#reason-text") == "wrong board"
    b.click("#reason-cancel")
    expect(b.locator("#reason-result")).to_be_hidden()

    # Both referees start entering table 1's result; the second one's form stays as typed
    # while the first one's result arrives, and its own is refused, saying why.
    b_row = b.locator("#rounds table").first.locator("tr").nth(1)
    b_row.locator("button.enter").click()
    expect(b.locator("#enter-result")).to_be_visible()
    b.select_option("#enter-winner", label=first.black)
    for field, value in (("first-rounds", "3"), ("second-rounds", "1"), ("first-points", "19"),
                         ("second-points", "11"), ("reason", "the board broke down")):
        b.fill(f"#enter-{field}", value)
    table_one.locator("button.enter").click()
    expect(a.locator("#enter-title")).to_have_text(
        f"Enter the result of round 1, table {first.table}: {first.black} v {first.white}")
    a.select_option("#enter-winner", label=first.white or "")
    for field, value in (("first-rounds", "0"), ("second-rounds", "3"), ("first-points", "7"),
                         ("second-points", "15"), ("reason", "from the score sheet")):
        a.fill(f"#enter-{field}", value)
    keep_screenshot(a, "hub-enter-result-1280x720")
    a.click("#enter-form button[type=submit]")
    expect(a.locator("#toast")).to_have_text("result entered")
    expect(a.locator("#enter-result")).to_be_hidden()
    expect(b.locator("#rounds")).to_contain_text("entered by the referee")
    assert b.input_value("#enter-first-points") == "19"  # not overwritten under the hands
    expect(b.locator("#enter-changed")).to_contain_text("Meanwhile this table's result changed")
    b.click("#enter-form button[type=submit]")
    expect(b.locator("#enter-note")).to_contain_text("changed since you looked")
    assert b.input_value("#enter-first-points") == "19"
    b.click("#enter-cancel")
    expect(b.locator("#decisions tbody tr")).to_have_count(3)
    (entered,) = [g for g in t.store.games() if g.board == "hub"]
    assert entered.result.winner == first.white
    for page in pages:
        text = page.locator("body").inner_text()
        assert not SIDES.findall(text) and '{"' not in text
        page.context.close()


def test_what_keeps_the_hub_from_hearing_the_boards_shows_at_the_top_and_refusals_on_the_card(
    page_url: tuple[str, Hub], browser: Any,
) -> None:
    from playwright.sync_api import expect

    url, hub = page_url
    hub.tournament.store.refuse("board-4", "payload of 40000000 bytes is larger than 16384 "
                                "bytes", at=2.0)
    hub.changed()
    for w, h in ((1920, 1080), (390, 844)):
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(url)
        expect(page.locator("#health-box")).to_be_hidden()
        card = page.locator('article.board[data-board="board-4"]')
        expect(card.locator(".alerts")).to_contain_text(
            "1 message from this board refused and not stored")
        hub.sender.broken = [STOPPED]  # type: ignore[attr-defined]
        hub.changed()
        expect(page.locator("#health-box")).to_be_visible()
        expect(page.locator("#health")).to_have_text(STOPPED)
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        keep_screenshot(page, f"hub-problem-{w}x{h}")
        hub.sender.broken = []  # type: ignore[attr-defined]
        hub.changed()
        expect(page.locator("#health-box")).to_be_hidden()
        page.close()
