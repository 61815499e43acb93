"""Which lane the tests run in: ``make test`` (all of it, what CI runs) or ``make fast`` (the
lane to run while changing code, ``SKITTER_LANE=fast``).

The fast lane runs every test, but a property test tries fewer generated examples there
(:func:`examples`): generating them was the largest share of its time. ``make test`` tries
them all.
"""

from __future__ import annotations

import os

FAST = os.environ.get("SKITTER_LANE") == "fast"
"""Running in ``make fast``."""
FAST_SHARE = 4
"""The fast lane tries a quarter of a property test's examples."""


def examples(full: int) -> int:
    """How many examples a property test tries: ``full``, or a quarter of it (at least 3) in
    the fast lane."""
    return max(3, full // FAST_SHARE) if FAST else full
