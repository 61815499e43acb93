"""One board at the table: sensors → pipeline → tracker → match → store → broadcaster.

The :class:`Table` is the only object that changes the match. Every change, whether a
sensed shot or a tablet's step, goes the same way (:meth:`Table.apply_steps`): the live
match takes it (a rule refusal changes nothing), it is appended to the store (committed
before anything is shown; any failure of the write rebuilds the live match from the log, so
it never runs ahead), the tracker is told, and a new full snapshot goes out with the next
sequence number.

Sequence numbers: ``seq`` goes up with every published change (match, tracker, link,
sensors). ``version`` is the ``seq`` at which the *match* last changed. A change from a page
carries the ``seq`` it was made against; it is stale (HTTP 409) when the match changed after
it. Sensor noise that changes only the tracker's message never makes a tablet's step stale.

Threads: every change runs on :attr:`Table.writer`, one at a time (``web.api.writer``), and
only the writer changes the match and the log. Sensing runs on its own thread
(:class:`~web.table.watch.Watch`), so a disk that stalls a commit stops neither the sensors
nor the screens: a sensed shot goes to the writer, and the sensing side is told the new
expectation once it has committed. After each commit the writer builds the match part of
the snapshot and a frozen copy of the log (:attr:`Table.committed`); the sensing side's
snapshots and the downloads use those, so nothing uncommitted is ever shown. Time comes from
the injected clocks: ``clock`` (monotonic, for sensing) and ``wall`` (epoch, for the log).

A step travels as an :class:`~scorekeeper.events.Event`: proposed by the tracker, made by a
button, or parsed once from a page's JSON by :meth:`Table.apply_step`. Its JSON is made where
it is stored (:meth:`MatchStore.append`) and where a snapshot or an answer is sent.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from firmware_bridge.profile import BoardProfile, load_profile
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, Decision, Event, ShotEvent, Undo, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import State
from scorekeeper.store import MatchStore, StoreError
from scorekeeper.tracker import Expectation, Tracker
from scorekeeper.words import PLAYERS, name_of
from web.table import meanwhile, records
from web.table.errors import Refused, Stale
from web.table.match_log import MatchLog, amended_shot, log_entry
from web.table.resume import resume
from web.table.sensing import Sensing
from web.table.snapshot import compose, match_part
from web.table.watch import Watch

WRITE_TIMEOUT_S = 10.0
"""Seconds a change waits on the writer (the disk) before its request is answered 503."""
RECHECK_S = 5.0
"""While the match log cannot be written, how often the polling loop tries it again."""


CHANGES_KEPT = 256
"""How many recent match changes :meth:`Table.meanwhile` can describe."""


def same_position(a: State, b: State) -> bool:
    """The same position, whatever the last step's effects said (a correction that sets
    what already is leaves only its own effect behind) and however the shot still open to a
    late decision spells a choice it already had (``advance`` given or by default)."""
    return replace(a, last_effects=b.last_effects, reopen=b.reopen) == b


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
        self._publisher = publish or (lambda snapshot: None)
        """Where every snapshot goes (the app's broadcaster), given when the table is built."""
        self.source_name = sensing.source.name if sensing else source_name
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitter-writer")
        """The one thread the web layer runs every change on (``web.api.writer``), so a
        stalled disk holds up changes only, never the event loop, its readers or sensing."""
        self.watch = Watch(sensing, clock, source_name=self.source_name, writer=self.writer,
                           apply=self._apply_shot, publish=self._send)
        """The sensing side, on its own thread (``web.table.watch``)."""
        self.started = clock.now()
        self.boot = secrets.token_hex(4)
        """Differs on every start, so a page can tell a restarted server's ``seq`` apart."""
        self.seq = 0
        self.version = 0
        self._changes: list[tuple[int, int, int]] = []
        """(state seq, log length, match id) after each recent match change, to tell a
        refused change what happened since the state it was made against."""
        self.review_shown: dict[str, Any] | None = None
        """The review the referee mirrors on the scoreboard (seq, ms, playing, speed)."""
        self._part: dict[str, Any] = {}
        """The match part of the snapshot, as last built by the writer (committed only)."""
        self.committed = records.Committed(0, {}, MatchLog(Match()))
        """The match log as last committed, frozen (``web.table.records``; any thread)."""
        self._next_recheck = 0.0
        self.write_timeout = WRITE_TIMEOUT_S
        self.published: dict[str, Any] = {}
        """The last snapshot published: what readers get without touching the table."""
        resumed = resume(store, wall)
        self.match_id, self.rules, self.setup = resumed.match_id, resumed.rules, resumed.setup
        self.names, self.meta, self.log = resumed.names, resumed.meta, resumed.log
        self._changes.append((self.seq, len(self.log), self.match_id))
        self._after_match_change(lay_out_simulator=True)

    @property
    def match(self) -> Match:
        """The live match (its log holds it: one entry per event)."""
        return self.log.match

    # -- reading ------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The full state as it would be published now (any thread): the committed match
        and the sensors as they are."""
        with self.watch.lock:
            return self._compose(self.watch.view())

    def _compose(self, view: dict[str, Any]) -> dict[str, Any]:
        return compose(self.seq, self.boot, self.version, self._part, view,
                       self.store.write_problem)

    def meanwhile(self, seq: int) -> list[str]:
        """What changed in the match after state ``seq``, in players' words (for a 409);
        empty when that state is too old to tell."""
        if seq < 0:  # made against an earlier run's state (Table.check_boot)
            return ["the scorekeeper restarted"]
        known = [(n, m) for v, n, m in self._changes if v <= seq]
        if not known:
            return []
        length, match_id = known[-1]
        if match_id != self.match_id:
            return [f"the match in play is now {self.names_in_words()} (match {self.match_id})"]
        return meanwhile.since(self.log.entries, length, self.names)

    def full_log(self) -> list[dict[str, Any]]:
        """The whole log as committed (``web.table.records``; any thread)."""
        return records.full_log(self.committed)

    def show_review(self, shown: Mapping[str, Any] | None) -> None:
        """Mirror a review on the scoreboard (None ends it); the match does not change."""
        if shown is not None and not any(e.seq == shown.get("seq") for e in self.log.entries):
            raise Refused(f"step {shown.get('seq')}: no such step to show", "seq")
        self.review_shown = None if shown is None else dict(shown)
        self._publish(match_changed=False)

    def profile(self) -> BoardProfile:
        """The board's profile (the default one when the table has no sensors)."""
        return self.sensing.profile if self.sensing is not None else load_profile()

    @property
    def sensing(self) -> Sensing | None:
        return self.watch.sensing

    @property
    def tracker(self) -> Tracker:
        return self.watch.tracker

    def uptime(self) -> float:
        return self.clock.now() - self.started

    def expectation(self) -> Expectation:
        return Expectation.from_state(self.match.state)

    # -- checks -------------------------------------------------------------------------------

    def check_seq(self, seq: int) -> None:
        """Raise :class:`Stale` when the match changed since ``seq`` (or ``seq`` is unknown)."""
        if seq < self.version or seq > self.seq:
            raise Stale(seq,
                f"the match changed since state {seq} (now state {self.seq}, last match "
                f"change at {self.version}); look again and retry"
            )

    def check_boot(self, boot: str | None) -> None:
        """:class:`Stale` when the state a change was made against is of an earlier run of
        the scorekeeper (sessions outlive a restart; the states' numbers start again)."""
        if boot is not None and boot != self.boot:
            raise Stale(-1, "the scorekeeper restarted since that state; look again and retry")

    def check_known(self, seq: int | None) -> None:
        """A sensing act's ``seq``: refused (:class:`Stale`) only when it is no state of this
        server's run (a page left open over a restart); what such an act asks is stated,
        not toggled, so a match change meanwhile does not make it wrong."""
        if seq is not None and seq > self.seq:
            raise Stale(seq, f"state {seq} is not one of this scorekeeper's (now state "
                        f"{self.seq}: it was restarted); look again and retry")

    # -- changes to the match -----------------------------------------------------------------

    def apply_step(
        self, step: Event | Mapping[str, Any], *, source: str = "manual",
        timeline: Mapping[str, Any] | None = None,
    ) -> list[Any]:
        """Check, store, apply and publish one step; :class:`Refused` if not.

        ``step`` is an event, or a scenario-format step object from a page or the hub: this
        is the edge where it is parsed, once."""
        try:
            event = parse_event(step)
        except IllegalEventError as exc:
            raise Refused(str(exc), exc.key) from None
        if source == "manual" and isinstance(event, Correction) \
                and not (event.reason or "").strip():
            raise Refused("correct.reason: say why (a correction needs a reason)",
                          "correct.reason")
        return self.apply_steps([event], source=source, timelines=[timeline])[0]

    def apply_steps(
        self, events: list[Event], *, source: str = "manual",
        timelines: list[Mapping[str, Any] | None] | None = None,
    ) -> list[list[Any]]:
        """Apply steps as one change (every change goes this way) and return each one's
        effects: the live match takes them (it refuses a step without changing), then they
        are stored in ONE transaction. Should anything go wrong after the live match took a
        step (a later step refused, any failure of the store), the match is rebuilt from the
        committed log, so it never runs ahead of it; the screens are told the log cannot be
        written and :class:`StoreUnwritable` goes to the caller (HTTP 503)."""
        taken: list[tuple[tuple[Any, ...], Any]] = []
        try:
            for event in events:
                before = self.match.state
                taken.append((self.match.apply(event), self.match.state))
                if isinstance(event, (Correction, Decision)) \
                        and same_position(before, self.match.state):
                    raise IllegalEventError(
                        f"{event.kind}: nothing to change, the match already is so "
                        "(a step that changes nothing is not logged)", key=event.kind)
        except IllegalEventError as exc:
            self._take_back(len(taken))
            raise Refused(str(exc), exc.key) from None
        at = self.wall.now()
        try:
            seqs = self.store.append_many(self.match_id, events, at=at, source=source,
                                          timelines=timelines)
        except BaseException:
            self._take_back(len(taken))
            self._publish(match_changed=False)
            raise
        for seq, event, (effects, state) in zip(seqs, events, taken, strict=True):
            self.log.add(log_entry(state, seq, at, source, event, effects))
        self._after_match_change(after_shot=source == "sensor")
        return [list(effects) for effects, _ in taken]

    def _take_back(self, steps: int) -> None:
        """Rebuild the live match without its last ``steps`` steps (not yet committed)."""
        if steps:
            events = self.match.events
            self.log = MatchLog(self._replayed(events[:len(events) - steps]), self.log.entries)

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
        if shot == last.event:
            raise Refused("nothing to amend: the last shot already is so (a step that "
                          "changes nothing is not logged)", "extra")
        self.apply_steps([Undo(), shot])

    def no_change(self, *, source: str = "manual") -> None:
        """The player due shot and nothing on the board changed."""
        shot = self.watch.no_change()
        if shot is None and self.tracker.question is not None:
            return  # a full field: the referee says what the shot added there
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

    def take_up(self, match_id: int) -> None:
        """Make a stored match (one a new match replaced) the one in play again; the match
        it replaces stays stored as it is, and can be taken up again in turn."""
        if match_id == self.match_id:
            raise Refused(f"match {match_id} is the one in play", "match_id")
        try:
            again = resume(self.store, self.wall, match_id)
        except StoreError as exc:
            raise Refused(str(exc), "match_id") from None
        try:
            self.store.resume_match(match_id, at=self.wall.now())
        except StoreError:
            self._publish(match_changed=False)
            raise
        self.match_id, self.rules, self.setup = again.match_id, again.rules, again.setup
        self.names, self.meta, self.log = again.names, again.meta, again.log
        self.review_shown = None
        self._after_match_change(lay_out_simulator=True)

    def names_in_words(self) -> str:
        """"Ann v Bo": the players of the match in play, as the pages call them."""
        return " v ".join(name_of(p, self.names) for p in PLAYERS)

    # -- the board and sensing ----------------------------------------------------------------

    def accept_board(self) -> None:
        """The referee takes the board as sensed to be the shot of the player due."""
        self.watch.accept_board()

    def board_as_sensed(self) -> None:
        """The referee has the match take the board as the sensors see it: a correction of
        the fields that differ, logged (and undoable) like any other."""
        counts = self.watch.board_as_sensed()
        self.apply_step(Correction(board=counts, reason="the referee took the board as "
                                   "the sensors see it"))

    def tick(self) -> None:
        """One polling step done at once: the store's recheck, the sensing step, and the
        shots it handed to the writer stored (tests and the command line, never on the
        writer; the server's loop runs the two sides on their own threads, ``web.api.app``)."""
        self.recheck_store()
        for job in self.watch.tick():
            job.result()

    def seconds_to_rest(self) -> float | None:
        return self.watch.seconds_to_rest()

    def _apply_shot(
        self, shot: ShotEvent, source: str, timeline: Mapping[str, Any] | None
    ) -> None:
        """Store and apply a shot the sensing side concluded (writer thread)."""
        self.apply_step(shot, source=source, timeline=timeline)

    def recheck_store(self) -> None:
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
        self.watch.expect(self.expectation(), after_shot=after_shot, lay_out=lay_out_simulator)
        self._publish(match_changed=True)

    def _publish(self, *, match_changed: bool) -> None:
        """Writer: build the match part and the frozen log again (committed steps only: no
        change is half made when the writer publishes) and publish."""
        part = match_part(self)
        committed = records.committed(self)
        with self.watch.lock:
            self._part, self.committed = part, committed
            if match_changed:
                self.version = self.seq + 1
                self._changes.append((self.version, len(self.log), self.match_id))
                del self._changes[:-CHANGES_KEPT]
            self.watch.publish()

    def _send(self, view: dict[str, Any]) -> None:
        """Publish the next snapshot: the kept match part with ``view`` (under the watch's
        lock, so snapshots go out in ``seq`` order from either thread)."""
        self.seq += 1
        self.published = self._compose(view)
        self._publisher(self.published)

    def close(self) -> None:
        """Release the sensors and the store, once the writer has finished what it was given
        (a change still waiting on the disk is stored, not dropped)."""
        self.watch.thread.shutdown(wait=True)
        self.writer.shutdown(wait=True)
        self.watch.close()
        self.store.close()
