"""The numbers of the published states, and which change is made against an old one.

``seq`` goes up with every published state (match, tracker, link, sensors). ``version`` is
the ``seq`` at which the *match* last changed. A change from a page carries the ``seq`` it was
made against; it is stale (HTTP 409) when the match changed after it. Sensor noise that
changes only the tracker's message never makes a tablet's step stale. ``boot`` differs on
every start, so a page can tell a restarted server's ``seq`` apart.

The table counts under its watch's lock (``web.table.table``), so states go out in order.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from scorekeeper.words import ENGLISH, Words, name_of
from web.table import meanwhile
from web.table.committed import Committed
from web.table.errors import Stale

CHANGES_KEPT = 256
"""How many recent match changes :meth:`States.meanwhile` can describe."""


class States:
    """The state numbers of one run of the scorekeeper."""

    def __init__(self, now: Committed) -> None:
        self.boot = secrets.token_hex(4)
        self.seq = 0
        self._changes: list[tuple[int, int, int]] = [(now.seq, len(now.log.entries),
                                                      now.match_id)]
        """(its ``seq``, log length, match id) of each recent committed value published, to
        tell a refused change what happened since the state it was made against."""

    @property
    def version(self) -> int:
        """The ``seq`` at which the match last changed: the newest committed value's."""
        return self._changes[-1][0]

    def published(self, committed: Committed) -> Committed:
        """``committed`` (a commit, a new or resumed match) as the state about to be published
        shows it: with that state's number as its ``seq`` (:meth:`next` gives it out)."""
        shown = replace(committed, seq=self.seq + 1)
        self._changes.append((shown.seq, len(shown.log.entries), shown.match_id))
        del self._changes[:-CHANGES_KEPT]
        return shown

    def next(self) -> int:
        """The number of the state about to be published."""
        self.seq += 1
        return self.seq

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

    def meanwhile(self, seq: int, now: Committed, t: Words = ENGLISH) -> list[str]:
        """What changed in the match ``now`` after state ``seq``, in players' words in the
        language ``t`` (for a 409); empty when that state is too old to tell."""
        if seq < 0:  # made against an earlier run's state (check_boot)
            return [t.gettext("the scorekeeper restarted")]
        known = [(n, m) for v, n, m in self._changes if v <= seq]
        if not known:
            return []
        length, match_id = known[-1]
        if match_id != now.match_id:
            who = t.gettext("{black} v {white}").format(
                black=name_of("black", now.names, t), white=name_of("white", now.names, t))
            return [t.gettext("the match in play is now {who} (match {id})").format(
                who=who, id=now.match_id)]
        return meanwhile.since(now.log.entries, length, now.names, t)
