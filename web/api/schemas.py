"""The JSON bodies the board's API accepts, checked by FastAPI before a handler runs.

They are made of the pieces both web apps use (:mod:`web_common.schemas`: strict bodies,
shown text, players' names, path numbers).

A body that does not fit gets 422 with FastAPI's ``detail`` list, each item naming the field
(``loc``) and the problem. Steps themselves (``{"shot": {...}}`` ...) are checked by the
scorekeeper, whose messages name the key at fault; their refusals are 422 too.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from firmware_bridge.physics_board import MAX_ANGLE
from firmware_bridge.physics_board import SPEEDS as FLICK_SPEEDS
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Event, parse_event
from scorekeeper.options import Finger, Hand, ShootingLine
from web.table.errors import Refused
from web_common.schemas import Names, Strict

PlayerName = Literal["black", "white"]
MAX_FLICK_DEGREES = round(math.degrees(MAX_ANGLE))


BOOT = Field(default=None, max_length=32, description="The `boot` of the state the person "
             "saw: another (the scorekeeper restarted since) makes the change stale (409).")


class Change(Strict):
    seq: int = Field(
        description="The `seq` of the state the person saw when they decided (409 when the "
        "match changed since).", ge=0
    )
    boot: str | None = BOOT


class StepRequest(Change):
    step: dict[str, Any] = Field(
        description='One scenario-format step: {"shot": {...}}, {"shootoff": {...}}, '
        '{"correct": {...}}, {"undo": true} or {"decide": {...}}.'
    )

    def event(self) -> Event:
        """The step decoded, once, into the engine's frozen event (:class:`Refused` naming
        the key at fault); the event is what goes inward to the table and the store, and a
        correction's reason is checked there, on the event."""
        try:
            return parse_event(self.step)
        except IllegalEventError as exc:
            raise Refused.of(exc) from None


class Blockade(Strict):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    from_: str = Field(alias="from", description="The blocked field the blockade left.")
    to: str = Field(description='Where it went: a field, "minus" or "off".')


class Resume(Change):
    match_id: int = Field(ge=1, description="The stored match to take up again.")


class Amend(Change):
    """What the sensors cannot see about the last shot; a key set to null takes it out."""

    off_board: int | None = Field(default=None, ge=0, le=20, description="Skitts off the board.")
    big: str | None = Field(
        default=None,
        description='Big-skitt shot: "placed", "missed", "off" or the field it landed on.',
    )
    knocked_big: str | Annotated[list[str], Field(min_length=1, max_length=2)] | None = Field(
        default=None, description='Big skitts knocked loose (R12): "loose", "off" or the field it '
        'landed on, or a list of one or two of those (both big skitts knocked loose).'
    )
    chain: list[str] | None = Field(
        default=None, min_length=2, max_length=2, description="Two opposite fields chained."
    )
    blockade: Blockade | Annotated[list[Blockade], Field(min_length=1, max_length=6)] | None = (
        Field(default=None, description="A blockade knocked loose, or a list of them (R16).")
    )
    chain_from: str | None = Field(
        default=None, description="The field a skitt the shot moved into the chain left (R15)."
    )
    keep: bool | None = Field(
        default=None, description="A loose skitt kept for the next shot, not returned (R2)."
    )
    minus_hit: bool | None = Field(
        default=None, description="Trio: the skitt ended on the minus field, unseen (R17)."
    )
    invalid: bool | None = Field(default=None, description="The referee declares it invalid.")
    red: list[Literal["advance", "back"]] | None = None
    opponent_red: list[Literal["advance", "back"]] | None = None
    unblock: str | None = Field(default=None, description="A blockade lifted with the right.")

    def extra(self) -> dict[str, Any]:
        """The keys the request set, in the scenario format."""
        out = self.model_dump(exclude_unset=True, exclude={"seq", "boot"}, by_alias=True)
        return out


class Handicap(Strict):
    """R18: recorded and shown, changes no score. The choices are the engine's own lists
    (:mod:`scorekeeper.options`), so the API and the rules never offer different ones."""

    line: ShootingLine = Field(default="standard", description="The shooting line.")
    finger: Finger = Field(default="usual", description="Handicap 2: a different finger.")
    hand: Hand = Field(default="dominant", description="Handicap 2: the non-dominant hand.")


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


class StartOffered(Change):
    offer: str = Field(max_length=64, description="The id of the offered tournament game the "
                       "person saw (409 when the hub offers another one now).")


class SensingAct(Strict):
    """A sensing act (pause, mute, the virtual board laid out): it states what it wants
    (``paused: true``), so two people doing it at once cannot undo each other; ``seq`` still
    tells a page left over from before a restart (409), like any change's."""

    seq: int | None = Field(
        default=None, ge=0, description="The state's `seq` the person saw (409 when stale)."
    )
    boot: str | None = BOOT


class LayOut(Strict):
    """Laying the virtual board out as the match expects: a decision on the match as its
    person saw it, refused (409) when the match changed since, like any change's."""

    seq: int = Change.model_fields["seq"]
    boot: str | None = BOOT


class Pause(SensingAct):
    paused: bool


class Answer(Change):
    """The referee's count for a field its sensors cannot count any further (issue 24)."""

    field: str = Field(description="The field the question is about (white.blue, minus).",
                       max_length=40)
    skitts: int = Field(description="How many skitts the shot added there: one of the "
                        "question's choices (negative: taken off).", ge=-1000, le=1000)


class Order(Change):
    """Whose shot a skitt that landed as 'turn ended' was pressed was (issue 36)."""

    by: PlayerName = Field(
        description="The player the press was about, or the next player.")


class Mute(SensingAct):
    cell: int = Field(ge=0)
    muted: bool = True


class FieldTap(Strict):
    field: str = Field(description="A field name such as white.red or minus.")
    skitts: int = Field(1, ge=1, le=7, description="How many skitts land on it (or are taken "
                        "off) at once: a shot that brings several.")


class BigSpot(Strict):
    player: PlayerName
    on: bool = Field(description="True: the big skitt lands on its centre spot.")


class Launch(Strict):
    player: PlayerName


class FlickTap(Strict):
    """A flick on the physics board (``skitter serve --board physics``)."""

    player: PlayerName
    speed: float = Field(ge=FLICK_SPEEDS[0], le=FLICK_SPEEDS[1], allow_inf_nan=False,
                         description="How fast the skitt leaves the launch spot, mm/s.")
    angle: float = Field(0.0, ge=-MAX_FLICK_DEGREES, le=MAX_FLICK_DEGREES, allow_inf_nan=False,
                         description="Degrees off straight up the board; positive: right.")
    lane: float = Field(0.5, ge=0.0, le=1.0, allow_inf_nan=False,
                        description="Where on the launch line: 0 the left edge, 1 the right.")


class BridgeTap(Strict):
    fields: list[str] = Field(min_length=2, max_length=2)
    on: bool = True


class ReviewShow(Strict):
    """Where the referee's review stands, for the scoreboard's mirror; ``seq`` null ends it."""

    seq: int | None = Field(description="The step under review; null ends the mirror.", ge=1)
    seen: int = Field(ge=0, description="The `seq` of the state the referee saw when they "
                      "decided (409 when the match changed since).")
    boot: str | None = BOOT
    ms: int = Field(default=0, ge=0, le=3_600_000, description="Position in the timeline (ms).")
    playing: bool = Field(default=False, description="Playing from `ms` at `speed`.")
    speed: float = Field(default=1.0, gt=0, le=4, description="1 or 0.25 (times real time).")
