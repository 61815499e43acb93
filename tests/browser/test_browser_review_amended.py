"""Issue 43, item 6: a review shown on the TV takes the shot's new words once it is amended
(the replay says it was amended, and how the rules ruled the amended shot), in both
languages, at the TV's sizes."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, at_each_size
from tv_support import one_server_per_module, post, snap, state, step

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server, api = one_server_per_module("review-amended")
TV = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
SAID = {"en": ("Replay of the shot, amended:", "(ruled invalid)"),
        "de": ("Wiederholung des Schusses, geändert:", "(für ungültig erklärt)")}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_on_the_tv_takes_the_amended_shots_words(
    browser: Any, server: LiveServer, api: Any, lang: str
) -> None:
    from playwright.sync_api import expect

    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"white.yellow": 2}, "reason": "set-up"}})
    shot = step(api, server, {"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    w, h = TV["1920x1080"]
    page = browser.new_context(viewport={"width": w, "height": h}).new_page()
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    post(api, server, "/api/referee/review-show",
         {"seen": state(api, server)["seq"], "seq": shot["last_step"]["seq"],
          "playing": False, "ms": 0, "speed": 1})
    words = page.locator("#review-mirror-words")
    expect(words).to_be_visible()
    amended, invalid = SAID[lang]
    expect(words).not_to_contain_text(amended)
    post(api, server, "/api/match/amend", {"invalid": True})
    expect(words).to_contain_text(amended)
    expect(words).to_contain_text(invalid)
    for name, _ in at_each_size([page], TV):  # the TV's sizes, the page resized
        expect(words).to_be_in_viewport()
        expect(words).to_contain_text(amended)
        snap(page, f"tv-{lang}-{name}-review-amended")
    post(api, server, "/api/referee/review-show",
         {"seq": None, "seen": state(api, server)["seq"]})
    assert state(api, server)["review_shown"] is None
    page.context.close()
