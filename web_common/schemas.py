"""The typed values both web apps' APIs are built of: strict bodies in, described answers out.

A body is :class:`Strict` (no unknown keys, no coercion); the texts in it that people read are
:data:`ShownText` (and a player's name :data:`NameText`), checked by the rules engine's own
name rules (:mod:`scorekeeper.names`); a number in a path is :data:`PathNumber`. An answer is
:class:`Described`: a model that documents what a handler built and drops nothing of it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from scorekeeper.checks import MAX_INT
from scorekeeper.names import check_reason as check_reason_text
from scorekeeper.names import check_shown, normal_name


def check_text(value: str) -> str:
    """Text shown to players: no control or direction-changing characters, not only spaces
    (:func:`scorekeeper.names.check_shown`)."""
    return check_shown(value)


def check_reason(correct: object) -> None:
    """A correction's ``reason`` in a body, by the one rule (:func:`scorekeeper.names.
    check_reason`), so FastAPI names the field; whether one is required the table says."""
    if isinstance(correct, dict) and isinstance(correct.get("reason"), str):
        check_reason_text(correct["reason"])


PathNumber = Annotated[int, Path(ge=1, le=MAX_INT)]
"""A step, match, round or table number in a path: from 1, and within JSON's safe integers
(beyond 64 bits SQLite cannot even look one up: 422 like every other bad input)."""

ShownText = Annotated[str, AfterValidator(check_text)]
"""A name or a reason as the pages show it."""


class Strict(BaseModel):
    """No unknown keys, and no coercion: ``"yes"`` is not a boolean, ``true`` is not a number."""

    model_config = ConfigDict(extra="forbid", strict=True)


def check_name(value: str) -> str:
    """A player's name, normalised as the hub and the history keep it
    (:func:`scorekeeper.names.normal_name`: ``"Ann\u200b"`` is ``Ann``), or ``""`` for none
    (the pages then call the player by the seat). Only spaces stay refused: that is a slip,
    not a choice."""
    return normal_name(value) if value else ""


NameText = Annotated[str, AfterValidator(check_name)]
"""A player's name as typed; empty means no name was given."""


class Names(Strict):
    black: NameText = Field(default="", max_length=40, description="Empty: `First player`.")
    white: NameText = Field(default="", max_length=40, description="Empty: `Second player`.")


class Described(BaseModel):
    """An answer as ``/openapi.json`` documents it: every key the handler built is kept."""

    model_config = ConfigDict(extra="allow")
