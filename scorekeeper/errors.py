"""What the scorekeeper refuses, and why.

Our exception hierarchy::

    ScorekeeperError(Exception)
     └── IllegalEventError(ScorekeeperError, ValueError)
          ├── MalformedEventError       a step, option or setup with a wrong key, type or name
          └── NothingToUndoError        an undo with no step left to take back

Every refusal leaves the match exactly as it was. Messages name the bad key or value and,
where a state is involved, end with a short summary of it (whose turn, scores, pot), so a
referee reading the message on the tablet knows what was refused and in which position.
The key is also kept apart, as ``err.key`` (``shot.delta``, ``correct.reason``...), so a
caller that must point at the input at fault (the API's 422 answer) never reads it back
out of the words.
"""

from __future__ import annotations

from typing import Self


class ScorekeeperError(Exception):
    """Base of every error the scorekeeper raises on purpose."""


class IllegalEventError(ScorekeeperError, ValueError):
    """A step the rules refuse: out of turn, an impossible reading (R2), an unknown field,
    a choice without a right, a correction outside R19's limits, and so on."""

    def __init__(self, message: str, *, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        """The key path of the input at fault (``shot.delta``), or None when no one key is."""

    @classmethod
    def at(cls, key: str, why: str) -> Self:
        """The refusal of ``key``, told as ``key: why``."""
        return cls(f"{key}: {why}", key=key)

    def told(self, message: str) -> Self:
        """The same refusal of the same key in other words (a step number or the position
        added by a caller that knows them)."""
        return type(self)(message, key=self.key)


class MalformedEventError(IllegalEventError):
    """A step, option or setup object that is wrong in itself: an unknown key, a wrong type,
    an unknown name or a value out of range. It is a refusal like any other (docs/scenarios.md)."""


class NothingToUndoError(IllegalEventError):
    """An undo when every step has already been taken back (R19)."""
