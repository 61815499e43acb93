"""Players' names: what a name may hold, and when two spellings are one person.

One place for the board (a new match's names), the players' history and the tournament hub
(registration, and matching a board's result to a pairing), so a name means the same
person everywhere. Names are typed on tablets and phones, so:

- Unicode compatibility forms are folded (NFKC): a full-width ``Ａｎｎ`` is ``Ann``;
- format characters (Unicode category Cf: zero-width space, joiners, soft hyphen, BOM) are
  removed: ``"Ann\\u200b"`` is ``Ann``, not a second Ann who looks the same;
- spaces are trimmed and runs of them collapsed;
- control characters and the direction controls, which could make one name show as
  another's, are refused with a message naming the character.

For identity (:func:`name_key`) case does not count either.
"""

from __future__ import annotations

import unicodedata

from scorekeeper.errors import refused

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a name could then show as another's."""


def check_shown(value: str) -> str:
    """Text shown to players (a name, a reason): no control or direction-changing
    characters, not only spaces; returned trimmed. ``ValueError`` names what is wrong."""
    for ch in value:
        if ch in BIDI_CONTROLS:
            raise ValueError(f"must not hold the direction control U+{ord(ch):04X}")
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(f"must not hold the control character U+{ord(ch):04X}")
    if not value.strip():
        raise ValueError("must not be empty or only spaces")
    return value.strip()


MAX_REASON = 500
"""Characters a correction's reason may hold."""


def check_reason(reason: str | None, *, required: bool = False) -> None:
    """The one rule for a correction's reason, wherever a correction comes from (a tablet,
    the hub's referee, a board command): plain text (:func:`check_shown`) of at most
    :data:`MAX_REASON` characters, and given at all when a person corrects (``required``).
    ``ValueError`` names what is wrong (a missing one is the rules' refusal, R19)."""
    text = reason or ""
    if len(text) > MAX_REASON:
        raise ValueError(f"correct.reason is longer than {MAX_REASON} characters")
    if not text.strip():
        if required:
            raise refused("correct.reason", "say why (a correction needs a reason)")
        return
    check_shown(text)


def _folded(value: str) -> str:
    """NFKC, without format characters, spaces collapsed."""
    text = unicodedata.normalize("NFKC", value)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


def normal_name(value: str) -> str:
    """A typed name as it is kept and shown (see the module docstring); ``ValueError`` for
    one with a control character, or nothing left but spaces and invisible characters."""
    check_shown(value)
    name = _folded(value)
    if not name:
        raise ValueError("must not be empty or only spaces and invisible characters")
    return name


def name_key(value: str) -> str:
    """What two spellings of a name share when they are the same player: the folded name
    without case. Never raises (it also keys names read back from logs and boards)."""
    return _folded(str(value)).casefold()
