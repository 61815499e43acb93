"""What the sensors say about the board once it has come to rest.

A :class:`BoardReading` is the only thing ``firmware_bridge`` hands to the scorekeeper: it is
emitted by the settle detector when the board has been still for the settle window. The
tracker compares it with the board the match expects and turns the difference into a shot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.fields import Player


@dataclass(frozen=True)
class BoardReading:
    """A settled view of the board."""

    counts: Mapping[str, int]
    """Ordinary skitts per field (all seven fields present; blockades not counted)."""

    at: float
    """The clock time at which the board was seen to be at rest."""

    big: Mapping[Player, bool] = field(default_factory=dict)
    """Per player: is that player's big skitt sensed on its centre spot? Absent: unknown."""

    bridges: frozenset[tuple[str, str]] = frozenset()
    """Pairs of fields connected by a skitt on a bridge cell between them (a chain)."""

    launched: frozenset[Player] = frozenset()
    """Players whose launch spot or end-of-turn button marked a shot since the last reading."""

    muted: frozenset[str] = frozenset()
    """Fields whose counts left out one or more muted cells (shown to the referee)."""

    capacity: Mapping[str, int] = field(default_factory=dict)
    """Per field: the most skitts its sensors can tell apart. A count at it means "this many
    or more" (:mod:`scorekeeper.saturation`); a field not named here is counted exactly."""

    def count(self, field_name: str) -> int:
        """Skitts on ``field_name`` (0 when the reading does not name it)."""
        return int(self.counts.get(field_name, 0))

    def saturated(self, field_name: str) -> bool:
        """True when ``field_name``'s count is at its capacity: it may hold more."""
        cap = self.capacity.get(field_name)
        return cap is not None and self.count(field_name) >= cap
