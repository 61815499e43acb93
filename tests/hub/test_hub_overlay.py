"""The hub's stream overlays (issue 28, item 3): one per table, from the board's match as the
hub received it, and one for the tournament's standings; transparent, in players' names, no
alerts; live as the board's events arrive."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import keep_png, keep_screenshot, require_chromium, shown_box
from hub_app_support import served_hub, tournament_of
from hub_support import play_game

from hub.app import Hub
from hub.link import HubLink
from hub.overlay import card_view
from hub.store import ReceivedEvent
from hub.tournament import Tournament
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from tournament_wire.wire import Topics, encode, event_id, settings_from_url

pytestmark = pytest.mark.browser

ENGINEER = ("black", "white", "sensor link")


class Board:
    """A board playing a real match and reporting it to the hub as its link would: its
    messages go through the hub's link and intake, as from the broker."""

    def __init__(self, tournament: Tournament, board: str, names: tuple[str, str]) -> None:
        self.t, self.board = tournament, board
        self.link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), tournament)
        self.topics = Topics(self.link.prefix, board)
        self.names = {"black": names[0], "white": names[1]}
        self.rules = Rules(points_to_win_round=3, rounds_to_win_game=2)
        self.match = Match(self.rules, Setup(first="black"), self.names)  # type: ignore[arg-type]
        self.seq = 0

    def step(self, body: dict[str, Any], source: str = "sensor") -> None:
        self.match.apply(body)
        self.seq += 1
        state = self.match.state.to_json()
        self.link.handle(self.topics.events, encode({
            "v": 1, "id": event_id(self.board, 1, self.seq), "board_id": self.board,
            "match_id": 1, "seq": self.seq, "at": 1_700_000_000.0 + self.seq,
            "source": source, "event": body, "names": self.names,
            "rules": self.rules.to_json(), "setup": {"first": "black"}, "state": state}))
        self.link.handle(self.topics.state, encode({
            "v": 1, "board_id": self.board, "match_id": 1, "seq": self.seq,
            "names": self.names, "state": state, "previous": [], "at": 1.0,
            "alerts": [{"kind": "link", "message": "sensor link down"}]}))


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, Hub, Board]]:
    require_chromium()
    with tournament_of(tmp_path, ("Ann", "Bob", "Cid", "Dee")) as tournament:
        for b in ("board-1", "board-2"):
            tournament.store.set_board_status(b, True, at=1.0)
        pairs = tournament.pair_next_round(["board-1", "board-2"])
        table2 = next(p for p in pairs if p.table == 2)
        board = Board(tournament, str(table2.board), (table2.black, str(table2.white)))
        board.step({"shot": {"by": "black", "big": "placed"}})
        board.step({"shot": {"by": "white", "big": "placed"}})
        board.step({"correct": {"board": {"white.yellow": 2}, "reason": "set-up"}})
        board.step({"shot": {"by": "black", "delta": {"white.yellow": 1}}})
        table1 = next(p for p in pairs if p.table == 1)
        play_game(tournament, str(table1.board), 1, (table1.black, table1.white),
                  black_wins=True)
        with served_hub(tournament, tmp_path, "1357") as (url, app_hub):
            yield url, app_hub, board


def test_card_view_in_names_and_never_an_alert() -> None:
    names = {"black": "Ann", "white": "Bo"}
    match = Match(Rules(), Setup(first="black"), names)  # type: ignore[arg-type]
    match.apply({"shot": {"by": "black", "big": "placed"}})
    payload = {"match_id": 1, "seq": 1, "names": names, "state": match.state.to_json(),
               "alerts": [{"kind": "link", "message": "sensor link down"}]}
    last = ReceivedEvent("b:1:1", "b", 1, 1, 0.0, "manual",
                         {"shot": {"by": "black", "big": "placed"}}, payload["state"], names)
    view = card_view(payload, last)
    assert view is not None
    assert view["names"] == names and view["turn"] == "white"
    assert view["last_shot"].startswith("Ann's shot (entered by the referee)")
    assert view["turn_words"].startswith("Bo")
    assert "sensor" not in str(view)
    # an event older than the state: no line rather than a wrong one
    assert card_view({**payload, "seq": 2}, last)["last_shot"] == ""  # type: ignore[index]
    assert card_view({"match_id": None, "seq": 0, "names": {}, "state": None}, None) is None
    # a state the words cannot read still gives an overlay
    odd = card_view({"seq": 1, "names": names, "state": {"phase": 3, "rules": []}}, None)
    assert odd is not None and odd["moment"] is None


def test_the_game_won_moment_reaches_the_overlay_as_json() -> None:
    """The overlay's socket sends the card as JSON: the moment in words, in each language."""
    names = {"black": "Ann", "white": "Bo"}
    match = Match(Rules(), Setup(first="black"), names)  # type: ignore[arg-type]
    over = {**match.state.to_json(), "phase": "game_over", "winner": "black",
            "round_wins": {"black": 2, "white": 1}}
    view = card_view({"match_id": 1, "seq": 9, "names": names, "state": over}, None)
    assert view is not None
    assert view["moment"] == {"kind": "game", "title": "Ann wins the game",
                              "detail": "Final result: 2 round wins to 1"}
    assert view["words_in"]["de"]["moment"]["title"] == "Ann gewinnt das Spiel"
    json.loads(json.dumps(view))


def alpha_at(page: Any, png: bytes, x: int, y: int) -> int:
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    return int(page.evaluate("""async ([url, x, y]) => {
        const img = new Image(); img.src = url; await img.decode();
        const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        return g.getImageData(x, y, 1, 1).data[3];
    }""", [url, x, y]))


def test_a_table_overlay_follows_its_board_live(hub: tuple[str, Hub, Board], browser: Any) -> None:
    from playwright.sync_api import expect

    url, app_hub, board = hub
    names = board.names
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.goto(url + "/overlay?table=2&corner=bottom-right&scale=1.25")
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator('[data-player="black"] .ov-name')).to_have_text(names["black"])
    expect(page.locator('[data-player="white"] .ov-name')).to_have_text(names["white"])
    expect(page.locator('[data-player="black"] .ov-points')).to_have_text("1")
    expect(page.locator('[data-player="black"] .ov-rounds')).to_have_text("○○")  # first to 2
    expect(page.locator(".ov-last")).to_have_text(
        f"{names['black']}'s shot: {names['black']} +1: third skitt on {names['white']}'s yellow "
        "field")
    expect(page.locator(".ov-info")).to_have_text(f"Round 1 · {names['white']} to shoot")
    assert page.locator('[data-player="white"]').evaluate("e => e.classList.contains('due')")
    text = page.locator("body").inner_text()
    assert not any(word in text.lower() for word in ENGINEER), text
    assert page.locator("input").count() == 0
    b = page.locator(".ov").bounding_box()
    assert 1920 - (b["x"] + b["width"]) < 100 and 1080 - (b["y"] + b["height"]) < 100
    png = page.screenshot(omit_background=True)
    keep_png("hub-overlay-table-1920x1080", png)
    assert alpha_at(page, png, 10, 10) == 0

    # the board scores on: the overlay follows without a reload
    board.step({"shot": {"by": "white", "delta": {}}})
    app_hub.changed()
    expect(page.locator(".ov-info")).to_have_text(f"Round 1 · {names['black']} to shoot")
    expect(page.locator(".ov-last")).to_have_text(f"{names['white']}'s shot: no points, no penalty")
    ctx.close()
    for w, h in ((1280, 720), (1024, 768), (768, 1024), (390, 844)):
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        page.goto(url + f"/overlay?board={board.board}&corner=bottom-left")
        expect(page.locator('[data-player="black"] .ov-name')).to_have_text(names["black"])
        for part in (".ov-score", ".ov-info", ".ov-last"):
            b = page.locator(part).bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= w + 0.5, (w, h, part, b)
            assert b["y"] + b["height"] <= h + 0.5, (w, h, part, b)
        keep_screenshot(page, f"hub-overlay-table-{w}x{h}", omit_background=True)
        ctx.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_standings_overlay(hub: tuple[str, Hub, Board], browser: Any,
                               size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    url, app_hub, _ = hub
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(url + "/overlay/standings?top=3")
    rows = page.locator("#standings tr")
    expect(rows).to_have_count(3)
    standings = app_hub.tournament.standings()
    expect(rows.first.locator(".who")).to_have_text(standings[0].player)
    assert standings[0].won == 1
    expect(rows.first).to_contain_text("1")
    b = page.locator(".ov").bounding_box()
    assert b["x"] + b["width"] <= size[0] and size[0] - (b["x"] + b["width"]) < 100  # top right
    png = page.screenshot(omit_background=True)
    keep_png(f"hub-overlay-standings-{size[0]}x{size[1]}", png)
    assert alpha_at(page, png, 10, size[1] - 10) == 0
    ctx.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768), (768, 1024),
                                  (390, 844)])
def test_the_tournament_page_shows_each_boards_last_self_test(
    hub: tuple[str, Hub, Board], browser: Any, size: tuple[int, int],
) -> None:
    from playwright.sync_api import expect

    url, app_hub, board = hub
    failed = ["cell 17: never changed", "cell 33: chatter", "expander 0x21: 2 I2C errors",
              "button 1: never pressed"]
    app_hub.tournament.store.set_selftest(board.board, {
        "date": "2026-12-01T19:00:00+00:00", "passed": False,
        "summary": "failed: 5 of 131 checks failed", "failed": failed,
        "failed_count": 5}, at=1.0)
    app_hub.changed()
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(url + "/")
    card = page.locator(f'article.board[data-board="{board.board}"]')
    # what failed is on the card itself (a tablet has no hover), the first few by name
    expect(card.locator(".selftest")).to_have_text(
        "self-test 2026-12-01 19:00: failed: 5 of 131 checks failed (cell 17: never changed; "
        "cell 33: chatter; expander 0x21: 2 I2C errors; and 2 more)")
    assert "bad" in (card.locator(".selftest").get_attribute("class") or "")
    other = page.locator(f'article.board:not([data-board="{board.board}"])').first
    expect(other.locator(".selftest")).to_have_text("no self-test reported")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shown_box(card)
    keep_screenshot(page, f"hub-selftest-{size[0]}x{size[1]}")
    ctx.close()
