"""An effect in words: the rules' own phrase in names, or, in a language other than the
rules', a sentence made from the effect's kind, player, amount and fields.

Apart from :mod:`scorekeeper.words` (the state's other words) so each stays one thing; the
scoreboard, the log and the overlay all word effects here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.effects import Effect, EffectKind
from scorekeeper.fields import color_of
from scorekeeper.legacy_effects import upgraded_all
from scorekeeper.words import ENGLISH, Words, colour_words, field_words, name_of, phrase_words


def _ruling_name(clause: str, t: Words) -> str:
    """A ruling's short name, e.g. ``Clearing`` for R5 (the rulebook's headings)."""
    names = {
        "R1": t.gettext("Turns"), "R2": t.gettext("Pot"), "R3": t.gettext("Scoring"),
        "R4": t.gettext("Hit on Red"), "R5": t.gettext("Clearing"),
        "R6": t.gettext("Penalty"), "R7": t.gettext("Own goal"),
        "R8": t.gettext("Invalid shot"), "R9": t.gettext("Loss without effect"),
        "R10": t.gettext("Order of effects"),
        "R11": t.gettext("Opening move"), "R12": t.gettext("Dislodged big skitt"),
        "R13": t.gettext("Rounds"), "R14": t.gettext("Shoot-off"), "R15": t.gettext("Chain"),
        "R16": t.gettext("Flipping"), "R17": t.gettext("Trio"),
        "R19": t.gettext("Correction"),
    }
    return names.get(clause, clause)


def effect_words(effect: Effect, names: Mapping[str, str], t: Words = ENGLISH,
                 *, source: bool = True) -> str:
    """One effect in words. In the language the rules write (``source``) that is the rules'
    own phrase in names; in another, a sentence made from the effect's kind, player, amount
    and fields (the rules' detail beyond that stays with the referee's English log)."""
    if source:
        return phrase_words(effect.phrase, names, t)
    return _sentence(str(effect.kind), effect.player, effect.amount, effect.reason.clause,
                     *_field_values(effect.kind, effect.fields, names, t), names, t)


def effects_in_names(
    effects: Sequence[Effect], names: Mapping[str, str], t: Words = ENGLISH,
    *, source: bool = True,
) -> list[dict[str, Any]]:
    """The effects as sent, with their texts in words (the ruling and numbers unchanged)."""
    return [{**e.to_json(), "text": effect_words(e, names, t, source=source)} for e in effects]


def sent_effects_in_words(
    effects: Sequence[Mapping[str, Any]], names: Mapping[str, str], t: Words,
) -> list[dict[str, Any]]:
    """Effects as they were sent (JSON, a snapshot being made again in another language),
    worded in ``t`` from their kind, player, amount and fields, as :func:`effect_words` words
    the effect itself (an effect sent by an earlier version without its values gets them
    first, :mod:`scorekeeper.legacy_effects`)."""
    out = []
    for sent, e in zip(effects, upgraded_all(effects), strict=True):
        kind = str(e.get("kind", ""))
        fields, colour = _field_values(kind, tuple(e.get("fields") or ()), names, t)
        out.append({**sent, "text": _sentence(
            kind, e.get("player"), int(e.get("amount") or 0), str(e.get("reason", "")),
            fields, colour, names, t)})
    return out


def _field_values(kind: str, fields: Sequence[str], names: Mapping[str, str],
                  t: Words) -> tuple[list[str], str | None]:
    """An effect's fields in words, and the colour a clearing cleared (its pair's)."""
    colour = color_of(fields[0]) if kind == EffectKind.CLEAR and fields else None
    return [field_words(f, names, t) for f in fields], colour


def _sentence(kind: str, player: str | None, amount: int, clause: str, fields: list[str],
              colour: str | None, names: Mapping[str, str], t: Words) -> str:
    """An effect in a language other than the rules': its kind, who, how much, where."""
    who = name_of(player, names, t) if player else ""
    ruling = _ruling_name(clause, t)
    signed = f"+{amount}" if amount >= 0 else f"\u2212{-amount}"
    if kind == EffectKind.CHAIN and len(fields) >= 2:
        return t.gettext("chain between {a} and {b}: its skitt goes back to the pot").format(
            a=fields[0], b=fields[1])
    if kind == EffectKind.CLEAR:
        if colour:
            return t.gettext("{colour} cleared on both sides").format(
                colour=colour_words(colour, t))
        return t.gettext("the board is cleared ({ruling})").format(ruling=ruling)
    if kind == EffectKind.BLOCK and fields:
        return t.gettext("blockade on {where}").format(where=fields[0])
    if kind == EffectKind.UNBLOCK:
        return t.gettext("blockade lifted ({ruling})").format(ruling=ruling)
    if kind == EffectKind.NOTE and who:
        if clause == "R16" and fields:  # the right to lift one blockade, still open
            return t.gettext("{who} may lift a blockade ({fields})").format(
                who=who, fields=", ".join(fields))
        if clause == "R2":  # a loose skitt kept for the next shot
            return t.gettext("{who} keeps a loose skitt in hand: the next shot is played "
                             "with it, not from the pot").format(who=who)
    if kind in (EffectKind.POINT, EffectKind.BACK, EffectKind.PENALTY, EffectKind.GIFT) and who:
        if kind == EffectKind.PENALTY:
            return t.gettext("penalty: {who} {signed}").format(who=who, signed=signed)
        if kind == EffectKind.BACK:
            return t.gettext("{who} is set back one: Hit on Red").format(who=who)
        if fields:
            return t.gettext("{who} {signed}: {ruling}, {where}").format(
                who=who, signed=signed, ruling=ruling, where=fields[-1])
        return t.gettext("{who} {signed}: {ruling}").format(who=who, signed=signed,
                                                            ruling=ruling)
    return _moment_sentence(kind, who, ruling, t)


def _moment_sentence(kind: str, who: str, ruling: str, t: Words) -> str:
    """An effect that scores nothing, in words (see :func:`_sentence`)."""
    if kind == EffectKind.INVALID:
        return t.gettext("{who}'s shot is invalid: the board is restored and the turn passes"
                         ).format(who=who)
    if kind == EffectKind.BIG and who:
        return t.gettext("{who} places the big skitt").format(who=who)
    if kind == EffectKind.ROUND and who:
        return t.gettext("{who} wins the round").format(who=who)
    if kind == EffectKind.GAME and who:
        return t.gettext("{who} wins the game").format(who=who)
    if kind == EffectKind.TURN and who:
        return t.gettext("{who} starts the next round").format(who=who)
    if kind == EffectKind.SHOOTOFF:
        return (t.gettext("{who} wins the shoot-off and starts").format(who=who) if who
                else t.gettext("shoot-off: equally near, shoot again"))
    if kind == EffectKind.ORDER and who:
        return t.gettext("the order of effects best for {who} was taken").format(who=who)
    if kind == EffectKind.UNDO:
        return t.gettext("the last step was taken back")
    if kind == EffectKind.CORRECTION:
        return t.gettext("the referee corrected the match")
    if kind == EffectKind.DECISION:
        return t.gettext("{who} decided ({ruling})").format(who=who, ruling=ruling)
    return ruling
