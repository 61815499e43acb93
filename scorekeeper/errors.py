"""What the scorekeeper refuses, and why.

Our exception hierarchy::

    ScorekeeperError(Exception)
     └── IllegalEventError(ScorekeeperError, ValueError)
          ├── MalformedEventError       a step, option or setup with a wrong key, type or name
          └── NothingToUndoError        an undo with no step left to take back

Every refusal leaves the match exactly as it was. Messages name the bad key or value and,
where a state is involved, end with a short summary of it (whose turn, scores, pot), so a
referee reading the message on the tablet knows what was refused and in which position.
"""

from __future__ import annotations


class ScorekeeperError(Exception):
    """Base of every error the scorekeeper raises on purpose."""


class IllegalEventError(ScorekeeperError, ValueError):
    """A step the rules refuse: out of turn, an impossible reading (R2), an unknown field,
    a choice without a right, a correction outside R19's limits, and so on."""


class MalformedEventError(IllegalEventError):
    """A step, option or setup object that is wrong in itself: an unknown key, a wrong type,
    an unknown name or a value out of range. It is a refusal like any other (docs/scenarios.md)."""


class NothingToUndoError(IllegalEventError):
    """An undo when every step has already been taken back (R19)."""
