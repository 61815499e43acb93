"""Calibration: learn how many skitts a number of active cells means, field by field.

A skitt may cover one cell or two, depending on the board. The builder clears a field, then
places 1, 2, 3... skitts on it, pressing Enter each time, up to as many as the field really
takes (its circle and the ring a cluster grows into); after each step the board is read
once it is at rest. The observations become the field's count map (``counts[k]`` = skitts
when ``k`` cells are active) and its *capacity*: the most skitts those counts can be trusted
for. It ends at the first number of skitts that showed the same cells as one fewer, at the
last number placed, or where every cell was covered; a count at it means "this many or
more", and the scorekeeper asks the referee about a shot there (scorekeeper.saturation).
Both are written into the profile with ``tomlkit`` so the builder's comments and layout
survive.

The dialogue goes through two injected functions (``ask`` returns the builder's answer,
``say`` shows a line) and an injected ``wait``, so the whole walk is tested with the
simulated board and a fake clock, no hardware and no sleeping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from pathlib import Path

import tomlkit
from tomlkit.items import InlineTable, Table

from firmware_bridge.files import replace_file
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import BoardProfile, ProfileError, loads_profile
from firmware_bridge.source import Source
from scorekeeper.clock import Clock
from scorekeeper.fields import MINUS
from scorekeeper.words import ENGLISH, Words

Ask = Callable[[str], str]
Say = Callable[[str], None]


class _Quit(Enum):
    """The builder stopped the calibration (``q``): what is done is kept."""

    QUIT = "quit"


class CalibrationError(ValueError):
    """Observations that cannot make a count map, or a profile that cannot take one."""


def count_map(observations: Sequence[tuple[int, int]], n_cells: int) -> tuple[int, ...]:
    """Build ``counts[0..n_cells]`` from ``(skitts placed, cells active)`` observations.

    ``counts[k]`` is the most skitts seen with at most ``k`` cells active (so the map never
    reports a skitt the builder did not place); beyond the last observation it grows at the
    observed skitts-per-cell rate (one per cell when nothing was observed)."""
    obs = sorted({(0, 0), *observations})
    for (n1, k1), (n2, k2) in zip(obs, obs[1:], strict=False):
        if n2 > n1 and k2 < k1:
            raise CalibrationError(
                f"{n2} skitts showed fewer active cells ({k2}) than {n1} skitts ({k1})"
            )
        if n2 == n1 and k2 != k1:
            raise CalibrationError(f"{n1} skitts showed both {k1} and {k2} active cells")
    for n, k in obs:
        if not 0 <= k <= n_cells or n < 0:
            raise CalibrationError(f"observation ({n} skitts, {k} cells) out of range")
    n_max = max(n for n, _ in obs)
    k_max = max(k for _, k in obs)
    counts = []
    for k in range(n_cells + 1):
        if k <= k_max:
            counts.append(max(n for n, kk in obs if kk <= k))
        elif k_max == 0:
            counts.append(k)
        else:
            counts.append(n_max + (k - k_max) * n_max // k_max)
    return tuple(counts)


def trusted_capacity(observations: Sequence[tuple[int, int]]) -> int:
    """The most skitts the observed counts tell apart: one fewer than the first number of
    skitts that showed no more cells than the number before it, else the most placed."""
    last_n, last_k = 0, 0
    for n, k in sorted(observations):
        if n > last_n and k <= last_k:
            return last_n
        last_n, last_k = n, k
    return last_n


def progress_bar(active: int, total: int) -> str:
    """``■■□□``: covered cells of a field."""
    return "■" * active + "□" * (total - active)


class Calibration:
    """One calibration walk over a started source."""

    def __init__(
        self,
        source: Source,
        profile: BoardProfile,
        clock: Clock,
        *,
        ask: Ask,
        say: Say,
        wait: Callable[[float], object],
        poll_s: float = 0.05,
        still_timeout_s: float = 10.0,
        t: Words = ENGLISH,
    ) -> None:
        self.t = t
        """The language the builder is spoken to in."""
        self.source = source
        self.profile = profile
        self.clock = clock
        self.ask = ask
        self.say = say
        self.wait = wait
        self.poll_s = poll_s
        self.still_timeout_s = still_timeout_s
        self.pipeline = Pipeline(profile, clock, initial=source.snapshot())
        self.capacities: dict[str, int] = {}
        """Per calibrated field: the most skitts its counts can be trusted for."""

    def run(self, fields: Sequence[str] | None = None) -> dict[str, tuple[int, ...]]:
        """Walk ``fields`` (default all seven); return the count map of each one finished.
        The builder may skip a field (``s``) or stop (``q``) and keep what is done."""
        t = self.t
        names = list(fields) if fields else list(self.profile.field_names)
        for name in names:
            if name not in self.profile.fields:
                raise CalibrationError(t.gettext("unknown field {field} in board profile "
                                                 "{profile}").format(
                    field=repr(name), profile=repr(self.profile.name)))
        maps: dict[str, tuple[int, ...]] = {}
        for i, name in enumerate(names, start=1):
            self.say(f"[{i}/{len(names)}] " + t.gettext("{field}: cells {cells}").format(
                field=name, cells=", ".join(map(str, self.profile.fields[name].cells))))
            outcome = self._field(name)
            if outcome is _Quit.QUIT:
                self.say(t.gettext("stopped; {n} field(s) calibrated").format(n=len(maps)))
                break
            if outcome is not None:
                maps[name] = outcome
                cap = self.capacities[name]
                self.say("  " + t.gettext("{field}: counts = {counts}").format(
                    field=name, counts=list(outcome)))
                self.say("  " + t.ngettext(
                    "{field}: counts are trustworthy up to {n} skitt; a count of {n} means "
                    "{n} or more and the referee is asked about a shot there",
                    "{field}: counts are trustworthy up to {n} skitts; a count of {n} means "
                    "{n} or more and the referee is asked about a shot there", cap).format(
                    field=name, n=cap))
        return maps

    def _field(self, name: str) -> tuple[int, ...] | _Quit | None:
        t = self.t
        fc = self.profile.fields[name]
        total = len(fc.cells)
        while True:
            answer = self._ask(t.gettext(
                "Clear {field} and press Enter (s = skip field, q = quit): ").format(field=name))
            if answer in ("s", "q"):
                return None if answer == "s" else _Quit.QUIT
            active = self._covered(fc.cells)
            if active == 0:
                break
            self.say("  " + t.gettext(
                "{n} cell(s) of {field} still active ({cells}): clear the field").format(
                n=active, field=name, cells=self._active_list(fc.cells)))
        observations: list[tuple[int, int]] = []
        last = 0
        n = 1
        while n <= 2 * total:
            answer = self._ask(t.ngettext(
                "Place {n} skitt on {field} and press Enter (d = done with this field, "
                "q = quit): ",
                "Place {n} skitts on {field} and press Enter (d = done with this field, "
                "q = quit): ", n).format(n=n, field=name))
            if answer == "q":
                return _Quit.QUIT
            if answer == "d":
                break
            active = self._covered(fc.cells)
            if active == 0:
                self.say("  " + t.gettext(
                    "no cell of {field} sees the skitt: put it over a cell, or check that "
                    "switch and its magnet, and try again").format(field=name))
                continue
            if active < last:
                self.say("  " + t.gettext(
                    "{n} skitts but only {active} cells active (before: {last}); check the "
                    "skitts and try again").format(n=n, active=active, last=last))
                continue
            self.say("  " + t.ngettext("{n} skitt → {active}/{total} cells",
                                       "{n} skitts → {active}/{total} cells", n).format(
                n=n, active=active, total=total) + f"  {progress_bar(active, total)}")
            if active == last:
                self.say("  " + t.gettext(
                    "note: the sensors cannot tell {fewer} from {n} skitts here").format(
                    fewer=n - 1, n=n))
            observations.append((n, active))
            last = active
            if active == total:
                self.say("  " + t.gettext("every cell of {field} is covered").format(field=name))
                break
            n += 1
        if not observations:
            self.say("  " + t.gettext(
                "no skitt was placed on {field}: its counts stay as they were").format(
                field=name))
            return None
        self.capacities[name] = max(1, trusted_capacity(observations))
        return count_map(observations, total)

    def _ask(self, prompt: str) -> str:
        return self.ask(prompt).strip().lower()

    def _covered(self, cells: Sequence[int]) -> int:
        """Wait until the board is at rest, then count the active ones among ``cells``."""
        deadline = self.clock.now() + self.still_timeout_s
        self.pipeline.pump(self.source)
        while not self.pipeline.at_rest():
            if self.clock.now() >= deadline:
                self.say("  " + self.t.gettext(
                    "the board did not come to rest; reading it as it is"))
                break
            self.wait(self.poll_s)
            self.pipeline.pump(self.source)
        active = self.pipeline.active_cells()
        return sum(1 for c in cells if c in active)

    def _active_list(self, cells: Sequence[int]) -> str:
        active = self.pipeline.active_cells()
        return ", ".join(str(c) for c in cells if c in active)


def write_count_maps(
    path: str | Path, maps: dict[str, Sequence[int]],
    capacities: Mapping[str, int] | None = None,
) -> BoardProfile:
    """Write ``maps`` into the profile file at ``path`` as each field's ``counts``, and
    ``capacities`` (when given) as each field's ``capacity``.

    Comments and layout are kept (tomlkit); the result is validated before the file is
    replaced, atomically, so a failed write leaves the old profile intact."""
    p = Path(path)
    try:
        doc = tomlkit.parse(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"cannot read {p}: {exc.strerror or exc}") from None
    except tomlkit.exceptions.ParseError as exc:
        raise CalibrationError(f"{p}: not valid TOML: {exc}") from None
    for name, counts in maps.items():
        table = _field_table(doc, name, p)
        value = tomlkit.item([int(c) for c in counts])
        if "counts" in table:
            table["counts"] = value
        elif "cells" in table:
            # Right after `cells`, not after comments that introduce the next table.
            table.value._insert_after("cells", "counts", value)
        else:
            table["counts"] = value
        if capacities is not None and name in capacities:
            cap = tomlkit.item(int(capacities[name]))
            if "capacity" in table:
                table["capacity"] = cap
            else:
                table.value._insert_after("counts", "capacity", cap)
    text = tomlkit.dumps(doc)
    try:
        profile = loads_profile(text, path=p)
    except ProfileError as exc:
        raise CalibrationError(f"the calibrated profile would be invalid: {exc}") from None
    replace_file(p, text)
    return profile


def _field_table(doc: tomlkit.TOMLDocument, name: str, path: Path) -> Table | InlineTable:
    tables = (Table, InlineTable)
    fields = doc.get("fields")
    if not isinstance(fields, tables):
        raise CalibrationError(f"{path}: no [fields] table")
    if name in fields and isinstance(fields[name], tables):
        return fields[name]  # type: ignore[return-value]
    if name != MINUS:
        side, _, color = name.partition(".")
        side_table = fields.get(side)
        if isinstance(side_table, tables) and isinstance(side_table.get(color), tables):
            return side_table[color]  # type: ignore[return-value]
    raise CalibrationError(f"{path}: no table for field {name!r} under [fields]")
