"""The reference profile with a calibration written into it, for tests of count maps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from firmware_bridge.profile import BoardProfile, load_profile, loads_profile


def calibrated(
    counts: Mapping[str, Sequence[int]], capacity: Mapping[str, int] | None = None
) -> BoardProfile:
    """The reference profile with ``counts`` (and ``capacity``) for the named fields, as
    ``skitter calibrate`` would write them right after each field's cells."""
    base = load_profile()
    text = base.path.read_text(encoding="utf-8")  # type: ignore[union-attr]
    for name, table in counts.items():
        line = f"cells = [{', '.join(map(str, base.fields[name].cells))}]"
        assert text.count(line) == 1, line
        extra = f"\ncounts = [{', '.join(map(str, table))}]"
        if capacity and name in capacity:
            extra += f"\ncapacity = {capacity[name]}"
        text = text.replace(line, line + extra)
    return loads_profile(text)


def halves(cells: int) -> tuple[int, ...]:
    """A count map for skitts that each cover two cells: ``k`` cells are ``k // 2`` skitts."""
    return tuple(k // 2 for k in range(cells + 1))
