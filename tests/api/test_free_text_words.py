"""A person's free text is shown exactly as typed (issue 26, item 3).

The referee's reason of a correction is a person's words: the pages show it as typed, never
rewritten as if it were a rules text naming sides ("the white tile slipped" stays so, with
players named Al and Bo; it never becomes "the Bo tile slipped").
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import state, step

REASON = "the white tile slipped"


def _corrected(referee: TestClient) -> dict:
    new = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                               "names": {"black": "Al", "white": "Bo"}})
    assert new.status_code == 200, new.text
    r = step(referee, {"correct": {"score": {"black": 1}, "reason": REASON}})
    assert r.status_code == 200, r.text
    return state(referee)


def test_a_corrections_reason_is_shown_as_typed_in_the_effect_words(referee: TestClient) -> None:
    shown = _corrected(referee)
    said = " ".join(e["text"] for e in shown["words"]["effects"])
    assert REASON in said
    assert "Bo tile" not in said


def test_a_corrections_reason_is_shown_as_typed_in_the_log_and_last_shot(
        referee: TestClient) -> None:
    shown = _corrected(referee)
    entry = shown["log"][-1]
    assert REASON in entry["words"]
    assert all(REASON in e["text"] for e in entry["effects"])
    assert REASON in shown["words"]["last_shot"]
    assert "Bo tile" not in repr(shown["log"]) + shown["words"]["last_shot"]


def test_the_rules_words_of_a_correction_are_in_names(referee: TestClient) -> None:
    shown = _corrected(referee)
    said = " ".join(e["text"] for e in shown["words"]["effects"])
    assert "score Al 1" in said
