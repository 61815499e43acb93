"""From active cells to what the scorekeeper understands: field counts, big spots, bridges.

Pure functions of the profile and a set of cells, so the live view, the settled reading and
the calibration all count the same way. Muted cells (a referee's decision about a faulty
sensor) are left out: a field's count comes from its remaining cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from firmware_bridge.profile import BoardProfile
from scorekeeper.fields import Player


def field_counts(
    profile: BoardProfile, active: frozenset[int], muted: frozenset[int] = frozenset()
) -> dict[str, int]:
    """Skitts per field (all seven), through each field's count map."""
    return {
        name: fc.count_for(sum(1 for c in fc.cells if c in active and c not in muted))
        for name, fc in profile.fields.items()
    }


def field_capacities(
    profile: BoardProfile, muted: frozenset[int] = frozenset()
) -> dict[str, int]:
    """Per field, the most skitts its unmuted cells can tell apart (a count at it may hide
    more skitts: the tracker asks the referee, scorekeeper.saturation)."""
    return {
        name: fc.capacity_with(sum(1 for c in fc.cells if c in muted))
        for name, fc in profile.fields.items()
    }


def big_spots(
    profile: BoardProfile, active: frozenset[int], muted: frozenset[int] = frozenset()
) -> Mapping[Player, bool]:
    """Per player with a centre spot: is their big skitt on it? A spot whose cells are all
    muted is unknown and left out."""
    result: dict[Player, bool] = {}
    for player, cells in profile.big.items():
        live = [c for c in cells if c not in muted]
        if live:
            result[player] = any(c in active for c in live)
    return MappingProxyType(result)


def bridges(
    profile: BoardProfile, active: frozenset[int], muted: frozenset[int] = frozenset()
) -> frozenset[tuple[str, str]]:
    """The field pairs joined by a skitt lying on their bridge."""
    return frozenset(
        b.fields for b in profile.bridges if any(c in active and c not in muted for c in b.cells)
    )


def launch_player(profile: BoardProfile, cell: int) -> Player | None:
    """The player whose launch spot ``cell`` belongs to, if any."""
    for player, cells in profile.launch.items():
        if cell in cells:
            return player
    return None


def muted_fields(profile: BoardProfile, muted: frozenset[int]) -> frozenset[str]:
    """Fields whose count leaves out at least one muted cell."""
    return frozenset(
        name for name, fc in profile.fields.items() if any(c in muted for c in fc.cells)
    )
