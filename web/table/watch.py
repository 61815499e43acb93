"""The owner's judge of the sensors: the tracker and the expectation, one input at a time.

A table has one owner (``web.table.table``): one thread, the writer, on which every input is
handled in the order it came, one at a time. The sensing thread (``web.table.feed``) sends
what the sensors did (a settled reading with the sensor time its movement began, the board
starting to move or coming to rest, the link, the pause switch); pages send people's steps
with the moment they were pressed. The watch judges the sensors' inputs against the match as
it is after every change before them, because nothing else changes the match: a shot it
concludes is stored before the next input is looked at. There is no lock, no epoch and no
hold; what makes the order is the one queue, and the times the inputs carry.

A person's step that ends a turn ("turn ended, no change", a big skitt missed) is ordered
against a landing by those times (``web.table.order``): pressed while the board is moving,
it waits (at most :data:`PRESS_WAIT_S`) for the board to come to rest; a landing that began
clearly before it is the shot of the player due (the press is refused), one that began clearly
after it is the next player's, and one too close to order is asked about, never guessed.

The watch decides and says what it decided; it neither stores nor publishes: the table does.
Every method runs on the owner's thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.errors import Player, Why, because
from scorekeeper.events import ShotEvent
from scorekeeper.expectation import shot_from_reading
from scorekeeper.phrases import slot
from scorekeeper.reading import BoardReading
from scorekeeper.saturation import QuestionError
from scorekeeper.shot import Shot
from scorekeeper.tracker import Expectation, Tracker
from web.table.errors import Refused
from web.table.feed import Input, Landed, LinkChanged, Moving, Overflowed, Paused
from web.table.order import UNORDERED_S, Order, Pressed
from web.table.snapshot import tracker_part

PRESS_WAIT_S = 1.0
"""How long a person's step that ended a turn waits for a moving board to come to rest; then
it stands as pressed, and what the board does after is ordered against the press (an
unorderable landing is asked about, a later one is the next player's shot)."""


@dataclass(frozen=True)
class Sensed:
    """A shot to store: concluded by the tracker from a reading, or a person's step that
    waited for the board to come to rest (``source`` ``manual``)."""

    shot: ShotEvent
    timeline: Mapping[str, Any] | None = None
    """The sensor timeline that ended in the reading, stored with the shot."""
    source: str = "sensor"
    landed: Landed | None = None
    """The input it was concluded from (None for a person's step)."""
    again: Landed | None = None
    """An input to judge again once this shot is stored: a landing that began clearly after
    a waiting press, so it belongs to the next turn."""


@dataclass(frozen=True)
class Stored:
    """The last shot sensed and stored: a press that reaches the owner after it, but was
    pressed before it was stored, is ordered against its movement."""

    moved: float
    at: float
    """When it was stored (the owner's clock)."""
    shot: ShotEvent
    before: Expectation


class Watch:
    """The tracker and what it judges against (owner's thread only)."""

    def __init__(self) -> None:
        self.tracker = Tracker()
        self.paused = False
        self._expected = Expectation(board={}, turn=None, playing=False)
        self._moving: float | None = None
        """The sensor time the board started moving, as the sensing thread last said."""
        self._link_up: bool | None = None
        self._pressed: Pressed | None = None
        """The last person's step that ended a turn, while a landing may still be too close
        to it to be ordered (``web.table.order``)."""
        self._stored: Stored | None = None
        self.order: Order | None = None
        """The referee's open question: the landing is whose shot?"""
        self._asked_timeline: Mapping[str, Any] | None = None
        """The sensor timeline of the reading that raised the open question, stored with the
        shot once the referee has answered (so its review shows the board move)."""

    @property
    def expected(self) -> Expectation:
        return self._expected

    # -- the match changed -----------------------------------------------------------------

    def expect(self, expected: Expectation, *, after_shot: bool = False) -> None:
        """The match changed (and is committed): judge from now on against ``expected``."""
        self._expected = expected
        self.order = None
        self.tracker.sync(expected, after_shot=after_shot)

    def drop_order(self) -> None:
        """The referee says the landing already stored was the shot: the press is dropped,
        the question closed, and the board judged against the match as it is."""
        self.expect(self._expected)

    def stored(self, sensed: Sensed, before: Expectation, at: float) -> None:
        """``sensed`` was stored at ``at`` (owner's clock), from the match ``before``."""
        landed = sensed.landed
        if landed is not None and landed.moved is not None:
            self._stored = Stored(landed.moved, at, sensed.shot, before)

    def refused(self, message: str, why: Why | None = None) -> None:
        """The rules refused a sensed shot: the referee looks at the board."""
        self.tracker.refused(message, why)

    def not_recorded(self, message: str) -> None:
        """A sensed shot was not stored: it is not scored, the referee decides."""
        self.tracker.not_recorded(message)

    # -- what the sensors did --------------------------------------------------------------

    def take(self, item: Input) -> Sensed | None:
        """One input from the sensing thread: a shot to store, if it concludes one."""
        if isinstance(item, Moving):
            self._moving = item.since
            return None
        if isinstance(item, LinkChanged):
            if item.up:
                self._resume("link")
            else:
                self.tracker.pause("link")
            self._link_up = item.up
            return None
        if isinstance(item, Paused):
            self.paused = item.paused
            if item.paused:
                self.tracker.pause("referee")
            else:
                self._resume("referee")
            return None
        if isinstance(item, Overflowed):
            self.tracker.not_recorded("the board changed too often while the match log was "
                                      "being written")
            return None
        return self._landed(item)

    def _landed(self, item: Landed) -> Sensed | None:
        reading, moved = item.reading, item.moved
        parked = self._pressed if self._pressed and not self._pressed.stored else None
        if parked is not None and moved is not None and moved - parked.at > UNORDERED_S:
            # The press came clearly first: it is stored, and this reading is judged after
            # it, against the match the press leaves (the next player's shot).
            self._pressed = replace(parked, stored=True)
            return Sensed(parked.shot, source="manual", again=item)
        if self._unordered(reading, moved):
            return None
        asking = self.tracker.question is not None
        shot = self.tracker.observe(reading, self._expected)
        if parked is not None and shot is None and self.tracker.question is None:
            # the movement the press waited for changed nothing: the press stands
            self._pressed = replace(parked, stored=True)
            return Sensed(parked.shot, source="manual")
        if shot is None:
            if not asking and self.tracker.question is not None:
                self._asked_timeline = item.timeline
            return None
        return Sensed(shot, item.timeline, landed=item)

    def _unordered(self, reading: BoardReading, moved: float | None) -> bool:
        """A reading whose movement began within :data:`UNORDERED_S` of a person's step
        that ended a turn: the referee is asked whose shot it is (True), never guessed."""
        pressed = self._pressed
        if pressed is None or moved is None:
            return False
        if moved - pressed.at > UNORDERED_S:
            self._pressed = None  # clearly after the press: the next player's shot
            return False
        if abs(moved - pressed.at) > UNORDERED_S or self.tracker.question is not None:
            return False
        before = pressed.before if pressed.stored else self._expected
        shot = shot_from_reading(reading, before)
        if shot is None or shot.by != pressed.by:
            return False
        self._pressed = None
        self._ask(Order(ShotEvent(shot), pressed), reading)
        return True

    def _ask(self, order: Order, reading: BoardReading | None) -> None:
        """Ask the referee whose shot the landing was (the tracker waits for the answer)."""
        self.order = order
        if reading is None:
            return  # nothing read since the gap: the question alone is shown
        self.tracker.ask(reading, self._expected,
                         f"{slot(order.by)}'s skitt landed as the referee ended the turn: "
                         f"{slot(order.by)}'s shot or {slot(order.next)}'s?")

    def due_press(self, now: float) -> Sensed | None:
        """A press that waited for a movement the debouncer then dropped (a blip): it stands
        as pressed once the board is at rest, or once it has waited :data:`PRESS_WAIT_S` for
        a board that keeps moving."""
        pressed = self._pressed
        if pressed is None or pressed.stored:
            return None
        if self._moving is not None and now - pressed.at < PRESS_WAIT_S:
            return None
        self._pressed = replace(pressed, stored=True)
        return Sensed(pressed.shot, source="manual")

    def _resume(self, why: str) -> None:
        """End a gap in sensing: the tracker forgets its reading (the feed owes a new one)."""
        self.tracker.resume(why)
        self._pressed, self.order, self._stored = None, None, None

    # -- people's steps --------------------------------------------------------------------

    def accept_board(self) -> ShotEvent | None:
        """The referee takes the sensed board as the shot of the player due: that shot, or
        None when a full field still needs the referee's count (the question is asked then);
        :class:`Refused` when the board shows none (the tracker looks again)."""
        shot = self.tracker.accept_board(self._expected)
        if shot is None and self.tracker.question is not None:
            self._asked_timeline = None
        elif shot is None:
            self.tracker.sync(self._expected)
            raise Refused("the sensed board shows no shot of the player due", "board")
        return shot

    def answer(self, field_name: str, skitts: int) -> Sensed | None:
        """The referee's count for a full field. Once every full field of the shot is
        answered, the shot, to be recorded as sensed (the sensors saw the rest of it)."""
        try:
            shot = self.tracker.answer(field_name, skitts)
        except QuestionError as exc:
            raise Refused(exc.why, exc.key) from None
        if shot is None:
            return None
        timeline, self._asked_timeline = self._asked_timeline, None
        return Sensed(shot, timeline)

    def no_change(self, pressed_at: float, now: float,
                  shot: ShotEvent | None = None) -> ShotEvent | None:
        """The player due shot and nothing changed that the sensors see, pressed at
        ``pressed_at`` (``shot``: the person's own step saying so, e.g. a big skitt missed;
        None: "turn ended, no change"): the shot to store, or None (with the referee asked
        when a field is as full as its sensors count, or when a landing cannot be ordered
        against the press, or the press waiting for the board to come to rest).
        :class:`Refused` when a landing that began clearly before the press is the shot of
        the player due."""
        expected = self._expected
        turn = expected.turn
        late = self._stored
        if late is not None and late.at >= pressed_at and expected.playing \
                and self.tracker.question is None and self.order is None:
            # Pressed before the last sensed shot was stored, but reaching the owner after it.
            if pressed_at - late.moved > UNORDERED_S:
                self._refuse_landed_first(late.shot.shot.by)
            by = late.shot.shot.by
            press = shot if shot is not None and shot.shot.by == by else ShotEvent(
                Shot(by=by, big="missed" if late.before.must_place_big else None))
            self._stored = None
            self._ask(Order(late.shot, Pressed(pressed_at, press, late.before, stored=False),
                            landed_stored=True), self.tracker.reading)
            return None
        moving = self._moving
        if moving is not None and turn is not None and expected.playing and \
                self.tracker.question is None and self.order is None:
            if moving < pressed_at - UNORDERED_S:
                self._refuse_landed_first(turn)
            if shot is None:
                shot = ShotEvent(Shot(by=turn, big="missed" if expected.must_place_big
                                      else None))
            if moving - pressed_at > UNORDERED_S:
                # the board started moving clearly after the press: it stands now
                self._pressed = Pressed(pressed_at, shot, expected, stored=True)
                return shot
            self._pressed = Pressed(pressed_at, shot, expected, stored=False)
            return None
        if shot is not None:
            if turn is not None and expected.playing:
                self._pressed = Pressed(pressed_at, shot, expected, stored=True)
            return shot
        asking = self.tracker.question is not None
        shot = self.tracker.mark_no_change(expected)
        if shot is None and self.tracker.question is not None and not asking:
            self._asked_timeline = None  # asked by a button: no sensor timeline
        if shot is not None:
            self._pressed = Pressed(pressed_at, shot, expected, stored=True)
        return shot

    @staticmethod
    def _refuse_landed_first(who: str) -> None:
        raise Refused(because(
            "{who}'s skitt was still coming to rest when 'turn ended' was pressed: it is "
            "scored as {who}'s shot", who=Player(who)), "turn")

    def waiting_press(self) -> bool:
        """A press waits for the board to come to rest (``no_change`` returned None)."""
        return self._pressed is not None and not self._pressed.stored

    def restore_board(self) -> None:
        """The referee will have the board put back to what the match expects (the table
        tells the feed)."""
        self.tracker.restore_board()

    def board_as_expected(self) -> None:
        """The referee says the board lies as the match expects, whatever the sensors show
        (:meth:`Tracker.board_as_expected`); the match does not change."""
        try:
            self.tracker.board_as_expected()
        except ValueError as exc:
            raise Refused(str(exc), "board") from None

    def board_as_sensed(self) -> dict[str, int]:
        """The field counts that make the match agree with the sensed board (the table
        makes them a correction); :class:`Refused` in words when that cannot be."""
        try:
            return self.tracker.board_as_sensed()
        except ValueError as exc:
            raise Refused(str(exc), "board") from None

    # -- what is published -----------------------------------------------------------------

    def part(self) -> dict[str, Any]:
        """The tracker's part of the published view (a new value each time)."""
        return tracker_part(self.tracker, self.paused,
                            None if self.order is None else self.order.to_json(),
                            self.waiting_press())
