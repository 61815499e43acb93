"""Issue 43, item 1: what changed meanwhile (a 409) is told in the reader's language for every
kind of step, made from the steps' values: a shot, a shoot-off, a decision, an undo, an
amendment and a correction, never the rules' English phrase inside a German sentence."""

from __future__ import annotations

import re

import pytest

from scorekeeper.events import Correction, Decision, ShootOff, ShotEvent, Undo
from scorekeeper.frozen import freeze
from scorekeeper.shot import Shot
from web.table.match_log import LogEntry
from web.table.meanwhile import since
from web_common.i18n import language

pytestmark = pytest.mark.unit

NAMES = {"black": "Anna", "white": "Ben"}
ENGLISH_WORDS = re.compile(r"\b(?:the|shoot-off|against|shot|decision|undo|correction|"
                           r"someone|took|back|amended|score|was|set)\b")


def entry(i: int, event: object, at: float | None = None) -> LogEntry:
    return LogEntry(seq=i, at=float(i) if at is None else at, source="tablet", event=event,
                    text="", effects=(), score={"black": 0, "white": 0}, round=1)


def told(entries: list[LogEntry], code: str) -> list[str]:
    return since(entries, 0, NAMES, language(code))


def test_every_kind_of_step_is_told_in_german_with_the_players_names() -> None:
    shot = ShotEvent(Shot(by="black", delta=freeze({"white.yellow": 1})))
    cases = [
        ([entry(0, ShootOff(black=3, white=3))], "Stechen (3 gegen 3)"),
        ([entry(0, shot)], "Schuss von Anna"),
        ([entry(0, Decision(by="white", unblock="black.red"))], "Entscheidung von Ben"),
        ([entry(0, Correction(score=freeze({"white": 1}), reason="typo"))], "Ben"),
        ([entry(0, Correction(reason="board checked"))], "board checked"),
    ]
    for entries, expected in cases:
        words = told(entries, "de")
        assert len(words) == 1 and expected in words[0], (entries[0].event, words)
        rest = words[0].replace("board checked", "").replace("typo", "")
        assert not ENGLISH_WORDS.search(rest), words
    # an undo names the step it took back; an amendment (undo and shot stored together) too
    undone = told([entry(0, shot), entry(1, Undo())], "de")
    assert len(undone) == 2 and "Schuss von Anna" in undone[1], undone
    assert not ENGLISH_WORDS.search(undone[1]), undone
    amended = told([entry(0, shot), entry(1, Undo(), at=5.0), entry(2, shot, at=5.0)], "de")
    assert amended[-1].count("Anna") == 1 and not ENGLISH_WORDS.search(amended[-1]), amended


def test_the_shoot_off_is_told_in_english_from_its_values() -> None:
    assert told([entry(0, ShootOff(black=3, white=3))], "en") == [
        "the shoot-off (3 against 3)"]
    assert told([entry(0, ShotEvent(Shot(by="white"))), entry(1, Undo())], "en")[1] == \
        "someone took back Ben's shot"
