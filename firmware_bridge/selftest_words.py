"""The self-test's words, made from its data: a part of the board from its step's key, a check
sheet row's item and result from their kind and key, the verdict from the counts.

One wording for the walk (made as it goes, in the walker's language) and for a check sheet
kept as made (worded again when read, in the reader's language): the kept sheet holds keys
and counts, never only English sentences.
"""

from __future__ import annotations

from enum import StrEnum

from firmware_bridge.profile_model import ButtonRole
from scorekeeper.words import ENGLISH, SEATS, Words, colour_words, field_words


class PartKind(StrEnum):
    """What a self-test step proves: a part of the board (the same word in a record)."""

    FIELD = "field"
    BIG = "big"
    """A big-skitt spot."""
    LAUNCH = "launch"
    """A launch spot."""
    BRIDGE = "bridge"
    BUTTON = "button"


class RowKind(StrEnum):
    """What a row of the self-test sheet is about (the same word in a record)."""

    CELL = "cell"
    BUTTON = "button"
    EXPANDER = "expander"


def seat(player: str) -> str:
    """``first player's`` for ``black``: a side in words, before a part of the board."""
    return SEATS.get(player, player).lower() + "'s"


def _seat_words(t: Words) -> dict[str, dict[str, str]]:
    """Each side's parts of the board in the language ``t``: one entry per part and seat,
    so a language puts the seat where its grammar wants it."""
    return {
        "black": {"field": t.gettext("the first player's {colour} field"),
                  "big": t.gettext("the first player's big-skitt spot"),
                  "launch": t.gettext("the first player's launch spot"),
                  "bridge": t.gettext("the bridge between the first player's {first} and "
                                      "{second} fields"),
                  "button": t.gettext("the first player's {button} button")},
        "white": {"field": t.gettext("the second player's {colour} field"),
                  "big": t.gettext("the second player's big-skitt spot"),
                  "launch": t.gettext("the second player's launch spot"),
                  "bridge": t.gettext("the bridge between the second player's {first} and "
                                      "{second} fields"),
                  "button": t.gettext("the second player's {button} button")},
    }


def part_words(key: str, t: Words = ENGLISH) -> str:
    """A step's part of the board in the language ``t``, from its key (``black.red``,
    ``minus``, ``big:black``, ``launch:white``, ``bridge:a/b``, ``button:black.undo``)."""
    seats = {p: f"the {SEATS[p].lower()}" for p in SEATS}
    words = _seat_words(t)
    part, _, rest = key.partition(":") if ":" in key else (PartKind.FIELD, "", key)
    kind = PartKind(part) if part in tuple(PartKind) else PartKind.BUTTON
    if kind is PartKind.FIELD:
        side, _, colour = rest.partition(".")
        if rest == "minus":
            return t.gettext("the minus field")
        if side in words:
            return words[side]["field"].format(colour=colour_words(colour, t))
        return f"{field_words(rest, seats)} field"
    if kind in (PartKind.BIG, PartKind.LAUNCH):
        if rest in words:
            return words[rest][kind]
        spot = "big-skitt spot" if kind is PartKind.BIG else "launch spot"
        return f"the {seat(rest)} {spot}"
    if kind is PartKind.BRIDGE:
        a, _, b = rest.partition("/")
        (side, _, first), (other, _, second) = a.partition("."), b.partition(".")
        if side == other and side in words:
            return words[side]["bridge"].format(first=colour_words(first, t),
                                                second=colour_words(second, t))
        colour = second if side == other else b
        return f"the bridge between {field_words(a, seats)} and {colour} fields"
    role, _, name = rest.partition(".")
    button = name.replace("_", " ")
    if role == ButtonRole.REFEREE:
        return t.gettext("the referee's {button} button").format(button=button)
    if role in words:
        return words[role]["button"].format(button=button)
    return f"the {seat(role)} {button} button"


def result_words(result: str, t: Words = ENGLISH) -> str:
    """A cell's result (:meth:`SelfTest.cell_result`) in the language ``t``."""
    known = {"chatter": t.gettext("chatter"), "answered": t.gettext("answered"),
             "sensing a skitt": t.gettext("sensing a skitt"),
             "stuck active": t.gettext("stuck active"), "waiting": t.gettext("waiting"),
             "not reached": t.gettext("not reached"), "skipped": t.gettext("skipped"),
             "never changed": t.gettext("never changed")}
    return known.get(result, result)


def item_words(kind: str, label: str, t: Words = ENGLISH) -> str:
    """A sheet row's item: ``cell 16``, ``button 2``, ``expander 0x21``."""
    if kind == RowKind.CELL:
        return t.gettext("cell {cell}").format(cell=label)
    if kind == RowKind.BUTTON:
        return t.gettext("button {number}").format(number=label)
    return t.gettext("expander {label}").format(label=label)


def outcome_words(kind: str, code: str, count: int, t: Words = ENGLISH) -> str:
    """A sheet row's result: a cell's (``code`` its key), a button's (``count`` presses),
    an expander's (``count`` I2C errors)."""
    if kind == RowKind.CELL:
        return result_words(code, t)
    if kind == RowKind.BUTTON:
        return t.gettext("pressed") if count else t.gettext("never pressed")
    if count == 0:
        return t.gettext("no errors")
    return t.ngettext("{n} I2C error", "{n} I2C errors", count).format(n=count)


def expander_part(t: Words = ENGLISH) -> str:
    return t.gettext("MCP23017 on the I2C bus")


def why_words(passed: bool, failed: int, total: int, t: Words = ENGLISH) -> str:
    """Why a sheet passed or failed, without the verdict (``2 of 10 checks failed``)."""
    if passed:
        return t.ngettext("all {n} check", "all {n} checks", total).format(n=total)
    if failed:
        return t.ngettext("{failed} of {n} check failed", "{failed} of {n} checks failed",
                          total).format(failed=failed, n=total)
    return t.gettext("stopped early")


def summary_words(passed: bool, failed: int, total: int, t: Words = ENGLISH) -> str:
    """``passed: all 12 checks``, ``failed: 2 of 12 checks failed``."""
    why = why_words(passed, failed, total, t)
    if passed:
        return t.gettext("passed: {why}").format(why=why)
    return t.gettext("failed: {why}").format(why=why)


def verdict_words(passed: bool, failed: int, total: int, t: Words = ENGLISH) -> str:
    """The sheet's heading: ``PASSED`` or ``FAILED (2 of 12 checks failed)``."""
    if passed:
        return t.gettext("PASSED")
    return t.gettext("FAILED ({why})").format(why=why_words(passed, failed, total, t))
