"""Effects as a board sends them (JSON, to the hub, into a stored log) are worded from the
values they carry, in English as the board words its own effects and in German from their
kind, player, amount and fields: never by searching their text for side ids, so a name with
"white" in it, or a referee's reason, is shown as written."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scorekeeper.effect_words import effect_words, sent_effects_in_words
from scorekeeper.effects import Effect
from scorekeeper.events import Event, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.stream_words import sent_effect_words
from web_common.i18n import language

pytestmark = pytest.mark.unit

NAMES = {"black": "Al", "white": "Bo"}
DE = language("de")

SHOTS: Sequence[tuple[dict[str, int], dict[str, object]]] = (
    # a point on an opposite field, a Hit on Red, a clearing, a penalty on the minus field,
    # a chain between two fields, an own goal
    ({"white.yellow": 2}, {"shot": {"by": "black", "delta": {"white.yellow": 1}}}),
    ({"white.red": 2}, {"shot": {"by": "black", "delta": {"white.red": 1}}}),
    ({"white.blue": 1, "black.blue": 2}, {"shot": {"by": "black", "delta": {"white.blue": 1}}}),
    ({}, {"shot": {"by": "black", "delta": {"minus": 1}}}),
    ({"white.red": 2, "white.yellow": 2},
     {"shot": {"by": "black", "chain": ["white.red", "white.yellow"]}}),
    ({"black.yellow": 2}, {"shot": {"by": "black", "delta": {"black.yellow": 1}}}),
)


def _played(board: dict[str, int], step: dict[str, object]) -> tuple[Event, list[Effect]]:
    m = Match(Rules(), Setup(first="black", big={"black": "center", "white": "center"}))
    if board:
        m.apply({"correct": {"board": board, "reason": "set up"}})
    return parse_event(step), m.apply(step)


@pytest.mark.parametrize(("board", "step"), SHOTS)
def test_sent_effects_say_what_the_board_says_of_its_own(
    board: dict[str, int], step: dict[str, object]
) -> None:
    event, effects = _played(board, step)
    sent = [e.to_json() for e in effects]
    assert sent_effect_words(event, sent, NAMES) == [effect_words(e, NAMES) for e in effects]
    assert [e["text"] for e in sent_effects_in_words(sent, NAMES, DE)] == [
        effect_words(e, NAMES, DE, source=False) for e in effects]


def test_the_words_of_sent_effects_in_english_and_german() -> None:
    event, effects = _played({"white.yellow": 2}, SHOTS[0][1])
    sent = [e.to_json() for e in effects]
    assert sent_effect_words(event, sent, NAMES) == ["Al +1: third skitt on Bo's yellow field"]
    assert [e["text"] for e in sent_effects_in_words(sent, NAMES, DE)] == [
        "Al +1: Wertung, Gelb bei Bo"]
    event, effects = _played({}, SHOTS[3][1])
    sent = [e.to_json() for e in effects]
    assert sent_effect_words(event, sent, NAMES) == [
        "penalty to Al: skitt on the minus field (Al −1)"]


def test_a_name_with_a_sides_word_in_it_is_shown_as_written() -> None:
    named = {"black": "snow white", "white": "Bo"}
    event, effects = _played({"white.yellow": 2}, SHOTS[0][1])
    sent = [e.to_json() for e in effects]
    assert sent_effect_words(event, sent, named) == [
        "snow white +1: third skitt on Bo's yellow field"]
