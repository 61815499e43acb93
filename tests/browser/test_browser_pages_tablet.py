"""What a person sees and taps on the tablet and the referee page, in headless Chromium
against the real app (simulated board)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, probe, quiet_network, settled, snap
from live_page_support import api_state, api_step, log_in, page_context

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    with page_context(browser) as ctx:
        yield ctx


def test_both_players_decide_their_own_red_points_on_the_tablet(
        context: Any, server: LiveServer) -> None:
    """R4 (2026-11-30): one shot gives both players red points; each has their own choices."""
    from playwright.sync_api import expect

    tablet = context.new_page()
    tablet.goto(server.url + "/tablet")
    log_in(tablet, server.pin)
    for by in ("black", "white"):
        api_step(context, server, {"shot": {"by": by, "big": "placed"}})
    api_step(context, server, {"correct": {"board": {"white.red": 2, "black.red": 2, "minus": 1},
                                           "reason": "example"}})
    api_step(context, server, {"shot": {"by": "black", "delta": {
        "white.red": 1, "black.red": 1, "minus": -1}}})
    scoreboard = context.new_page()
    scoreboard.goto(server.url + "/")
    expect(scoreboard.locator("#p-black .score")).to_have_text("1")
    expect(scoreboard.locator("#p-white .score")).to_have_text("1")
    for player in ("black", "white"):
        expect(tablet.locator(f"#red-choices button[data-player={player}][data-choice=back]")
               ).to_be_enabled()
    for name, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        expect(tablet.locator("#red-choices")).to_contain_text("Hit on Red: Second player chooses")
        expect(tablet.locator("#red-choices")).to_contain_text("Hit on Red: First player chooses")
        snap(tablet, f"tablet-red-both-{name}", full_page=True)

    tablet.locator("#red-choices button[data-player=white][data-choice=back]").click()
    expect(scoreboard.locator("#p-black .score")).to_have_text("0")
    expect(scoreboard.locator("#p-white .score")).to_have_text("0")
    expect(tablet.locator("#red-choices button[data-player=white]")).to_have_count(0)
    tablet.locator("#red-choices button[data-player=black][data-choice=back]").click()
    expect(scoreboard.locator("#p-white .score")).to_have_text("\u22121")
    expect(scoreboard.locator("#p-black .score")).to_have_text("\u22121")


def test_hit_on_red_choice_and_undo_on_the_tablet(context: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    tablet = context.new_page()
    tablet.goto(server.url + "/tablet")
    log_in(tablet, server.pin)
    for by in ("black", "white"):
        api_step(context, server, {"shot": {"by": by, "big": "placed"}})
    api_step(context, server, {"correct": {"board": {"white.red": 2}, "reason": "example"}})
    api_step(context, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
    scoreboard = context.new_page()
    scoreboard.goto(server.url + "/")
    expect(scoreboard.locator("#p-black .score")).to_have_text("1")

    tablet.locator("#red-choices button[data-choice=back]").click()
    expect(scoreboard.locator("#p-white .score")).to_have_text("\u22121")
    expect(scoreboard.locator("#p-black .score")).to_have_text("0")

    tablet.locator("#undo").click()  # undo asks first
    expect(tablet.locator("#undo")).to_have_text("Yes, take it back")
    assert api_state(context, server)["log_length"] == len(
        context.request.get(server.url + "/api/match/log").json()["entries"])
    tablet.locator("#undo").click()
    expect(scoreboard.locator("#p-white .score")).to_have_text("0")
    expect(scoreboard.locator("#p-black .score")).to_have_text("1")
    expect(tablet.locator("#red-choices button[data-choice=back]")).to_be_enabled()
    chosen = tablet.locator("#red-choices button[data-choice=advance]")
    expect(chosen).to_have_attribute("aria-pressed", "true")  # selected, not greyed out
    assert chosen.evaluate("e => getComputedStyle(e).opacity") == "1"
    entries = context.request.get(server.url + "/api/match/log").json()["entries"]
    assert [e["kind"] for e in entries[-2:]] == ["decide", "undo"]
    assert entries[-2]["undone"] is True

    referee = context.new_page()
    referee.goto(server.url + "/referee")
    expect(referee.locator("#log tr[data-seq]")).to_have_count(len(entries))
    expect(referee.locator("#log tr.round-sep")).to_have_text(["Round 1"])
    expect(referee.locator("#clock")).to_contain_text(re.compile(r"Match \d+:\d\d · round 1"))
    assert '{"' not in referee.locator("#log").inner_text()  # the raw step hides in "details"
    referee.locator("#log details.raw summary").first.click()
    expect(referee.locator("#log details.raw code").first).to_contain_text('{"')
    csv_text = context.request.get(server.url + "/api/match/log.csv").text()
    assert csv_text.splitlines()[0].startswith("seq,time (UTC),round,source,step")
    assert len(csv_text.strip().splitlines()) == len(entries) + 1
    jsonl = context.request.get(server.url + "/api/match/log.jsonl").text().splitlines()
    assert '"match"' in jsonl[0] and len(jsonl) >= len(entries)
    expect(referee.locator("#chart path")).to_have_count(2)
    snap(referee, "referee", full_page=True)
    snap(tablet, "tablet", full_page=True)


def test_changes_are_refused_without_the_pin(context: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    tablet = context.new_page()
    tablet.goto(server.url + "/tablet")
    expect(tablet.locator("#login")).to_be_visible()
    # logged out, nothing that looks usable: only the login
    for control in ("#no-change", "#undo", "#sec-correct", "#sec-new"):
        expect(tablet.locator(control)).to_be_hidden()
    r = context.request.post(server.url + "/api/match/no-change",
                             data={"seq": api_state(context, server)["seq"]})
    assert r.status == 401 and "referee session required" in r.text()

    tablet.fill("#login input[name=pin]", "0000")
    tablet.click("#login button[type=submit]")
    expect(tablet.locator("#login .msg")).to_contain_text(
        re.compile(r"Wrong PIN: try again in \d+ s"))
    expect(tablet.locator("#login button[type=submit]")).to_be_disabled()  # counting down
    expect(tablet.locator("#login button[type=submit]")).to_be_enabled(timeout=15000)

    board = context.new_page()
    board.goto(server.url + "/board")
    board.locator('#vboard [data-field="white.red"]').click()
    # the refusal shows over the tapped field, where the player looks
    expect(board.locator("#tap-note")).to_contain_text("referee session required")
    state = api_state(context, server)
    assert state["log_length"] == 0
    assert state["virtual"]["counts"]["white.red"] == 0


def test_a_score_corrected_on_the_tablet_survives_a_reload_of_the_scoreboard(
    context: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = context.new_page()
    tablet.goto(server.url + "/tablet")
    log_in(tablet, server.pin)
    for by in ("black", "white"):
        api_step(context, server, {"shot": {"by": by, "big": "placed"}})
    page = context.new_page()
    page.goto(server.url + "/")

    tablet.locator("#sec-correct summary").click()
    for _ in range(3):
        tablet.get_by_role("button", name="Second player's score: one more").click()
    tablet.get_by_role("button", name="First player's score: one more").click()
    tablet.fill("#corr-reason", "a point the sensors missed")
    tablet.locator("#corr-send").click()
    expect(page.locator("#p-white .score")).to_have_text("3")
    expect(page.locator("#p-black .score")).to_have_text("1")

    def seen() -> tuple[str, ...]:
        return tuple(page.locator(s).inner_text() for s in (
            "#p-black .score", "#p-white .score", "#pot", "#round", "#effects"))

    shows_now = f"document.body.dataset.seq === '{api_state(context, server)['seq']}'"
    page.wait_for_function(shows_now)  # all of the correction drawn, not the scores alone
    before = seen()
    page.reload()
    page.wait_for_function(shows_now)  # the same match drawn again from the server's state
    expect(page.locator("#p-white .score")).to_have_text("3")
    assert seen() == before
    assert "due" in (page.locator("#p-black").get_attribute("class") or "")
    entry = context.request.get(server.url + "/api/match/log").json()["entries"][-1]
    assert entry["reason"] == "a point the sensors missed"
    assert entry["source"] == "manual"


def test_two_tablets_correcting_at_once_never_undo_each_other(
    browser: Any, server: LiveServer
) -> None:
    """Issue 13, item 8: the second correction is refused with words for what the first
    tablet did; issue 22, item 2: the second tablet's entries are kept, and sent again on
    purpose they keep both changes."""
    from playwright.sync_api import expect

    tablets = []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        page = ctx.new_page()
        page.clock.install()  # the page's timers run as usual, and can be run ahead at will
        probe(page)
        page.goto(server.url + "/tablet")
        log_in(page, server.pin)
        tablets.append(page)
    one, two = tablets
    for by in ("black", "white"):
        api_step(one.context, server, {"shot": {"by": by, "big": "placed"}})
    seq = str(api_state(one.context, server)["seq"])
    for page in tablets:
        expect(page.locator("body")).to_have_attribute("data-seq", seq)
        page.locator("#sec-correct summary").click()
    # tablet two starts typing
    two.get_by_role("button", name="First player's score: one more").click()
    one.get_by_role("button", name="Second player's score: one more").click()
    one.fill("#corr-reason", "tablet one")
    one.locator("#corr-send").click()
    expect(one.locator("#toast")).to_contain_text("correction applied")
    two.fill("#corr-reason", "tablet two")
    two.locator("#corr-send").click()
    expect(two.locator("#corr-conflict")).to_be_visible()
    expect(two.locator("#corr-conflict-text")).to_contain_text(
        "Second player's score was set to 1")
    expect(two.locator("output[aria-label=\"First player's score\"]")).to_have_text("1")  # kept
    expect(two.locator("#corr-reason")).to_have_value("tablet two")
    assert api_state(one.context, server)["state"]["score"] == {"black": 0, "white": 1}
    two.clock.run_for(2500)  # every timer due in 2.5 s fires: toasts, refreshes
    quiet_network(two)  # and what they asked for is answered
    settled(two)
    expect(two.locator("#corr-conflict")).to_be_visible()  # stays until answered
    snap(two, "tablet-1024x768-conflict", full_page=True)
    two.locator("#corr-conflict-ok").click()
    expect(two.locator("#toast")).to_contain_text("correction applied")
    expect(two.locator("#corr-conflict")).to_be_hidden()
    assert api_state(one.context, server)["state"]["score"] == {"black": 1, "white": 1}
    entries = one.context.request.get(server.url + "/api/match/log").json()["entries"]
    assert entries[-1]["step"]["correct"]["score"] == {"black": 1}  # only what two changed
    for page in tablets:
        page.context.close()


MARKUP_NAME = "<img src=x onerror=window.p=1>"


def test_a_name_holding_markup_shows_as_text_on_the_referee_page(
    context: Any, server: LiveServer
) -> None:
    """Issue 13: the score chart and the sensor map are built with DOM calls; a name that
    looks like HTML is shown as the text it is and creates no element."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(server.url + "/referee")
    log_in(page, server.pin)
    r = context.request.post(server.url + "/api/match/new", data={
        "seq": api_state(context, server)["seq"],
        "names": {"black": MARKUP_NAME, "white": "Bo"}, "first": "black"})
    assert r.ok, r.text()
    for by in ("black", "white"):
        api_step(context, server, {"shot": {"by": by, "big": "placed"}})
    r = context.request.post(server.url + "/api/referee/mute", data={"cell": 17})
    assert r.ok, r.text()
    expect(page.locator("#chart text", has_text=MARKUP_NAME)).to_have_count(1)  # the legend
    expect(page.locator("#chart path title").first).to_have_text(MARKUP_NAME)
    cell = page.locator('#cells [data-cell="17"]')
    expect(cell).to_have_class(re.compile(r"\bmuted\b"))
    assert page.locator("img").count() == 0
    assert page.evaluate("window.p") is None
    cell.get_by_role("button", name="unmute").click()  # the map's buttons still act
    expect(cell.get_by_role("button")).to_have_count(0)
    assert api_state(context, server)["sensors"]["muted"] == []
    snap(page, "referee-markup-name", full_page=True)
