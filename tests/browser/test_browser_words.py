"""Issue 22, item 6: words on the TV and the tablet that said something else than happened.

After an undo the TV says what was taken back; lifting a blockade keeps the shot's own
explanation beside the decision; a Hit on Red "back" reads as the shooter setting the other
back; rule codes stay on the referee page; the shoot-off and the correction form speak in
players' names; the tablet shows the winner; "1 round"; "no points, no penalty" is as large
as any effect line; the clearing instruction says where the flipped blockades go.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, at_once, page_at, snap
from tv_support import ENGINEER_WORDS, bigs_in_centre, post, score_a_point, state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NAMES = {"black": "Ann", "white": "Bo"}
RULE_CODE = re.compile(r"\bR\d{1,2}\b")


def new_match(api: Any, server: LiveServer, **rules: Any) -> None:
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black", **rules})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})


def visible_text(page: Any) -> str:
    return page.evaluate("document.body.innerText")  # type: ignore[no-any-return]


def test_after_an_undo_the_tv_says_what_was_taken_back(browser: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    tv = page_at(browser, server, "/", SIZES["tv"])
    api = tv.context.request
    new_match(api, server)
    score_a_point(api, server)
    effects = tv.locator("#effects")
    expect(effects).to_contain_text("Ann +1")
    post(api, server, "/api/match/undo", {})
    expect(effects).to_contain_text("Taken back by the referee: Ann's shot")
    first = effects.locator("li").first
    assert first.inner_text().strip().lower() != "undo"
    # the taken-back lines are struck through, not shown as if they scored
    taken = effects.locator("li del")
    assert taken.count() >= 1 and "Ann +1" in taken.first.inner_text()
    for size in SIZES.values():
        tv.set_viewport_size({"width": size[0], "height": size[1]})
        expect(effects).to_contain_text("Taken back")
        snap(tv, f"words-tv-{size[0]}x{size[1]}-undo")
    tv.context.close()


def test_lifting_a_blockade_keeps_the_clearing_and_shows_no_rule_codes(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tv = page_at(browser, server, "/", SIZES["tv"])
    api = tv.context.request
    new_match(api, server, flipping=True)
    step(api, server, {"correct": {"blocked": ["white.red"], "reason": "set-up"}})
    step(api, server, {"correct": {"board": {"white.blue": 1, "black.blue": 2},
                                   "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    step(api, server, {"shot": {"by": "black", "delta": {"white.blue": 1}}})
    effects = tv.locator("#effects")
    expect(effects).to_contain_text("cleared blue on both sides")
    alerts = tv.locator("#alerts")
    # the clearing's instruction: the skitts off, and the flipped blockades from the pot on
    expect(alerts).to_contain_text("take 2 skitts off Ann's blue, 1 off Bo's blue")
    expect(alerts).to_contain_text("a flipped skitt from the pot on Ann's blue and on Bo's blue")
    tablet = page_at(browser, server, "/tablet", SIZES["tablet"])
    tablet.wait_for_function("document.body.classList.contains('referee')")
    expect(tablet.locator("#unblock-choices")).to_contain_text("Ann may lift one blockade")
    text = visible_text(tablet)
    assert not RULE_CODE.search(text), RULE_CODE.findall(text)
    # the correction form's blocked boxes in players' words
    blocked = tablet.locator("#corr-blocked")
    assert "Bo's red" in blocked.text_content() and "white.red" not in blocked.text_content()
    tablet.locator('[data-unblock="white.red"]').click()
    expect(effects).to_contain_text("lifts the blockade on Bo's red")
    expect(effects).to_contain_text("cleared blue on both sides")  # still explained
    assert not RULE_CODE.search(tv.locator("#lastshot").inner_text())
    assert not RULE_CODE.search(visible_text(tv))
    assert not ENGINEER_WORDS.search(tv.locator("#lastshot").inner_text())
    snap(tv, "words-tv-1920x1080-unblock")
    referee = page_at(browser, server, "/referee", SIZES["tv"])
    expect(referee.locator("#effects")).to_contain_text("R16")  # the referee keeps them
    referee.context.close()
    tablet.context.close()
    tv.context.close()


def test_hit_on_red_back_reads_as_the_shooter_setting_the_other_back(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = page_at(browser, server, "/tablet", SIZES["tablet"])
    tablet.wait_for_function("document.body.classList.contains('referee')")
    api = tablet.context.request
    new_match(api, server)
    step(api, server, {"correct": {"board": {"white.red": 2}, "reason": "set-up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
    back = tablet.locator('#red-choices [data-choice="back"]')
    expect(back).to_have_text("Ann sets Bo back one")
    expect(tablet.locator('#red-choices [data-choice="advance"]')).to_have_text("Ann +1")
    text = visible_text(tablet)
    assert not RULE_CODE.search(text), RULE_CODE.findall(text)
    for size in SIZES.values():
        tablet.set_viewport_size({"width": size[0], "height": size[1]})
        back.scroll_into_view_if_needed()
        box = back.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size[0], (size, box)
        assert tablet.evaluate("document.documentElement.scrollWidth") <= size[0], size
        snap(tablet, f"words-tablet-{size[0]}x{size[1]}-hit-on-red")
    tablet.set_viewport_size({"width": 1024, "height": 768})
    back.click()  # Ann takes the point as back: the effect says who set whom back
    s = wait_for(api, server, lambda s: s["state"]["score"]["white"] == -1)
    said = [e["text"] for e in s["words"]["effects"]]
    assert "Ann sets Bo back one: Hit on Red" in said, said
    tablet.context.close()


def test_the_shoot_off_the_winner_and_the_rounds_in_players_words(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = page_at(browser, server, "/tablet", SIZES["tablet"])
    tablet.wait_for_function("document.body.classList.contains('referee')")
    tv = page_at(browser, server, "/", SIZES["tv"])
    api = tablet.context.request
    new_match(api, server, points_to_win_round=1, rounds_to_win_game=1)
    expect(tv.locator("#match-info")).to_contain_text("1 round")
    assert "1 rounds" not in tv.locator("#match-info").inner_text()
    step(api, server, {"correct": {"board": {"white.yellow": 2}, "reason": "set-up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
    tv_effects = tv.locator("#effects li")
    expect(tv.locator("#effects")).to_contain_text("no points, no penalty")
    sizes = tv.evaluate("""() => {
        const ul = document.getElementById('effects');
        const li = [...ul.querySelectorAll('li')].find((e) =>
            e.textContent.includes('no points, no penalty'));
        const part = [...li.querySelectorAll('*'), li].find((e) =>
            e.childNodes[0] && e.textContent.trim().startsWith('no points'));
        return [getComputedStyle(ul).fontSize, getComputedStyle(part || li).fontSize];
    }""")
    assert sizes[0] == sizes[1], sizes
    assert tv_effects.count() >= 1
    step(api, server, {"shot": {"by": "white", "delta": {}}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    assert state(api, server)["state"]["phase"] == "game_over"
    expect(tablet.locator("#st-winner")).to_have_text("Ann wins the game")
    snap(tablet, "words-tablet-1024x768-game-over")
    # a shoot-off: both players need one more round win
    new_match(api, server, points_to_win_round=1, rounds_to_win_game=2)
    score_a_point(api, server)
    score_a_point(api, server)
    assert state(api, server)["state"]["phase"] == "shootoff"
    labels = tablet.locator("#shootoff-steppers label")
    expect(labels.nth(0)).to_contain_text("Ann")
    expect(labels.nth(1)).to_contain_text("Bo")
    assert not re.search(r"\b(black|white)\b", tablet.locator("#sec-shootoff").inner_text())
    assert not RULE_CODE.search(visible_text(tablet))
    snap(tablet, "words-tablet-1024x768-shootoff")
    tv.context.close()
    tablet.context.close()


def test_a_refusal_on_the_tablet_is_said_without_rule_codes(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = page_at(browser, server, "/tablet", SIZES["phone"])
    tablet.wait_for_function("document.body.classList.contains('referee')")
    api = tablet.context.request
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black"})
    bigs_in_centre(api, server)
    # two skitts at once: more than one shot can add (R2)
    at_once(server, ("place", "white.red"), ("place", "white.red"))
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "review")
    message = tablet.locator("#board-message")
    expect(message).to_contain_text("refused")
    assert not RULE_CODE.search(message.inner_text()), message.inner_text()
    tablet.locator("#accept-board").click()
    toast = tablet.locator("#toast")
    expect(toast).to_contain_text("Not possible")
    assert not RULE_CODE.search(toast.inner_text()), toast.inner_text()
    snap(tablet, "words-tablet-390x844-refusal")
    tablet.context.close()
