"""The match in play and its log, changed on the writer only; each commit a frozen value.

Every change of the match goes through :meth:`LiveMatch.commit`: the live match takes the
steps (a rule refusal changes nothing), they are appended to the store in ONE transaction
(committed before anything is shown) and the log gets their entries. Should anything go wrong
after the live match took a step (a later step refused, any failure of the store), the match
is rebuilt from the committed log, so it never runs ahead of it. What was committed comes
back as a :class:`~web.table.committed.Committed` value, and that value is what the table
publishes (``web.table.table``): nothing here knows the screens or the sensors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError, because, refused
from scorekeeper.events import Correction, Decision, Event, ShotEvent, Undo
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import State
from scorekeeper.store import MatchStore, StoreError
from web.table.committed import Committed, commit_of
from web.table.errors import Refused
from web.table.match_log import LogEntry, MatchLog, amended_shot, log_entry
from web.table.resume import Resumed, resume


def same_position(a: State, b: State) -> bool:
    """The same position, whatever the last step's effects said (a correction that sets
    what already is leaves only its own effect behind) and however the shot still open to a
    late decision spells a choice it already had (``advance`` given or by default)."""
    return replace(a, last_effects=b.last_effects, reopen=b.reopen) == b


class LiveMatch:
    """The match in play (resumed from ``store`` at start) and its log."""

    def __init__(self, store: MatchStore, wall: Clock) -> None:
        self.store = store
        self.wall = wall
        self._take(resume(store, wall))

    def _take(self, resumed: Resumed) -> None:
        self.match_id, self.rules, self.setup = resumed.match_id, resumed.rules, resumed.setup
        self.names, self.meta, self.log = resumed.names, resumed.meta, resumed.log

    @property
    def match(self) -> Match:
        """The live match (its log holds it: one entry per event)."""
        return self.log.match

    def frozen(self, new: tuple[LogEntry, ...] = ()) -> Committed:
        """What is committed now, frozen (``new``: the entries the last commit added)."""
        return commit_of(self.match_id, self.names, self.meta, self.log, new)

    def commit(
        self, events: list[Event], *, source: str,
        timelines: list[Mapping[str, Any] | None] | None = None,
    ) -> Committed:
        """Apply and store ``events`` as one change; :class:`Refused` when the rules refuse
        one (nothing changes), the store's error when it cannot be written (nothing changes
        either: the match is rebuilt without them)."""
        taken: list[tuple[tuple[Any, ...], State]] = []
        try:
            for event in events:
                before = self.match.state
                taken.append((self.match.apply(event), self.match.state))
                if isinstance(event, (Correction, Decision)) \
                        and same_position(before, self.match.state):
                    raise refused(event.kind, "nothing to change, the match already is so "
                                  "(a step that changes nothing is not logged)")
        except IllegalEventError as exc:
            self._take_back(len(taken))
            raise Refused.of(exc) from None
        at = self.wall.now()
        try:
            seqs = self.store.append_many(self.match_id, events, at=at, source=source,
                                          timelines=timelines)
        except BaseException:
            self._take_back(len(taken))
            raise
        new = tuple(log_entry(state, seq, at, source, event, effects)
                    for seq, event, (effects, state) in zip(seqs, events, taken, strict=True))
        for entry in new:
            self.log.add(entry)
        return self.frozen(new)

    def _take_back(self, steps: int) -> None:
        """Rebuild the live match without its last ``steps`` steps (not yet committed)."""
        if steps:
            events = self.match.events
            kept = Match.replay(self.rules, self.setup, events[:len(events) - steps], self.names)
            self.log = MatchLog(kept, self.log.entries)

    def amended(self, extra: Mapping[str, Any]) -> list[Event]:
        """The steps that add what the sensors cannot see to the last shot: undo it and shoot
        it again (:class:`Refused` when there is none, or nothing would change)."""
        last = self.log.last_standing()
        if last is None or not isinstance(last.event, ShotEvent):
            raise Refused(because("there is no shot to amend: the last step is not a shot"),
                          "extra")
        try:
            shot = amended_shot(last.event, extra)
        except IllegalEventError as exc:
            raise Refused.of(exc) from None
        except ValueError as exc:
            raise Refused(str(exc), "extra") from None
        if shot == last.event:
            raise Refused(because("nothing to amend: the last shot already is so (a step "
                                  "that changes nothing is not logged)"), "extra")
        return [Undo(), shot]

    def start(
        self, rules: Mapping[str, Any], setup: Mapping[str, Any], names: Mapping[str, str],
        meta: Mapping[str, Any],
    ) -> Committed:
        """Start a new match (the old one stays in the store)."""
        try:
            r = Rules.from_json(dict(rules))
            s = Setup.from_json(dict(setup))
            match = Match(r, s, dict(names))
        except IllegalEventError as exc:
            raise Refused.of(exc, "rules") from None
        self.match_id = self.store.create_match(
            r.to_json(), s.to_json(), dict(names), at=self.wall.now(), meta=dict(meta)
        )
        self.log, self.rules, self.setup = MatchLog(match), r, s
        self.names, self.meta = dict(names), dict(meta)
        return self.frozen()

    def take_up(self, match_id: int) -> Committed:
        """Make a stored match (one a new match replaced) the one in play again; the match
        it replaces stays stored as it is, and can be taken up again in turn."""
        if match_id == self.match_id:
            raise Refused(because("match {id} is the one in play", id=str(match_id)), "match_id")
        try:
            again = resume(self.store, self.wall, match_id)
        except StoreError as exc:
            raise Refused(exc.why or str(exc), "match_id", names=exc.names) from None
        self.store.resume_match(match_id, at=self.wall.now())
        self._take(again)
        return self.frozen()
