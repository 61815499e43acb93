"""Issue 22, item 9: the review and small layout faults, checked at the sizes people use.

A review of a shot the rules ruled invalid says so; the review board and its TV mirror draw
the bridge of a chain; on /board the "match: N" label keeps clear of "BLOCKED" and, at
1024x768, the whole board fits the screen; on /referee at 390 wide the log's scores and
review buttons can be reached; a −1 score does not squeeze its player's TV card; the round's
end says "clear the board" and the board's labels stay apart.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, LiveServer, at_every_size, page_at, snap
from tv_support import bigs_in_centre, post, score_a_point, state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAMES = {"black": "Ann", "white": "Bo"}

# Pairs of text labels of a board drawing whose boxes overlap (a field's own count, its
# dots and its rectangle are not labels).
OVERLAPPING_LABELS = """(selector) => {
  const texts = [...document.querySelectorAll(`${selector} text`)]
    .filter((t) => t.textContent.trim() && !t.classList.contains('field-count'))
    .map((t) => ({t: t.textContent, r: t.getBoundingClientRect()}))
    .filter((x) => x.r.width > 0);
  const out = [];
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i].r, b = texts[j].r;
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
        && b.top < a.bottom - 0.5) {
      out.push([texts[i].t, texts[j].t, ...[a.left, a.right, b.left, b.right].map(Math.round)]);
    }
  }
  return out;
}"""


def sensed_start(api: Any, server: LiveServer, **rules: Any) -> None:
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black", **rules})
    bigs_in_centre(api, server)


def test_the_review_says_ruled_invalid_and_draws_the_chain(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    referee = page_at(browser, server, "/referee", SIZES["tv-small"])
    referee.wait_for_function("document.body.classList.contains('referee')")
    api = referee.context.request
    sensed_start(api, server)
    # Ann's chain between Bo's red and yellow, sensed
    assert api.post(server.url + "/api/board/bridge",
                    data={"fields": ["white.red", "white.yellow"], "on": True}).ok
    chain = wait_for(api, server, lambda s: s["log_length"] == 3)["last_step"]
    assert chain["step"]["shot"]["chain"] == ["white.red", "white.yellow"]
    tv = page_at(browser, server, "/", SIZES["tv"])
    referee.locator(f'button[data-review="{chain["seq"]}"]').click()
    board = referee.locator("#review-board")
    while referee.locator("#review-next").is_enabled():  # step to the board at rest after
        referee.locator("#review-next").click()
    expect(board.locator('[data-bridge="white.red/white.yellow"].on')).to_have_count(1)
    referee.locator("#review-show").click()
    mirror = tv.locator("#review-mirror-board")
    expect(mirror.locator('[data-bridge="white.red/white.yellow"].on')).to_have_count(1)
    snap(tv, "layout-tv-1920x1080-review-chain")
    referee.locator("#review-show").click()
    # Bo takes a skitt off his own red field: the rules void the shot (R8)
    step(api, server, {"correct": {"board": {"white.red": 2}, "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    n = state(api, server)["log_length"]
    assert api.post(server.url + "/api/board/remove", data={"field": "white.red"}).ok
    last = wait_for(api, server, lambda s: s["log_length"] == n + 1)["last_step"]
    assert any(e["kind"] == "invalid" for e in last["effects"])
    referee.locator(f'button[data-review="{last["seq"]}"]').click()
    expect(referee.locator("#review-ruling")).to_contain_text("ruled invalid")
    snap(referee, "layout-referee-1280x720-review-invalid")
    tv.context.close()
    referee.context.close()


def test_the_board_page_labels_stay_apart_and_the_board_fits_a_tablet(
    browser: Any, server: LiveServer
) -> None:
    setup = page_at(browser, server, "/", SIZES["tv"])
    api = setup.context.request
    sensed_start(api, server, flipping=True)
    # Bo's yellow is blocked and the match expects skitts there the board does not show yet
    step(api, server, {"correct": {"blocked": ["white.yellow"],
                                   "board": {"white.red": 2, "white.yellow": 1},
                                   "reason": "set-up"}})
    setup.context.close()
    def board(size: tuple[int, int]) -> Any:
        page = page_at(browser, server, "/board", size)
        page.wait_for_function("document.body.classList.contains('referee')")
        page.wait_for_function(
            "document.querySelector('#vboard [data-field=\"white.yellow\"] .blocked-label')")
        return page

    for name, size, page in at_every_size(board):
        for f in ("white.red", "white.yellow"):
            assert page.locator(f'#vboard [data-field="{f}"] .expected-label').count() == 1
        assert page.evaluate(OVERLAPPING_LABELS, "#vboard") == [], name
        # the board fits the screen at the tablet size: no scrolling between shots
        if name == "tablet":
            box = page.locator("#vboard").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= size[1] + 0.5, box
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], name
        snap(page, f"layout-board-{size[0]}x{size[1]}")


DOTS_ON_A_BLOCKED_FIELD = """async () => {
  const { drawBoard } = await import('/static/board-drawing.js');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.id = 'blocked-check';
  svg.style.width = '600px';
  document.body.append(svg);
  const out = {};
  // three skitts sensed where the match expects one (its label moves to the top left, where
  // the dots are drawn), and the same field as the match expects it (its label below)
  for (const expected of [1, 3]) {
    drawBoard(svg, { counts: { 'white.blue': 3 }, expected: { 'white.blue': expected },
                     blocked: ['white.blue'], interactive: true });
    const field = svg.querySelector('[data-field="white.blue"]');
    const label = field.querySelector('.blocked-label').getBoundingClientRect();
    const dots = [...field.querySelectorAll('.skitt-dot')].map((d) => d.getBoundingClientRect());
    out[expected] = { dots: dots.length, over: dots.filter((d) => d.left < label.right
      && label.left < d.right && d.top < label.bottom && label.top < d.bottom).length };
  }
  svg.remove();
  return out;
}"""


def test_a_blocked_field_draws_no_dots_over_its_blocked_label(
    browser: Any, server: LiveServer
) -> None:
    """Issue 43, item 7: a blocked field holds its blockade, not skitts: the board drawing
    (the virtual board, the TV, the review) puts no skitt dots on it, so none is drawn over
    "BLOCKED", wherever the label sits."""
    page = page_at(browser, server, "/board", SIZES["tablet"])
    assert page.evaluate(DOTS_ON_A_BLOCKED_FIELD) == {
        "1": {"dots": 0, "over": 0}, "3": {"dots": 0, "over": 0}}
    page.context.close()


def test_the_referee_log_can_be_reached_on_a_phone(browser: Any, server: LiveServer) -> None:
    from playwright.sync_api import expect

    page = page_at(browser, server, "/referee", SIZES["phone"])
    page.wait_for_function("document.body.classList.contains('referee')")
    api = page.context.request
    sensed_start(api, server)
    score_a_point(api, server)
    page.wait_for_function("document.querySelectorAll('button[data-review]').length >= 3")
    button = page.locator("button[data-review]").first
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES["phone"][0], box
    score = page.locator("#log tr[data-seq] td.score").first
    sbox = score.bounding_box()
    assert sbox["x"] >= 0 and sbox["x"] + sbox["width"] <= SIZES["phone"][0], sbox
    snap(page, "layout-referee-390x844-log")
    button.click()
    expect(page.locator("#review")).to_be_visible()  # the review opens from the phone
    page.context.close()


def test_a_minus_one_score_keeps_its_card_and_the_round_end_says_clear_the_board(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tv = page_at(browser, server, "/", SIZES["tv"])
    api = tv.context.request
    sensed_start(api, server, points_to_win_round=2, rounds_to_win_game=3)
    step(api, server, {"correct": {"score": {"white": -1}, "reason": "set-up"}})
    tv.wait_for_function("document.querySelector('#p-white .score').textContent === '−1'")
    for name, size in SIZES.items():
        tv.set_viewport_size({"width": size[0], "height": size[1]})
        widths = tv.evaluate("""() => ['black', 'white'].map((p) => {
            const card = document.getElementById(`p-${p}`);
            return [card.getBoundingClientRect().width,
                    card.querySelector('.rounds').getBoundingClientRect().width,
                    card.querySelector('.handicap').getBoundingClientRect().width];
        })""")
        (bw, brounds, bdetails), (ww, wrounds, wdetails) = widths
        assert abs(bw - ww) < 1, (name, widths)
        # the details beside the score keep their room
        assert wrounds >= brounds - 2 and wdetails >= bdetails - 2, (name, widths)
        snap(tv, f"layout-tv-{size[0]}x{size[1]}-minus-one")
    tv.set_viewport_size({"width": 1920, "height": 1080})
    # the round ends with skitts on the board: one instruction, not a list of every field
    step(api, server, {"correct": {
        "score": {"white": 0, "black": 1}, "reason": "set-up",
        "board": {"white.red": 1, "white.blue": 1, "black.red": 1, "black.blue": 1,
                  "minus": 1, "white.yellow": 2}}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    assert api.post(server.url + "/api/board/place", data={"field": "white.yellow"}).ok
    wait_for(api, server, lambda s: s["state"]["round"] == 2
             and s["tracker"]["mode"] == "restore")
    alerts = tv.locator("#alerts")
    expect(alerts).to_contain_text("Clear the board")
    assert "," not in alerts.inner_text(), alerts.inner_text()
    for name, size in SIZES.items():
        tv.set_viewport_size({"width": size[0], "height": size[1]})
        assert tv.evaluate(OVERLAPPING_LABELS, "#board") == [], name
        snap(tv, f"layout-tv-{size[0]}x{size[1]}-round-end")
    tv.context.close()
