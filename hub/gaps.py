"""The hub's gap scheduler: asks a board to ``resend`` what the hub should have but has not.

Whatever goes missing on the way (a broker whose queue for the hub was full, a hub that was
away) shows up as a gap in a match's ``seq`` numbers, or as a board state ahead of the events
received, for its current match or for an earlier one its state names under ``previous``.
After a short grace (events may be on their way) the hub asks that board to resend from the
gap, and again every few seconds until the gap is filled. A board that moves on to a new match
is asked once for the rest of its previous one unless the hub saw that one end; and the boards'
retained states are asked for again now and then, so a board that has stopped playing still
says how far its games went.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from hub.store import HubStore
from scorekeeper.state import Phase

log = logging.getLogger(__name__)

GAP_GRACE = 1.0
"""Seconds a gap may last before the hub asks for a resend (events may be on their way)."""
RESEND_EVERY = 5.0
"""Seconds between two resend requests for the same gap."""
STATES_AGAIN = 15.0
"""Seconds between two re-subscriptions to the boards' retained states (the first comes
``GAP_GRACE`` after connecting): a broker whose queue for the hub was full drops the
retained states it sends on subscribing too, and a board that has stopped playing sends no
new one, so the hub would never learn how far that board's games went."""
TURN = 0.25
"""Seconds between two turns of the gap check."""


class GapScheduler:
    """Keeps the gaps the hub has seen and asks for them. ``resend(board, match_id, after)``
    sends the request, ``connected()`` says whether it can go out, ``subscribe_states()``
    asks the broker for the retained states again; ``beat()`` marks a turn (``/healthz``)."""

    def __init__(
        self,
        store: HubStore,
        *,
        resend: Callable[[str, int, int], object],
        connected: Callable[[], bool],
        subscribe_states: Callable[[], object],
        monotonic: Callable[[], float],
        stopping: threading.Event,
        beat: Callable[[], None] = lambda: None,
    ) -> None:
        self.store = store
        self._resend = resend
        self._connected = connected
        self._subscribe_states = subscribe_states
        self._monotonic = monotonic
        self._stopping = stopping
        self._beat = beat
        self._gaps: dict[tuple[str, int], tuple[int, float, float]] = {}
        """``(board, match_id)``: the seq the board got to, when the gap was first seen and
        when the hub last asked for it."""
        self._current: dict[str, int] = {}
        self._probed: set[tuple[str, int]] = set()
        self._states_due: float | None = None
        self._lock = threading.Lock()

    def on_connect(self) -> None:
        """The hub is on the broker (again): the retained states are asked for once more
        after the grace."""
        self._states_due = self._monotonic() + GAP_GRACE

    def check_gap(self, board: str, match_id: int, seen_seq: int) -> None:
        """``board`` has got to ``seen_seq`` of ``match_id``: note a gap if the hub has less,
        forget it once filled."""
        have = self.store.contiguous_seq(board, match_id)
        key = (board, match_id)
        with self._lock:
            if have >= seen_seq:
                gap = self._gaps.get(key)
                if gap is not None and have >= gap[0]:
                    del self._gaps[key]
                return
            wanted = max(seen_seq, self._gaps.get(key, (0, 0.0, 0.0))[0])
            first = self._gaps.get(key, (0, self._monotonic(), 0.0))
            self._gaps[key] = (wanted, first[1], first[2])

    def check_earlier(self, board: str, match_id: int) -> None:
        """When a board moves on to a new match, ask once for the rest of its previous one
        unless the hub saw it end: its last events may be what a full broker queue dropped,
        and the board's state naming it may have been dropped as well."""
        with self._lock:
            if self._current.get(board) == match_id:
                return
            self._current[board] = match_id
        earlier = self.store.previous_match(board, match_id)
        if earlier is None or (board, earlier) in self._probed:
            return
        latest = self.store.latest_event(board, earlier)
        if latest is not None and latest.state.get("phase") == Phase.GAME_OVER:
            return
        self._probed.add((board, earlier))
        if self._connected():
            self._resend(board, earlier, self.store.contiguous_seq(board, earlier))

    def run(self) -> None:
        """The gap check's thread: a turn every :data:`TURN` seconds until the hub stops."""
        while not self._stopping.wait(TURN):
            self._beat()
            try:
                self.request_missing()
                self.states_again()
            except Exception:
                log.exception("hub: gap check")

    def states_again(self) -> None:
        """Ask the broker for the boards' retained states when they are due."""
        due = self._states_due
        if not self._connected() or due is None or self._monotonic() < due:
            return
        self._states_due = self._monotonic() + STATES_AGAIN
        self._subscribe_states()

    def request_missing(self) -> int:
        """Ask boards to resend where a gap outlived its grace; return how many were asked."""
        now = self._monotonic()
        asked = 0
        with self._lock:
            gaps = dict(self._gaps)
        for (board, match_id), (wanted, first_seen, last_asked) in gaps.items():
            have = self.store.contiguous_seq(board, match_id)
            if have >= wanted:
                with self._lock:
                    self._gaps.pop((board, match_id), None)
                continue
            if now - first_seen < GAP_GRACE or now - last_asked < RESEND_EVERY:
                continue
            if not self._connected():
                continue
            self._resend(board, match_id, have)
            asked += 1
            with self._lock:
                if (board, match_id) in self._gaps:
                    self._gaps[(board, match_id)] = (wanted, first_seen, now)
        return asked
