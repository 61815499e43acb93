"""The tournament page with two referees (issue 22, items 1 and 2), each in a browser context
of their own: a correction being typed on a board's card survives the card's redraw when the
board reports, it is sent against the board's match as the referee saw it (the board refuses
it if that match moved on), and sent again on purpose it goes against the match as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import require_chromium, serving
from tv_support import snap

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
PIN = "1357"


class Sender:
    connected = True

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        self.sent.append({"board": board, "kind": kind, **kw})
        return f"c{len(self.sent)}"


def board_state(seq: int, score: tuple[int, int]) -> dict[str, Any]:
    return {"match_id": 1, "seq": seq, "names": {"black": "Ann", "white": "Bob"},
            "state": {"phase": "playing", "turn": "white", "round": 1,
                      "score": {"black": score[0], "white": score[1]},
                      "round_wins": {"black": 0, "white": 0}}}


@pytest.fixture
def hub_page(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    require_chromium()
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    pins = PinStore(tmp_path / "pin")
    pins.set(PIN)
    for name in ("Ann", "Bob"):
        tournament.add_player(name)
    tournament.pair_next_round(["board-1"])
    tournament.store.set_board_status("board-1", True, at=1.0)
    tournament.store.set_board_state("board-1", board_state(4, (3, 1)), at=1.0)
    hub = Hub(tournament, Sender(), pins, clock)
    try:
        with serving(lambda url: create_hub_app(hub)) as url:
            yield url + "/", hub
    finally:
        tournament.store.close()


def referee_page(browser: Any, url: str, size: tuple[int, int] = (1024, 768)) -> Any:
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(url)
    page.fill("#pin", PIN)
    page.click("#login button")
    page.locator('article.board[data-board="board-1"] .undo').wait_for(state="visible")
    return page


def test_a_correction_typed_on_a_card_survives_the_boards_report_and_keeps_what_was_seen(
    hub_page: tuple[str, Hub], browser: Any,
) -> None:
    from playwright.sync_api import expect

    url, h = hub_page
    sent: list[dict[str, Any]] = h.sender.sent  # type: ignore[attr-defined]
    a, b = referee_page(browser, url), referee_page(browser, url)
    card = b.locator('article.board[data-board="board-1"]')
    card.locator(".cb").fill("4")
    card.locator(".reason").fill("a point missed")
    # the board reports a shot meanwhile: every page redraws the card
    h.tournament.store.set_board_state("board-1", board_state(5, (3, 2)), at=2.0)
    h.changed()
    expect(card.locator(".score")).to_have_text("3 : 2")
    expect(card.locator(".cb")).to_have_value("4")  # never cleared under B's hands
    expect(card.locator(".reason")).to_have_value("a point missed")
    note = card.locator(".draft-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("moved on since you began")
    expect(a.locator('article.board[data-board="board-1"] .draft-note')).to_be_hidden()
    snap(b, "hub-1024x768-correction-kept")
    card.locator("button[type=submit]").click()  # against the match as B saw it
    expect(b.locator("#toast")).to_have_text("correction sent")
    assert sent[-1]["seq"] == 4 and sent[-1]["correct"]["score"] == {"black": 4}
    # sent on purpose for the match as it is now
    card.locator(".cb").fill("4")
    card.locator(".reason").fill("a point missed")
    h.tournament.store.set_board_state("board-1", board_state(6, (3, 3)), at=3.0)
    h.changed()
    expect(card.locator(".score")).to_have_text("3 : 3")
    before = len(sent)
    card.locator(".draft-send").click()
    # the first toast may still show: wait for the second correction itself
    expect(card.locator(".cb")).to_have_value("")
    assert len(sent) == before + 1 and sent[-1]["seq"] == 6
    expect(card.locator(".cb")).to_have_value("")
    # the other referee's undo goes against the step their card showed
    a.once("dialog", lambda d: d.accept())
    a.locator('article.board[data-board="board-1"] .undo').click()
    expect(a.locator("#toast")).to_have_text("undo sent")
    assert sent[-1]["kind"] == "undo" and sent[-1]["seq"] == 6
    a.context.close()
    b.context.close()
