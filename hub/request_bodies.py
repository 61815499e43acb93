"""The bodies of the hub API's own requests (players, rounds, the format, a board command):
strict models, so a bad request is refused naming its field before anything changes."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from web_common.schemas import ShownText, check_reason


class NewPlayer(BaseModel):
    name: ShownText = Field(max_length=200)


SEEN = Field(ge=0, description="The tournament's version the referee saw (`field_seq`): "
             "409 when it changed since.")


class BoardChoice(BaseModel):
    board: str | None = Field(default=None, max_length=64)
    seq: int = SEEN


class PairRound(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seq: int = Field(ge=0, description="The tournament's version the referee saw "
                     "(`field_seq`): a round is paired only on the field as they saw it.")


class SwissRounds(BaseModel):
    count: int
    seq: int = SEEN


class FormatChoice(BaseModel):
    """The tournament's one format, as the board's new-match form has its options."""

    model_config = ConfigDict(extra="forbid", strict=True)
    points_to_win_round: int = Field(ge=1, le=50)
    rounds_to_win_game: int = Field(ge=1, le=20)
    flipping: bool = False
    variant: Literal["classic", "trio"] = "classic"


class Command(BaseModel):
    kind: Literal["undo", "correct"]
    correct: dict[str, Any] | None = None
    match_id: int | None = None
    """The match the referee looked at; the board refuses if it moved on."""
    seq: int | None = None
    """The last event the referee saw; the board refuses if the match changed since."""

    @model_validator(mode="after")
    def _reason(self) -> Command:
        check_reason(self.correct)
        return self
