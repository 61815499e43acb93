"""Why the table will not make a change: refused (HTTP 422) or made against an old state (409).

Apart from :mod:`web.table.table` so the sensing side (:mod:`web.table.watch`) can raise and
catch them too; ``web.table.table`` still exports both.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.errors import IllegalEventError, Why


class Refused(Exception):
    """A change the table will not make (HTTP 422); ``field`` names the input at fault and
    ``why`` says what it says as data (the rules' refusal, or the table's own), so the person
    who tried reads it in their language (:func:`scorekeeper.words.refusal`)."""

    def __init__(self, message: str | Why, field: str | None = None, *,
                 why: Why | None = None, names: Mapping[str, str] | None = None) -> None:
        said = message if isinstance(message, Why) else Why(message)
        super().__init__(said.english())
        self.field = field
        self.why = why if why is not None else said
        self.names = None if names is None else dict(names)
        """The names its players are told by (another match's), or None: the match's in play."""

    @classmethod
    def of(cls, exc: IllegalEventError, field: str | None = None) -> Refused:
        """The rules' refusal ``exc`` (its English message, its data), of its key unless
        ``field`` names another."""
        return cls(str(exc), field if field is not None else exc.key, why=exc.why)

    @property
    def rule(self) -> str | None:
        """The ruling that refused, or None (the table's own refusals name none)."""
        return self.why.rules[0] if self.why.rules else None


class Stale(Exception):
    """A change made against an old state (HTTP 409)."""

    def __init__(self, seq: int, message: str, what: list[str] | None = None) -> None:
        super().__init__(message)
        self.seq = seq
        """The state the refused change was made against."""
        self.what = what
        """What changed, in players' words, when it is not the match (an offer replaced)."""
