"""A shot as the scorekeeper judges it (docs/rules.md, "Words"; docs/scenarios.md).

A shot is the *net change* of each field's count between two settled boards (what sensors
see) plus what a person enters because sensors cannot see it. The changes the rules make
themselves (gift skitts, a chain's skitt, clearings, blockades) are never part of a shot.
The field names and values mirror the scenario format one to one, so a shot in a scenario
file, in the match log and in an API request is the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from scorekeeper.fields import Player


class RedChoice(StrEnum):
    """A Hit on Red point's choice (R4); its JSON is the same word."""

    ADVANCE = "advance"
    """The shooter scores the point."""
    BACK = "back"
    """The opponent is set back one instead."""


class Landing(StrEnum):
    """Where a skitt ends up that is not a field (R6, R11, R12, R16); its JSON is the same
    word, written where a field's name could stand."""

    PLACED = "placed"
    """A big skitt shot onto its spot in the centre (R11)."""
    MISSED = "missed"
    """A big skitt shot that did not reach the centre: still in hand (R11)."""
    OFF = "off"
    """Off the board (R6)."""
    LOOSE = "loose"
    """A big skitt knocked loose, lying on no field (R12)."""


BigOutcome = str
"""``Landing.PLACED``, ``MISSED``, ``OFF`` or the colour field the big skitt landed on."""


@dataclass(frozen=True)
class Shot:
    """One shot by ``by``."""

    by: Player
    """The shooter; must be the player due to shoot."""

    delta: Mapping[str, int] = field(default_factory=dict)
    """Net change of count per field; omitted fields did not change."""

    off_board: int = 0
    """Skitts that left the board (R6: a penalty point each)."""

    big: BigOutcome | None = None
    """A big-skitt shot (R11): ``"placed"``, ``"missed"`` or the colour field it landed on."""

    knocked_big: tuple[str, ...] = ()
    """The big skitts this shot knocked loose (R12), one entry each: ``"loose"`` or the colour
    field it landed on. Up to two (there are two big skitts); a single string is read as one."""

    chain: tuple[str, str] | None = None
    """Two different opposite fields connected by the shot's skitt (R15)."""

    blockade: tuple[tuple[str, str], ...] = ()
    """The blockades knocked loose, one entry each: (from the blocked field, to a field,
    ``"minus"`` or ``"off"``), in the order they landed. One pair alone is read as one."""

    chain_from: str | None = None
    """The chain (R15) was made by a skitt the shot moved, not by the shot's own skitt: the
    field it was knocked from (its count fell by that skitt)."""

    keep: bool = False
    """A loose skitt the shooter keeps to play the next shot with, instead of returning it to
    the pot (R2): that next shot takes no skitt from the pot."""

    minus_hit: bool = False
    """Trio (R17): the shot's skitt ended on the minus field although its count did not rise
    (it knocked another off): a hit the sensors missed."""

    red: tuple[RedChoice, ...] = ()
    """The shooter's Hit on Red choices, point by point (R4); missing ones are ``advance``."""

    opponent_red: tuple[RedChoice, ...] = ()
    """The opponent's Hit on Red choices for points this shot gives them (R7, R11)."""

    unblock: str | None = None
    """A blockade the shooter lifts with the right this shot earns (R16)."""

    invalid: bool = False
    """Declared invalid by the referee (R8)."""

    def __post_init__(self) -> None:
        # One loose big skitt was once written as a bare string ("loose"); None is none.
        knocked = self.knocked_big
        if knocked is None:
            object.__setattr__(self, "knocked_big", ())
        elif isinstance(knocked, str):
            object.__setattr__(self, "knocked_big", (knocked,))
        elif not isinstance(knocked, tuple):
            object.__setattr__(self, "knocked_big", tuple(knocked))
        loose = self.blockade
        if loose is None:
            object.__setattr__(self, "blockade", ())
        elif len(loose) == 2 and all(isinstance(x, str) for x in loose):
            object.__setattr__(self, "blockade", (tuple(loose),))  # one, as once written
        elif not (isinstance(loose, tuple) and all(isinstance(b, tuple) for b in loose)):
            object.__setattr__(self, "blockade", tuple(tuple(b) for b in loose))

    def to_json(self) -> dict[str, object]:
        """The scenario-format object for this shot, leaving out defaults."""
        out: dict[str, object] = {"by": self.by}
        delta = {k: v for k, v in self.delta.items() if v}
        if delta or self.big is None:
            out["delta"] = delta
        if self.off_board:
            out["off_board"] = self.off_board
        if self.big is not None:
            out["big"] = self.big
        if len(self.knocked_big) == 1:
            out["knocked_big"] = self.knocked_big[0]  # as one has always been written
        elif self.knocked_big:
            out["knocked_big"] = list(self.knocked_big)
        if self.chain is not None:
            out["chain"] = list(self.chain)
        loose = [{"from": src, "to": dst} for src, dst in self.blockade]
        if len(loose) == 1:
            out["blockade"] = loose[0]  # as one has always been written
        elif loose:
            out["blockade"] = loose
        if self.chain_from is not None:
            out["chain_from"] = self.chain_from
        if self.red:
            out["red"] = list(self.red)
        if self.opponent_red:
            out["opponent_red"] = list(self.opponent_red)
        if self.unblock is not None:
            out["unblock"] = self.unblock
        if self.invalid:
            out["invalid"] = True
        if self.keep:
            out["keep"] = True
        if self.minus_hit:
            out["minus_hit"] = True
        return out
