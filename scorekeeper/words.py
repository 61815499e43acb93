"""What the pages say to players, in their names: the one place player words are made.

The rules describe effects with player ids (``black +1: third skitt on white's yellow``) so
the log stays exact for the referee. Players at a TV know each other by name, not by side:
this module turns those texts, the board's restore differences and the round and game
moments into sentences with the players' names ("Ann +1: third skitt on Bo's yellow"). The
snapshot and the API's refusal messages both use it, so a page never translates by itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.events import Correction, Event

PLAYERS = ("black", "white")

_FIELD = re.compile(r"\b(black|white)\.([a-z]+)\b")
_PLAYER = re.compile(r"\b(black|white)\b")


SEATS = {"black": "First player", "white": "Second player"}
"""A side in words where no name is known, in the order pairings and the new-match form list
the players: it stands where the name would (pages never call a player by a colour)."""

UNNAMED = frozenset({"", "black", "white"})
"""Given names (case and spaces aside) that name nobody: none, or the side's id, as matches
stored by earlier versions carry them."""


def is_named(name: object) -> bool:
    """True when ``name`` is a person's name rather than nothing or a side's id."""
    return isinstance(name, str) and " ".join(name.split()).casefold() not in UNNAMED


def name_of(player: str | None, names: Mapping[str, Any]) -> str:
    """The player's name, or the seat in words (``Second player``) when none was given."""
    if not player:
        return "nobody"
    given = names.get(player)
    if is_named(given):
        return str(given).strip()
    return SEATS.get(player, player)


def given_names(names: Mapping[str, Any]) -> dict[str, str]:
    """Each side's name as given, or ``""`` where none was: what a form starts from."""
    return {player: name_of(player, names) if is_named(names.get(player)) else ""
            for player in PLAYERS}


def players_named(names: Mapping[str, Any]) -> dict[str, str]:
    """Each side's name, or its seat in words when it has none: what the pages show."""
    return {player: name_of(player, names) for player in PLAYERS}


def field_words(field: str, names: Mapping[str, str]) -> str:
    """``Bo's red`` for ``white.red``; ``the minus field`` for ``minus``."""
    if "." not in field:
        return f"the {field} field"
    side, _, colour = field.partition(".")
    return f"{name_of(side, names)}'s {colour}"


def in_names(text: str, names: Mapping[str, str]) -> str:
    """A rules text with field ids and player ids replaced by the players' names."""
    text = _FIELD.sub(lambda m: field_words(m.group(0), names), text)
    text = text.replace("the minus field field", "the minus field")
    return _PLAYER.sub(lambda m: name_of(m.group(1), names), text)


def restore_instruction(
    differences: Mapping[str, int], big_differences: Mapping[str, str], names: Mapping[str, str],
    *, blockades: Sequence[str] = (),
) -> str:
    """One calm sentence for putting the board back, e.g.
    ``Put back: take 3 skitts off Bo's red, 1 off the minus field``.

    ``blockades``: fields being cleared that the match now has blocked (flipping, R16): the
    sentence says where the flipped skitts from the pot go, which no sensor asks for."""
    parts: list[str] = []
    verb_used: set[str] = set()
    order = sorted(differences.items(), key=lambda kv: (kv[1] < 0, kv[0] == "minus", kv[0]))
    for field, diff in order:
        n = abs(diff)
        verb = "take" if diff > 0 else "add"
        where = field_words(field, names)
        prep = "off" if diff > 0 else "to"
        if verb in verb_used:
            parts.append(f"{n} {prep} {where}")
        else:
            skitts = "skitt" if n == 1 else "skitts"
            parts.append(f"{verb} {n} {skitts} {prep} {where}")
            verb_used.add(verb)
    for player, what in sorted(big_differences.items()):
        who = name_of(player, names)
        parts.append(
            f"put {who}'s big skitt back on its spot" if what == "missing"
            else f"take {who}'s big skitt off its spot"
        )
    if not parts:
        return "Put the board back as the match shows it"
    text = "Put back: " + ", ".join(parts)
    if blockades:
        where = " and on ".join(field_words(f, names) for f in sorted(blockades))
        text += f"; then lay a flipped skitt from the pot on {where} (the blockades)"
    return text


def skitts_label(n: int) -> str:
    """A count the referee taps: ``0``, ``1``, ``2``; ``1 came off`` for ``-1``."""
    return f"{-n} came off" if n < 0 else str(n)


def question_words(
    question: Mapping[str, Any] | None, names: Mapping[str, str]
) -> dict[str, Any] | None:
    """The referee's question about a field as full as its sensors can count, e.g.
    ``Bo's blue is as full as its sensors can count: did Ann's skitt land there?`` with
    one choice per count (``scorekeeper.saturation``); None when nothing is asked."""
    asked = (question or {}).get("open")
    if not question or not asked:
        return None
    where = field_words(str(asked["field"]), names)
    where = where[:1].upper() + where[1:]
    who = name_of(str(question.get("by")), names)
    least = int(asked["least"])
    if least > 0:
        text = (f"{where} is now as full as its sensors can count: how many skitts did "
                f"{who}'s shot add there?")
        detail = (f"The sensors saw {least} arrive; more may cling to the cluster where no "
                  "sensor counts them.")
    else:
        text = f"{where} is as full as its sensors can count: did {who}'s skitt land there?"
        detail = "Tap how many skitts the shot added there" + (
            "; it held more than its sensors count, so some may also have come off unseen."
            if least < 0 else ".")
    return {"field": asked["field"], "by": question.get("by"), "text": text,
            "detail": detail, "alert": f"{where} is as full as its sensors can count: the "
            f"referee says what {who}'s shot added there",
            "choices": [{"skitts": int(n), "label": skitts_label(int(n))}
                        for n in asked["choices"]]}


def moment(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str] | None:
    """The round or game moment the TV shows large until the next shot, or None.

    ``{"kind": "round" | "game", "title", "detail"}``: a round won by the last step, or the
    final result once the game is over.
    """
    wins = state.get("round_wins") or {}
    score = state.get("score") or {}
    if state.get("phase") == "game_over":
        winner = state.get("winner")
        loser = next((p for p in PLAYERS if p != winner), None)
        if (state.get("rules") or {}).get("variant") == "trio":
            detail = f"{score.get(winner, 0)} points to {score.get(loser, 0)}"
        else:
            detail = f"{wins.get(winner, 0)} round wins to {wins.get(loser, 0)}"
        return {"kind": "game", "title": f"{name_of(winner, names)} wins the game",
                "detail": f"Final result: {detail}"}
    for effect in state.get("last_effects") or ():
        if effect.get("kind") == "round" and effect.get("player"):
            winner = effect["player"]
            won = sum(int(v) for v in wins.values())
            tally = ", ".join(f"{name_of(p, names)} {wins.get(p, 0)}" for p in PLAYERS)
            return {"kind": "round", "title": f"{name_of(winner, names)} wins round {won}",
                    "detail": f"Round wins: {tally}"}
    return None


def turn_prompt(state: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """``Ann to shoot`` / ``Ann: shoot your big skitt to the centre`` / the shoot-off."""
    phase = state.get("phase")
    if phase == "game_over":
        return "Game over"
    if phase == "shootoff":
        return "Shoot-off: who starts? (enter it on the tablet)"
    turn = state.get("turn")
    if not turn:
        return ""
    who = name_of(turn, names)
    if state.get("must_place_big"):
        return f"{who}: shoot your big skitt to the centre"
    return f"{who} to shoot"


def effects_in_names(
    effects: Sequence[Mapping[str, Any]], names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The effects with their texts in names (the ruling and numbers unchanged)."""
    return [{**e, "text": in_names(str(e.get("text", "")), names)} for e in effects]


_CONTEXT = re.compile(r"\s*\[[^\]]*\]\s*$")
_KEY = re.compile(r"^[a-z_]+(?:\.[a-z_0-9]+)*: ")
_RULING = re.compile(r"\(?\b(R\d{1,2})\b\)?")


def refusal(message: str, names: Mapping[str, str]) -> str:
    """A refused change in players' words, e.g.
    ``Not possible: a shot can add at most one skitt to the board (R2)``: without the
    engine's key prefix (``shot.delta: ``) and its trailing ``[round 1, ...]`` context."""
    text = _KEY.sub("", _CONTEXT.sub("", message.strip()))
    ruling = _RULING.search(text)
    if ruling:
        text = _RULING.sub("", text).strip(" ,;:")
    text = in_names(text, names).strip()
    return f"Not possible: {text}" + (f" ({ruling.group(1)})" if ruling else "")


def what_changed(event: Event, text: str, names: Mapping[str, str]) -> list[str]:
    """What a logged step did, for the person whose change it overtook, e.g.
    ``Bo's score was set to 1`` for a correction; the step's own words otherwise."""
    if not isinstance(event, Correction):
        return [in_names(text, names)]
    out: list[str] = []
    for p, n in (event.score or {}).items():
        out.append(f"{name_of(p, names)}'s score was set to {n}")
    for p, n in (event.round_wins or {}).items():
        out.append(f"{name_of(p, names)}'s round wins were set to {n}")
    for f, n in (event.board or {}).items():
        out.append(f"{field_words(f, names)} was set to {n} skitt{'' if n == 1 else 's'}")
    if event.blocked is not None:
        fields = ", ".join(field_words(f, names) for f in event.blocked) or "none"
        out.append(f"the blocked fields were set to {fields}")
    if event.turn:
        out.append(f"{name_of(event.turn, names)} was made the one to shoot")
    return out or [in_names(text, names)]


_INNER_CONTEXT = re.compile(r"\s*\[[^\]]*\]")
_INNER_KEY = re.compile(r"\b[a-z_]+(?:\.[a-z_]+)+: ")


def board_words(message: str, names: Mapping[str, str]) -> str:
    """The tracker's message about the board for the referee's tablet, in names and without
    the engine's keys and bracketed context."""
    text = _INNER_KEY.sub("", _INNER_CONTEXT.sub("", message))
    text = in_names(text, names)
    return text[:1].upper() + text[1:]
