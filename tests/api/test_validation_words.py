"""A 422's ``detail`` list is worded in the request's language, its structure kept."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import PIN

from web_common.i18n import language
from web_common.validation_words import validation_message

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def test_a_board_says_a_wrong_type_and_an_extra_key_in_german(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", json={"seq": "zwei", "extra": 1}, headers=GERMAN)
    assert response.status_code == 422
    detail = response.json()["detail"]
    by_type = {e["type"]: e for e in detail}
    assert by_type["int_type"]["msg"] == "Die Eingabe muss eine ganze Zahl sein"
    assert by_type["int_type"]["loc"] == ["body", "seq"]
    assert by_type["extra_forbidden"]["msg"] == "Zusätzliche Angaben sind nicht erlaubt"


def test_a_board_keeps_english_without_a_language_asked(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", json={"seq": "two"})
    detail = response.json()["detail"]
    assert detail[0]["msg"] == "Input should be a valid integer"


def test_the_hub_says_a_too_long_reason_and_a_wrong_kind_in_german(
    hub_client: TestClient,
) -> None:
    assert hub_client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    response = hub_client.post("/api/boards/b1/command", headers=GERMAN, json={
        "kind": "redo", "correct": {"score": {"black": 1}, "reason": "x"}})
    assert response.status_code == 422
    error = response.json()["detail"][0]
    assert error["loc"] == ["body", "kind"] and error["type"] == "literal_error"
    assert error["msg"] == "Erlaubt ist nur 'undo' oder 'correct'"
    response = hub_client.post("/api/players", json={"name": "A" * 201}, headers=GERMAN)
    assert response.json()["detail"][0]["msg"] == "Der Text darf höchstens 200 Zeichen haben"


def test_limits_are_written_as_the_language_writes_numbers() -> None:
    de = language("de")
    assert validation_message({"type": "greater_than_equal", "ctx": {"ge": 0.5},
                               "msg": "Input should be greater than or equal to 0.5"},
                              de) == "Die Eingabe muss mindestens 0,5 sein"
    assert validation_message({"type": "too_long", "ctx": {"max_length": 1,
                                                          "actual_length": 3}}, de) \
        == "Es ist höchstens 1 Eintrag erlaubt, nicht 3"


def test_an_unknown_type_keeps_pydantics_english() -> None:
    error = {"type": "value_error", "msg": "Value error, a board id is a short word"}
    assert validation_message(error, language("de")) == error["msg"]
