"""Why the table will not make a change: refused (HTTP 422) or made against an old state (409).

Apart from :mod:`web.table.table` so the sensing side (:mod:`web.table.watch`) can raise and
catch them too; ``web.table.table`` still exports both.
"""

from __future__ import annotations


class Refused(Exception):
    """A change the table will not make (HTTP 422); ``field`` names the input at fault."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Stale(Exception):
    """A change made against an old state (HTTP 409)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        """The state the refused change was made against."""
