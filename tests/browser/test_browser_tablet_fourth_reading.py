"""The tablet enters every choice the fourth reading of the rulebook found missing (issue 37):
the end of a round by hand, a shoot-off, fewer points or rounds agreed, a handicap changed
during the game, the warning before a correction that empties the pot, a big skitt off the
board, a loose skitt kept, a chain made by a moved skitt, a second loose blockade and a Trio
hit on the minus field; one flow each, in the players' words; the new parts at five sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, at_every_size, page_at
from tv_support import german, one_server_per_module, post, snap, state, step, tablet, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NOT_WORDS = re.compile(r"\{\"|\b(?:black|white)\.[a-z]+|\b(?:black|white)\b|\bR\d{1,2}\b",
                       re.IGNORECASE)

server, api = one_server_per_module("tablet-fourth")


def new_match(api: Any, server: LiveServer, **body: Any) -> int:
    """Ann and Bo, Ann starts, both big skitts placed (classic); returns the seq shown."""
    post(api, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                         "first": "black", **body})
    if body.get("variant") != "trio":
        for by in ("black", "white"):
            step(api, server, {"shot": {"by": by, "big": "placed"}})
    return state(api, server)["seq"]


def opened(browser: Any, server: LiveServer, seq: int, section: str,
           size: tuple[int, int] = (1024, 768)) -> Any:
    from playwright.sync_api import expect

    page = tablet(browser, server, size)
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    if section:
        page.locator(f"#{section} summary").click()
    return page


def in_words(page: Any, size: tuple[int, int]) -> None:
    text = page.locator("main").inner_text()
    assert not NOT_WORDS.search(text), NOT_WORDS.search(text)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


def record(page: Any, reason: str) -> None:
    page.fill("#rec-reason", reason)
    page.locator("#rec-send").click()


# -- the referee's records (R18, R19) --------------------------------------------------------


def test_the_referee_ends_the_round_by_hand(browser: Any, server: LiveServer, api: Any) -> None:
    seq = new_match(api, server)
    page = opened(browser, server, seq, "sec-records")
    page.locator("#rec-end-round").select_option(label="Ann won the round")
    record(page, "Bo conceded")
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["state"]["rounds"] == ["black"] and s["state"]["turn"] == "white"
    assert s["log"][-1]["step"] == {"correct": {"end_round": "black", "reason": "Bo conceded"}}
    assert not page.errors
    page.context.close()


def test_the_referee_starts_a_shootoff(browser: Any, server: LiveServer, api: Any) -> None:
    seq = new_match(api, server)
    page = opened(browser, server, seq, "sec-records")
    page.locator("#rec-shootoff").check()
    record(page, "nobody knows whose turn it is")
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["state"]["phase"] == "shootoff"
    page.context.close()


def test_the_players_agree_on_fewer_points_and_rounds(browser: Any, server: LiveServer,
                                                      api: Any) -> None:
    from playwright.sync_api import expect

    seq = new_match(api, server)
    page = opened(browser, server, seq, "sec-records")
    expect(page.locator("#rec-points")).to_contain_text("5 (as now)")
    page.locator("#rec-points").select_option("3")
    page.locator("#rec-rounds").select_option("2")
    record(page, "the hall closes")
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["state"]["rules"]["points_to_win_round"] == 3
    assert s["state"]["rules"]["rounds_to_win_game"] == 2
    page.context.close()


def test_a_handicap_changes_during_the_game(browser: Any, server: LiveServer, api: Any) -> None:
    seq = new_match(api, server)
    page = opened(browser, server, seq, "sec-records")
    page.locator("#rec-hc-player").select_option(label="Bo")
    page.locator("#rec-hc-line").select_option(label="semicircle")
    record(page, "Bo moves forward")
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["handicaps"]["white"]["line"] == "semicircle"
    page.context.close()


def test_the_tablet_says_before_a_correction_that_empties_the_pot_ends_the_round(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    seq = new_match(api, server)
    step(api, server, {"correct": {"score": {"black": 2}, "reason": "set up"}})
    seq = state(api, server)["seq"]
    page = opened(browser, server, seq, "sec-correct")
    page.evaluate("""() => { for (const b of document.querySelectorAll(
        '#corr-board .stepper')) { if (b.previousSibling && /minus/i.test(
        b.parentElement.textContent)) { for (let i = 0; i < 20; i++)
        b.querySelector('button:last-child').click(); } } }""")
    page.fill("#corr-reason", "the sensors missed them")
    page.locator("#corr-send").click()
    expect(page.locator("#corr-pot")).to_be_visible()
    expect(page.locator("#corr-pot-text")).to_have_text(
        "This correction leaves the pot empty: the round ends and Ann wins it with more points.")
    assert state(api, server)["seq"] == seq  # nothing sent yet
    page.locator("#corr-pot-ok").click()
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["state"]["rounds"] == ["black"]
    page.context.close()


# -- the amend form (R2, R6/R12, R15, R16, R17) ----------------------------------------------


def test_the_amend_form_enters_a_big_skitt_off_the_board_and_a_kept_skitt(
    browser: Any, server: LiveServer, api: Any
) -> None:
    seq = new_match(api, server)
    step(api, server, {"shot": {"by": "black", "delta": {}}})
    seq = state(api, server)["seq"]
    page = opened(browser, server, seq, "")
    page.locator("#amend-knocked").select_option(label="yes, off the board (a penalty point)")
    page.locator("#amend-keep").check()
    page.locator("#amend-send").click()
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    shot = s["last_step"]["step"]["shot"]
    assert shot["knocked_big"] == "off" and shot["keep"] is True
    assert s["state"]["kept"] == 1 and s["state"]["score"]["black"] == -1
    page.context.close()


def test_the_amend_form_enters_a_chain_made_by_a_moved_skitt(browser: Any, server: LiveServer,
                                                             api: Any) -> None:
    seq = new_match(api, server)
    step(api, server, {"correct": {"board": {"white.red": 2, "white.yellow": 2,
                                             "white.blue": 1}, "reason": "set up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.red": 1, "white.blue": -1}}})
    seq = state(api, server)["seq"]
    page = opened(browser, server, seq, "")
    page.locator("#amend-chain-a").select_option(label="Bo's red")
    page.locator("#amend-chain-b").select_option(label="Bo's yellow")
    page.locator("#amend-chain-from").select_option(label="a skitt moved from Bo's blue")
    page.locator("#amend-send").click()
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["last_step"]["step"]["shot"]["chain_from"] == "white.blue"
    assert s["state"]["score"]["black"] == 3
    page.context.close()


def test_the_amend_form_enters_a_second_loose_blockade(browser: Any, server: LiveServer,
                                                       api: Any) -> None:
    seq = new_match(api, server, flipping=True)
    step(api, server, {"correct": {"blocked": ["white.red", "white.blue"], "reason": "set up"}})
    step(api, server, {"shot": {"by": "black", "delta": {}}})
    seq = state(api, server)["seq"]
    page = opened(browser, server, seq, "")
    page.locator("#amend-blockade-from").select_option(label="Bo's red")
    page.locator("#amend-blockade-to").select_option(label="off the board")
    page.locator("#amend-blockade2-from").select_option(label="Bo's blue")
    page.locator("#amend-blockade2-to").select_option(label="Bo's yellow")
    page.locator("#amend-send").click()
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["last_step"]["step"]["shot"]["blockade"] == [
        {"from": "white.red", "to": "off"}, {"from": "white.blue", "to": "white.yellow"}]
    assert s["state"]["blocked"] == ["white.yellow"]
    page.context.close()


def test_the_amend_form_records_a_trio_hit_on_minus_the_sensors_missed(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    seq = new_match(api, server, variant="trio")
    step(api, server, {"shot": {"by": "black", "delta": {}}})
    seq = state(api, server)["seq"]
    page = opened(browser, server, seq, "")
    expect(page.locator("#amend-minus-hit-box")).to_be_visible()
    page.locator("#amend-minus-hit").check()
    page.locator("#amend-send").click()
    s = wait_for(api, server, lambda s: s["seq"] > seq)
    assert s["last_step"]["step"]["shot"]["minus_hit"] is True
    assert s["state"]["minus_hits"] == 1
    page.context.close()


# -- R10: the referee page says which order of effects was taken -----------------------------


def test_the_referee_page_says_which_order_of_effects_was_taken(browser: Any, server: LiveServer,
                                                                api: Any) -> None:
    from playwright.sync_api import expect

    new_match(api, server)
    step(api, server, {"correct": {"big": {"black": "hand"}, "board": {"black.red": 2,
                                                                       "minus": 17},
                                   "score": {"black": 4, "white": 3}, "reason": "set up"}})
    step(api, server, {"shot": {"by": "black", "big": "white.red",
                                "knocked_big": "white.yellow"}})
    page = page_at(browser, server, "/referee", (1280, 720))
    expect(page.locator("#effects")).to_contain_text(
        "the order best for Ann was taken: the gift skitt on Ann's yellow field, then the gift "
        "skitt on Ann's red field")
    page.context.close()


# -- layout and words -------------------------------------------------------------------------


def test_the_new_parts_fit_every_size_in_the_players_words(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    seq = new_match(api, server, flipping=True)
    step(api, server, {"shot": {"by": "black", "delta": {}}})
    seq = state(api, server)["seq"]
    for name, size, page in at_every_size(
            lambda size: opened(browser, server, seq, "sec-records", size)):
        expect(page.locator("#amend-more")).to_be_visible()
        expect(page.locator("#rec-end-round")).to_contain_text("Bo won the round")
        in_words(page, size)
        for box in ("#amend-more", "#sec-records"):
            width = page.locator(box).evaluate("e => e.getBoundingClientRect().right")
            assert width <= size[0], (name, box, width)
        page.locator("#sec-records").scroll_into_view_if_needed()
        snap(page, f"tablet-fourth-{name}-records")
        assert not page.errors, (name, page.errors)


def test_the_new_parts_speak_german(browser: Any, server: LiveServer, api: Any) -> None:
    from playwright.sync_api import expect

    new_match(api, server)
    step(api, server, {"shot": {"by": "black", "delta": {}}})
    page = german(browser, server, "/tablet", (1024, 768))
    expect(page.locator("#sec-records summary")).to_contain_text("Für das Spiel eintragen")
    page.locator("#sec-records summary").click()
    expect(page.locator("#rec-end-round")).to_contain_text("Bo hat die Runde gewonnen")
    expect(page.locator("#amend-more")).to_contain_text("Der Schütze behält einen losen Skitt")
    page.context.close()
