"""What a person sees and taps, in headless Chromium against the real app (simulated board)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SCREENSHOTS, LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

DUE = re.compile(r"\bdue\b")


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    from playwright.sync_api import expect

    expect.set_options(timeout=8000)
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        yield ctx
    finally:
        ctx.close()


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def log_in(page: Any, pin: str) -> None:
    page.fill("#login input[name=pin]", pin)
    page.click("#login button[type=submit]")
    page.wait_for_function("document.body.classList.contains('referee')")


def api_state(ctx: Any, server: LiveServer) -> dict[str, Any]:
    return ctx.request.get(server.url + "/api/state").json()  # type: ignore[no-any-return]


def api_step(ctx: Any, server: LiveServer, step: dict[str, Any]) -> None:
    seq = api_state(ctx, server)["seq"]
    r = ctx.request.post(server.url + "/api/match/steps", data={"seq": seq, "step": step})
    assert r.ok, r.text()


def test_a_short_match_on_the_virtual_board_and_the_scoreboard_follows(
    context: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    board = context.new_page()
    board.goto(server.url + "/board")
    log_in(board, server.pin)
    scoreboard = context.new_page()
    scoreboard.goto(server.url + "/")
    expect(board.locator("#message")).to_contain_text("to place the big skitt")

    def tap(selector: str, then_due: str) -> None:
        board.locator(selector).click()
        expect(scoreboard.locator(f"#p-{then_due}")).to_have_class(DUE)

    tap("#vboard [data-big=black]", "white")
    tap("#vboard [data-big=white]", "black")
    for _ in range(2):
        tap('#vboard [data-field="white.red"]', "white")
        tap('#vboard [data-field="black.blue"]', "black")
    tap('#vboard [data-field="white.red"]', "white")  # the third skitt scores (R3)
    expect(scoreboard.locator("#p-black .score")).to_have_text("1")
    expect(scoreboard.locator("#effects")).to_contain_text("R")
    expect(scoreboard.locator("#alerts")).to_contain_text("Hit on Red")

    # a long press takes a skitt off: white knocks one off its opposite field (R9)
    field = board.locator('#vboard [data-field="black.blue"]')
    field.hover()
    board.mouse.down()
    board.wait_for_timeout(700)
    board.mouse.up()
    expect(scoreboard.locator("#p-black")).to_have_class(DUE)
    expect(board.locator('#vboard [data-field="black.blue"] .field-count')).to_have_text("1")
    state = api_state(context, server)
    assert state["state"]["score"] == {"black": 1, "white": 0}
    assert {e["source"] for e in state["log"]} == {"sensor"}
    shot(board, "board")
    shot(scoreboard, "scoreboard")


VIEWPORTS = {"tv": (1920, 1080), "tv-small": (1280, 720), "tablet": (1024, 768),
             "tablet-portrait": (768, 1024), "phone": (390, 844)}


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
    for name, (width, height) in VIEWPORTS.items():
        tablet.set_viewport_size({"width": width, "height": height})
        expect(tablet.locator("#red-choices")).to_contain_text("Hit on Red: Second player chooses")
        expect(tablet.locator("#red-choices")).to_contain_text("Hit on Red: First player chooses")
        shot(tablet, f"tablet-red-both-{name}")

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
    shot(referee, "referee")
    shot(tablet, "tablet")


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
        tablet.get_by_role("button", name="score white plus").click()
    tablet.get_by_role("button", name="score black plus").click()
    tablet.fill("#corr-reason", "a point the sensors missed")
    tablet.locator("#corr-send").click()
    expect(page.locator("#p-white .score")).to_have_text("3")
    expect(page.locator("#p-black .score")).to_have_text("1")

    def seen() -> tuple[str, ...]:
        return tuple(page.locator(s).inner_text() for s in (
            "#p-black .score", "#p-white .score", "#pot", "#round", "#effects"))

    before = seen()
    page.reload()
    expect(page.locator("#p-white .score")).to_have_text("3")
    assert seen() == before
    assert page.evaluate("document.body.dataset.seq") == str(api_state(context, server)["seq"])
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
    two.get_by_role("button", name="score black plus").click()  # tablet two starts typing
    one.get_by_role("button", name="score white plus").click()
    one.fill("#corr-reason", "tablet one")
    one.locator("#corr-send").click()
    expect(one.locator("#toast")).to_contain_text("correction applied")
    two.fill("#corr-reason", "tablet two")
    two.locator("#corr-send").click()
    expect(two.locator("#corr-conflict")).to_be_visible()
    expect(two.locator("#corr-conflict-text")).to_contain_text(
        "Second player's score was set to 1")
    expect(two.locator('output[aria-label="score black"]')).to_have_text("1")  # kept
    expect(two.locator("#corr-reason")).to_have_value("tablet two")
    assert api_state(one.context, server)["state"]["score"] == {"black": 0, "white": 1}
    two.wait_for_timeout(2500)
    expect(two.locator("#corr-conflict")).to_be_visible()  # stays until answered
    shot(two, "tablet-1024x768-conflict")
    two.locator("#corr-conflict-ok").click()
    expect(two.locator("#toast")).to_contain_text("correction applied")
    expect(two.locator("#corr-conflict")).to_be_hidden()
    assert api_state(one.context, server)["state"]["score"] == {"black": 1, "white": 1}
    entries = one.context.request.get(server.url + "/api/match/log").json()["entries"]
    assert entries[-1]["step"]["correct"]["score"] == {"black": 1}  # only what two changed
    for page in tablets:
        page.context.close()


def test_api_docs_render_with_every_outside_request_aborted(
    context: Any, server: LiveServer
) -> None:
    """Issue 13, item 17: /docs needs no internet (Swagger UI from a Python package)."""
    from playwright.sync_api import expect

    outside: list[str] = []

    def only_loopback(route: Any) -> None:
        if route.request.url.startswith("http://127.0.0.1:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page = context.new_page()
    page.route("**/*", only_loopback)
    page.goto(server.url + "/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("skitter scorekeeper")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    assert outside == []
    shot(page, "api-docs-offline")


def test_a_tap_held_while_another_client_redraws_the_board_counts_once(
    context: Any, server: LiveServer
) -> None:
    """Issue 13, item 13: the release lands on a new element; it is still one tap (a skitt
    added), never lost and never a long press that removes one."""
    from playwright.sync_api import expect

    board = context.new_page()
    board.goto(server.url + "/board")
    log_in(board, server.pin)
    field = board.locator('#vboard [data-field="white.red"] .field-rect')
    expect(field).to_be_visible()

    def count(name: str) -> int:
        return int(api_state(context, server)["virtual"]["counts"][name])

    box = field.bounding_box()
    board.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    seq = board.evaluate("document.body.dataset.seq")
    board.mouse.down()
    r = context.request.post(server.url + "/api/board/place", data={"field": "black.blue"})
    assert r.ok
    board.wait_for_function(f"document.body.dataset.seq !== '{seq}'")  # redrawn under the finger
    board.wait_for_timeout(150)
    board.mouse.up()
    board.wait_for_function(
        "() => document.querySelector('#vboard [data-field=\"white.red\"] .field-count')"
        ".textContent === '1'")
    board.wait_for_timeout(700)  # no late long press fires from the replaced element
    assert count("white.red") == 1 and count("black.blue") == 1

    for _ in range(2):  # two quick taps: two skitts
        field.click()
    board.wait_for_function(
        "() => document.querySelector('#vboard [data-field=\"white.red\"] .field-count')"
        ".textContent === '3'")
    assert count("white.red") == 3

    field.click(delay=700)  # a long press takes one off
    board.wait_for_function(
        "() => document.querySelector('#vboard [data-field=\"white.red\"] .field-count')"
        ".textContent === '2'")
    assert count("white.red") == 2


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
    shot(page, "referee-markup-name")


PAGES = ("/", "/tablet", "/board", "/referee")
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, a, input, select, summary, [role=button]')].filter((e) => {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || e.closest('.hidden')) return false;
      return r.width < 44 || r.height < 44;
    }).map((e) => e.id || e.textContent.trim().slice(0, 30) || e.tagName)"""


def test_pages_speak_words_and_fit_a_phone(browser: Any, server: LiveServer) -> None:
    """Issue 13, items 7 and 12: no JSON on a user page; on a 390x844 phone the tablet and the
    board have no horizontal scroll and every touch target is at least 44x44 px."""
    setup = browser.new_context()
    page = setup.new_page()
    page.goto(server.url + "/tablet")
    log_in(page, server.pin)
    for by in ("black", "white"):
        api_step(setup, server, {"shot": {"by": by, "big": "placed"}})
    api_step(setup, server, {"correct": {"board": {"white.red": 2}, "reason": "example"}})
    api_step(setup, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
    r = setup.request.post(server.url + "/api/match/steps", data={
        "seq": api_state(setup, server)["seq"],
        "step": {"shot": {"by": "white", "delta": {"black.red": 3}}}})
    assert r.status == 422  # a refusal on record for the pages to word
    setup.close()

    sizes = {"tablet": (1024, 768), "tablet-portrait": (768, 1024), "phone": (390, 844)}
    for label, (w, h) in sizes.items():
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=label == "phone")
        for path in PAGES:
            p = ctx.new_page()
            p.goto(server.url + path)
            if path == "/tablet" and not p.evaluate("document.body.classList.contains('referee')"):
                log_in(p, server.pin)
            p.wait_for_function("document.body.dataset.seq !== undefined")
            p.wait_for_timeout(200)
            text = p.locator("body").inner_text()
            assert '{"' not in text, (path, label)
            if label == "phone" and path in ("/tablet", "/board"):
                scroll = p.evaluate("document.documentElement.scrollWidth")
                assert scroll <= w, (path, scroll)
                assert p.evaluate(SMALL_TARGETS) == [], path
            name = "tablet" if path == "/tablet" else path.strip("/") or "tv"
            if path in ("/tablet", "/board", "/referee"):
                shot(p, f"{name}-{w}x{h}")
            p.close()
        ctx.close()


# Every target of the virtual board: its size, and what a tap at its centre reaches.
BOARD_TARGETS = """() => [...document.querySelectorAll('#vboard [data-press]')].map((e) => {
    e.scrollIntoView({block: "center", inline: "center"});
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const reached = hit && hit.closest('[data-press]');
    return {key: e.dataset.pressKey, w: r.width, h: r.height,
            reached: reached ? reached.dataset.pressKey : null};
})"""


def test_every_board_target_is_a_finger_wide_on_a_phone_and_taps_itself(
    browser: Any, server: LiveServer
) -> None:
    """Issue 13, item 12: on a 390x844 phone every field, big-skitt spot, launch spot and
    bridge of the virtual board is at least 44x44 px, a tap at its centre reaches it (the
    larger targets take nothing from their neighbours), and nothing scrolls sideways; the
    other sizes keep working."""
    for name, (w, h) in VIEWPORTS.items():
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=name == "phone")
        page = ctx.new_page()
        page.goto(server.url + "/board")
        page.wait_for_function("document.querySelectorAll('#vboard [data-press]').length > 0")
        targets = page.evaluate(BOARD_TARGETS)
        kinds = {t["key"].split(":")[0] for t in targets}
        assert kinds == {"field", "big", "launch", "bridge"}, kinds
        assert [t["key"] for t in targets if t["reached"] != t["key"]] == [], name
        if name == "phone":
            small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
            assert small == [], small
            assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= w, name
        shot(page, f"board-{w}x{h}")
        ctx.close()
