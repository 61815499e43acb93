"""One board at the table: sensors → pipeline → tracker → match → store → broadcaster.

The :class:`Table` is the only object that changes the match. Every change, whether a
sensed shot or a tablet's step, goes the same way: check it (a rule refusal changes nothing),
append it to the store (committed before anything is shown), apply it to the live match,
tell the tracker, and publish a new full snapshot with the next sequence number.

Sequence numbers: ``seq`` goes up with every published change (match, tracker, link,
sensors). ``version`` is the ``seq`` at which the *match* last changed. A change from a page
carries the ``seq`` it was made against; it is stale (HTTP 409) when the match changed after
it. Sensor noise that changes only the tracker's message never makes a tablet's step stale.

All methods are synchronous and meant to be called from the event loop's thread, so two
requests never interleave inside one change (the loop runs one at a time). Time comes from
the injected clocks: ``clock`` (monotonic, for sensing) and ``wall`` (epoch, for the log).

A step travels as an :class:`~scorekeeper.events.Event`: proposed by the tracker, made by a
button, or parsed once from a page's JSON by :meth:`Table.apply_step`. Its JSON is made where
it is stored (:meth:`MatchStore.append`) and where a snapshot or an answer is sent.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from firmware_bridge.profile import BoardProfile, load_profile
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, Event, ShotEvent, Undo, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.reading import BoardReading
from scorekeeper.store import MatchStore, StoreError, StoreUnwritable
from scorekeeper.tracker import Expectation, Tracker
from scorekeeper.words import what_changed
from web.table.match_log import MatchLog, amended_shot, log_entry
from web.table.resume import resume
from web.table.review import build_review
from web.table.sensing import Sensing
from web.table.snapshot import log_in_words, published_state, sensing_part

WRITE_TIMEOUT_S = 10.0
"""Seconds a change waits on the writer (the disk) before its request is answered 503."""
RECHECK_S = 5.0
"""While the match log cannot be written, how often the polling loop tries it again."""


CHANGES_KEPT = 256
"""How many recent match changes :meth:`Table.meanwhile` can describe."""


class Refused(Exception):
    """A change the table will not make (HTTP 422); ``field`` names the input at fault."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Stale(Exception):
    """A change made against an old state (HTTP 409)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        """The state the refused change was made against."""


class Table:
    """The live match of one board and everything that feeds it."""

    def __init__(
        self,
        store: MatchStore,
        *,
        clock: Clock,
        wall: Clock,
        sensing: Sensing | None = None,
        publish: Callable[[Mapping[str, Any]], None] | None = None,
        source_name: str = "none",
    ) -> None:
        self.store = store
        self.clock = clock
        self.wall = wall
        self.sensing = sensing
        self.tracker = Tracker()
        self._send = publish or (lambda snapshot: None)
        """Where every snapshot goes (the app's broadcaster), given when the table is built."""
        self.source_name = sensing.source.name if sensing else source_name
        self.started = clock.now()
        self.boot = secrets.token_hex(4)
        """Differs on every start, so a page can tell a restarted server's ``seq`` apart."""
        self.seq = 0
        self.version = 0
        self._changes: list[tuple[int, int]] = []
        """(state seq, log length) after each recent match change, to tell a refused
        change what happened since the state it was made against."""
        self.paused = False
        self.review_shown: dict[str, Any] | None = None
        """The review the referee mirrors on the scoreboard (seq, ms, playing, speed)."""
        self._sensing_view: dict[str, Any] | None = None
        self._sensing_key: tuple[Any, ...] | None = None
        self._link_up: bool | None = None
        self._next_recheck = 0.0
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitter-writer")
        """The one thread the web layer runs every change on (``web.api.writer``), so a
        stalled disk holds up changes only, never the event loop and its readers."""
        self.write_timeout = WRITE_TIMEOUT_S
        self.published: dict[str, Any] = {}
        """The last snapshot published: what readers get without touching the table."""
        resumed = resume(store, wall)
        self.match_id, self.rules, self.setup = resumed.match_id, resumed.rules, resumed.setup
        self.names, self.meta, self.log = resumed.names, resumed.meta, resumed.log
        self._changes.append((self.seq, len(self.log)))
        self._after_match_change(lay_out_simulator=True)

    @property
    def match(self) -> Match:
        """The live match (its log holds it: one entry per event)."""
        return self.log.match

    # -- reading ------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The full published state (the WebSocket's messages and ``GET /api/state``)."""
        return self._snapshot(self._sensing_json())

    def _snapshot(self, view: dict[str, Any]) -> dict[str, Any]:
        return published_state(self, view)

    def meanwhile(self, seq: int) -> list[str]:
        """What changed in the match after state ``seq``, in players' words (for a 409);
        empty when that state is too old to tell."""
        known = [n for v, n in self._changes if v <= seq]
        if not known:
            return []
        out: list[str] = []
        for e in self.log.entries[known[-1]:]:
            out.extend(what_changed(e.event, e.text, self.names))
        return out

    def full_log(self) -> list[dict[str, Any]]:
        """Every entry, with ``words`` and effects in the players' names beside the raw step."""
        return log_in_words(self.log.to_json(), self.names)

    def review(self, seq: int) -> dict[str, Any]:
        """Step ``seq`` with its sensor timeline (``web.table.review``); LookupError if none."""
        return build_review(self.log, seq, self.store.timeline(self.match_id, seq),
                            self.profile(), self.match_id, self.names)

    def show_review(self, shown: Mapping[str, Any] | None) -> None:
        """Mirror a review on the scoreboard (None ends it); the match does not change."""
        if shown is not None and not any(e.seq == shown.get("seq") for e in self.log.entries):
            raise Refused(f"step {shown.get('seq')}: no such step to show", "seq")
        self.review_shown = None if shown is None else dict(shown)
        self._publish(match_changed=False)

    def profile(self) -> BoardProfile:
        """The board's profile (the default one when the table has no sensors)."""
        return self.sensing.profile if self.sensing is not None else load_profile()

    def uptime(self) -> float:
        return self.clock.now() - self.started

    def expectation(self) -> Expectation:
        return Expectation.from_state(self.match.state)

    def _sensing_json(self) -> dict[str, Any]:
        return sensing_part(self.sensing, self.tracker, self.paused, self.source_name)

    # -- checks -------------------------------------------------------------------------------

    def check_seq(self, seq: int) -> None:
        """Raise :class:`Stale` when the match changed since ``seq`` (or ``seq`` is unknown)."""
        if seq < self.version or seq > self.seq:
            raise Stale(seq,
                f"the match changed since state {seq} (now state {self.seq}, last match "
                f"change at {self.version}); look again and retry"
            )

    # -- changes to the match -----------------------------------------------------------------

    def apply_step(
        self, step: Event | Mapping[str, Any], *, source: str = "manual",
        timeline: Mapping[str, Any] | None = None,
    ) -> list[Any]:
        """Check, store, apply and publish one step; :class:`Refused` if not.

        ``step`` is an event, or a scenario-format step object from a page or the hub: this
        is the edge where it is parsed, once. The live match refuses a step without changing
        (``Match.apply``), so it is applied first and stored right after; should the store
        fail (:class:`StoreUnwritable`), the match is rebuilt from the steps already
        committed, the screens are told the log cannot be written, and the error goes to the
        caller (HTTP 503).
        """
        try:
            event = parse_event(step)
            if source == "manual" and isinstance(event, Correction) \
                    and not (event.reason or "").strip():
                raise Refused("correct.reason: say why (a correction needs a reason)",
                              "correct.reason")
            effects = self.match.apply(event)
        except IllegalEventError as exc:
            raise Refused(str(exc), exc.key) from None
        at = self.wall.now()
        try:
            seq = self.store.append(self.match_id, event, at=at, source=source,
                                    timeline=timeline)
        except StoreError:
            self.log = MatchLog(self._replayed(self.match.events[:-1]), self.log.entries)
            self._publish(match_changed=False)
            raise
        self.log.add(log_entry(self.match.state, seq, at, source, event, effects))
        self._after_match_change(after_shot=source == "sensor")
        return list(effects)

    def apply_steps(self, events: list[Event], *, source: str = "manual") -> None:
        """Apply several steps as one change: all are checked on a copy, stored in ONE
        transaction, and applied to the live match only once that has committed."""
        try:
            copy = self._replayed(self.match.events)
            for event in events:
                copy.apply(event)
        except IllegalEventError as exc:
            raise Refused(str(exc), exc.key) from None
        at = self.wall.now()
        try:
            seqs = self.store.append_many(self.match_id, events, at=at, source=source)
        except StoreError:
            self._publish(match_changed=False)
            raise
        for seq, event in zip(seqs, events, strict=True):
            effects = self.match.apply(event)
            self.log.add(log_entry(self.match.state, seq, at, source, event, effects))
        self._after_match_change()

    def _replayed(self, events: tuple[Event, ...]) -> Match:
        return Match.replay(self.rules, self.setup, events, self.names)

    def amend_last_shot(self, extra: Mapping[str, Any]) -> None:
        """Add what the sensors cannot see to the last shot: undo it and shoot it again."""
        last = self.log.last_standing()
        if last is None or not isinstance(last.event, ShotEvent):
            raise Refused("there is no shot to amend: the last step is not a shot", "extra")
        try:
            shot = amended_shot(last.event, extra)
        except IllegalEventError as exc:
            raise Refused(str(exc), exc.key) from None
        except ValueError as exc:
            raise Refused(str(exc), "extra") from None
        self.apply_steps([Undo(), shot])

    def no_change(self, *, source: str = "manual") -> None:
        """The player due shot and nothing on the board changed."""
        shot = self.tracker.mark_no_change(self.expectation())
        if shot is None:
            raise Refused("nobody is due to shoot", "turn")
        self.apply_step(shot, source=source)

    def new_match(
        self, rules: Mapping[str, Any], setup: Mapping[str, Any], names: Mapping[str, str],
        meta: Mapping[str, Any],
    ) -> None:
        """Start a new match (the old one stays in the store)."""
        try:
            r = Rules.from_json(dict(rules))
            s = Setup.from_json(dict(setup))
            match = Match(r, s, dict(names))
        except IllegalEventError as exc:
            raise Refused(str(exc), "rules") from None
        try:
            self.match_id = self.store.create_match(
                r.to_json(), s.to_json(), dict(names), at=self.wall.now(), meta=dict(meta)
            )
        except StoreError:
            self._publish(match_changed=False)
            raise
        self.log, self.rules, self.setup = MatchLog(match), r, s
        self.names, self.meta = dict(names), dict(meta)
        self.review_shown = None
        self._after_match_change(lay_out_simulator=True)

    # -- the board and sensing ----------------------------------------------------------------

    def accept_board(self) -> None:
        """The referee takes the board as sensed to be the shot of the player due."""
        shot = self.tracker.accept_board(self.expectation())
        if shot is None:
            self.tracker.sync(self.expectation())
            self._publish(match_changed=False)
            raise Refused("the sensed board shows no shot of the player due", "board")
        self._apply_sensed(shot, source="manual", answer=True)

    def restore_board(self) -> None:
        """The referee will have the board put back to what the match expects."""
        self.tracker.restore_board()
        if self.sensing is not None:
            self.sensing.set_expected(self.match.state.board)
        self._publish(match_changed=False)

    def lay_out_simulator(self) -> None:
        """Put the simulated board where the match expects it (virtual board only)."""
        if self.sensing is None:
            raise Refused("no sensor source", "source")
        state = self.match.state
        self.sensing.lay_out(state.board, dict(state.big))

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sensing; a board changed meanwhile goes to the referee."""
        self.paused = paused
        if paused:
            self.tracker.pause("referee")
        else:
            self._resume_sensing("referee")
        self._publish(match_changed=False)

    def _resume_sensing(self, why: str) -> None:
        """End a gap in sensing: the tracker forgets its reading, the pipeline owes a new one."""
        self.tracker.resume(why)
        if self.sensing is not None:
            self.sensing.resync()

    def tick(self) -> None:
        """One step of the polling loop: link, readings, shots; publish what changed."""
        self._recheck_store()
        if self.sensing is None:
            return
        # Poll first, then read the link: a link that went down or came back during this
        # poll is seen before any of its readings is judged. Readings of the poll in which
        # the link came back were taken before the gap ended and are never judged.
        readings = self.sensing.poll()
        link = self.sensing.link()
        if link.up != self._link_up:
            if link.up:
                self._resume_sensing("link")
                readings = []
            else:
                self.tracker.pause("link")
            self._link_up = link.up
        for reading in readings:
            self._observe(reading)
        # Most steps change nothing: compare a cheap key first, the whole view only then.
        key = self.sensing.change_key(link)
        if readings or key != self._sensing_key:
            self._sensing_key = key
            view = self._sensing_json()
            if view != self._sensing_view:
                self._publish(match_changed=False, view=view)

    def seconds_to_rest(self) -> float | None:
        """Seconds until the board will be at rest after its last change, if that is ahead.

        The polling loop sleeps no longer than this, so a settled reading is taken the moment
        it becomes due rather than at the next regular step."""
        if self.sensing is None:
            return None
        at = self.sensing.rest_deadline()
        if at is None:
            return None
        left = at - self.clock.now()
        return left if left > 0 else None

    def _observe(self, reading: BoardReading) -> None:
        shot = self.tracker.observe(reading, self.expectation())
        if shot is not None:
            self._apply_sensed(shot, source="sensor", timeline=self._timeline_of(reading))

    def _timeline_of(self, reading: BoardReading) -> dict[str, Any] | None:
        """The sensor timeline that ended in ``reading``, with the tracker's conclusion."""
        pipeline = self.sensing.pipeline if self.sensing is not None else None
        if pipeline is None or pipeline.last_reading is not reading:
            return None
        timeline = pipeline.last_timeline
        return None if timeline is None else timeline.to_json()

    def _apply_sensed(
        self, shot: ShotEvent, *, source: str, timeline: Mapping[str, Any] | None = None,
        answer: bool = False,
    ) -> None:
        """Apply a sensed shot; a refusal goes to the tracker for the referee, and is also
        raised when a person asked (``answer``: Accept must not look accepted)."""
        try:
            self.apply_step(shot, source=source, timeline=timeline)
        except Refused as exc:
            self.tracker.refused(str(exc))
            self._publish(match_changed=False)
            if answer:
                raise
        except StoreUnwritable as exc:
            if source != "sensor":
                raise
            # Not scored: the referee accepts the board again once the log can be written.
            self.tracker.not_recorded(str(exc))
            self._publish(match_changed=False)

    def _recheck_store(self) -> None:
        """While the log cannot be written, try it every :data:`RECHECK_S`; when the disk
        takes writes again (space freed) the problem clears by itself."""
        if self.store.write_problem is None or self.clock.now() < self._next_recheck:
            return
        self._next_recheck = self.clock.now() + RECHECK_S
        self.check_store()

    def check_store(self) -> str | None:
        """Read the log and retry a failed write now (``/healthz`` too); the screens are
        told when the problem has cleared. The problem, or None."""
        had = self.store.write_problem
        self.store.event_count(self.match_id)
        problem = self.store.recheck()
        if had is not None and problem is None:
            self._publish(match_changed=False)
        return problem

    # -- after every change -------------------------------------------------------------------

    def _after_match_change(
        self, *, after_shot: bool = False, lay_out_simulator: bool = False
    ) -> None:
        expected = self.expectation()
        if self.sensing is not None:
            if lay_out_simulator and self.sensing.simulator is not None:
                self.lay_out_simulator()
            self.sensing.set_expected(self.match.state.board)
        self.tracker.sync(expected, after_shot=after_shot)
        self._publish(match_changed=True)

    def _publish(self, *, match_changed: bool, view: dict[str, Any] | None = None) -> None:
        self.seq += 1
        if match_changed:
            self.version = self.seq
            self._changes.append((self.seq, len(self.log)))
            del self._changes[:-CHANGES_KEPT]
        self._sensing_view = self._sensing_json() if view is None else view
        self.published = self._snapshot(self._sensing_view)
        self._send(self.published)

    def close(self) -> None:
        """Release the sensors and the store, once the writer has finished what it was given
        (a change still waiting on the disk is stored, not dropped)."""
        self.writer.shutdown(wait=True)
        if self.sensing is not None:
            self.sensing.close()
        self.store.close()
