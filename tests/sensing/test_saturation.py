"""A full field is "unknown", never "no change" (issue 24): the tracker asks the referee.

A field's sensed count at its sensors' capacity means "that many or more". A shot that may
have changed such a field is held as a question, answered with one tap per field, and then
proposed as the sensed shot with the referee's count.
"""

from __future__ import annotations

import pytest

from scorekeeper.events import ShotEvent
from scorekeeper.expectation import Expectation, agrees
from scorekeeper.fields import field_names
from scorekeeper.reading import BoardReading
from scorekeeper.saturation import FieldQuestion, QuestionError
from scorekeeper.shot import Shot
from scorekeeper.tracker import Tracker

pytestmark = pytest.mark.unit

CAP = 3
CAPACITY = {name: CAP for name in field_names()}


def board(**counts: int) -> dict[str, int]:
    out = dict.fromkeys(field_names(), 0)
    for key, value in counts.items():
        out[key.replace("_", ".", 1)] = value
    return out


def sensed(counts: dict[str, int], *, launched: tuple[str, ...] = ()) -> BoardReading:
    """What a board with CAP cells a field sees: counts stop at CAP."""
    return BoardReading(counts={k: min(v, CAP) for k, v in counts.items()}, at=0.0,
                        launched=frozenset(launched), capacity=CAPACITY)


def expect(counts: dict[str, int], turn: str = "black") -> Expectation:
    return Expectation(board=counts, turn=turn)  # type: ignore[arg-type]


def ready(counts: dict[str, int], turn: str = "black") -> Tracker:
    t = Tracker()
    t.observe(sensed(counts), expect(counts, turn))
    assert t.mode == "ready"
    return t


def test_a_skitt_landing_on_a_full_field_is_asked_about_not_taken_as_no_change():
    before = board(white_blue=3)
    t = ready(before)
    # The skitt lands on the full field: its cells show nothing new, the launch spot the shot.
    assert t.observe(sensed(board(white_blue=4), launched=("black",)), expect(before)) is None
    assert t.mode == "question"
    asked = t.question.open
    assert asked == FieldQuestion("white.blue", before=3, capacity=3)
    assert asked.choices == (0, 1, 2)
    assert "white.blue is as full as its sensors can count" in t.status().message
    assert t.answer("white.blue", 1) == ShotEvent(Shot(by="black", delta={"white.blue": 1}))
    assert t.mode == "ready"


def test_the_no_change_button_on_a_full_board_asks_too():
    before = board(minus=3)
    t = ready(before)
    assert t.mark_no_change(expect(before)) is None
    assert t.question.open.field == "minus"
    assert t.answer("minus", 0) == ShotEvent(Shot(by="black"))


def test_a_shot_that_fills_a_field_to_its_capacity_asks_from_the_least_it_can_have_added():
    before = board(white_red=1)
    t = ready(before)
    assert t.observe(sensed(board(white_red=3)), expect(before)) is None
    assert t.question.open.choices == (2, 3, 4)
    with pytest.raises(QuestionError, match="expected one of 2, 3, 4, got 1"):
        t.answer("white.red", 1)
    assert t.mode == "question"  # a wrong answer changes nothing
    assert t.answer("white.red", 3) == ShotEvent(Shot(by="black", delta={"white.red": 3}))


def test_a_field_fuller_than_its_count_may_lose_skitts_unseen():
    before = board(white_red=5)
    t = ready(before)
    assert t.observe(sensed(board(white_red=4), launched=("black",)), expect(before)) is None
    assert t.question.open.choices == (-2, -1, 0, 1, 2)
    assert t.answer("white.red", -1) == ShotEvent(Shot(by="black", delta={"white.red": -1}))


def test_seen_changes_stay_and_every_full_field_gets_its_own_tap():
    before = board(white_blue=3, minus=3)
    t = ready(before)
    assert t.observe(sensed(board(white_blue=3, minus=3, white_red=1)), expect(before)) is None
    assert t.question.open.field == "white.blue"
    with pytest.raises(QuestionError, match="about white.blue, not minus"):
        t.answer("minus", 1)
    assert t.answer("white.blue", 0) is None
    assert t.question.open.field == "minus"
    assert t.answer("minus", 1) == ShotEvent(
        Shot(by="black", delta={"white.red": 1, "minus": 1}))


def test_a_field_below_its_capacity_after_the_shot_is_counted_exactly():
    before = board(white_blue=3)
    t = ready(before)
    # a skitt knocked off the full field: the count shows it, nothing to ask
    assert t.observe(sensed(board(white_blue=2)), expect(before)) == ShotEvent(
        Shot(by="black", delta={"white.blue": -1}))


def test_an_expected_count_beyond_the_capacity_agrees_with_a_full_field():
    # a correction or restore to more than the cells can show never waits for the board
    assert agrees(sensed(board(white_blue=5)), expect(board(white_blue=7)))
    assert not agrees(sensed(board(white_blue=2)), expect(board(white_blue=7)))
    assert not agrees(sensed(board(white_blue=3)), expect(board(white_blue=2)))


def test_the_match_changing_under_a_question_voids_it_for_the_referee():
    before = board(white_blue=3)
    t = ready(before)
    t.observe(sensed(board(white_blue=3), launched=("black",)), expect(before))
    t.sync(expect(before, turn="white"))  # an undo or a correction from the tablet
    assert t.question is None
    with pytest.raises(QuestionError, match="no question is open"):
        t.answer("white.blue", 1)


def test_readings_while_asked_wait_for_the_answer():
    before = board(white_blue=3)
    t = ready(before)
    t.observe(sensed(board(white_blue=3), launched=("black",)), expect(before))
    assert t.observe(sensed(board(white_blue=3, white_red=1)), expect(before)) is None
    assert t.mode == "question"
    assert t.status().to_json()["question"]["open"]["choices"] == [0, 1, 2]
    assert t.status().to_json()["full"] == ["white.blue"]
