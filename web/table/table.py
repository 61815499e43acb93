"""One board at the table: sensors → pipeline → tracker → match → store → broadcaster.

The :class:`Table` is the match side (:class:`~web.table.core.TableCore`: every change on
the writer, every snapshot published) with the sensing side's decisions carried out. The
sensing side (:class:`~web.table.watch.Watch`) runs on its own thread, so a disk that stalls
a commit stops neither the sensors nor the screens; it decides and returns what it decided,
and the table acts on it: :meth:`Table.poll` hands a shot the watch concluded to the writer
(:meth:`Table._store_sensed`, which goes the way of every change) and publishes a view that
changed; each act of the referee's on the board is published, or its shot stored, here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.errors import IllegalEventError, because
from scorekeeper.events import Correction, ShotEvent, Undo, parse_event
from scorekeeper.shot import Shot
from scorekeeper.store import StoreUnwritable
from web.table.core import TableCore
from web.table.errors import Refused, Stale
from web.table.watch import Sensed

__all__ = ["Refused", "Stale", "Table"]

log = logging.getLogger("skitter.table")


class Table(TableCore):
    """The live match of one board and everything that feeds it."""

    def poll(self) -> list[Future[None]]:
        """One polling step (sensing thread, ``Watch.tick``): a shot it concluded goes to
        the writer, whose publish shows it; a view that changed is published. Returns the
        writer's job for the shot (the loop does not wait for it; tests may)."""
        with self.watch.lock:
            polled = self.watch.tick()
            if polled.sensed is not None:
                try:
                    return [self.writer.submit(self._store_sensed, polled.sensed)]
                except RuntimeError as exc:  # the writer is shut down (the server is stopping)
                    self.watch.release()
                    self._on_watch(self.watch.not_recorded, str(exc))
            elif polled.view is not None:
                self._send(polled.view)
        return []

    def tick(self) -> None:
        """One polling step done at once: the store's recheck, the sensing step, and the
        shot it handed to the writer stored (tests and the command line, never on the
        writer; the server's loop runs the two sides on their own threads, ``web.api.app``)."""
        self.recheck_store()
        for job in self.poll():
            job.result()

    def seconds_to_rest(self) -> float | None:
        return self.watch.seconds_to_rest()

    def _store_sensed(self, sensed: Sensed) -> None:
        """Writer: store and apply a sensed shot, unless the match changed since it was
        judged (then the referee decides); judging resumes once this is done."""
        try:
            if not self.watch.claim(sensed):
                return  # judged again, in order, by the next polling step
            if sensed.epoch != self.watch.epoch:
                self._on_watch(self.watch.not_recorded,
                               "the match changed while it was being recorded")
            else:
                self._apply_sensed(sensed.shot, source=sensed.source, timeline=sensed.timeline)
        except Exception as exc:  # noqa: BLE001 - the hold must end; the referee decides
            log.exception("a sensed shot could not be stored")
            self._on_watch(self.watch.not_recorded, str(exc))
        finally:
            self.watch.release()

    def _apply_sensed(
        self, shot: ShotEvent, *, source: str, timeline: Mapping[str, Any] | None = None,
        answer: bool = False,
    ) -> None:
        """Apply a sensed shot; a refusal goes to the tracker for the referee, and is also
        raised when a person asked (``answer``: Accept must not look accepted)."""
        try:
            self.apply_step(shot, source=source, timeline=timeline)
        except Refused as exc:
            self._on_watch(self.watch.refused, str(exc), exc.why)
            if answer:
                raise
        except StoreUnwritable as exc:
            if source != "sensor":
                raise
            # Not scored: the referee accepts the board again once the log can be written.
            self._on_watch(self.watch.not_recorded, str(exc))

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sensing (``Watch.set_paused``)."""
        self._on_watch(self.watch.set_paused, paused)

    def restore_board(self) -> None:
        """The referee will have the board put back to what the match expects."""
        self._on_watch(self.watch.restore_board)

    def board_as_expected(self) -> None:
        """The board lies as the match expects (``Watch.board_as_expected``)."""
        self._on_watch(self.watch.board_as_expected)

    # A sensing act that changes what the sensors read is followed by a polling step, so
    # the pipeline sees it at once.

    def mute(self, cell: int, muted: bool) -> None:
        """Mute or unmute a cell (``ValueError`` for one the profile lacks), then poll."""
        self.watch.mute(cell, muted)
        self.poll()

    def on_simulator(self, action: Callable[[SimulatedBoard], None]) -> None:
        """A tap on the virtual board, then a polling step."""
        self.watch.on_simulator(action)
        self.poll()

    def place_skitt(self, field_name: str) -> None:
        """A skitt of the shot lands on the virtual board (``Watch.place_skitt``), then a
        polling step."""
        self.watch.place_skitt(field_name)
        self.poll()

    def accept_board(self) -> None:
        """Writer: the referee takes the board as sensed to be the shot of the player due."""
        with self.watch.lock:
            try:
                shot = self.watch.accept_board()
            except Refused:
                self._send(self.watch.shown())
                raise
            if shot is None:  # a full field: the referee is asked its count
                self._send(self.watch.shown())
                return
        self._apply_sensed(shot, source="manual", answer=True)

    def answer(self, field_name: str, skitts: int) -> None:
        """Writer: the referee's count for a full field; once the shot's every full field is
        answered, it is recorded as sensed (the sensors saw the rest of it)."""
        with self.watch.lock:
            sensed = self.watch.answer(field_name, skitts)
            if sensed is None:
                self._send(self.watch.shown())
                return
        self._apply_sensed(sensed.shot, source="sensor", timeline=sensed.timeline, answer=True)

    def no_change(self, *, source: str = "manual", pressed_at: float | None = None) -> None:
        """The player due shot and nothing on the board changed (``pressed_at``: when the
        person pressed it, by the table's clock; now when not given). A landing is ordered
        against that moment (``web.table.order``), however long the step waited."""
        pressed = self.clock.now() if pressed_at is None else pressed_at
        with self.watch.lock:
            shot = self.watch.no_change(pressed)
            if shot is None and (self.tracker.question is not None
                                 or self.watch.waiting_press()):
                # a full field: the referee says what the shot added there; or a landing
                # too close to the press to order: it waits for the board to come to rest
                self._send(self.watch.shown())
                return
        if shot is None:
            raise Refused(because("nobody is due to shoot"), "turn")
        self.apply_step(shot, source=source)

    def take_step(self, step: Mapping[str, Any], *, pressed_at: float | None = None) -> None:
        """A person's step from a page (``pressed_at``: when pressed, by the table's clock).
        A shot by the player due that changes nothing on the board (a big skitt missed, a
        shot with no delta) is ordered against a landing like "turn ended"
        (:meth:`no_change`); every other step is applied as it is."""
        try:
            event = parse_event(step)
        except IllegalEventError as exc:
            raise Refused.of(exc) from None
        due = self.committed.match.state
        if not (isinstance(event, ShotEvent) and self.sensing is not None
                and event.shot == Shot(by=event.shot.by, big=event.shot.big)
                and event.shot.big in (None, "missed") and event.shot.by == due.turn):
            self.apply_step(event, source="manual")
            return
        pressed = self.clock.now() if pressed_at is None else pressed_at
        with self.watch.lock:
            shot = self.watch.no_change(pressed, event)
            if shot is None:
                self._send(self.watch.shown())
                return
        self.apply_step(shot, source="manual")

    def settle_order(self, by: str) -> None:
        """Writer: the referee answers whose shot a landing as they pressed 'turn ended'
        was (``web.table.order``): ``by`` the player the press was about, or the next."""
        order = self.watch.order
        if order is None:
            raise Refused(because("no question is open about whose shot it was"), "by")
        if by not in (order.by, order.next):
            raise Refused(because("{by}: not a player of the question", by=by), "by")
        if by == order.by and order.pressed.stored:
            # the press was stored: it is taken back, and the landing is the shot
            self.apply_steps([Undo(), order.landed], source="manual")
        elif by == order.by:
            self.apply_step(order.landed, source="sensor")
        else:
            if not order.pressed.stored:
                self.apply_step(order.pressed.shot, source="manual")
            self.accept_board()

    def board_as_sensed(self) -> None:
        """The referee has the match take the board as the sensors see it: a correction of
        the fields that differ, logged (and undoable) like any other."""
        counts = self.watch.board_as_sensed()
        self.apply_step(Correction(board=counts, reason="the referee took the board as "
                                   "the sensors see it"))
