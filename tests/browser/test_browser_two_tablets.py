"""Two tablets, one match (issue 22, items 1, 2, 5 and 7), each tablet its own browser context.

Every change carries the state its person saw when they decided: an Undo armed on a step
that another tablet took back meanwhile is refused and explained, never applied to the step
before it; an amendment being filled in survives another tablet's amendment; starting a new
match mid-match asks first and the replaced match can be taken up again; the tablet's
"Pause sensing" works.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, settled
from tv_support import one_server_per_module, post, snap, state, step, tablet

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

TABLET_SIZES = [(1024, 768), (768, 1024), (390, 844)]


server, api = one_server_per_module("two-tablets")


def showing(page: Any, api: Any, server: LiveServer) -> None:
    """Wait until the page shows the newest state."""
    seq = state(api, server)["seq"]
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def anna_then_ben(api: Any, server: LiveServer) -> None:
    """Anna v Ben: bigs placed, Anna scores a point, then Ben's shot changes nothing."""
    post(api, server, "/api/match/new",
         {"names": {"black": "Anna", "white": "Ben"}, "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"white.yellow": 2}, "reason": "set-up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    step(api, server, {"shot": {"by": "white", "delta": {}}})


def standing(api: Any, server: LiveServer) -> list[dict[str, Any]]:
    entries = api.get(server.url + "/api/match/log").json()["entries"]
    return [e for e in entries if not e["undone"] and e["kind"] == "shot"]


def test_a_second_tablets_armed_undo_never_takes_back_the_shot_before(
    browser: Any, server: LiveServer, api: Any
) -> None:
    """The flow at the first tablet size; the refusal's note is then checked at every size
    (the same page resized)."""
    from playwright.sync_api import expect

    anna_then_ben(api, server)
    a, b = (tablet(browser, server, TABLET_SIZES[0]), tablet(browser, server, TABLET_SIZES[0]))
    for page in (a, b):
        showing(page, api, server)
        expect(page.locator("#undo-what")).to_contain_text("Ben's shot")
        page.locator("#undo").click()  # armed on Ben's shot
        expect(page.locator("#undo")).to_have_text("Yes, take it back")
    a.locator("#undo").click()
    expect(a.locator("#toast")).to_contain_text("last step undone")
    b.locator("#undo").click()
    note = b.locator("#sec-undo .conflict.stale")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not undone")
    expect(note).to_contain_text("took back Ben's shot")
    expect(b.locator("#undo-what")).to_contain_text("Anna's shot")  # the page shows it now
    shots = standing(api, server)
    assert [e["step"]["shot"]["by"] for e in shots][-1] == "black", "Anna's shot stands"
    assert state(api, server)["state"]["score"]["black"] == 1
    for size in TABLET_SIZES:
        b.set_viewport_size({"width": size[0], "height": size[1]})
        settled(b)
        expect(note).to_be_visible()
        note.scroll_into_view_if_needed()
        box = note.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 0.5
        snap(b, f"tablet-{size[0]}x{size[1]}-undo-409")
    assert not a.errors and not b.errors, a.errors + b.errors
    a.context.close()
    b.context.close()


def test_an_amendment_being_filled_in_survives_another_tablets_amendment(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    anna_then_ben(api, server)
    a, b = tablet(browser, server), tablet(browser, server)
    for page in (a, b):
        showing(page, api, server)
        expect(page.locator("#last-shot")).to_contain_text("Ben's shot")
    b.locator("#amend-invalid").check()  # B starts to amend: Ben's shot was invalid
    a.get_by_role("button", name="Skitts off the board: one more").click()
    a.locator("#amend-send").click()
    expect(a.locator("#toast")).to_contain_text("last shot amended")
    expect(b.locator("#amend-changed")).to_be_visible()
    expect(b.locator("#amend-changed-text")).to_contain_text("The last shot changed meanwhile")
    expect(b.locator("#amend-invalid")).to_be_checked()  # never cleared under B's hands
    # B's Amend still goes against the shot B saw: refused, explained, the tick kept
    b.locator("#amend-send").click()
    expect(b.locator("#amend-changed-text")).to_contain_text("Not amended")
    expect(b.locator("#amend-invalid")).to_be_checked()
    last = standing(api, server)[-1]["step"]["shot"]
    assert last.get("off_board") == 1 and not last.get("invalid")
    snap(b, "tablet-1024x768-amend-kept")
    # sent again on purpose, for the shot as it is now: both amendments hold
    b.locator("#amend-resend").click()
    expect(b.locator("#toast")).to_contain_text("last shot amended")
    expect(b.locator("#amend-changed")).to_be_hidden()
    last = standing(api, server)[-1]["step"]["shot"]
    assert last.get("off_board") == 1 and last.get("invalid") is True
    # an amendment that changes nothing is refused in words and not logged
    before = len(api.get(server.url + "/api/match/log").json()["entries"])
    b.locator("#amend-invalid").uncheck()
    b.locator("#amend-invalid").check()
    b.locator("#amend-send").click()
    expect(b.locator("#toast")).to_contain_text("Nothing to amend")
    assert len(api.get(server.url + "/api/match/log").json()["entries"]) == before
    # and one dropped takes the shot as it is
    b.locator("#amend-invalid").uncheck()
    a.get_by_role("button", name="Skitts off the board: one less").click()  # A: none left the board
    a.locator("#amend-send").click()
    expect(a.locator("#toast")).to_contain_text("last shot amended")
    expect(b.locator("#amend-changed")).to_be_visible()
    b.locator("#amend-drop").click()
    expect(b.locator("#amend-changed")).to_be_hidden()
    expect(b.locator("#amend-invalid")).to_be_checked()  # the shot as it now is
    expect(b.locator('output[aria-label="Skitts off the board"]')).to_have_text("0")
    assert not a.errors and not b.errors, a.errors + b.errors
    a.context.close()
    b.context.close()


def test_starting_a_new_match_mid_match_asks_first_and_the_old_one_can_be_taken_up(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    anna_then_ben(api, server)
    anna_ben = state(api, server)["match_id"]
    page = tablet(browser, server)
    showing(page, api, server)
    page.locator("#sec-new summary").click()
    page.fill("#new-match input[name=black]", "Cy")
    page.fill("#new-match input[name=white]", "Di")
    page.locator("#new-send").click()
    confirm = page.locator("#new-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("This ends the match in play: Anna v Ben (score 1 : 0")
    assert state(api, server)["match_id"] == anna_ben, "nothing ends before the answer"
    for width, height in TABLET_SIZES:  # the question and its buttons fit every tablet size
        page.set_viewport_size({"width": width, "height": height})
        confirm.scroll_into_view_if_needed()
        box = page.locator("#new-confirm-yes").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        snap(page, f"tablet-{width}x{height}-new-match-asks")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.locator("#new-confirm-no").click()
    expect(confirm).to_be_hidden()
    assert state(api, server)["match_id"] == anna_ben
    page.locator("#new-send").click()
    page.locator("#new-confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("new match started")
    assert state(api, server)["names"] == {"black": "Cy", "white": "Di"}

    page.locator("#sec-earlier summary").click()
    item = page.locator(f"#earlier li[data-match='{anna_ben}']")
    expect(item).to_contain_text("Anna v Ben")
    item.get_by_role("button", name="Take it up again").click()
    expect(page.locator("#resume-confirm")).to_contain_text("Take up Anna v Ben")
    page.locator("#resume-confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("match taken up again")
    now = state(api, server)
    assert now["match_id"] == anna_ben
    assert now["state"]["score"] == {"black": 1, "white": 0}
    expect(page.locator("#st-black")).to_contain_text("Anna")
    snap(page, "tablet-1024x768-earlier-matches")
    assert not page.errors, page.errors
    page.context.close()


def test_pause_sensing_on_the_tablet_works(browser: Any, server: LiveServer, api: Any) -> None:
    from playwright.sync_api import expect

    page = tablet(browser, server)
    showing(page, api, server)
    expect(page.locator("#pause")).to_have_text("Pause sensing")
    page.locator("#pause").click()
    expect(page.locator("#toast")).to_have_text(re.compile("sensing paused"))
    expect(page.locator("#pause")).to_have_text("Resume sensing")
    assert state(api, server)["sensing"]["paused"] is True
    page.locator("#pause").click()
    expect(page.locator("#pause")).to_have_text("Pause sensing")
    assert state(api, server)["sensing"]["paused"] is False
    page.context.close()
