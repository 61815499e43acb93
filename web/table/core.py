"""The match side of a table: every change on the writer, and every snapshot published.

:class:`TableCore` is the only object that publishes. Every change of the match, whether a
sensed shot or a tablet's step, goes through :meth:`TableCore.apply_steps`, whose commit
(:meth:`~web.table.live.LiveMatch.commit`) returns the frozen
:class:`~web.table.committed.Committed` value that is then published: the sensing side is
told the new expectation (:meth:`~web.table.watch.Watch.expect`) and a new full snapshot goes
out with the next state number (``web.table.states``). Readers on other threads (snapshots,
downloads) read that value, never the live match, so nothing uncommitted is ever shown.

Threads: the table has one owner, :attr:`TableCore.writer`: every input (a person's step, what
the sensors did) is handled there, one at a time, in the order it came, and only the owner
changes the match, the log, the tracker and the expectation (``web.table.watch``). The
sensing thread (``web.table.feed``) reads the sensors and sends what they did to the owner;
it is told the expectation after each change. Snapshots go out in ``seq`` order from either
thread: the owner's part (the match, the tracker) and the feed's (the sensors) are immutable
values, and a snapshot is numbered and sent under one small lock that guards nothing else.
Time comes from the injected clocks: ``clock`` (monotonic, for sensing) and ``wall``
(epoch, for the log).

A step travels as an :class:`~scorekeeper.events.Event`: proposed by the tracker, made by a
button, or parsed once from a page's JSON by :meth:`TableCore.apply_step`. Its JSON is made
where it is stored (:meth:`MatchStore.append`) and where a snapshot or an answer is sent.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from firmware_bridge.profile import BoardProfile, load_profile
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError, because
from scorekeeper.events import Correction, Event, parse_event
from scorekeeper.match import Match
from scorekeeper.names import check_reason
from scorekeeper.store import MatchStore, StoreError
from scorekeeper.store.values import StepSource
from scorekeeper.tracker import Expectation, Tracker
from scorekeeper.words import ENGLISH, PLAYERS, Words, name_of
from tournament_wire.offer import Offer
from web.table import records
from web.table.committed import Committed
from web.table.errors import Refused, Stale
from web.table.feed import Feed
from web.table.live import LiveMatch
from web.table.match_log import MatchLog
from web.table.sensing import Sensing
from web.table.snapshot import compose, match_part, sensing_part
from web.table.states import States
from web.table.watch import Watch

T = TypeVar("T")

WRITE_TIMEOUT_S = 10.0
"""Seconds a change waits on the writer (the disk) before its request is answered 503."""
RECHECK_S = 5.0
"""While the match log cannot be written, how often the polling loop tries it again."""


class TableCore:
    """The live match of one board, its changes and its snapshots."""

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
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitter-writer",
                                         initializer=_mark_owner)
        """The table's one owner: every input runs here, one at a time, in order
        (``web.api.writer``), so a stalled disk holds up the match only, never the event
        loop, its readers or the sensors being read and shown."""
        self.feed = Feed(sensing, clock, source_name=self.source_name)
        """The sensors, read on the sensing thread (``web.table.feed``)."""
        self.watch = Watch()
        """The tracker and the expectation: the owner's judge of the sensors."""
        self._judged: dict[str, Any] = self.watch.part()
        """The owner's part of the view as last published (an immutable value)."""
        self._last_view: dict[str, Any] | None = None
        self._owed = False
        """A changed view the sensing thread left to the owner to publish with what it
        judges; should the owner be behind (a stalled disk), the next polling step shows it."""
        self._batches_sent = 0
        """Batches of inputs the sensing thread has sent the owner (written there only)."""
        self._batches_done = 0
        """Batches the owner has taken (written by the owner only)."""
        self._publishing = threading.Lock()
        """Numbers and sends one snapshot at a time, from either thread (guards nothing
        else: every part it sends is a finished value)."""
        self.started = clock.now()
        self.review_shown: dict[str, Any] | None = None
        """The review the referee mirrors on the scoreboard (seq, ms, playing, speed)."""
        self._part: dict[str, Any] = {}
        """The match part of the snapshot, as last built by the writer (committed only)."""
        self._next_recheck = 0.0
        self.write_timeout = WRITE_TIMEOUT_S
        self.offered: Offer | None = None
        """The tournament game the hub offers this board (``tournament_wire.offer``) until
        it is started: the tablet starts it with one tap, the TV and the caller announce it."""
        self.published: dict[str, Any] = {}
        """The last snapshot published: what readers get without touching the table."""
        self.live = LiveMatch(store, wall)
        """The match in play and its log (writer only; ``web.table.live``)."""
        self.committed: Committed = self.live.frozen()
        """The match as last committed, frozen (``web.table.committed``; any thread)."""
        self.states = States(self.committed)
        """The published states' numbers (``web.table.states``)."""
        self._after_match_change(self.committed, lay_out_simulator=True)

    # -- reading ------------------------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The live match (writer; other threads read :attr:`committed`)."""
        return self.live.match

    @property
    def log(self) -> MatchLog:
        return self.live.log

    @property
    def match_id(self) -> int:
        return self.live.match_id

    @property
    def names(self) -> dict[str, str]:
        return self.live.names

    @property
    def meta(self) -> dict[str, Any]:
        return self.live.meta

    @property
    def seq(self) -> int:
        return self.states.seq

    @property
    def boot(self) -> str:
        return self.states.boot

    def snapshot(self) -> dict[str, Any]:
        """The full state as it would be published now (any thread): the committed match
        and the sensors as they are."""
        return self._compose(self.states.seq, self._view())

    def _view(self) -> dict[str, Any]:
        """The published view: the feed's sensors and the owner's tracker, as last built."""
        return sensing_part(self.feed.shown(), self._judged, self.source_name)

    def _compose(self, seq: int, view: dict[str, Any]) -> dict[str, Any]:
        return compose(seq, self.states.boot, self.committed.seq, self._part, view,
                       self.store.write_problem, self.committed)

    def meanwhile(self, seq: int, t: Words = ENGLISH) -> list[str]:
        """What changed in the match after state ``seq`` (``web.table.states``)."""
        return self.states.meanwhile(seq, self.committed, t)

    def full_log(self) -> list[dict[str, Any]]:
        """The whole log as committed (``web.table.records``; any thread)."""
        return records.full_log(self.committed)

    def show_review(self, shown: Mapping[str, Any] | None) -> None:
        """Mirror a review on the scoreboard (None ends it); the match does not change."""
        if shown is not None and not any(e.seq == shown.get("seq") for e in self.log.entries):
            raise Refused(because("step {seq}: no such step to show", seq=str(shown.get("seq"))),
                          "seq")
        self.review_shown = None if shown is None else dict(shown)
        self._publish()

    def profile(self) -> BoardProfile:
        """The board's profile (the default one when the table has no sensors)."""
        return self.sensing.profile if self.sensing is not None else load_profile()

    @property
    def sensing(self) -> Sensing | None:
        return self.feed.sensing

    @property
    def tracker(self) -> Tracker:
        return self.watch.tracker

    def uptime(self) -> float:
        return self.clock.now() - self.started

    def names_in_words(self) -> str:
        """"Ann v Bo": the players of the match in play, as the pages call them."""
        return " v ".join(name_of(p, self.names) for p in PLAYERS)

    # -- checks (``web.table.states``) --------------------------------------------------------

    def check_seq(self, seq: int) -> None:
        self.states.check_seq(seq)

    def check_boot(self, boot: str | None) -> None:
        self.states.check_boot(boot)

    def check_known(self, seq: int | None) -> None:
        self.states.check_known(seq)

    # -- changes to the match (writer) --------------------------------------------------------

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
            raise Refused.of(exc) from None
        if isinstance(event, Correction):
            try:
                check_reason(event.reason, required=source == StepSource.MANUAL)
            except IllegalEventError as exc:
                raise Refused.of(exc) from None
            except ValueError as exc:
                raise Refused(str(exc), "correct.reason") from None
        return self.apply_steps([event], source=source, timelines=[timeline])[0]

    def apply_steps(
        self, events: list[Event], *, source: str = "manual",
        timelines: list[Mapping[str, Any] | None] | None = None,
    ) -> list[list[Any]]:
        """Apply steps as one change (every change goes this way) and return each one's
        effects: the commit (``web.table.live``) returns what it committed, which is
        published. A refusal changes nothing; when the store fails, nothing changes either,
        the screens are told the log cannot be written and :class:`StoreUnwritable` goes to
        the caller (HTTP 503). Runs on the owner."""
        def run() -> list[list[Any]]:
            try:
                committed = self.live.commit(events, source=source, timelines=timelines)
            except Refused:
                raise
            except BaseException:
                self._publish()
                raise
            self._after_match_change(committed, after_shot=source == StepSource.SENSOR)
            return [list(entry.effects) for entry in committed.new]
        return self._owned(run)

    def amend_last_shot(self, extra: Mapping[str, Any]) -> None:
        """Add what the sensors cannot see to the last shot: undo it and shoot it again."""
        self._owned(lambda: self.apply_steps(self.live.amended(extra)))

    def new_match(
        self, rules: Mapping[str, Any], setup: Mapping[str, Any], names: Mapping[str, str],
        meta: Mapping[str, Any],
    ) -> None:
        """Start a new match (the old one stays in the store)."""
        self._change_match(lambda: self.live.start(rules, setup, names, meta))

    def take_up(self, match_id: int) -> None:
        """Make a stored match the one in play again (``LiveMatch.take_up``)."""
        self._change_match(lambda: self.live.take_up(match_id))

    def _change_match(self, change: Callable[[], Committed]) -> None:
        def run() -> None:
            try:
                committed = change()
            except StoreError:
                self._publish()
                raise
            self.review_shown = None
            self._after_match_change(committed, lay_out_simulator=True)
        self._owned(run)

    def offer_game(self, offer: Offer) -> bool:
        """The hub offers ``offer`` (writer thread); False when nothing changes: the match in
        play is that game already, or the same offer is held (the hub offers again when the
        board reconnects). The match does not change, so no tablet's step goes stale."""
        if (self.meta.get("pairing") or {}).get("id") == offer.id or self.offered == offer:
            return False
        self.offered = offer
        self._publish()
        return True

    def withdraw_offer(self, offer_id: str) -> bool:
        """The hub takes back the offer ``offer_id`` (its game got its result another way, or
        moved to another board); False when this board does not hold it (a newer offer, or
        the game already started: a game in play is never taken away)."""
        if self.offered is None or self.offered.id != offer_id:
            return False
        self.offered = None
        self._publish()
        return True

    def start_offered(self, offer_id: str) -> None:
        """Start the offered game (both names and the tournament's format as offered, its
        pairing kept in the match's ``meta``); :class:`Stale` when the offer the person saw
        is not the one held now."""
        offer = self.offered
        if offer is None or offer.id != offer_id:
            now = "no game is offered now" if offer is None else \
                f"the hub now offers {offer.words()} instead"
            raise Stale(self.seq, f"the offered game changed: {now}; look again and retry",
                        [now])
        self.offered = None
        try:
            self.new_match(offer.format.rules().to_json(), {}, offer.names(),
                           {"pairing": offer.ref()})
        except BaseException:
            self.offered = offer
            raise

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
            self._publish()
        return problem

    # -- publishing ---------------------------------------------------------------------------

    def _after_match_change(
        self, committed: Committed, *, after_shot: bool = False, lay_out_simulator: bool = False
    ) -> None:
        """Owner: the watch judges against what was committed (the feed is told it, on its
        thread), which is published."""
        expected = Expectation.from_state(committed.match.state)
        self.watch.expect(expected, after_shot=after_shot)
        self._publish(committed)  # the screens first: they need nothing of the feed's
        with contextlib.suppress(RuntimeError):  # the sensing thread is stopped (closing)
            # waited for before the next input: the feed never waits on the owner
            self.feed.thread.submit(self.feed.expect, expected,
                                    lay_out=lay_out_simulator).result()

    def _publish(self, committed: Committed | None = None) -> None:
        """Owner: publish ``committed`` (the match changed) or the last committed value again
        (an offer, a review shown, the store's health, the tracker), with the sensors as
        they are."""
        now = self.committed if committed is None else committed
        part = match_part(now, self.review_shown,
                          None if self.offered is None else self.offered.shown())
        judged = self.watch.part() if _on_owner() else self._judged
        with self._publishing:
            if committed is not None:  # the match changed: the next state first shows it
                now = self.states.published(committed)
            self._part, self.committed, self._judged = part, now, judged
            self._send()

    def _on_watch(self, act: Callable[..., T], *args: Any) -> T:
        """Owner: an act of the watch's, then the tracker published; an act that raises
        publishes nothing."""
        out = act(*args)
        self._publish()
        return out

    def _show(self) -> None:
        """Publish the view if it differs from the one last published (either thread; on
        the owner, with the tracker as it is now)."""
        judged = self.watch.part() if _on_owner() else None
        with self._publishing:
            if judged is not None:
                self._judged = judged
            if self._view() != self._last_view:
                self._send()

    def _send(self) -> None:
        """Publish the next snapshot: the kept match part with the view as it is (under
        :attr:`_publishing`, so snapshots go out in ``seq`` order from either thread)."""
        view = self._view()
        self.published = self._compose(self.states.next(), view)
        self._last_view, self._owed = view, False
        self._publisher(self.published)

    def _owned(self, act: Callable[[], T]) -> T:
        """Run ``act`` on the owner: at once on its thread, else handed to it and waited for
        (a test or the command line acting on a table directly)."""
        if _on_owner():
            return act()
        return self.writer.submit(act).result()

    def close(self) -> None:
        """Release the sensors and the store, once the writer has finished what it was given
        (a change still waiting on the disk is stored, not dropped)."""
        self.feed.thread.shutdown(wait=True)
        self.writer.shutdown(wait=True)
        self.feed.close()
        self.store.close()


_owner = threading.local()


def _mark_owner() -> None:
    """The owner's thread knows it is the owner (:meth:`TableCore._owned`)."""
    _owner.here = True


def _on_owner() -> bool:
    return bool(getattr(_owner, "here", False))
