"""One board at the table: sensors → pipeline → tracker → match → store → broadcaster.

The :class:`Table` is the only object that changes the match. Every change, whether a
sensed shot or a tablet's step, goes the same way: check it (a rule refusal changes nothing),
append it to the store (committed before anything is shown), apply it to the live match,
tell the tracker, and publish a new full snapshot with the next sequence number.

Sequence numbers: ``seq`` goes up with every published change (match, tracker, link,
sensors). ``version`` is the ``seq`` at which the *match* last changed. A change from a page
carries the ``seq`` it was made against; it is stale (HTTP 409) when the match changed after
it. Sensor noise that changes only the tracker's message never makes a tablet's step stale.

Threads: every change runs on :attr:`Table.writer`, one at a time (``web.api.writer``), and
only the writer changes the match and the log. Sensing runs on its own thread
(:class:`~web.table.watch.Watch`), so a disk that stalls a commit stops neither the sensors
nor the screens: a sensed shot goes to the writer, and the sensing side is told the new
expectation once it has committed. The match part of the published snapshot is built by the
writer after each commit and kept; a snapshot published from the sensing side reuses it, so
nothing uncommitted is ever shown. Time comes from the injected clocks: ``clock``
(monotonic, for sensing) and ``wall`` (epoch, for the log).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from firmware_bridge.profile import BoardProfile, load_profile
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import Shot
from scorekeeper.store import MatchStore, StoreError
from scorekeeper.tracker import Expectation, Tracker
from scorekeeper.words import what_changed
from web.table import records
from web.table.errors import Refused, Stale
from web.table.match_log import LogEntry, MatchLog, amended_shot, describe
from web.table.sensing import Sensing
from web.table.snapshot import compose
from web.table.watch import Watch

DEFAULT_NAMES = {"black": "Black", "white": "White"}
WRITE_TIMEOUT_S = 10.0
"""Seconds a change waits on the writer (the disk) before its request is answered 503."""
RECHECK_S = 5.0
"""While the match log cannot be written, how often the polling loop tries it again."""


CHANGES_KEPT = 256
"""How many recent match changes :meth:`Table.meanwhile` can describe."""


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
        self.publish = publish or (lambda snapshot: None)
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
        self._changes: list[tuple[int, int]] = []
        """(state seq, log length) after each recent match change, to tell a refused
        change what happened since the state it was made against."""
        self.review_shown: dict[str, Any] | None = None
        """The review the referee mirrors on the scoreboard (seq, ms, playing, speed)."""
        self._part: dict[str, Any] = {}
        """The match part of the snapshot, as last built by the writer (committed only)."""
        self._next_recheck = 0.0
        self.write_timeout = WRITE_TIMEOUT_S
        self.published: dict[str, Any] = {}
        """The last snapshot published: what readers get without touching the table."""
        self.match_id, self.match, self.log, self.names, self.meta = self._resume()
        self._changes.append((self.seq, len(self.log)))
        self._after_match_change(lay_out_simulator=True)

    # -- loading ------------------------------------------------------------------------------

    def _resume(self) -> tuple[int, Match, MatchLog, dict[str, str], dict[str, Any]]:
        """Replay the newest stored match, or start a default one on an empty store."""
        match_id = self.store.latest_match_id()
        if match_id is None:
            match_id = self.store.create_match(
                Rules().to_json(), {"first": "black"}, DEFAULT_NAMES, at=self.wall.now(),
                meta={"handicaps": {}},
            )
        head = self.store.load_header(match_id)
        names = {**DEFAULT_NAMES, **dict(head.names)}
        self.rules, self.setup = Rules.from_json(head.rules), Setup.from_json(head.setup)
        rows = list(self.store.iter_rows(match_id))
        log = MatchLog()
        known: dict[Any, tuple[Any, str]] = {}
        """Per distinct step text: its step object and words (a log repeats its steps)."""

        def on_step(i: int, event: Any, state: Any, effects: Any) -> None:
            seq, at, source, text = rows[i - 1]
            seen = known.get(text)
            if seen is None:
                seen = known[text] = (json.loads(text), event.describe())
            log.add(self._entry(state, seq, at, source, seen[0], effects, seen[1]))

        # The bulk path: each distinct step text is parsed once, every step goes through
        # the rules, and a damaged log still names the step the rules refuse.
        try:
            match = Match.replay_json(
                self.rules, self.setup, (row[3] for row in rows), names, on_step=on_step
            )
        except IllegalEventError as exc:
            raise StoreError(
                f"match {match_id} in {self.store.path} cannot be replayed: {exc}"
            ) from exc
        return match_id, match, log, names, dict(head.meta)

    def _entry(
        self, state: Any, seq: int, at: float, source: str, step: Mapping[str, Any],
        effects: Any, words: str | None = None,
    ) -> LogEntry:
        return LogEntry(
            seq=seq, at=at, source=source, step=step,
            text=describe(step) if words is None else words,
            effects=[e.to_json() for e in (effects or ())],
            score=dict(state.score), round=state.round,
        )

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
        known = [n for v, n in self._changes if v <= seq]
        if not known:
            return []
        out: list[str] = []
        for e in self.log.entries[known[-1]:]:
            out.extend(what_changed(e.step, e.text, self.names))
        return out

    def full_log(self) -> list[dict[str, Any]]:
        """The whole log, committed steps only (``web.table.records``; any thread)."""
        return records.full_log(self)

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

    # -- changes to the match -----------------------------------------------------------------

    def apply_step(
        self, step: Mapping[str, Any], *, source: str = "manual",
        timeline: Mapping[str, Any] | None = None,
    ) -> list[Any]:
        """Check, store, apply and publish one scenario-format step; :class:`Refused` if not.

        The live match refuses a step without changing (``Match.apply``), so it is applied
        first and stored right after; should the store fail (:class:`StoreUnwritable`), the
        match is rebuilt from the steps already committed (the log), the screens are told
        the log cannot be written, and the error goes to the caller (HTTP 503).
        """
        try:
            body = parse_event(step).to_json()
            if source == "manual" and "correct" in body and not _reason(body["correct"]):
                raise Refused("correct.reason: say why (a correction needs a reason)",
                              "correct.reason")
            effects = self.match.apply(body)
        except IllegalEventError as exc:
            raise Refused(str(exc), field=_field_named(str(exc), step)) from None
        at = self.wall.now()
        try:
            seq = self.store.append(self.match_id, body, at=at, source=source,
                                    timeline=timeline)
        except StoreError:
            self.match = Match.replay(self.rules, self.setup, self.log.steps(), self.names)
            self._publish(match_changed=False)
            raise
        self.log.add(self._entry(self.match.state, seq, at, source, body, effects))
        self._after_match_change(after_shot=source == "sensor")
        return list(effects or ())

    def apply_steps(self, steps: list[Mapping[str, Any]], *, source: str = "manual") -> None:
        """Apply several steps as one change: all are checked on a copy, stored in ONE
        transaction, and applied to the live match only once that has committed."""
        try:
            bodies = [parse_event(s).to_json() for s in steps]
            copy = Match.replay(self.rules, self.setup, self.log.steps(), self.names)
            for body in bodies:
                copy.apply(body)
        except IllegalEventError as exc:
            raise Refused(str(exc)) from None
        at = self.wall.now()
        try:
            seqs = self.store.append_many(self.match_id, bodies, at=at, source=source)
        except StoreError:
            self._publish(match_changed=False)
            raise
        for seq, body in zip(seqs, bodies, strict=True):
            effects = self.match.apply(body)
            self.log.add(self._entry(self.match.state, seq, at, source, body, effects))
        self._after_match_change()

    def amend_last_shot(self, extra: Mapping[str, Any]) -> None:
        """Add what the sensors cannot see to the last shot: undo it and shoot it again."""
        last = self.log.last_standing()
        if last is None or "shot" not in last.step:
            raise Refused("there is no shot to amend: the last step is not a shot", "extra")
        try:
            shot = amended_shot(last.step["shot"], extra)
        except ValueError as exc:
            raise Refused(str(exc), "extra") from None
        self.apply_steps([{"undo": True}, {"shot": shot}])

    def no_change(self, *, source: str = "manual") -> None:
        """The player due shot and nothing on the board changed."""
        shot = self.tracker.mark_no_change(self.expectation())
        if shot is None:
            raise Refused("nobody is due to shoot", "turn")
        self.apply_step({"shot": shot.to_json()}, source=source)

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
        self.match, self.log, self.rules, self.setup = match, MatchLog(), r, s
        self.names, self.meta = dict(names), dict(meta)
        self.review_shown = None
        self._after_match_change(lay_out_simulator=True)

    # -- the board and sensing ----------------------------------------------------------------

    def accept_board(self) -> None:
        """The referee takes the board as sensed to be the shot of the player due."""
        self.watch.accept_board()

    def tick(self) -> None:
        """One polling step done at once: the store's recheck, the sensing step, and the
        shots it handed to the writer stored (tests and the command line; the server's loop
        runs the two sides on their own threads, ``web.api.app``)."""
        self.recheck_store()
        for job in self.watch.tick():
            job.result()

    def seconds_to_rest(self) -> float | None:
        return self.watch.seconds_to_rest()

    def _apply_shot(
        self, shot: Shot, source: str, timeline: Mapping[str, Any] | None
    ) -> None:
        """Store and apply a shot the sensing side concluded (writer thread)."""
        self.apply_step({"shot": shot.to_json()}, source=source, timeline=timeline)

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
        """Writer: build the match part again (committed steps only) and publish."""
        part = records.match_part(self)
        with self.watch.lock:
            self._part = part
            if match_changed:
                self.version = self.seq + 1
                self._changes.append((self.version, len(self.log)))
                del self._changes[:-CHANGES_KEPT]
            self.watch.publish()

    def _send(self, view: dict[str, Any]) -> None:
        """Publish the next snapshot: the kept match part with ``view`` (under the watch's
        lock, so snapshots go out in ``seq`` order from either thread)."""
        self.seq += 1
        self.published = self._compose(view)
        self.publish(self.published)

    def close(self) -> None:
        """Release the sensors and the store, once the writer has finished what it was given
        (a change still waiting on the disk is stored, not dropped)."""
        self.watch.thread.shutdown(wait=True)
        self.writer.shutdown(wait=True)
        self.watch.close()
        self.store.close()


def _reason(correction: Mapping[str, Any]) -> str:
    """A correction's reason, blank when missing or only spaces."""
    return str(correction.get("reason") or "").strip()


_KEY_PATH = re.compile(r"^(?:step \d+: )?([a-z_]+(?:[.\[][\w.\]\[]*)?):")


def _field_named(message: str, step: Mapping[str, Any]) -> str | None:
    """The key an engine message starts with (``shot.delta: ...``), else the step's kind."""
    m = _KEY_PATH.match(message)
    if m:
        return m.group(1)
    return next(iter(step), None) if isinstance(step, Mapping) else None
