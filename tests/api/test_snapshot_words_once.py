"""A snapshot's words in another language are rendered once per snapshot and language, from
the values it was composed from (issue 41, item 2): every German page, socket and answer of
one ``seq`` gets the same rendering, and no step is decoded again from the snapshot's JSON to
be worded."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import place_bigs, state, step

import web.table.snapshot

pytestmark = pytest.mark.unit


def test_the_german_words_of_one_snapshot_are_rendered_once(
    referee: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    place_bigs(referee)
    assert step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).status_code == 200
    renders: list[str] = []
    alerts = web.table.snapshot.alerts

    def counted(*args: Any, **kwargs: Any) -> Any:
        renders.append(kwargs["t"].code if "t" in kwargs else "en")
        return alerts(*args, **kwargs)

    monkeypatch.setattr(web.table.snapshot, "alerts", counted)
    first = referee.get("/api/state?lang=de").json()
    again = referee.get("/api/state", headers={"Accept-Language": "de"}).json()
    with referee.websocket_connect("/ws?lang=de") as german:
        sent = german.receive_json()
    assert first == again and sent["seq"] == first["seq"] and sent["words"] == first["words"]
    assert renders.count("de") == 1, renders


def test_the_steps_of_a_snapshot_are_worded_from_its_values_not_its_json(
    referee: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    place_bigs(referee)
    assert step(referee, {"correct": {"board": {"black.yellow": 2, "white.yellow": 1},
                                      "reason": "set up"}}).status_code == 200
    assert step(referee, {"shot": {"by": "black", "delta": {"white.yellow": 1}}}).status_code == 200

    def no_parsing(*_: object) -> object:
        raise AssertionError("a step was decoded again from the snapshot's JSON")

    monkeypatch.setattr(web.table.snapshot, "parse_event", no_parsing, raising=False)
    german = referee.get("/api/state?lang=de").json()
    english = state(referee)
    assert german["seq"] == english["seq"]
    assert german["log"][-1]["words"] == "Schuss von Erster Spieler", german["log"][-1]
    effects = [e["text"] for e in german["log"][-1]["effects"]]
    assert effects and effects == [e["text"] for e in german["words"]["effects"]]
    assert "Gelb auf beiden Seiten abgeräumt" in effects and effects != [
        e["text"] for e in english["words"]["effects"]], effects
    assert german["words"]["last_shot"] and german["words"]["last_shot"] != english[
        "words"]["last_shot"]
