"""Issue 43, item 3: while the referee is asked how many skitts a shot added to a field as full
as its sensors count, the TV says the referee is counting that field, in the players' words
and the TV's language, and never tells anyone to take off a skitt that lies there rightly."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, at_each_size, at_once, first_size
from tv_support import one_server_per_module, post, snap, state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server, api = one_server_per_module("tv-counting")
TV = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
"""The TV's sizes: a page is opened at the first and resized to the other."""
SAID = {"en": "The referee is counting Bo's blue", "de": "Der Schiedsrichter zählt Blau bei Bo"}


def two_skitts_onto_a_nearly_full_field(api: Any, server: LiveServer) -> None:
    """Bo's blue holds 13 of the 14 its cells count; Ann's shot puts two more there: the
    cells show 14, one lies there unseen, and the referee is asked."""
    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"white.blue": 13}, "reason": "a pile-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    at_once(server, ("place", "white.blue"), ("place", "white.blue"))
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "question")


def showing_now(browser: Any, server: LiveServer, api: Any, path: str,
                size: tuple[int, int] = (1280, 720), *, referee: bool = False) -> Any:
    """``path`` opened at ``size`` (by the signed-in referee when ``referee``), once it shows
    the match as it is now (the server's seq)."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    if referee:
        assert ctx.request.post(server.url + "/api/referee/login",
                                data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + path)
    seq = state(api, server)["seq"]
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")
    return page


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tv_says_the_referee_is_counting_and_asks_nobody_to_take_a_skitt_off(
    browser: Any, server: LiveServer, api: Any, lang: str
) -> None:
    from playwright.sync_api import expect

    two_skitts_onto_a_nearly_full_field(api, server)
    page = showing_now(browser, server, api, f"/?lang={lang}", first_size(TV))
    alert = page.locator(".alert-question")
    expect(alert).to_have_text(SAID[lang])
    for name, (w, h) in at_each_size([page], TV):
        box = alert.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= w, (name, box)
        assert box["y"] + box["height"] <= h, (name, box)
        assert page.locator("#board .diff-label").count() == 0, \
            page.locator("#board .diff-label").all_inner_texts()
        assert page.locator("#board .field-diff").count() == 0
        snap(page, f"tv-{lang}-{name}-referee-counting")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_shoot_off_is_asked_for_once_on_the_tv_and_the_tablet(
    browser: Any, server: LiveServer, api: Any, lang: str
) -> None:
    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "shootoff"})
    prompt = {"en": "Shoot-off: who starts?", "de": "Stechen: wer beginnt?"}[lang]
    for path, size in (("/", (1920, 1080)), ("/tablet", (1024, 768))):
        page = showing_now(browser, server, api, f"{path}?lang={lang}", size, referee=True)
        text = page.locator("body").inner_text()
        assert text.count(prompt) <= 1, (path, text)
        if path == "/":
            assert text.count(prompt) == 1, text
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_corrections_reason_is_said_once_on_the_tv(
    browser: Any, server: LiveServer, api: Any, lang: str
) -> None:
    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "black"})
    step(api, server, {"correct": {"score": {"black": 2}, "reason": "Zählfehler am Tisch"}})
    page = showing_now(browser, server, api, f"/?lang={lang}")
    text = page.locator("#effects").inner_text()
    assert text.count("Zählfehler am Tisch") == 1, text
    page.context.close()


def test_the_stream_overlay_shows_the_last_shots_whole_line(
    browser: Any, server: LiveServer, api: Any
) -> None:
    post(api, server, "/api/match/new", {"names": {
        "black": "Maximiliane Oberhollenzer-Quast", "white": "Bartholomäus Wunderlich-Schmidt"},
        "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"white.yellow": 2, "white.red": 2},
                                   "reason": "set-up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    page = showing_now(browser, server, api, "/overlay", first_size(TV))
    line = page.locator(".ov-last")
    said = state(api, server)["words"]["last_shot"]
    for name, _ in at_each_size([page], TV):
        assert line.inner_text() == said, name
        cut = line.evaluate("(e) => e.scrollWidth > e.clientWidth + 1 || "
                            "e.getBoundingClientRect().right > innerWidth")
        assert not cut, (name, said)
    page.context.close()
