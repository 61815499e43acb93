"""The tournament page says the tournament's format, and why a game of another format waits for
the referee, at every size; the referee sets the format before round 1 from the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import SIZES, require_chromium
from hub_app_support import served_hub, tournament_of
from hub_support import game_steps, real_events
from tv_support import snap

from hub import intake
from hub.app import Hub
from hub.tournament import Tournament
from scorekeeper.options import Rules
from tournament_wire.offer import GameFormat

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PIN = "1357"
HELD = ("it was played to 5 points a round, 1 round win takes the game, with flipping, but "
        "the tournament plays 5 points a round, 3 round wins take the game, no flipping")


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    require_chromium()
    with (tournament_of(tmp_path, ("Anna", "Ben", "Cleo", "Dev")) as t,
          served_hub(t, tmp_path, PIN) as (url, made)):
        yield url + "/", made


def short_game(t: Tournament, board: str) -> None:
    """The board's offered game, played to one round with flipping: another format."""
    offer = dict(t.open_offers())[board]
    rules = Rules(rounds_to_win_game=1, flipping=True)
    for ev in real_events(board, 1, (offer.black, offer.white), game_steps(True), rules=rules):
        t.receive(intake.event(board, {
            "id": ev.id, "match_id": 1, "seq": ev.seq, "at": ev.at, "event": ev.event,
            "state": ev.state, "names": ev.names, "rules": ev.rules, "setup": ev.setup,
            "pairing": offer.ref()}))


def test_the_page_says_the_format_and_why_a_game_of_another_is_held(
    hub: tuple[str, Hub], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, made = hub
    t = made.tournament
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(url)
    expect(page.locator("#format")).to_have_text(
        "No format is set: games of any format count. Set one before round 1.")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#format-form")).to_be_visible()
    page.fill("#format-rounds", "3")
    page.click("#format-form button[type=submit]")
    expect(page.locator("#format")).to_contain_text(
        "Every game is played to 5 points a round, 3 round wins take the game, no flipping")
    assert t.game_format() == GameFormat(rounds_to_win_game=3)
    page.close()

    t.pair_next_round(["b1", "b2"])
    short_game(t, "b1")
    made.changed()  # what the hub's link does after every message it stores
    for name, (w, h) in SIZES.items():
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(url)
        expect(page.locator("#format")).to_have_text(
            "Every game is played to 5 points a round, 3 round wins take the game, no "
            "flipping; the boards are offered this format, and a game played to another is "
            "held for the referee.")
        expect(page.locator("#attention")).to_contain_text(HELD)
        page.fill("#pin", PIN)
        page.click("#login button")
        expect(page.locator("#attention button").first).to_be_visible()
        expect(page.locator("#format-form")).to_be_hidden()  # fixed once round 1 is paired
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert wide <= 0, f"horizontal scroll of {wide} px at {name}"
        page.locator("#attention-box").scroll_into_view_if_needed()
        snap(page, f"hub-format-{name}")
        page.close()
