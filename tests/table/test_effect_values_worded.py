"""A snapshot made again in another language words each effect from the values it was sent
with (its kind, player, amount and ``fields``), never from its English text (issue 26); only
an effect sent before effects carried their values (an old stored log, an older board's
message) is read from its text, and it words as it always did."""

from __future__ import annotations

import pytest

from scorekeeper.effect_words import effect_words, sent_effects_in_words
from scorekeeper.effects import EffectKind
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from web_common.i18n import language

pytestmark = pytest.mark.unit

NAMES = {"black": "Al", "white": "Bo"}
GERMAN = language("de")


def _sent(kind: str, player: str | None, amount: int, reason: str, text: str,
          **values: object) -> dict[str, object]:
    return {"kind": kind, "player": player, "amount": amount, "reason": reason, "text": text,
            **values}


def test_effects_with_their_values_are_worded_from_them_whatever_their_text_says() -> None:
    """The texts name no field the way the rules write them (a referee's note, a newer
    board's wording): the fields sent are what the words name."""
    sent = [
        _sent("clear", None, 0, "R5", "Gelb weg!", fields=["white.yellow", "black.yellow"]),
        _sent("chain", None, 0, "R15", "a chain", fields=["white.red", "white.blue"]),
        _sent("point", "black", 1, "R3", "black scores", fields=["white.yellow"],
              red="advance"),
    ]
    worded = [e["text"] for e in sent_effects_in_words(sent, NAMES, GERMAN)]
    assert worded == [
        "Gelb auf beiden Seiten abgeräumt",
        "Kette zwischen Rot bei Bo und Blau bei Bo: ihr Skitt geht zurück in den Pott",
        "Al +1: Wertung, Gelb bei Bo",
    ]


def test_an_effect_sent_without_its_values_is_read_from_its_text_as_before() -> None:
    old = [
        _sent("clear", None, 0, "R5", "black cleared yellow on both sides"),
        _sent("point", "black", 1, "R3", "black +1: third skitt on white's yellow field"),
    ]
    worded = [e["text"] for e in sent_effects_in_words(old, NAMES, GERMAN)]
    assert worded == ["Gelb auf beiden Seiten abgeräumt", "Al +1: Wertung, Gelb bei Bo"]


def test_a_played_clearing_words_alike_from_its_value_and_from_what_was_sent() -> None:
    """The board's effect and its JSON (as the hub gets it) give one German sentence."""
    m = Match(Rules(), Setup(first="black", big={"black": "center", "white": "center"}))
    m.apply({"correct": {"board": {"black.yellow": 2, "white.yellow": 1}, "reason": "set up"}})
    effects = m.apply({"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    clear = next(e for e in effects if e.kind is EffectKind.CLEAR)
    assert clear.to_json()["fields"] == ["white.yellow", "black.yellow"]
    from_value = [effect_words(e, NAMES, GERMAN, source=False) for e in effects]
    sent = [e.to_json() for e in effects]
    assert [e["text"] for e in sent_effects_in_words(sent, NAMES, GERMAN)] == from_value
    assert "Gelb auf beiden Seiten abgeräumt" in from_value
