"""The JSON bodies the API accepts, checked by FastAPI before a handler runs.

A body that does not fit gets 422 with FastAPI's ``detail`` list, each item naming the field
(``loc``) and the problem. Steps themselves (``{"shot": {...}}`` ...) are checked by the
scorekeeper, whose messages name the key at fault; their refusals are 422 too.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

PlayerName = Literal["black", "white"]
MAX_REASON = 500
"""Characters a correction's reason may hold."""
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a name could then show as another's."""


def check_text(value: str) -> str:
    """Text shown to players: no control or direction-changing characters, not only spaces."""
    for ch in value:
        if ch in BIDI_CONTROLS:
            raise ValueError(f"must not hold the direction control U+{ord(ch):04X}")
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(f"must not hold the control character U+{ord(ch):04X}")
    if not value.strip():
        raise ValueError("must not be empty or only spaces")
    return value.strip()


def check_reason(correct: object) -> None:
    """A correction's ``reason`` is plain text of at most ``MAX_REASON`` characters."""
    if isinstance(correct, dict) and isinstance(correct.get("reason"), str):
        reason = correct["reason"]
        if len(reason) > MAX_REASON:
            raise ValueError(f"correct.reason is longer than {MAX_REASON} characters")
        if reason.strip():
            check_text(reason)


ShownText = Annotated[str, AfterValidator(check_text)]
"""A name or a reason as the pages show it."""


class Strict(BaseModel):
    """No unknown keys, and no coercion: ``"yes"`` is not a boolean, ``true`` is not a number."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Change(Strict):
    seq: int = Field(
        description="The state's `seq` this change was made against (409 when stale).", ge=0
    )


class StepRequest(Change):
    step: dict[str, Any] = Field(
        description='One scenario-format step: {"shot": {...}}, {"shootoff": {...}}, '
        '{"correct": {...}}, {"undo": true} or {"decide": {...}}.'
    )

    @model_validator(mode="after")
    def _reason(self) -> StepRequest:
        check_reason(self.step.get("correct"))
        return self


class Blockade(Strict):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    from_: str = Field(alias="from", description="The blocked field the blockade left.")
    to: str = Field(description='Where it went: a field, "minus" or "off".')


class Amend(Change):
    """What the sensors cannot see about the last shot; a key set to null takes it out."""

    off_board: int | None = Field(default=None, ge=0, le=20, description="Skitts off the board.")
    big: str | None = Field(
        default=None, description='Big-skitt shot: "placed", "missed" or the field it landed on.'
    )
    knocked_big: str | None = Field(
        default=None, description='A big skitt knocked loose: "loose" or the field it hit.'
    )
    chain: list[str] | None = Field(
        default=None, min_length=2, max_length=2, description="Two opposite fields chained."
    )
    blockade: Blockade | None = Field(default=None, description="A blockade knocked loose.")
    invalid: bool | None = Field(default=None, description="The referee declares it invalid.")
    red: list[Literal["advance", "back"]] | None = None
    opponent_red: list[Literal["advance", "back"]] | None = None
    unblock: str | None = Field(default=None, description="A blockade lifted with the right.")

    def extra(self) -> dict[str, Any]:
        """The keys the request set, in the scenario format."""
        out = self.model_dump(exclude_unset=True, exclude={"seq"}, by_alias=True)
        return out


class Handicap(Strict):
    """R18: recorded and shown, changes no score."""

    line: Literal["semicircle", "beginner"] = "semicircle"
    hand: Literal["finger", "hand"] = "finger"


def check_name(value: str) -> str:
    """A player's name: shown text, or ``""`` for none (the pages then call the player by the
    seat). Only spaces stay refused: that is a slip, not a choice."""
    return check_text(value) if value else ""


NameText = Annotated[str, AfterValidator(check_name)]
"""A player's name as typed; empty means no name was given."""


class Names(Strict):
    black: NameText = Field(default="", max_length=40, description="Empty: `First player`.")
    white: NameText = Field(default="", max_length=40, description="Empty: `Second player`.")


class Handicaps(Strict):
    black: Handicap = Handicap()
    white: Handicap = Handicap()


class NewMatch(Change):
    names: Names = Names()
    variant: Literal["classic", "trio"] = "classic"
    flipping: bool = False
    points_to_win_round: int = Field(default=5, ge=1, le=50)
    rounds_to_win_game: int = Field(default=5, ge=1, le=20)
    first: Literal["black", "white", "shootoff"] = Field(
        default="shootoff", description="Who shoots first, or a shoot-off decides (R14)."
    )
    handicaps: Handicaps = Handicaps()

    def rules(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "flipping": self.flipping,
            "points_to_win_round": self.points_to_win_round,
            "rounds_to_win_game": self.rounds_to_win_game,
        }

    def setup(self) -> dict[str, Any]:
        return {} if self.first == "shootoff" else {"first": self.first}


class Pause(Strict):
    paused: bool


class Answer(Change):
    """The referee's count for a field its sensors cannot count any further (issue 24)."""

    field: str = Field(description="The field the question is about (white.blue, minus).",
                       max_length=40)
    skitts: int = Field(description="How many skitts the shot added there: one of the "
                        "question's choices (negative: taken off).", ge=-1000, le=1000)


class Mute(Strict):
    cell: int = Field(ge=0)
    muted: bool = True


class FieldTap(Strict):
    field: str = Field(description="A field name such as white.red or minus.")


class BigSpot(Strict):
    player: PlayerName
    on: bool = Field(description="True: the big skitt lands on its centre spot.")


class Launch(Strict):
    player: PlayerName


class BridgeTap(Strict):
    fields: list[str] = Field(min_length=2, max_length=2)
    on: bool = True


class ReviewShow(Strict):
    """Where the referee's review stands, for the scoreboard's mirror; ``seq`` null ends it."""

    seq: int | None = Field(description="The step under review; null ends the mirror.", ge=1)
    ms: int = Field(default=0, ge=0, le=3_600_000, description="Position in the timeline (ms).")
    playing: bool = Field(default=False, description="Playing from `ms` at `speed`.")
    speed: float = Field(default=1.0, gt=0, le=4, description="1 or 0.25 (times real time).")
