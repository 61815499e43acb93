"""Shot review on the referee page, in headless Chromium against the real app (simulated
board): open a sensed shot's review, step through it and check the drawing's counts against
the shot's timeline; amend the last shot from the review; mirror it on the scoreboard."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SCREENSHOTS, LiveServer, at_once, keep_screenshot
from waiting import wait_until

from firmware_bridge.counts import field_counts
from firmware_bridge.profile import load_profile

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

VIEWPORTS = {"tv": (1920, 1080), "tv720": (1280, 720), "tablet": (1024, 768),
             "tablet-portrait": (768, 1024), "phone": (390, 844)}


def state(ctx: Any, server: LiveServer) -> dict[str, Any]:
    return ctx.request.get(server.url + "/api/state").json()  # type: ignore[no-any-return]


def wait_for(ctx: Any, server: LiveServer, check: Any, what: str) -> dict[str, Any]:
    seen: list[dict[str, Any]] = []

    def checked() -> dict[str, Any] | None:
        seen[:] = [state(ctx, server)]
        return seen[0] if check(seen[0]) else None

    try:
        return wait_until(checked, what, every=0.05)  # type: ignore[no-any-return]
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {seen[0]['tracker']}") from None


def post(ctx: Any, server: LiveServer, path: str, data: dict[str, Any]) -> dict[str, Any]:
    r = ctx.request.post(server.url + path, data=data)
    assert r.ok, r.text()
    return r.json()  # type: ignore[no-any-return]


def play_shots(ctx: Any, server: LiveServer) -> int:
    """Ann and Bo place their big skitts and play a skitt each; then Ann's skitt lands on Bo's
    yellow and knocks her skitt on Bo's red into the minus field. Returns that shot's seq."""
    post(ctx, server, "/api/referee/login", {"pin": server.pin})
    post(ctx, server, "/api/match/new", {"seq": state(ctx, server)["seq"], "first": "black",
                                         "names": {"black": "Ann", "white": "Bo"}})
    moves = [("/api/board/big", {"player": "black", "on": True}),
             ("/api/board/big", {"player": "white", "on": True}),
             ("/api/board/place", {"field": "white.red"}),
             ("/api/board/place", {"field": "black.blue"})]
    for path, body in moves:
        n = state(ctx, server)["log_length"]
        post(ctx, server, path, body)
        wait_for(ctx, server, lambda s, n=n: s["log_length"] == n + 1
                 and s["tracker"]["mode"] == "ready", f"{path} {body}")
    at_once(server, ("remove", "white.red"), ("place", "minus"), ("place", "white.yellow"))
    s = wait_for(ctx, server, lambda s: s["log_length"] == 5 and s["tracker"]["mode"] != "review",
                 "Ann's shot")
    last = s["last_step"]
    assert last["source"] == "sensor"
    assert last["step"]["shot"]["delta"] == {"white.red": -1, "white.yellow": 1, "minus": 1}
    return int(last["seq"])


def expected_counts(ctx: Any, server: LiveServer, seq: int) -> list[dict[str, int]]:
    """The board after each change of the timeline, counted in Python from the file."""
    doc = ctx.request.get(server.url + f"/api/match/log/{seq}/review-file").json()
    timeline = doc["timeline"]
    profile = load_profile()
    active = set(timeline["before"])
    out = [field_counts(profile, frozenset(active))]
    for _ms, cell, on in timeline["changes"]:
        (active.add if on else active.discard)(cell)
        out.append(field_counts(profile, frozenset(active)))
    return out


def drawn_counts(page: Any) -> dict[str, int]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#review-board [data-field]')].map((g) => [g.dataset.field,
        Number(g.querySelector('.field-count').textContent)]))""")  # type: ignore[no-any-return]


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, f"{name}", full_page=True)


def test_the_review_steps_through_a_shot_as_the_sensors_saw_it(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = ctx.new_page()
        page.goto(server.url + "/referee")
        seq = play_shots(ctx, server)
        frames = expected_counts(ctx, server, seq)
        assert len(frames) >= 4, "three changes: red left, minus and yellow arrived"
        page.reload()
        page.locator(f'#log tr[data-seq="{seq}"] button[data-review]').click()
        panel = page.locator("#review")
        expect(panel).to_be_visible()
        words = panel.locator("#review-concluded")
        expect(words).to_have_text(re.compile(r"^Ann: \+1 skitt on .*, 1 skitt off Bo's red$"))
        expect(words).to_contain_text("+1 skitt on Bo's yellow")
        expect(words).to_contain_text("+1 skitt on the minus field")
        expect(panel).not_to_contain_text("{")
        expect(panel.locator("#review-change")).to_have_text("the board at rest before the shot")
        assert drawn_counts(page) == frames[0]
        for i in range(1, len(frames)):
            page.click("#review-next")
            expect(panel.locator("#review-change")).to_contain_text(f"change {i} of ")
            assert drawn_counts(page) == frames[i], f"frame {i}"
        expect(page.locator("#review-next")).to_be_disabled()
        for i in range(len(frames) - 2, -1, -1):
            page.click("#review-prev")
            assert drawn_counts(page) == frames[i], f"back to frame {i}"
        # the scrubber to the end, and a 0.25x play that ends on the settled board
        page.locator("#review-scrub").fill(page.locator("#review-scrub").get_attribute("max"))
        assert drawn_counts(page) == frames[-1]
        page.click("#review-slow")
        page.wait_for_function("document.getElementById('review-scrub').value !== '0'")
        expect(page.locator("#review-time")).to_contain_text(" s of ")
        for name, (w, h) in VIEWPORTS.items():
            page.set_viewport_size({"width": w, "height": h})
            panel.scroll_into_view_if_needed()
            box = page.locator("#review-board").bounding_box()
            assert box and 0 < box["width"] <= w, name
            # the review itself fits the width (the page header is issue 13's to fit)
            right = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
                '#review, #review *')].map((e) => e.getBoundingClientRect().right))""")
            assert right <= w + 1, f"{name}: the review is wider than the screen ({right})"
            shot(page, f"review-{name}")
            if name == "tablet":
                keep_screenshot(panel, "review-panel")
    finally:
        ctx.close()


def mirrored_review(ctx: Any, server: LiveServer, tv_path: str) -> tuple[Any, Any, int]:
    """Shots played, the referee page reviewing the last one and showing it on the TV at
    ``tv_path``: the referee's page, the TV's and the shot's seq, the mirror seen appearing."""
    from playwright.sync_api import expect

    page = ctx.new_page()
    page.goto(server.url + "/referee")
    seq = play_shots(ctx, server)
    page.reload()
    page.wait_for_function("document.body.classList.contains('referee')")
    tv = ctx.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(server.url + tv_path)
    expect(tv.locator("#review-mirror")).to_be_hidden()
    page.locator(f'#log tr[data-seq="{seq}"] button[data-review]').click()
    page.click("#review-show")
    expect(tv.locator("#review-mirror")).to_be_visible()
    return page, tv, seq


def test_the_last_shot_is_amended_and_mirrored_from_its_review(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page, tv, seq = mirrored_review(ctx, server, "/")
        expect(tv.locator("#review-mirror-words")).to_contain_text("1 skitt off Bo's red")
        for _ in range(3):
            page.click("#review-next")
        expect(tv.locator('#review-mirror-board [data-field="minus"] .field-count')).to_have_text(
            "1")
        expect(tv.locator('#review-mirror-board [data-field="white.red"] .field-count')
               ).to_have_text("0")
        shot(tv, "review-mirror-tv")
        page.click("#review-show")  # one tap ends it
        expect(tv.locator("#review-mirror")).to_be_hidden()

        form = page.locator("#review-amend")
        expect(form).to_be_visible()
        form.locator("input[name=off_board]").fill("1")
        form.locator("button[type=submit]").click()
        expect(page.locator("#review-body")).to_contain_text(f"step {seq + 1}: taken back")
        expect(page.locator("#review-body")).to_contain_text(
            f"step {seq + 2}: amended to Ann: ")
        expect(page.locator("#review-body")).to_contain_text("1 skitt off the board")
        expect(page.locator("#review-amend")).to_be_hidden()  # no longer the last shot
        shot(page, "review-amended")
        after = state(ctx, server)
        assert after["last_step"]["step"]["shot"]["off_board"] == 1
        # the amended shot was entered by hand: its review says it has no timeline
        page.locator(f'#log tr[data-seq="{seq + 2}"] button[data-review]').click()
        expect(page.locator("#review-body")).to_contain_text("no sensor timeline")
        expect(page.locator("#review-player")).to_be_hidden()
    finally:
        ctx.close()


def test_the_review_reads_in_german(browser: Any, server: LiveServer) -> None:
    """Issue 29: the log's review button, the review's clock and its toasts in German."""
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    try:
        page = ctx.new_page()
        page.goto(server.url + "/referee?lang=de")
        seq = play_shots(ctx, server)
        page.reload()
        page.wait_for_function("document.body.classList.contains('referee')")
        button = page.locator(f'#log tr[data-seq="{seq}"] button[data-review]')
        expect(button).to_have_text("Wiederholung")
        button.click()
        panel = page.locator("#review")
        expect(panel.locator("#review-title")).to_have_text(f"Wiederholung von Schritt {seq}")
        expect(panel.locator("#review-time")).to_contain_text(" s von ")
        # German writes a decimal comma: "0,00 s von 0,30 s"
        expect(panel.locator("#review-time")).to_have_text(
            re.compile(r"^\d+,\d\d s von \d+,\d\d s$"))
        form = page.locator("#review-amend")
        form.locator("button[type=submit]").click()
        expect(page.locator("#toast")).to_have_text("Nichts zum Schuss hinzuzufügen")
        form.locator("input[name=off_board]").fill("1")
        form.locator("button[type=submit]").click()
        expect(page.locator("#toast")).to_have_text("Der letzte Schuss wurde geändert")
    finally:
        ctx.close()
