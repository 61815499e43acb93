"""The virtual board and the referee display as their users see them (issue 13, items 14, 15).

The board says who aims where and explains a refused tap over the field that was tapped; the
referee's log prints whole, shows the date with the time, and its score chart marks rounds.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, at_every_size, is_touch, page_at, snap
from tv_support import score_a_point, state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NAMES = {"black": "Ann", "white": "Bo"}


def logged_in(browser: Any, server: LiveServer, path: str, size: tuple[int, int]) -> Any:
    """A page at ``path`` in its own context, the referee logged in (its requests too), once
    it shows the referee's controls."""
    page = page_at(browser, server, path, size)
    page.wait_for_function("document.body.classList.contains('referee')")
    return page


def new_match(api: Any, server: LiveServer, **rules: int) -> None:
    r = api.post(server.url + "/api/match/new", data={
        "seq": state(api, server)["seq"], "names": NAMES, "first": "black", **rules})
    assert r.ok, r.text()


def note_by_field(page: Any, field: str, gap: float = 4.0) -> dict[str, float]:
    """The refusal note's box, checked to overlap the field's box or lie at most ``gap`` px
    from it. Both are measured at one moment: another client's update may redraw the field."""
    a, b = page.evaluate("""(field) => [
        document.getElementById('tap-note'),
        document.querySelector(`#vboard [data-field="${field}"] .field-rect`),
    ].map((e) => { const r = e.getBoundingClientRect();
                   return {x: r.x, y: r.y, width: r.width, height: r.height}; })""", field)
    assert a["width"] > 0 and a["height"] > 0, a
    assert (a["x"] <= b["x"] + b["width"] + gap and b["x"] <= a["x"] + a["width"] + gap
            and a["y"] <= b["y"] + b["height"] + gap
            and b["y"] <= a["y"] + a["height"] + gap), (a, b)
    return a  # type: ignore[no-any-return]


def long_press(page: Any, selector: str) -> None:
    """Hold a finger (the mouse) on ``selector`` past the long-press time: take one off."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    with page.expect_request(lambda r: "/api/board/remove" in r.url):  # the press's removal
        page.mouse.down()
    page.mouse.up()


@pytest.mark.parametrize("size", [SIZES["tv"], SIZES["phone"]], ids=["1920x1080", "390x844"])
def test_the_board_says_who_aims_where_and_a_full_field_keeps_taking_skitts(
    browser: Any, server: LiveServer, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    page = logged_in(browser, server, "/board", size)
    api = page.context.request
    new_match(api, server)
    aim = page.locator("#aim")
    expect(aim).to_have_text("Ann shoots at Bo's fields, top.")
    step(api, server, {"shot": {"by": "black", "big": "placed"}})
    expect(aim).to_have_text("Bo shoots at Ann's fields, bottom.")
    step(api, server, {"shot": {"by": "white", "big": "placed"}})
    expect(aim).to_have_text("Ann shoots at Bo's fields, top.")

    # Bo's red holds as many skitts as its 14 cells count: one more is taken (issue 24),
    # shown as more than the sensors count, and the referee is asked what the shot added
    step(api, server, {"correct": {"board": {"white.red": 14}, "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    field = page.locator('#vboard [data-field="white.red"]')
    expect(field.locator(".field-count")).to_have_text("14")
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    steps = state(api, server)["log_length"]
    if is_touch(size):
        field.locator(".field-rect").tap()
    else:
        field.locator(".field-rect").click()
    expect(field.locator(".field-count")).to_have_text("15")
    expect(field.locator(".full-label").first).to_have_text("full: more than")
    expect(page.locator("#full-note")).to_have_text(
        "Bo's red is full: more than the sensors count (15 on it, the sensors count 14).")
    expect(page.locator("#message")).to_have_text(re.compile(
        r"Bo's red is as full as its sensors can count: referee to say how many skitts "
        r"Ann's shot added there"))
    assert state(api, server)["log_length"] == steps  # nothing scored before the answer
    virtual = state(api, server)["virtual"]
    assert virtual["counts"]["white.red"] == 15 and virtual["sensed"]["white.red"] == 14
    snap(page, f"board-{size[0]}x{size[1]}-full-field")

    # a tap that cannot be done is still explained over the field, in players' words
    long_press(page, '#vboard [data-field="white.blue"] .field-rect')
    note = page.locator("#tap-note")
    expect(note).to_be_visible()
    expect(note).to_have_text("Not possible: no skitt on Bo's blue to remove")
    assert not re.search(r"\bcells?\b", note.inner_text(), re.IGNORECASE)
    box = note_by_field(page, "white.blue")
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
    expect(page.locator("#toast")).not_to_have_class(re.compile(r"\bshow\b"))
    page.context.close()


def test_the_board_a_full_field_and_a_refusal_at_every_size(
    browser: Any, server: LiveServer
) -> None:
    """Screenshots of the board with the aim line, a field holding more skitts than its
    sensors count, and a refused tap, at the five sizes."""
    from playwright.sync_api import expect

    setup = logged_in(browser, server, "/board", SIZES["tv"])
    api = setup.context.request
    new_match(api, server)
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"black.blue": 16}, "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    setup.context.close()
    pages = at_every_size(lambda size: logged_in(browser, server, "/board", size))
    for name, size, page in pages:
        expect(page.locator("#aim")).to_have_text("Ann shoots at Bo's fields, top.")
        blue = page.locator('#vboard [data-field="black.blue"]')
        expect(blue.locator(".field-count")).to_have_text("16")
        expect(page.locator("#full-note")).to_have_text(
            "Ann's blue is full: more than the sensors count (16 on it, the sensors count 14).")
        band = blue.locator(".full-band").bounding_box()
        rect = blue.locator(".field-rect").bounding_box()
        # the band lies over the field's top (the field's outline is a little wider)
        assert rect["x"] <= band["x"] and band["x"] + band["width"] <= rect["x"] + rect["width"]
        assert band["width"] >= 0.9 * rect["width"] and band["y"] >= rect["y"]
        label = blue.locator(".full-label").nth(1).bounding_box()
        assert rect["x"] <= label["x"] and label["x"] + label["width"] <= rect["x"] + rect["width"]
        note = page.locator("#tap-note")
        expect(note).to_be_hidden()  # (a resize hides the last size's note)
        long_press(page, '#vboard [data-field="white.yellow"] .field-rect')
        expect(note).to_be_visible()
        expect(note).to_have_text("Not possible: no skitt on Bo's yellow to remove")
        box = note_by_field(page, "white.yellow")  # where the player looks: on screen
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (name, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], name
        snap(page, f"board-{size[0]}x{size[1]}-refused-tap")


def play_past_round_ends(api: Any, server: LiveServer, round_ends: int) -> None:
    """Points until ``round_ends`` rounds are won, then one step of the next round."""
    new_match(api, server, points_to_win_round=2, rounds_to_win_game=round_ends + 1)
    while sum(state(api, server)["state"]["round_wins"].values()) < round_ends:
        score_a_point(api, server)
    step(api, server, {"correct": {"board": {"white.blue": 1}, "reason": "next round under way"}})


def test_the_referee_log_prints_whole_shows_dates_and_the_chart_marks_every_round(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = logged_in(browser, server, "/referee", SIZES["tv-small"])
    api = page.context.request
    play_past_round_ends(api, server, 2)
    entries = api.get(server.url + "/api/match/log").json()["entries"]
    expect(page.locator("#log tr[data-seq]")).to_have_count(len(entries))
    wrap = page.locator(".log-wrap")  # on screen the log scrolls in its box
    assert wrap.evaluate("e => e.scrollHeight > e.clientHeight + 1")

    # the score chart marks each round end, just after the step that won the round
    expect(page.locator("#chart .round-mark")).to_have_count(2)
    labels = page.locator("#chart .round-label").all_text_contents()
    assert labels == ["round 1 ends", "round 2 ends"], labels

    # the log, newest first, heads each round's steps with the round; the shot that won a
    # round stands under that round's heading, not the next one's
    rows = page.evaluate("""() => [...document.querySelectorAll('#log tr')].map((r) =>
        r.classList.contains('round-sep') ? {sep: r.textContent} : {text: r.textContent})""")
    assert rows[0] == {"sep": "Round 3"}
    assert [r["sep"] for r in rows if "sep" in r] == ["Round 3", "Round 2", "Round 1"]
    heading = None
    winners = 0
    for row in rows:
        heading = row.get("sep", heading)
        won = re.search(r"wins round (\d)", row.get("text", ""))
        if won:
            winners += 1
            assert heading == f"Round {won.group(1)}", (heading, row)
    assert winners == 2

    # the time of each step carries its date
    for cell in page.locator("#log tr[data-seq] td:nth-child(2)").all_inner_texts()[:3]:
        assert re.search(r"\b20\d\d\b", cell) and re.search(r"\b\d{1,2}:\d{2}:\d{2}\b", cell), cell
    snap(page, "referee-1280x720-log-and-chart")

    # printed: every row of the log, nothing cut off by a scroll box, no buttons or links
    page.emulate_media(media="print")
    hidden = page.evaluate("""() => [...document.querySelectorAll('#log tr[data-seq]')]
        .filter((r) => !r.getBoundingClientRect().height).map((r) => r.dataset.seq)""")
    assert hidden == []
    clipped = page.evaluate("""() => {
        const out = [];
        for (let e = document.getElementById('log'); e; e = e.parentElement) {
            const s = getComputedStyle(e);
            const clips = [s.overflowX, s.overflowY].some((o) => o !== 'visible');
            if (clips && e.scrollHeight > e.clientHeight + 1 && e !== document.documentElement
                && e !== document.body) out.push(e.className || e.tagName);
        }
        return out;
    }""")
    assert clipped == []
    shown = page.evaluate("""() => [...document.querySelectorAll(
        'button, a, nav, input, select, details.raw')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0;
        }).map((e) => e.id || e.textContent.trim().slice(0, 30) || e.tagName)""")
    assert shown == []
    width = page.evaluate("document.body.clientWidth")
    assert page.locator("table.log").bounding_box()["width"] >= 0.9 * width  # one column
    snap(page, "referee-print", full_page=True)
    page.context.close()


def test_the_referee_page_at_every_size(browser: Any, server: LiveServer) -> None:
    """Screenshots of the referee display after two round ends, at the five sizes."""
    from playwright.sync_api import expect

    setup = logged_in(browser, server, "/referee", SIZES["tv"])
    play_past_round_ends(setup.context.request, server, 1)
    setup.context.close()
    for name, size, page in at_every_size(lambda size: logged_in(browser, server, "/referee",
                                                                 size)):
        expect(page.locator("#chart .round-mark")).to_have_count(1)
        expect(page.locator("#log tr.round-sep").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], name
        snap(page, f"referee-{size[0]}x{size[1]}-rounds")
