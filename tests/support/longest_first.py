"""The fast lane gives out the test files that took longest in its last run first.

``make fast`` runs on three workers; each is handed a third of the tests in order, and one
that runs out takes half of another's queue. In the order the files were collected, the
tests that wait on a ``skitter serve`` process (``tests/api/test_web_serve.py``) came last,
and one worker waited alone on them for the run's last six seconds while the others had
nothing left. Started first, their waits are spent while the other workers work.

What each file took (set-up, test and tear-down of all its tests that ran) is kept in
pytest's cache (``.pytest_cache``) at the end of a fast-lane run, over what the last runs
said. A file's tests stay together and in their order (a file's server, started once for
it, is not started again); files the cache does not know keep their place after the known
ones, so a fresh clone runs in the collected order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, MutableSequence
from typing import Protocol

CACHE_KEY = "skitter/file-seconds"
"""Where the fast lane keeps each file's seconds in pytest's cache."""


class Item(Protocol):
    nodeid: str


class Report(Protocol):
    nodeid: str
    duration: float


def file_of(nodeid: str) -> str:
    """``tests/api/test_pin.py`` of ``tests/api/test_pin.py::test_wrong_pin[1]``."""
    return nodeid.partition("::")[0]


def longest_first(items: MutableSequence[Item], seconds: Mapping[str, float]) -> None:
    """``items`` reordered in place: the files ``seconds`` says took longest first, each
    file's tests together and in order; files it does not know after, as they were."""
    first_seen: dict[str, int] = {}
    for n, item in enumerate(items):
        first_seen.setdefault(file_of(item.nodeid), n)

    def key(item: Item) -> tuple[float, int]:
        name = file_of(item.nodeid)
        return -float(seconds.get(name, 0.0)), first_seen[name]

    items[:] = sorted(items, key=key)


def file_seconds(reports: Iterable[Report]) -> dict[str, float]:
    """Each file's seconds in ``reports`` (set-up, call and tear-down alike)."""
    total: dict[str, float] = defaultdict(float)
    for report in reports:
        total[file_of(report.nodeid)] += report.duration
    return {name: round(s, 3) for name, s in total.items()}


def remembered(old: object, new: Mapping[str, float]) -> dict[str, float]:
    """What the cache keeps: ``old`` (what it held; anything else than a mapping of names to
    seconds, from a damaged cache, counts as nothing) with this run's files replaced."""
    kept: dict[str, float] = {}
    if isinstance(old, dict):
        kept = {k: float(v) for k, v in old.items()
                if isinstance(k, str) and isinstance(v, int | float)}
    return kept | dict(new)
