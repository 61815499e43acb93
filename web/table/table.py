"""One board at the table: sensors → feed → owner (watch, match, store) → broadcaster.

The :class:`Table` is the match side (:class:`~web.table.core.TableCore`) with the sensors
joined to it. The sensing thread (``web.table.feed``) reads the board and sends what it did,
in order, to the table's one owner (the writer thread), where it is judged by the watch
(``web.table.watch``) one input at a time against the match as every change before it left
it; a shot it concludes is stored there and then, before the next input. A person's step runs
on the same owner, so a step and a landing are ordered by the one queue and by the times they
carry, never by which thread got a lock first. A disk that stalls a commit holds up the owner
only: the sensing thread goes on reading the board and showing what it reads.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.errors import because
from scorekeeper.events import Correction, Event, ShotEvent, Undo
from scorekeeper.shot import Landing, Shot
from scorekeeper.store import StoreUnwritable
from scorekeeper.store.values import StepSource
from web.table.core import TableCore, _on_owner
from web.table.errors import Refused, Stale
from web.table.feed import Input, Landed, Moving, Overflowed
from web.table.watch import Sensed

__all__ = ["Refused", "Stale", "Table"]

log = logging.getLogger("skitter.table")


class Table(TableCore):
    """The live match of one board and everything that feeds it."""

    # -- the sensing thread --------------------------------------------------------------------

    def poll(self) -> list[Future[None]]:
        """One polling step (sensing thread): what the sensors did goes to the owner, in
        order. A sensor view that changed is published by the owner once it has taken
        what came with it (one snapshot, the tracker agreeing with the sensors; one per
        shot), or at once when there is nothing for the owner to judge, or when the owner
        is behind (a stalled disk): the board is shown live all the same. Returns the
        owner's job (the loop does not wait for it; tests may)."""
        inputs, view = self.feed.poll()
        behind = self._batches_sent > self._batches_done
        judged = any(not isinstance(i, Moving) for i in inputs)
        landed = any(isinstance(i, Landed) for i in inputs)
        if view is not None and judged and not (behind and not landed):
            self._owed = True
        elif view is not None or (self._owed and behind):
            self._show()
        if not inputs:
            return []
        try:
            job = self.writer.submit(self._take, inputs)
        except RuntimeError:  # the owner is shut down (the server is stopping)
            return []
        self._batches_sent += 1
        return [job]

    def tick(self) -> None:
        """One polling step done at once: the store's recheck, the sensing step and the
        owner's work on what it sent (tests and the command line, never on the owner; the
        server's loop runs the two sides on their own threads, ``web.api.app``)."""
        self._owned(self.recheck_store)
        for job in self.feed.thread.submit(self.poll).result():
            job.result()
        self._owned(self.timers)

    def seconds_to_rest(self) -> float | None:
        return self.feed.seconds_to_rest()

    # -- the owner: what the sensors did -------------------------------------------------------

    def _take(self, inputs: list[Input]) -> None:
        """Owner: judge the feed's inputs in order, each against the match as the ones
        before it left it, then publish what changed."""
        try:
            self._judge(inputs)
        finally:
            self._batches_done += 1

    def _judge(self, inputs: list[Input]) -> None:
        for item in inputs:
            try:
                if isinstance(item, Landed):
                    self.feed.taken += 1
                    if self.feed.overflow.is_set():
                        continue  # readings were dropped after it: the referee decides
                elif isinstance(item, Overflowed):
                    self.feed.overflow.clear()
                self._store(self.watch.take(item))
            except Exception:  # noqa: BLE001 - one input must not stop the ones after it
                log.exception("a sensor input could not be judged")
        self.timers()
        self._show()

    def timers(self) -> None:
        """Owner, on every beat: a person's step that waited for the board to come to rest
        stands once it is at rest, or has waited long enough."""
        self._store(self.watch.due_press(self.clock.now()))

    def _store(self, sensed: Sensed | None) -> None:
        """Owner: store each shot the watch concluded (and judge again an input it put
        after one)."""
        while sensed is not None:
            before = self.watch.expected
            if self._apply_sensed(sensed.shot, source=sensed.source,
                                  timeline=sensed.timeline):
                self.watch.stored(sensed, before, self.clock.now())
            sensed = None if sensed.again is None else self.watch.take(sensed.again)

    def _apply_sensed(
        self, shot: ShotEvent, *, source: str, timeline: Mapping[str, Any] | None = None,
        answer: bool = False,
    ) -> bool:
        """Apply a sensed shot (True when stored); a refusal goes to the tracker for the
        referee, and is also raised when a person asked (``answer``: Accept must not look
        accepted)."""
        try:
            self.apply_step(shot, source=source, timeline=timeline)
        except Refused as exc:
            self._on_watch(self.watch.refused, str(exc), exc.why)
            if answer:
                raise
            return False
        except StoreUnwritable as exc:
            if source != StepSource.SENSOR:
                raise
            # Not scored: the referee accepts the board again once the log can be written.
            self._on_watch(self.watch.not_recorded, str(exc))
            return False
        return True

    # -- the referee and the virtual board, on the sensing thread ------------------------------

    def _on_feed(self, act: Callable[[], object]) -> None:
        """A sensing act on the sensing thread, then a polling step, so what it changed is
        seen and sent on at once. On the sensing thread (a page's act) it runs there and
        then. On the owner, the owner takes what the step saw there and then (the act was
        decided before anything the sensors did meanwhile). From elsewhere (a test, the
        command line) it is handed over, and what it sent the owner is waited for too."""
        if self.feed.on_thread():
            act()
            self.poll()
            return
        if _on_owner():
            def sense() -> list[Input]:
                act()
                return self.feed.poll()[0]
            self._judge(self.feed.thread.submit(sense).result())
            self._show()
            return

        def run() -> list[Future[None]]:
            act()
            return self.poll()
        for job in self.feed.thread.submit(run).result():
            job.result()

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sensing: the switch is the feed's, and the owner hears of it in
        order with the readings (a board changed meanwhile goes to the referee)."""
        self._on_feed(lambda: self.feed.set_paused(paused))

    def mute(self, cell: int, muted: bool) -> None:
        """Mute or unmute a cell (``ValueError`` for one the profile lacks), then poll."""
        self._on_feed(lambda: self.feed.mute(cell, muted))

    def on_simulator(self, action: Callable[[SimulatedBoard], None]) -> None:
        """A tap on the virtual board, then a polling step."""
        self._on_feed(lambda: self.feed.on_simulator(action))

    def place_skitt(self, field_name: str) -> None:
        """A skitt of the shot lands on the virtual board (``Feed.place_skitt``), then a
        polling step."""
        self._on_feed(lambda: self.feed.place_skitt(field_name))

    def lay_out(self) -> None:
        """Put the virtual board where the match expects it."""
        self._on_feed(self.feed.lay_out)

    # -- the referee's steps, on the owner -----------------------------------------------------

    def restore_board(self) -> None:
        """The referee will have the board put back to what the match expects."""
        def run() -> None:
            self._on_watch(self.watch.restore_board)
            self.feed.thread.submit(self.feed.restore)
        self._owned(run)

    def board_as_expected(self) -> None:
        """The board lies as the match expects (``Watch.board_as_expected``)."""
        self._owned(lambda: self._on_watch(self.watch.board_as_expected))

    def accept_board(self) -> None:
        """The referee takes the board as sensed to be the shot of the player due."""
        self._owned(self._accept_board)

    def _accept_board(self) -> None:
        try:
            shot = self.watch.accept_board()
        except Refused:
            self._publish()
            raise
        if shot is None:  # a full field: the referee is asked its count
            self._publish()
            return
        self._apply_sensed(shot, source="manual", answer=True)

    def answer(self, field_name: str, skitts: int) -> None:
        """The referee's count for a full field; once the shot's every full field is
        answered, it is recorded as sensed (the sensors saw the rest of it)."""
        def run() -> None:
            sensed = self.watch.answer(field_name, skitts)
            if sensed is None:
                self._publish()
                return
            self._apply_sensed(sensed.shot, source="sensor", timeline=sensed.timeline,
                               answer=True)
        self._owned(run)

    def no_change(self, *, source: str = "manual", pressed_at: float | None = None) -> None:
        """The player due shot and nothing on the board changed (``pressed_at``: when the
        person pressed it, by the table's clock; now when not given). A landing is ordered
        against that moment (``web.table.order``), however long the step waited."""
        pressed = self.clock.now() if pressed_at is None else pressed_at

        def run() -> None:
            shot = self.watch.no_change(pressed, self.clock.now())
            if shot is None and (self.tracker.question is not None or self.watch.order
                                 is not None or self.watch.waiting_press()):
                # a full field: the referee says what the shot added there; a landing too
                # close to the press to order; or the press waits for the board to rest
                self._publish()
                return
            if shot is None:
                raise Refused(because("nobody is due to shoot"), "turn")
            self.apply_step(shot, source=source)
        self._owned(run)

    def take_step(self, event: Event, *, pressed_at: float | None = None) -> None:
        """A person's step from a page, decoded at the edge (``pressed_at``: when pressed, by
        the table's clock). A shot by the player due that changes nothing on the board (a big
        skitt missed, a shot with no delta) is ordered against a landing like "turn ended"
        (:meth:`no_change`); every other step is applied as it is."""
        pressed = self.clock.now() if pressed_at is None else pressed_at

        def run() -> None:
            due = self.committed.match.state
            if not (isinstance(event, ShotEvent) and self.sensing is not None
                    and event.shot == Shot(by=event.shot.by, big=event.shot.big)
                    and event.shot.big in (None, Landing.MISSED) and event.shot.by == due.turn):
                self.apply_step(event, source="manual")
                return
            shot = self.watch.no_change(pressed, self.clock.now(), event)
            if shot is None:
                self._publish()
                return
            self.apply_step(shot, source="manual")
        self._owned(run)

    def settle_order(self, by: str) -> None:
        """The referee answers whose shot a landing as they pressed 'turn ended' was
        (``web.table.order``): ``by`` the player the press was about, or the next."""
        def run() -> None:
            order = self.watch.order
            if order is None:
                raise Refused(because("no question is open about whose shot it was"), "by")
            if by not in (order.by, order.next):
                raise Refused(because("{by}: not a player of the question", by=by), "by")
            steps: list[Event] = []
            if by == order.by:
                if order.landed_stored:  # the landing stands as stored; the press goes
                    self._on_watch(self.watch.drop_order)
                    return
                if order.pressed.stored:  # the press was stored: taken back for the shot
                    steps.append(Undo())
                self.apply_steps([*steps, order.landed], source="manual" if steps else
                                 "sensor")
                return
            if order.landed_stored:  # the landing was stored as the shot: taken back
                steps.append(Undo())
            if steps or not order.pressed.stored:
                self.apply_steps([*steps, order.pressed.shot], source="manual")
            self._accept_board()
        self._owned(run)

    def board_as_sensed(self) -> None:
        """The referee has the match take the board as the sensors see it: a correction of
        the fields that differ, logged (and undoable) like any other."""
        def run() -> None:
            counts = self.watch.board_as_sensed()
            self.apply_step(Correction(board=counts, reason="the referee took the board "
                                       "as the sensors see it"))
        self._owned(run)
