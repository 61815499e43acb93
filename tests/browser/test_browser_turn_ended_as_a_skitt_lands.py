"""Issue 36: the referee taps "turn ended, no change" on the tablet as Ann's skitt lands.

Real server, real clock, the virtual board and Chromium: the skitt lands on Bo's yellow and
the tap follows at once. However the two fall, no shot is scored for Bo, the skitt is not
lost and no sensor is called stuck: Ann's shot is scored (the tap then refused), or the
tablet asks in one sentence whose shot it was, with a button for each, and a tap on
"Score it for Ann" scores it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, LiveServer, page_at, snap
from tv_support import state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NAMES = {"black": "Ann", "white": "Bo"}
ASKED = {
    "en": ("Ann's skitt landed on Bo's yellow as you pressed 'turn ended': score it for Ann, "
           "or is it Bo's shot?", "Score it for Ann"),
    "de": ("Der Skitt von Ann ist auf Gelb bei Bo gelandet, als du „Zug beendet“ gedrückt "
           "hast: für Ann werten, oder ist es der Schuss von Bo?", "Für Ann werten"),
}


def yellow_shots(s: dict[str, Any]) -> list[str]:
    return [e["step"]["shot"]["by"] for e in s["log"]
            if "shot" in e["step"] and e["step"]["shot"].get("delta") and not e["undone"]]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", [SIZES["tablet"], SIZES["phone"]], ids=["1024x768", "390x844"])
def test_turn_ended_tapped_as_a_skitt_lands_never_scores_it_for_the_other_player(
    browser: Any, server: LiveServer, size: tuple[int, int], lang: str
) -> None:
    from playwright.sync_api import expect

    page = page_at(browser, server, f"/tablet?lang={lang}", size)
    api = page.context.request
    r = api.post(server.url + "/api/match/new", data={
        "seq": state(api, server)["seq"], "names": NAMES, "first": "black"})
    assert r.ok, r.text()
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    expect(page.locator("#no-change")).to_be_enabled()

    table: Any = server.table
    landing = table.feed.thread.submit(lambda: table.place_skitt("white.yellow"))
    page.evaluate("document.getElementById('no-change').click()")  # as the skitt lands
    landing.result(timeout=10)

    s = wait_for(api, server, lambda s: bool(yellow_shots(s)) or s["tracker"]["order"])
    assert "white" not in yellow_shots(s), s["log"]
    if s["tracker"]["order"]:
        text, choice = ASKED[lang]
        question = page.locator("#sec-question")
        expect(question.locator(".question-text")).to_have_text(text)
        snap(page, f"turn-ended-as-a-skitt-lands-{lang}-{size[0]}x{size[1]}")
        button = question.locator("button.choice[data-by=black]")
        expect(button).to_have_text(choice)
        button.click()
        s = wait_for(api, server, lambda s: bool(yellow_shots(s)))
        expect(question).to_be_hidden()
    assert yellow_shots(s) == ["black"], s["log"]
    s = wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    # Ann's shot; then Bo is due, unless the tablet had already shown Ann's shot when the
    # tap left it (a loaded machine): the referee then ended Bo's turn, seeing him due
    standing = [e["step"]["shot"] for e in s["log"] if "shot" in e["step"] and not e["undone"]
                and "big" not in e["step"]["shot"]]
    assert standing in ([{"by": "black", "delta": {"white.yellow": 1}}],
                        [{"by": "black", "delta": {"white.yellow": 1}},
                         {"by": "white", "delta": {}}]), s["log"]
    assert s["sensors"]["flags"] == [] and not any(
        a["kind"] == "sensor" for a in s["alerts"])
