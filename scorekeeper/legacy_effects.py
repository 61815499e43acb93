"""Effects written by earlier versions, made values once: the one reader of old rules texts.

A board today sends each effect with its phrase (players and fields left open) and its values
(fields, the other player, the Hit on Red choice), and every page words it from those
(:mod:`scorekeeper.effect_words`, :mod:`scorekeeper.stream_words`). A match log stored, or a
message sent, by an earlier version carries only the rules' text with side ids
(``black +1: third skitt on white's yellow field``). :func:`upgraded` makes such an effect the
values it would have been sent with, once, as it comes in; nothing else reads an effect's
text, and an effect that carries its phrase and values is never read at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.effects import EffectKind
from scorekeeper.fields import PLAYERS
from scorekeeper.phrases import field_slot, literal, slot

VALUES = ("fields", "who", "red")
"""The keys of an effect's JSON that carry its values beside its text (effects sent before
they did carry none of them)."""

_SIDE = re.compile(r"\b(black|white)(?:\.([a-z]+)\b)?")
"""A side or a side's field as the rules wrote them: ``white``, ``white.red``."""
_FIELD = re.compile(r"\b(black|white)(?:\.([a-z]+)\b|'s ([a-z]+) field\b)|\bthe minus field\b")
"""A field as the rules wrote it: ``white.red``, ``white's red field``, ``the minus field``."""
_CLEARED = re.compile(r"\bcleared ([a-z]+) on both sides\b")


def upgraded(effect: Mapping[str, Any]) -> dict[str, Any]:
    """``effect`` with the phrase and values an earlier version did not send, made from its
    text; an effect that carries them is returned as it is."""
    out = dict(effect)
    text = str(effect.get("text", ""))
    if "phrase" not in out:
        out["phrase"] = _phrase(text)
    if not any(key in out for key in VALUES):
        fields = _fields(str(out.get("kind", "")), text)
        if fields:
            out["fields"] = list(fields)
    return out


def upgraded_all(effects: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """:func:`upgraded` of each effect."""
    return [upgraded(e) for e in effects]


def _phrase(text: str) -> str:
    """An old rules text as the phrase it was filled from (one pass: side ids become places)."""

    def place(m: re.Match[str]) -> str:
        return field_slot(m.group(0)) if m.group(2) else slot(m.group(1))

    return _SIDE.sub(place, literal(text))


def _fields(kind: str, text: str) -> tuple[str, ...]:
    """The fields an old effect's text names, by id; a clearing's pair from its colour."""
    if kind == EffectKind.CLEAR:
        cleared = _CLEARED.search(text)
        if cleared:
            return tuple(f"{side}.{cleared.group(1)}" for side in PLAYERS)
    return tuple(f"{m.group(1)}.{m.group(2) or m.group(3)}" if m.group(1) else "minus"
                 for m in _FIELD.finditer(text))
