"""A board's game the hub's replay refuses goes to the hub referee with the refusal in the
players' names and in the page's language: which step, and why, as the rules said it. Never
"black"/"white", a field id or the engine's key and state summary (seen: "shot.by: white shot
out of turn, black is due (R1) [round 1, black to shoot ...]", also on the German page)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.model import ReceivedEvent
from hub.said import Sentence
from hub.verify import judge
from web_common.i18n import language

NAMES = {"black": "Ann", "white": "Bo"}
OPTIONS = ({"variant": "classic"}, {"first": "black"})
CLAIMED = {"phase": "game_over", "winner": "white", "round": 5,
           "score": {"black": 0, "white": 99}, "round_wins": {"black": 0, "white": 5},
           "rounds": ["white"] * 5, "last_effects": []}
GERMAN = language("de")


def steps(*events: Mapping[str, Any]) -> list[ReceivedEvent]:
    return [ReceivedEvent(id=f"board-1:7:{seq}", board="board-1", match_id=7, seq=seq, at=0.0,
                          source="sensor", event=event, state=CLAIMED, names=NAMES)
            for seq, event in enumerate(events, start=1)]


def doubt_of(*events: Mapping[str, Any]) -> Sentence:
    verdict = judge(steps(*events), OPTIONS)
    assert isinstance(verdict.doubt, Sentence)
    return verdict.doubt


def test_a_shot_out_of_turn_is_told_in_the_players_names() -> None:
    doubt = doubt_of({"shot": {"by": "white"}})
    assert doubt == ("the hub's replay of the board's steps refuses step 1: Bo shot out of "
                     "turn, Ann is due (R1)")
    assert doubt.worded(GERMAN) == (
        "das Nachspielen der Schritte des Bretts im Hub lehnt Schritt 1 ab: Bo hat außer der "
        "Reihe geschossen, Ann ist dran (R1)")


def test_a_refused_reading_says_its_field_in_each_language() -> None:
    doubt = doubt_of({"shot": {"by": "black", "big": "placed"}},
                     {"shot": {"by": "white", "big": "placed"}},
                     {"shot": {"by": "black", "delta": {"white.red": 3}}})
    assert doubt == ("the hub's replay of the board's steps refuses step 3: one shot adds at "
                     "most one skitt to the board, but the changes add 3 (R2)")
    german = doubt.worded(GERMAN)
    assert german.startswith("das Nachspielen der Schritte des Bretts im Hub lehnt Schritt 3 "
                             "ab: "), german
    assert "(R2)" in german and "one shot" not in german


def test_the_refusal_keeps_its_words_through_the_hubs_file() -> None:
    """The hub keeps a claim's reason as JSON (``Sentence.to_json``) and words it later."""
    doubt = doubt_of({"shot": {"by": "black", "big": "placed"}},
                     {"shot": {"by": "white", "delta": {"black.blue": 1, "black.red": 1}}})
    again = Sentence.from_json(doubt.to_json())
    assert again == doubt
    assert again.worded(GERMAN) == doubt.worded(GERMAN)
    for words in (str(doubt), doubt.worded(GERMAN)):
        assert not any(raw in words for raw in ("black", "white", "shot.", "["))


def test_a_list_of_fields_is_said_field_by_field_in_the_pages_language() -> None:
    doubt = doubt_of({"shot": {"by": "black", "big": "placed"}},
                     {"correct": {"board": {"white.purple": 1}, "reason": "typed"}})
    assert str(doubt).startswith("the hub's replay of the board's steps refuses step 2: "
                                 "unknown field")
    assert "Ann's red, Ann's yellow" in doubt and "Bo's blue, the minus field" in doubt
    german = doubt.worded(GERMAN)
    assert "Rot bei Ann, Gelb bei Ann" in german and "Blau bei Bo, Feld Minus" in german
