"""The caller: a scripted match's sentences (text, language, audio that plays for a plausible
time), the cache, the settings from the tablet, and a silent caller that breaks nothing."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from speech_support import require_espeak, seconds_of
from stats_matches import MATCH_1, new_match
from web_helpers import state, step

from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.events import ShotEvent
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import Shot
from scorekeeper.state import State, initial_state
from web.caller.caller import Caller
from web.caller.sentences import sentence
from web.caller.speech import Speech, SpeechError, cache_key

ENGLISH = [
    "Ann places the big skitt",
    "Bo places the big skitt",
    "The referee corrected the match. Put back the board",
    "Ann scores, zero to minus one",
    "Penalty for Bo",
    "Ann wins the round, one round to zero. Put back the board",
    "Bo places the big skitt",
    "Ann places the big skitt",
    "The referee corrected the match. Put back the board",
    "Own goal by Bo, zero to one",
    "No score",
    "Taken back",
    "Ann wins the game, two rounds to zero",
]


def said(client: TestClient, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    lines = []
    for body in steps:
        response = step(client, body)
        assert response.status_code == 200, response.text
        got = client.get("/api/caller/latest").json()
        assert got["seq"] is not None and got["match_id"] == state(client)["match_id"]
        lines.append(got)
    return lines


def audio_file(client: TestClient, url: str, tmp_path: Path) -> Path:
    response = client.get(url)
    assert response.status_code == 200 and response.headers["content-type"] == "audio/wav"
    out = tmp_path / url.rsplit("/", 1)[-1]
    out.write_bytes(response.content)
    return out


def test_a_scripted_match_is_called_in_english(referee: TestClient, tmp_path: Path) -> None:
    require_espeak()
    new_match(referee, "Ann", "Bo")
    lines = said(referee, MATCH_1)
    assert [line["text"] for line in lines] == ENGLISH
    assert {line["language"] for line in lines} == {"en"}
    for line in lines:
        assert line["silent"] is None, line
        length = seconds_of(audio_file(referee, line["audio"], tmp_path))
        words = len(line["text"].split())
        assert 0.15 * words < length < 1.0 * words + 1.0, (line["text"], length)
    # The same sentence in the same language is one file.
    assert lines[1]["audio"] == lines[6]["audio"]


def test_the_tablet_switches_the_caller_to_german(referee: TestClient, tmp_path: Path) -> None:
    require_espeak()
    new_match(referee, "Ann", "Bo")
    version = referee.get("/api/caller").json()["version"]
    changed = referee.post("/api/caller", json={"version": version, "language": "de"})
    assert changed.status_code == 200 and changed.json()["language"] == "de"
    lines = said(referee, MATCH_1[:6])
    assert [line["text"] for line in lines[3:]] == [
        "Ann punktet, null zu minus eins",
        "Strafpunkt für Bo",
        "Ann gewinnt die Runde, Runden eins zu null. Brett zurückstellen",
    ]
    assert lines[-1]["language"] == "de"
    assert seconds_of(audio_file(referee, lines[-1]["audio"], tmp_path)) > 1.0
    assert referee.get("/api/caller").json()["language"] == "de"


def test_caller_settings_need_the_referee_and_a_fresh_view(client: TestClient) -> None:
    status = client.get("/api/caller").json()
    assert client.post("/api/caller", json={"version": status["version"],
                                            "muted": True}).status_code == 401
    assert client.post("/api/referee/login", json={"pin": "2468"}).status_code == 200
    ok = client.post("/api/caller", json={"version": status["version"], "muted": True})
    assert ok.status_code == 200 and ok.json()["muted"] is True
    stale = client.post("/api/caller", json={"version": status["version"], "muted": False})
    assert stale.status_code == 409 and stale.json()["caller"]["muted"] is True
    bad = client.post("/api/caller", json={"version": ok.json()["version"], "language": "fr"})
    assert bad.status_code == 422 and "fr" in bad.json()["detail"]
    assert client.get("/api/caller").json()["language"] == "en"  # nothing changed


def test_a_muted_caller_says_the_words_but_makes_no_sound(referee: TestClient) -> None:
    version = referee.get("/api/caller").json()["version"]
    referee.post("/api/caller", json={"version": version, "muted": True})
    new_match(referee, "Ann", "Bo")
    got = said(referee, MATCH_1[:1])[0]
    assert (got["text"], got["audio"]) == ("Ann places the big skitt", None)
    assert "muted" in got["silent"]


def test_without_espeak_the_scoreboard_works_and_the_tablet_says_why(
        referee: TestClient) -> None:
    caller: Caller = referee.app.state.caller  # type: ignore[attr-defined]
    caller.speech = Speech(caller.speech.cache_dir, binary="espeak-ng-not-installed")
    health_before = referee.get("/healthz").status_code
    new_match(referee, "Ann", "Bo")
    lines = said(referee, MATCH_1)
    assert [line["text"] for line in lines] == ENGLISH
    assert all(line["audio"] is None for line in lines)
    assert "espeak-ng-not-installed is not installed" in lines[0]["silent"]
    status = referee.get("/api/caller").json()
    assert status["available"] is False and "not installed" in status["silent"]
    assert state(referee)["state"]["phase"] == "game_over"
    assert referee.get("/healthz").status_code == health_before


def test_a_hanging_voice_is_stopped_and_named(tmp_path: Path) -> None:
    hang = tmp_path / "hang-espeak"
    hang.write_text("#!/bin/sh\nexec sleep 30\n")
    hang.chmod(0o755)
    speech = Speech(tmp_path / "cache", binary=str(hang), timeout=0.3)
    started = time.monotonic()

    async def both() -> tuple[BaseException | str, int]:
        ticks = 0

        loop = asyncio.get_running_loop()
        beat: list[asyncio.TimerHandle] = []

        def tick() -> None:  # every 10 ms while the loop is free to run it
            nonlocal ticks
            ticks += 1
            beat[:] = [loop.call_later(0.01, tick)]

        tick()
        try:
            result: BaseException | str = await speech.render("No score", "en")
        except SpeechError as exc:
            result = exc
        beat[0].cancel()
        return result, ticks

    result, ticks = asyncio.run(both())
    assert isinstance(result, SpeechError) and "longer than 0.3 s" in str(result)
    assert time.monotonic() - started < 5
    # the loop went on while the voice hung: blocked, it would have run none of the ticks
    # due meanwhile (only the first, before the voice began); a loaded machine runs fewer
    assert ticks > 2
    assert not list((tmp_path / "cache").glob("*"))


def test_the_cache_keeps_each_sentence_once_and_stays_bounded(tmp_path: Path) -> None:
    require_espeak()
    speech = Speech(tmp_path, max_files=2)

    async def render(*texts: str) -> list[str]:
        return [await speech.render(t, "en") for t in texts]

    keys = asyncio.run(render("No score", "No score", "Penalty for Bo", "Taken back"))
    assert keys[0] == keys[1] == cache_key("No score", "en")
    assert sorted(p.name for p in tmp_path.glob("*.wav")) == sorted(
        f"{k}.wav" for k in keys[2:])
    assert speech.path_of("../etc/passwd") is None


def test_audio_names_outside_the_cache_are_refused(client: TestClient) -> None:
    for name in ("..%2Fskitter.db", "abc.wav", "0" * 32 + ".wav"):
        assert client.get(f"/caller/audio/{name}").status_code == 404


def _white_wins_a_round() -> tuple[ShotEvent, tuple[Effect, ...], State]:
    """White's shot scores the point that wins a round, leaving round wins 1 to 2."""
    effects = (Effect(EffectKind.POINT, "white", 1, Reason.SCORING, ""),
               Effect(EffectKind.ROUND, "white", 0, Reason.ROUND, ""))
    after = replace(initial_state(Rules(), Setup(first="black")),
                    round_wins=FrozenMap({"black": 1, "white": 2}), board_must_change=False)
    return ShotEvent(Shot("white")), effects, after


@pytest.mark.parametrize(("language", "text"), [("en", "Bo wins the round, two rounds to one"),
                                                 ("de", "Bo gewinnt die Runde, Runden zwei "
                                                        "zu eins")])
def test_round_sentences_name_the_winner_first(language: str, text: str) -> None:
    event, effects, after = _white_wins_a_round()
    got = sentence(event, effects, after, {"black": "Ann", "white": "Bo"}, language)
    assert (got.text, got.language) == (text, language)


@pytest.mark.parametrize(("language", "text"), [
    ("en", "Second player wins the round, two rounds to one"),
    ("de", "Zweiter Spieler gewinnt die Runde, Runden zwei zu eins")])
def test_players_without_names_are_called_by_their_seat(language: str, text: str) -> None:
    """Never "black" or "white": a side without a name is the first or second player."""
    event, effects, after = _white_wins_a_round()
    for names in ({}, {"black": "", "white": ""}, {"black": "Black", "white": "White"}):
        assert sentence(event, effects, after, names, language).text == text
