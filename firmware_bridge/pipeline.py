"""The sensing pipeline: raw cell events in, settled :class:`BoardReading` values out.

Layers, as in Mission Pinball Framework's switch handling::

    SensorEvent ─► Debouncer ─► active cells ─► counts (profile) ─► SettleDetector ─► BoardReading
         └──────────► HealthMonitor (raw toggles, debounced changes, expectations)

The caller feeds whatever a source polled (:meth:`Pipeline.feed`) and calls
:meth:`Pipeline.tick` regularly; time comes from the injected clock only.

**Counts.** A field's count is its count map applied to its active, unmuted cells, never
below 0 nor above what the map can show. A big spot, bridge or launch cell counts as active
when any of its unmuted cells is. A launch cell going active marks its player in the next
reading's ``launched``; its change is board motion too, so a shot that misses every field
still yields a reading.

**Held play.** While a flag on an unmuted cell exists, readings are *withheld*, not
marked: :class:`BoardReading` has no trust flag, and a reading the tracker never sees can
never score ghost points. The owed reading is emitted as soon as the flag is muted and the
board is still. :meth:`Pipeline.hold_reasons` says why play is held. A restore in progress
(:meth:`Pipeline.set_expected`) holds nothing: every reading goes to the tracker, which counts
the restore down and scores or asks about a change that is not the restore.

**Order.** :meth:`Pipeline.moving_since` is the sensor time of the first raw change not yet
settled, and :attr:`Pipeline.last_moved_at` that of the last reading: the table orders a
referee's step against a landing by these times (``web.table.order``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from firmware_bridge.counts import (
    big_spots,
    bridges,
    field_capacities,
    field_counts,
    launch_player,
    muted_fields,
)
from firmware_bridge.debounce import Debouncer
from firmware_bridge.health import CellFlag, HealthMonitor
from firmware_bridge.profile import BoardProfile
from firmware_bridge.settle import SettleDetector
from firmware_bridge.source import SensorEvent
from firmware_bridge.timeline import Timeline, TimelineRecorder
from scorekeeper.clock import Clock
from scorekeeper.fields import Player
from scorekeeper.reading import BoardReading


class _Polled(Protocol):
    def poll(self) -> list[SensorEvent]: ...


class Pipeline:
    """Debounce, count and settle the cells of one board."""

    def __init__(
        self,
        profile: BoardProfile,
        clock: Clock,
        *,
        debounce_s: float | None = None,
        settle_s: float | None = None,
        health: HealthMonitor | None = None,
        initial: Iterable[int] = (),
    ) -> None:
        """``debounce_s``/``settle_s`` override the profile's; ``initial`` are the cells
        already active when the source starts (its ``snapshot()``)."""
        self.profile = profile
        self.clock = clock
        self.debounce_s = profile.debounce_s if debounce_s is None else debounce_s
        self.settle_s = profile.settle_s if settle_s is None else settle_s
        self.health = health if health is not None else HealthMonitor(profile)
        initial_cells = {c for c in initial if 0 <= c < profile.cells}
        self._debouncer = Debouncer(self.debounce_s, initial_cells)
        # an explicit window overrides the profile's whole rule
        self._settle = SettleDetector(
            self.settle_s, clock.now(),
            waits=profile.settle_waits if settle_s is None else None, active=initial_cells,
        )
        self._roles = profile.cell_roles()
        self._raw: set[int] = set(initial_cells)
        self._last_change: dict[int, float] = {}
        self._launched: set[Player] = set()
        self.rejected = 0
        """Events dropped because their cell is outside the profile's range."""
        self.last_reading: BoardReading | None = None
        self._timeline = TimelineRecorder(initial_cells)
        self.last_timeline: Timeline | None = None
        """The sensor timeline that ended in :attr:`last_reading` (its shot's review)."""
        self._moving_since: float | None = None
        self.last_moved_at: float | None = None
        """Sensor time of the first raw change that :attr:`last_reading` settled (None: a
        reading owed without a change, e.g. after a gap)."""

    # -- input -----------------------------------------------------------------------------

    def feed(self, events: Iterable[SensorEvent]) -> None:
        """Take raw events, oldest first (a source's ``poll()``)."""
        for event in events:
            cell = event.cell
            if not 0 <= cell < self.profile.cells:
                self.rejected += 1
                continue
            if (cell in self._raw) != event.active:
                if event.active:
                    self._raw.add(cell)
                else:
                    self._raw.discard(cell)
                if cell in self._roles:
                    self.health.toggle(cell, event.at, at_rest=self._at_rest_for(cell, event.at))
                    if self._moving_since is None and cell not in self.health.muted:
                        self._moving_since = event.at
            for confirmed in self._debouncer.feed(event):
                self._confirmed(confirmed)

    def tick(self) -> list[BoardReading]:
        """Advance to the clock's now; return the reading that became due (at most one)."""
        now = self.clock.now()
        for confirmed in self._debouncer.advance(now):
            self._confirmed(confirmed)
        self.health.check(now)
        if not self._settle.owed and not self._is_moving():
            self._moving_since = None  # a blip the debouncer dropped: nothing landed
        if not self._settle.is_due(now) or self._is_moving() or self.is_held():
            return []
        reading = self.reading(now)
        self._settle.taken()
        self.last_moved_at, self._moving_since = self._moving_since, None
        self._launched.clear()
        self.last_reading = reading
        self.last_timeline = self._timeline.finish(
            reading, self._debouncer.active, frozenset(self.health.muted)
        )
        return [reading]

    def due_at(self) -> float | None:
        """When :meth:`tick` may next have something to do without a new event arriving: the
        moment a pending change is confirmed, else the settle rule's moment of rest while a
        reading is owed (None: nothing owed). A polling loop wakes then, so a reading is
        taken the moment it is due rather than at its next regular step."""
        confirm = self._debouncer.next_confirm()
        if confirm is not None:
            return confirm
        return self._settle.still_from() if self._settle.owed else None

    def pump(self, source: _Polled) -> list[BoardReading]:
        """``feed(source.poll())`` then ``tick()``: one step of a polling loop."""
        self.feed(source.poll())
        return self.tick()

    # -- the match and the referee ---------------------------------------------------------

    def resync(self) -> None:
        """Owe a fresh reading once the board has been still for the settle window from now.

        Called when sensing resumes after a gap (a lost link, a pause): a reading is then
        emitted even if no cell changed, so the tracker can judge the board as it is now.
        """
        self._settle.changed(self.clock.now())

    def set_expected(self, counts: dict[str, int]) -> None:
        """What the match expects on the board now (after a clearing, a restore, a round
        start); cells that disagree must be restored within the restore timeout."""
        self.health.set_expected(counts, self.clock.now(), self._debouncer.active)

    def mute(self, cell: int) -> None:
        """The referee mutes a faulty cell: counts are taken without it from now on."""
        self.health.mute(cell)
        self._settle.changed(self.clock.now())

    def unmute(self, cell: int) -> None:
        """Count ``cell`` again."""
        self.health.unmute(cell)
        self._settle.changed(self.clock.now())

    # -- what the UI and `skitter sensors` read ---------------------------------------------

    def active_cells(self) -> frozenset[int]:
        """Debounced active cells (muted ones included)."""
        return self._debouncer.active

    def current_counts(self) -> dict[str, int]:
        """Live counts of the debounced board (not settled; never use them to score)."""
        return field_counts(self.profile, self._debouncer.active, self.health.muted)

    def reading(self, at: float | None = None) -> BoardReading:
        """The debounced board as a reading, now (what :meth:`tick` emits when due)."""
        active = self._debouncer.active
        muted = self.health.muted
        return BoardReading(
            counts=field_counts(self.profile, active, muted),
            at=self.clock.now() if at is None else at,
            big=big_spots(self.profile, active, muted),
            bridges=bridges(self.profile, active, muted),
            launched=frozenset(self._launched),
            muted=muted_fields(self.profile, muted),
            capacity=field_capacities(self.profile, muted),
        )

    def moving_since(self) -> float | None:
        """Sensor time of the first raw change no reading has settled yet (the board is
        moving or settling), or None when it is at rest."""
        return self._moving_since

    def flags(self) -> list[CellFlag]:
        return self.health.flags()

    def is_held(self) -> bool:
        """True while readings are withheld: a flagged cell that is not muted (see the
        module docstring). A restore in progress holds nothing: its readings count it down,
        and a change that is not the restore is a shot the tracker scores or asks about."""
        return bool(self.health.holding())

    def hold_reasons(self) -> list[str]:
        """Plain words for each reason play is held."""
        return [flag.message() for flag in self.health.holding()]

    def at_rest(self) -> bool:
        """True when no change is pending and the board has been still for the window."""
        return not self._is_moving() and self._settle.is_still(self.clock.now())

    # -- helpers ---------------------------------------------------------------------------

    def _confirmed(self, event: SensorEvent) -> None:
        cell = event.cell
        if cell not in self._roles:
            return  # an unconnected pin: shown by `skitter sensors`, never counted
        self.health.cell_changed(cell, event.active, event.at)
        if cell in self.health.muted:
            return
        self._last_change[cell] = event.at
        self._timeline.change(cell, event.active, event.at)
        player = launch_player(self.profile, cell)
        if player is not None and event.active:
            self._launched.add(player)
        self._settle.changed(event.at, event.active, cell)

    def _is_moving(self) -> bool:
        """An unconfirmed change on a counted cell: the board is not still yet."""
        muted = self.health.muted
        return any(c in self._roles and c not in muted for c in self._debouncer.pending_cells())

    def _at_rest_for(self, cell: int, at: float) -> bool:
        """Is the board, apart from ``cell`` itself, at rest at ``at``?"""
        return all(
            at - t >= self.settle_s for c, t in self._last_change.items() if c != cell
        )
