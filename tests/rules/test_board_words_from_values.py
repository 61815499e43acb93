"""What the board needs, in the players' words, made from the tracker's values (its mode,
its note with the players and fields left open, the differences): every sentence the
tracker says, in English and in German, with names, and a person's words as written."""

from __future__ import annotations

import pytest

from scorekeeper.expectation import Expectation
from scorekeeper.fields import field_names
from scorekeeper.reading import BoardReading
from scorekeeper.tracker import Tracker
from scorekeeper.words import board_status, board_words
from web_common.i18n import language

pytestmark = pytest.mark.unit

NAMES = {"black": "Ann", "white": "Bo"}
DE = language("de")
EMPTY = {name: 0 for name in field_names()}


def board(**counts: int) -> dict[str, int]:
    return {**EMPTY, **{k.replace("_", ".", 1): v for k, v in counts.items()}}


def reading(counts: dict[str, int] | None = None, *, big: dict[str, bool] | None = None,
            bridges: tuple[tuple[str, str], ...] = ()) -> BoardReading:
    return BoardReading(counts=counts or dict(EMPTY), at=0.0,
                        big=big if big is not None else {"black": True, "white": True},
                        bridges=frozenset(bridges), launched=frozenset(),
                        capacity={"white.blue": 4})


def expect(counts: dict[str, int] | None = None, *, turn: str | None = "black",
           must_place_big: bool = False) -> Expectation:
    return Expectation(board=counts or dict(EMPTY), turn=turn,
                       big={"black": "center", "white": "center"},
                       must_place_big=must_place_big, playing=turn is not None)


def ready(expected: Expectation) -> Tracker:
    t = Tracker()
    t.observe(reading(dict(expected.board)), expected)
    assert t.mode == "ready"
    return t


def said(t: Tracker) -> str:
    return board_words(t.status().to_json(), NAMES)


def said_de(t: Tracker, turn: str | None = "black") -> str:
    return board_status(t.status().to_json(), {"turn": turn}, NAMES, DE)


def test_a_ready_board_names_who_shoots() -> None:
    assert said(ready(expect(turn="white"))) == "Board ready: Bo to shoot"
    assert said(ready(expect(must_place_big=True))) == "Ann to place the big skitt"
    assert said(ready(expect(turn=None))) == "Board ready"
    assert said_de(ready(expect(turn="white")), "white") == "Brett bereit: Bo ist dran"


def test_a_pause_says_who_paused() -> None:
    t = ready(expect())
    t.pause("referee")
    assert said(t) == "Sensing paused by the referee"
    t.pause("link")
    assert said(t) == "Sensor link down: play paused"


def test_before_the_first_reading_the_board_is_awaited() -> None:
    assert said(Tracker()) == "Waiting for the board to come to rest"
    t = ready(expect())
    t.pause("link")
    t.resume("link")
    assert said(t) == ("Sensing resumed: checking the board; waiting for the board to come to "
                       "rest")


def test_a_restore_names_the_fields_the_big_skitts_and_the_bridges() -> None:
    t = ready(expect(board(white_red=1, minus=1)))
    t.sync(expect(turn="white"), after_shot=True)
    assert said(t) == "Put back: take 1 skitt off Bo's red, 1 off the minus field"
    t = ready(expect())
    t.observe(reading(big={"black": False, "white": True}), expect())
    t.sync(expect(turn="white"), after_shot=True)
    assert "Ann's big skitt" in said(t) and said(t).startswith("Put back: "), said(t)
    chain = ("white.red", "white.yellow")
    t = ready(expect())
    t.observe(reading(bridges=(chain,)), expect())
    t.sync(expect(turn="white"), after_shot=True)
    assert said(t) == "Put back: take the skitt off the bridge between Bo's red and yellow"
    assert said_de(t) == ("Zurücklegen: den Skitt von der Brücke zwischen Rot und Gelb bei Bo "
                          "nehmen")


def test_a_full_field_asks_the_referee_in_names() -> None:
    before = expect(board(white_blue=3))
    t = ready(before)
    t.observe(reading(board(white_blue=4)), before)
    status = t.status().to_json()
    assert status["mode"] == "question", status
    assert said(t) == ("Bo's blue is as full as its sensors can count: referee to say how many "
                       "skitts Ann's shot added there")


def test_a_change_in_a_gap_goes_to_the_referee_in_names() -> None:
    t = ready(expect())
    t.pause("link")
    t.resume("link")
    t.observe(reading(board(white_red=1)), expect())
    assert said(t) == ("The board changed while sensing was interrupted; referee to decide "
                       "(take 1 skitt off Bo's red)")
    assert said_de(t) == "Das Brett weicht vom Spiel ab: der Schiedsrichter entscheidet"


def test_a_change_during_a_restore_says_whose_shot_it_looks_like() -> None:
    t = ready(expect(board(white_red=1)))
    t.sync(expect(turn="white"), after_shot=True)
    t.observe(reading(board(white_red=1, black_blue=1)), expect(turn="white"))
    assert said(t) == ("The board changed during a restore; this looks like Bo's shot: score "
                       "it, or put the board back; referee to decide (take 1 skitt off Ann's "
                       "blue, take 1 skitt off Bo's red)")


def test_the_match_changing_before_the_count_goes_to_the_referee() -> None:
    before = expect(board(white_blue=3))
    t = ready(before)
    t.observe(reading(board(white_blue=4)), before)
    assert t.mode == "question"
    t.sync(expect(board(white_blue=3), turn="white"))
    assert said(t) == ("The match changed before the referee said what the shot added; referee "
                       "to decide (take 1 skitt off Bo's blue)")


def test_a_shot_not_recorded_keeps_the_reason_as_given() -> None:
    t = ready(expect())
    t.observe(reading(board(white_red=1)), expect())
    t.not_recorded("the disk is full")
    assert said(t) == ("The sensed shot was not recorded (the disk is full); referee to decide "
                       "(take 1 skitt off Bo's red)")


def test_a_referees_question_about_the_order_is_said_in_names() -> None:
    t = ready(expect())
    seen = reading(board(white_red=1))
    t.ask(seen, expect(), "{black}'s skitt landed as the referee ended the turn: {black}'s "
          "shot or {white}'s?")
    words = said(t)
    assert words.startswith("Ann's skitt landed as the referee ended the turn: Ann's shot or "
                            "Bo's?"), words


def test_a_name_with_a_sides_word_in_it_is_shown_as_written() -> None:
    t = ready(expect(board(black_red=1)))
    t.sync(expect(turn="white"), after_shot=True)
    named = {"black": "snow white", "white": "Bo"}
    assert board_words(t.status().to_json(), named) == (
        "Put back: take 1 skitt off snow white's red")


def test_a_reason_given_for_a_shot_not_recorded_is_shown_as_given() -> None:
    t = ready(expect())
    t.observe(reading(board(white_red=1)), expect())
    t.not_recorded("the white {log} file")
    assert said(t).startswith("The sensed shot was not recorded (the white {log} file)")
