"""The board the match expects, and a settled reading compared with it.

The tracker (:mod:`scorekeeper.tracker`) moves through its modes; this module holds the plain
comparisons it makes at every reading, so each can be read and tested on its own: which
fields differ (:func:`board_differences`, with a full field agreeing with any count it cannot
tell apart), which big-skitt spots disagree, whether the board agrees, and the shot of the
player due that the difference shows (:func:`shot_from_reading`).

Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from scorekeeper.fields import PLAYERS, Player, color_of, side_of
from scorekeeper.options import BigState
from scorekeeper.reading import BoardReading
from scorekeeper.shot import Shot
from scorekeeper.state import Phase

if TYPE_CHECKING:
    from scorekeeper.state import State


@dataclass(frozen=True)
class Expectation:
    """What the match says the board should look like, and who is due to shoot."""

    board: Mapping[str, int]
    """Ordinary skitts per field."""
    turn: Player | None
    """The player due to shoot, or None (shoot-off, game over)."""
    big: Mapping[str, str | None] = field(default_factory=dict)
    """Per player: ``"hand"``, ``"center"`` or None (no big skitts, Trio)."""
    must_place_big: bool = False
    """The player due must shoot their big skitt (R11, R12)."""
    playing: bool = True
    """False outside the ``playing`` phase: nothing can be a shot then."""

    @classmethod
    def from_state(cls, state: State) -> Expectation:
        """Read the expectation from a match ``State``, field by field: this runs after every
        change of the match, so it must not serialise the whole state to pick out five
        values."""
        return cls(board=state.board, turn=state.turn, big=state.big,
                   must_place_big=state.must_place_big, playing=state.phase is Phase.PLAYING)


def board_differences(reading: BoardReading, expected: Expectation) -> dict[str, int]:
    """Sensed minus expected count for every field where they differ.

    A field at its sensors' capacity holds that many *or more*: it agrees with any expected
    count at or above it (a correction or restore never waits for a count the sensors cannot
    reach), and differs by at least what it shows above a smaller expected count."""
    out: dict[str, int] = {}
    for name in sorted(set(expected.board) | set(reading.counts)):
        want = int(expected.board.get(name, 0))
        if reading.saturated(name) and want >= reading.count(name):
            continue
        diff = reading.count(name) - want
        if diff:
            out[name] = diff
    return out


class BigDifference(StrEnum):
    """How a big skitt's spot disagrees with the match; a string enum, so its JSON is the
    word it always was."""

    MISSING = "missing"
    """The match has it on its spot; the spot senses none."""
    UNEXPECTED = "unexpected"
    """The match has it in hand; the spot senses one."""


def big_differences(reading: BoardReading, expected: Expectation) -> dict[str, BigDifference]:
    """Big-skitt spots that disagree with the match (only spots the board can sense)."""
    out: dict[str, BigDifference] = {}
    for player in PLAYERS:
        sensed = reading.big.get(player)
        state = expected.big.get(player)
        if sensed is None or state is None:
            continue
        if state == BigState.CENTER and not sensed:
            out[player] = BigDifference.MISSING
        elif state != BigState.CENTER and sensed:
            out[player] = BigDifference.UNEXPECTED
    return out


def agrees(reading: BoardReading, expected: Expectation) -> bool:
    """True when the sensors see exactly the board the match expects (no skitt on a bridge)."""
    return (
        not board_differences(reading, expected)
        and not big_differences(reading, expected)
        and not reading.bridges
    )


def shot_from_reading(reading: BoardReading, expected: Expectation) -> Shot | None:
    """The shot of the player due that turns the expected board into ``reading``.

    Returns None when the reading says nothing about a shot (board unchanged and no launch
    spot pressed), or when the sensors cannot tell a big-skitt shot's outcome (no spot).
    """
    shooter = expected.turn
    if shooter is None or not expected.playing:
        return None
    delta = board_differences(reading, expected)
    bigs = big_differences(reading, expected)
    launched = shooter in reading.launched
    if not delta and not bigs and not reading.bridges and not launched:
        return None
    if expected.must_place_big:
        return _big_shot(shooter, reading, delta, launched)
    chain = _chain(shooter, reading)
    # R12: one or both knocked loose
    knocked = ("loose",) * sum(1 for v in bigs.values() if v is BigDifference.MISSING)
    return Shot(by=shooter, delta=delta, chain=chain, knocked_big=knocked)


def _big_shot(
    shooter: Player, reading: BoardReading, delta: dict[str, int], launched: bool
) -> Shot | None:
    sensed = reading.big.get(shooter)
    rest = dict(delta)
    if sensed:
        # R20: a big skitt over the minus field is placed; its magnet may show there too.
        if rest.get("minus", 0) > 0:
            rest["minus"] -= 1
            rest = {k: v for k, v in rest.items() if v}
        return Shot(by=shooter, delta=rest, big="placed")
    landed = [f for f, v in rest.items() if v > 0 and side_of(f) is not None]
    if len(landed) == 1 and rest[landed[0]] == 1:
        # R11: it landed on a colour field; the player takes it back (a restore follows).
        del rest[landed[0]]
        return Shot(by=shooter, delta=rest, big=landed[0])
    if sensed is None and not launched:
        return None  # no spot to tell placed from missed: the tablet must say
    # Missed; any skitt the sensors saw appear is left for the rules to refuse (R2).
    return Shot(by=shooter, delta=rest, big="missed")


def _chain(shooter: Player, reading: BoardReading) -> tuple[str, str] | None:
    for a, b in sorted(reading.bridges):
        opposite = side_of(a) == side_of(b) != shooter
        if opposite and side_of(a) is not None and color_of(a) != color_of(b):
            return (a, b)
    return None
