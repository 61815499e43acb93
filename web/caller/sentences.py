"""What the caller says after a step: one short sentence in the players' words.

The sentences live in one table per language (:data:`SENTENCES`); :func:`sentence` picks one
from the last log entry (the step and its effects) and the state after it, and fills in the
players' names and the numbers, spoken as words. It is a pure function of the published
state, so every screen and every test gets the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper import words
from web.config.values import CALLER_LANGUAGES as LANGUAGES

__all__ = ["LANGUAGES", "SEATS", "SENTENCES", "Line", "number", "sentence"]

SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "scores": "{shooter} scores, {mine} to {theirs}",
        "penalty": "Penalty for {shooter}",
        "own_goal": "Own goal by {shooter}, {mine} to {theirs}",
        "no_score": "No score",
        "big": "{shooter} places the big skitt",
        "invalid": "Invalid shot",
        "round": "{winner} wins the round, {mine} {rounds} to {theirs}",
        "game": "{winner} wins the game, {mine} {rounds} to {theirs}",
        "shootoff_again": "Equal, shoot off again",
        "shootoff": "{winner} starts",
        "undo": "Taken back",
        "correction": "The referee corrected the match",
        "decision": "{shooter} chooses, {mine} to {theirs}",
        "put_back": "Put back the board",
    },
    "de": {
        "scores": "{shooter} punktet, {mine} zu {theirs}",
        "penalty": "Strafpunkt für {shooter}",
        "own_goal": "Eigentor von {shooter}, {mine} zu {theirs}",
        "no_score": "Kein Punkt",
        "big": "{shooter} setzt den großen Skitt",
        "invalid": "Ungültiger Schuss",
        "round": "{winner} gewinnt die Runde, {rounds} {mine} zu {theirs}",
        "game": "{winner} gewinnt das Spiel, {rounds} {mine} zu {theirs}",
        "shootoff_again": "Gleichstand, noch einmal",
        "shootoff": "{winner} beginnt",
        "undo": "Zurückgenommen",
        "correction": "Der Schiedsrichter hat korrigiert",
        "decision": "{shooter} entscheidet, {mine} zu {theirs}",
        "put_back": "Brett zurückstellen",
    },
}

SEATS: dict[str, dict[str, str]] = {
    "en": dict(words.SEATS),
    "de": {"black": "Erster Spieler", "white": "Zweiter Spieler"},
}
"""A player without a name is called by the seat, never by a colour."""

NUMBERS = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve"),
    "de": ("null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
           "zehn", "elf", "zwölf"),
}
MINUS = {"en": "minus", "de": "minus"}
ROUNDS = {"en": ("round", "rounds"), "de": ("Runden", "Runden")}
"""The word for rounds after the winner's count: one round, two rounds."""


@dataclass(frozen=True)
class Line:
    """A sentence to say, and in which language."""

    text: str
    language: str


def number(n: int, language: str) -> str:
    """``3`` → ``three`` / ``drei``; beyond twelve the digits (the voice reads them)."""
    words = NUMBERS[language]
    if n < 0:
        return f"{MINUS[language]} {number(-n, language)}"
    return words[n] if n < len(words) else str(n)


def _other(player: str) -> str:
    return "white" if player == "black" else "black"


def sentence(entry: Mapping[str, Any], state: Mapping[str, Any], names: Mapping[str, str],
             language: str) -> Line:
    """The sentence for the log ``entry`` (``step``, ``effects``) that left ``state``."""
    if language not in SENTENCES:
        raise ValueError(f"language: expected one of {', '.join(LANGUAGES)}, got {language!r}")
    table = SENTENCES[language]
    step = entry.get("step") or {}
    kind = next(iter(step), "")
    effects = [e for e in entry.get("effects") or [] if isinstance(e, Mapping)]
    kinds = {e.get("kind") for e in effects}

    def name(player: str | None) -> str:
        given = names.get(player or "")
        return words.name_of(player, names) if words.is_named(given) \
            else SEATS[language].get(player or "", "")

    def pair(mine: int, theirs: int) -> dict[str, str]:
        return {"mine": number(mine, language), "theirs": number(theirs, language)}

    score = state.get("score") or {}
    wins = state.get("round_wins") or {}
    body = step.get(kind) if isinstance(step.get(kind), Mapping) else {}
    shooter = body.get("by") if isinstance(body, Mapping) else None
    text: str
    if kind == "undo":
        text = table["undo"]
    elif kind == "correct":
        text = table["correction"]
    elif kind == "shootoff":
        starter = next((e.get("player") for e in effects if e.get("kind") == "shootoff"), None)
        text = table["shootoff"].format(winner=name(starter)) if starter \
            else table["shootoff_again"]
    elif "game" in kinds or "round" in kinds:
        which = "game" if "game" in kinds else "round"
        winner = next(e.get("player") for e in effects if e.get("kind") == which)
        mine, theirs = int(wins.get(winner, 0)), int(wins.get(_other(winner), 0))
        rounds = ROUNDS[language][0 if mine == 1 else 1]
        text = table[which].format(winner=name(winner), rounds=rounds, **pair(mine, theirs))
    elif shooter not in ("black", "white"):
        text = table["no_score"]
    else:
        mine, theirs = int(score.get(shooter, 0)), int(score.get(_other(shooter), 0))
        if kind == "decide":
            text = table["decision"].format(shooter=name(shooter), **pair(mine, theirs))
        elif "invalid" in kinds:
            text = table["invalid"]
        elif "penalty" in kinds:
            text = table["penalty"].format(shooter=name(shooter))
        elif any(e.get("reason") == "R7" for e in effects):
            text = table["own_goal"].format(shooter=name(shooter), **pair(mine, theirs))
        elif any(e.get("player") == _other(shooter) and e.get("kind") == "back"
                 or e.get("player") == shooter and e.get("kind") == "point" for e in effects):
            text = table["scores"].format(shooter=name(shooter), **pair(mine, theirs))
        elif "big" in kinds:
            text = table["big"].format(shooter=name(shooter))
        else:
            text = table["no_score"]
    if state.get("board_must_change") and state.get("phase") != "game_over":
        text = f"{text}. {table['put_back']}"
    return Line(text, language)
