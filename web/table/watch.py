"""The sensing side of a table: polling, the link, sensor health, the tracker and its view.

Sensing runs apart from the writer (``Table.writer``), on its own thread (:attr:`Watch.thread`),
so a disk that holds up a commit never stops the board being read: readings are taken, the
link and stuck cells are watched and the sensor view is published all through a stall.

The watch decides and says what it decided; it neither stores nor publishes. A polling step
returns :class:`Polled` (a shot for the writer, a new view to show), an act of the referee
the shot it makes, and the table (``web.table.table``) stores the shot through its writer and
publishes, taking the view from :meth:`Watch.shown`.

Who touches what:

- :attr:`Watch.lock` guards the tracker, the pipeline and the simulated board, the pause
  switch, the queue of readings and the expectation. A polling step holds it throughout (it
  reads sensors, never the disk); the writer takes it briefly and never while it waits on
  the disk, so sensing waits for the writer at most as long as publishing a snapshot.
- Sensing never reads the match (the writer changes it). After each change the writer
  hands over an immutable :class:`~scorekeeper.tracker.Expectation` (:meth:`Watch.expect`);
  every expectation has its own number, the *epoch*.
- A shot the tracker concludes goes to the writer (:class:`Sensed`, returned by
  :meth:`Watch.tick`) with the epoch it was judged against. From then until the writer is
  done with it (stored and applied, refused, or not recorded: the table then calls
  :meth:`Watch.release`), judging is *held*: readings keep coming and are queued in order,
  none is judged against the expectation the shot is about to change, and none is lost. A
  page's change holds judging too while it runs (:meth:`Watch.holding`). Once the hold ends,
  the next polling step judges the queue, in order, against the new expectation. A reading is judged
  once; a sensed shot whose epoch is no longer current when the writer reaches it (the match
  changed in between) is not scored but goes to the referee.
- A link that goes down or comes back is handled at once, hold or not. Readings queued
  before the link came back were taken before the gap: they are dropped with the tracker's.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import LinkStatus
from scorekeeper.clock import Clock
from scorekeeper.errors import Player, Why, because
from scorekeeper.events import ShotEvent
from scorekeeper.expectation import shot_from_reading
from scorekeeper.reading import BoardReading
from scorekeeper.saturation import QuestionError
from scorekeeper.shot import Shot
from scorekeeper.tracker import Expectation, Tracker
from web.table.errors import Refused
from web.table.order import UNORDERED_S, Order, Pressed
from web.table.sensing import Sensing, no_source_view
from web.table.snapshot import sensing_part
from web.table.virtual_board import land_skitt

PRESS_WAIT_S = 1.0
"""How long a person's step that ended a turn waits for a moving board to come to rest; then
it stands as pressed, and what the board does after is ordered against the press (an
unorderable landing is asked about, a later one is the next player's shot)."""

QUEUE_LIMIT = 100
"""Readings kept while judging is held; one more sends the board to the referee."""



@dataclass(frozen=True)
class Sensed:
    """A shot the tracker concluded, for the writer: judging is held until the writer is
    done with it, and it is scored only while ``epoch`` is still the current expectation."""

    shot: ShotEvent
    timeline: Mapping[str, Any] | None
    """The sensor timeline that ended in the reading, stored with the shot."""
    epoch: int
    source: str = "sensor"
    """``manual``: a person's step that waited for the board to come to rest."""
    reading: BoardReading | None = None
    """The reading the tracker concluded it from (None for a person's step): judged again
    should a person's step end the turn before the writer stores it."""
    moved: float | None = None
    """The sensor time its movement began (``Pipeline.last_moved_at``)."""
    before: BoardReading | None = None
    """The tracker's reading before ``reading``: the board as a step pressed meanwhile
    found it."""


@dataclass(frozen=True)
class Polled:
    """What one polling step decided: a shot for the writer (whose publish then shows the
    view as well), or a view that differs from the one last shown, or neither."""

    sensed: Sensed | None = None
    view: dict[str, Any] | None = None


QUIET = Polled()
"""Most polling steps decide nothing: one value for them all (a step costs microseconds)."""


class Watch:
    """The table's sensors, seen through the pipeline and judged by the tracker."""

    def __init__(
        self, sensing: Sensing | None, clock: Clock, *, source_name: str,
    ) -> None:
        self.sensing = sensing
        self.clock = clock
        self.source_name = source_name
        self.tracker = Tracker()
        self.paused = False
        self.lock = threading.RLock()
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitter-sensing")
        """Where the polling loop and the virtual board's taps run (never the writer)."""
        self._expected = Expectation(board={}, turn=None, playing=False)
        self.epoch = 0
        """Number of the current expectation; goes up with every change of the match."""
        self._holds = 0
        self._queue: deque[tuple[BoardReading, Mapping[str, Any] | None, float | None]] = \
            deque()
        """Readings not judged yet: each with its timeline and the sensor time its
        movement began (``Pipeline.last_moved_at``)."""
        self._sensed: Sensed | None = None
        """The sensed shot handed to the writer and not stored yet: a person's step that
        ends the turn meanwhile is ordered against its movement like a settling one."""
        self._pressed: Pressed | None = None
        """The last person's step that ended a turn, while a landing may still be too
        close to it to be ordered (``web.table.order``)."""
        self.order: Order | None = None
        """The referee's open question: the landing is whose shot?"""
        self._overflowed = False
        self._link_up: bool | None = None
        self._view: dict[str, Any] | None = None
        """The view last shown (:meth:`shown`, or a polling step's :attr:`Polled.view`)."""
        self._view_owed = False
        """A step handed a shot to the writer and left the view to its publish; the next
        step compares the view all the same (the writer may be waiting on the disk)."""
        self._key: tuple[Any, ...] | None = None
        self._asked_timeline: Mapping[str, Any] | None = None
        """The sensor timeline of the reading that raised the open question, stored with
        the shot once the referee has answered (so its review shows the board move)."""

    # -- what the writer tells sensing ---------------------------------------------------------

    def expect(
        self, expected: Expectation, *, after_shot: bool = False, lay_out: bool = False
    ) -> None:
        """The match changed (and is committed): judge from now on against ``expected``;
        ``lay_out``: put the simulated board there too (a new or resumed match)."""
        mine = replace(expected, board=dict(expected.board), big=dict(expected.big))
        with self.lock:
            self.epoch += 1
            self._expected = mine
            self.order = None
            if self.sensing is not None:
                if lay_out and self.sensing.simulator is not None:
                    self.sensing.lay_out(mine.board, mine.big)
                self.sensing.set_expected(mine.board)
            self.tracker.sync(mine, after_shot=after_shot)

    def hold(self) -> None:
        """Judge no reading until :meth:`release` (readings queue meanwhile)."""
        with self.lock:
            self._holds += 1

    def release(self) -> None:
        with self.lock:
            self._holds -= 1

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Hold judging while a change runs on the writer."""
        self.hold()
        try:
            yield
        finally:
            self.release()

    def refused(self, message: str, why: Why | None = None) -> None:
        """The rules refused a sensed shot: the referee looks at the board."""
        with self.lock:
            self.tracker.refused(message, why)

    def not_recorded(self, message: str) -> None:
        """A sensed shot was not stored: it is not scored, the referee decides."""
        with self.lock:
            self.tracker.not_recorded(message)

    # -- the polling loop ----------------------------------------------------------------------

    def tick(self) -> Polled:
        """One polling step: link, readings, a shot concluded; what changed to show."""
        if self.sensing is None:
            return QUIET
        with self.lock:
            # Poll first, then read the link: a link that went down or came back during
            # this poll is seen before any of its readings is judged. Readings of the poll in
            # which the link came back were taken before the gap ended and are never judged.
            readings = self.sensing.poll()
            link = self.sensing.link()
            if link.up != self._link_up:
                if link.up:
                    self._resume("link")
                    readings = []
                else:
                    self.tracker.pause("link")
                self._link_up = link.up
            for reading in readings:
                self._queue_reading(reading)
            sensed, judged = self._judge()
            if sensed is None:
                sensed = self._press_unanswered()
            if sensed is not None:
                # The writer publishes once the shot is stored, with the view as it is then:
                # one snapshot per shot, not a sensing one first that the event loop would be
                # busy sending to every screen while the shot is stored. Should the writer be
                # slow (a stalled disk), the next step shows the view instead.
                self._view_owed = True
                return Polled(sensed)
            # Most steps change nothing: compare a cheap key first, the whole view only then.
            key = self.sensing.change_key(link)
            if judged or self._view_owed or key != self._key:
                self._key, self._view_owed = key, False
                view = self.view(link)
                if view != self._view:
                    self._view = view
                    return Polled(view=view)
        return QUIET

    def seconds_to_rest(self) -> float | None:
        """Seconds until the board will be at rest after its last change, if that is ahead.

        The polling loop sleeps no longer than this, so a settled reading is taken the moment
        it becomes due rather than at the next regular step."""
        if self.sensing is None:
            return None
        with self.lock:
            at = self.sensing.rest_deadline()
        if at is None:
            return None
        left = at - self.clock.now()
        return left if left > 0 else None

    def _queue_reading(self, reading: BoardReading) -> None:
        if self._overflowed or len(self._queue) >= QUEUE_LIMIT:
            # Readings would be lost: judging only later ones could merge two shots into
            # one, so once judging resumes the newest alone goes to the referee (as after a
            # gap in sensing).
            self._queue.clear()
            self._overflowed = True
        pipeline = self.sensing.pipeline if self.sensing is not None else None
        moved = pipeline.last_moved_at if pipeline is not None and \
            pipeline.last_reading is reading else None
        self._queue.append((reading, self._timeline_of(reading), moved))

    def _judge(self) -> tuple[Sensed | None, int]:
        """Judge queued readings in order until one concludes a shot (for the writer:
        judging is held until it is done) or the queue is empty; how many were judged."""
        judged = 0
        if self._overflowed and not self._holds:
            self._overflowed = False
            self.tracker.not_recorded("the board changed too often while the match log was "
                                      "being written")
        while self._queue and not self._holds:
            reading, timeline, moved = self._queue.popleft()
            judged += 1
            parked = self._pressed if self._pressed and not self._pressed.stored else None
            if parked is not None and moved is not None and \
                    moved - parked.at > UNORDERED_S:
                # The press came clearly first: it is stored, and this reading is judged
                # after it, against the match the press leaves (the next player's shot).
                self._queue.appendleft((reading, timeline, moved))
                self._pressed = replace(parked, stored=True)
                self._holds += 1
                return Sensed(parked.shot, None, self.epoch, "manual"), judged
            if self._unordered(reading, moved):
                continue
            asking = self.tracker.question is not None
            before = self.tracker.reading
            shot = self.tracker.observe(reading, self._expected)
            if parked is not None and shot is None and self.tracker.question is None:
                # the movement the press waited for changed nothing: the press stands
                self._pressed = replace(parked, stored=True)
                self._holds += 1
                return Sensed(parked.shot, None, self.epoch, "manual"), judged
            if shot is None:
                if not asking and self.tracker.question is not None:
                    self._asked_timeline = timeline
                continue
            self._holds += 1
            self._sensed = Sensed(shot, timeline, self.epoch, reading=reading, moved=moved,
                                  before=before)
            return self._sensed, judged
        return None, judged

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
        self.order = Order(ShotEvent(shot), pressed)
        self.tracker.ask(reading, self._expected,
                         f"{pressed.by}'s skitt landed as the referee ended the turn: "
                         f"{pressed.by}'s shot or {self.order.next}'s?")
        return True

    def _press_unanswered(self) -> Sensed | None:
        """A press that waited for a movement the debouncer then dropped (a blip): it
        stands as pressed once the board is at rest with nothing left to judge, or once it
        has waited :data:`PRESS_WAIT_S` for a board that keeps moving."""
        pressed = self._pressed
        if pressed is None or pressed.stored or self._holds or self._queue:
            return None
        if self.sensing is not None and self.sensing.pipeline.moving_since() is not None \
                and self.clock.now() - pressed.at < PRESS_WAIT_S:
            return None
        self._pressed = replace(pressed, stored=True)
        self._holds += 1
        return Sensed(pressed.shot, None, self.epoch, "manual")

    def claim(self, sensed: Sensed) -> bool:
        """Writer, before storing ``sensed``: may it be stored as judged? False when a
        person's step that ended the turn came too close to its movement to order and now
        waits (:meth:`no_change`): the reading goes back to the head of the queue, to be
        judged again in order against that step (the referee is asked whose shot it is)."""
        with self.lock:
            if self._sensed is sensed:
                self._sensed = None
            if sensed.reading is None or not self.waiting_press():
                return True
            self.tracker.rewind(sensed.before)
            self._queue.appendleft((sensed.reading, sensed.timeline, sensed.moved))
            return False

    def _moving_since(self) -> float | None:
        """Sensor time the oldest change not stored yet began (handed to the writer, queued
        or settling)."""
        times = [m for _, _, m in self._queue if m is not None]
        if self._sensed is not None and self._sensed.moved is not None:
            times.append(self._sensed.moved)
        if self.sensing is not None:
            now = self.sensing.pipeline.moving_since()
            if now is not None:
                times.append(now)
        return min(times) if times else None

    def _timeline_of(self, reading: BoardReading) -> Mapping[str, Any] | None:
        """The sensor timeline that ended in ``reading``, taken when the reading is."""
        pipeline = self.sensing.pipeline if self.sensing is not None else None
        if pipeline is None or pipeline.last_reading is not reading:
            return None
        timeline = pipeline.last_timeline
        return None if timeline is None else timeline.to_json()

    def _resume(self, why: str) -> None:
        """End a gap in sensing: the tracker forgets its reading, the pipeline owes a new one,
        and readings queued from before the gap are dropped."""
        self.tracker.resume(why)
        self._pressed, self.order, self._sensed = None, None, None
        self._queue.clear()
        self._overflowed = False
        if self.sensing is not None:
            self.sensing.resync()

    # -- the referee and the virtual board (the table shows the view after each) --------------

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sensing; a board changed meanwhile goes to the referee."""
        with self.lock:
            self.paused = paused
            if paused:
                self.tracker.pause("referee")
            else:
                self._resume("referee")

    def accept_board(self) -> ShotEvent | None:
        """Writer: the referee takes the sensed board as the shot of the player due: that
        shot, or None when a full field still needs the referee's count (the question is
        asked then); :class:`Refused` when the board shows none (the tracker looks again)."""
        with self.lock:
            shot = self.tracker.accept_board(self._expected)
            if shot is None and self.tracker.question is not None:
                self._asked_timeline = None
            elif shot is None:
                self.tracker.sync(self._expected)
                raise Refused("the sensed board shows no shot of the player due", "board")
            return shot

    def answer(self, field_name: str, skitts: int) -> Sensed | None:
        """Writer: the referee's count for a full field. Once every full field of the shot
        is answered, the shot, to be recorded as sensed (the sensors saw the rest of it)."""
        with self.lock:
            try:
                shot = self.tracker.answer(field_name, skitts)
            except QuestionError as exc:
                raise Refused(exc.why, exc.key) from None
            if shot is None:
                return None
            timeline, self._asked_timeline = self._asked_timeline, None
            return Sensed(shot, timeline, self.epoch)

    def no_change(self, pressed_at: float, shot: ShotEvent | None = None) -> ShotEvent | None:
        """Writer: the player due shot and nothing changed that the sensors see, pressed at
        ``pressed_at`` (``shot``: the person's own step saying so, e.g. a big skitt missed;
        None: "turn ended, no change"): the shot to store, or None (with the referee asked
        when a field is as full as its sensors count, or the press waiting for a landing
        it cannot be ordered against). :class:`Refused` when a landing that began clearly
        before the press is still being read: it is the shot of the player due."""
        with self.lock:
            expected = self._expected
            moving = self._moving_since()
            turn = expected.turn
            if moving is not None and turn is not None and expected.playing and \
                    self.tracker.question is None and self.order is None:
                if moving < pressed_at - UNORDERED_S:
                    raise Refused(because(
                        "{who}'s skitt was still coming to rest when 'turn ended' was "
                        "pressed: it is scored as {who}'s shot", who=Player(turn)), "turn")
                if shot is None:
                    shot = ShotEvent(Shot(by=turn, big="missed" if expected.must_place_big
                                          else None))
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

    def waiting_press(self) -> bool:
        """A press waits for the board to come to rest (``no_change`` returned None)."""
        return self._pressed is not None and not self._pressed.stored

    def restore_board(self) -> None:
        """The referee will have the board put back to what the match expects."""
        with self.lock:
            self.tracker.restore_board()
            if self.sensing is not None:
                self.sensing.set_expected(self._expected.board)

    def board_as_expected(self) -> None:
        """Writer: the referee says the board lies as the match expects, whatever the sensors
        show (:meth:`Tracker.board_as_expected`); the match does not change."""
        with self.lock:
            try:
                self.tracker.board_as_expected()
            except ValueError as exc:
                raise Refused(str(exc), "board") from None

    def board_as_sensed(self) -> dict[str, int]:
        """The field counts that make the match agree with the sensed board (the table
        makes them a correction); :class:`Refused` in words when that cannot be."""
        with self.lock:
            try:
                return self.tracker.board_as_sensed()
            except ValueError as exc:
                raise Refused(str(exc), "board") from None

    def mute(self, cell: int, muted: bool) -> None:
        """Mute or unmute a cell (``ValueError`` for one the profile lacks; the table polls
        next)."""
        with self.lock:
            self.require_sensing().mute(cell, muted)

    def on_simulator(self, action: Callable[[SimulatedBoard], None]) -> None:
        """A tap on the virtual board (the table polls next: the pipeline sees it at once)."""
        with self.lock:
            action(self.require_sensing().require_simulator())

    def place_skitt(self, field_name: str) -> None:
        """A skitt of the shot lands on ``field_name`` of the virtual board
        (``web.table.virtual_board``; the table polls next)."""
        self.on_simulator(lambda sim: land_skitt(sim, field_name, self._expected))

    def lay_out(self) -> None:
        """Put the simulated board where the match expects it (virtual board only): every
        skitt, also those beyond what a field's cells can count (they lie there unseen, as
        on a real board, and a field at its capacity agrees with any higher count)."""
        with self.lock:
            sensing = self.require_sensing()
            sensing.require_simulator()
            sensing.lay_out(self._expected.board, self._expected.big)

    def require_sensing(self) -> Sensing:
        if self.sensing is None:
            raise LookupError("no sensor source")
        return self.sensing

    def board_json(self) -> dict[str, Any]:
        """The profile and the simulated board, for the virtual board page."""
        if self.sensing is None:
            return {"profile": None, "virtual": None}
        with self.lock:
            return {"profile": self.sensing.profile_json(),
                    "virtual": self.sensing.simulated_json()}

    # -- what is published ---------------------------------------------------------------------

    def view(self, link: LinkStatus | None = None) -> dict[str, Any]:
        """Tracker, link, sensor health and the virtual board, as the pages are shown them
        (``link``: the status this polling step read, so it is read once a step)."""
        with self.lock:
            if self.sensing is None:
                sensed = no_source_view()
            else:
                sensed = self.sensing.view(self.sensing.link() if link is None else link)
            return sensing_part(sensed, self.tracker, self.paused, self.source_name,
                                None if self.order is None else self.order.to_json(),
                                self.waiting_press())

    def shown(self) -> dict[str, Any]:
        """The view to publish now, kept as the one last shown (a polling step shows a view
        only when it differs from that one)."""
        with self.lock:
            self._view = self.view()
            return self._view

    def close(self) -> None:
        """Stop the sensing thread (after what it was given), then release the sensors."""
        self.thread.shutdown(wait=True)
        if self.sensing is not None:
            with self.lock:
                self.sensing.close()
