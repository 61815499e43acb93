"""What the pages say to players, in their names: the one place player words are made.

The rules write effects and steps as phrases with the players and fields left open
(:mod:`scorekeeper.phrases`): filled with side ids they are the referee's exact log, filled
here with the players' names they are what a page says ("Ann +1: third skitt on Bo's
yellow"). Words are made from those values, never by searching a finished text for side
ids, so a person's own words (a correction's reason) are shown exactly as typed. The board's
restore differences and the round and game moments are worded here too; the snapshot and the
API's refusal messages both use it, so a page never translates by itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scorekeeper.effects import EffectKind
from scorekeeper.errors import Field, Fields, Player, Why
from scorekeeper.events import Correction, Event, RoundEnd
from scorekeeper.expectation import BigDifference
from scorekeeper.options import Variant
from scorekeeper.phrases import fill
from scorekeeper.state import Phase
from scorekeeper.tracker_status import Mode

PLAYERS = ("black", "white")


class Words(Protocol):
    """A language's words, given by the caller (``web_common.i18n.Language``): this package reads no
    catalog itself. The msgids are the English texts below, with ``{name}`` placeholders."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def number(self, n: float) -> str: ...


class _English:
    """The words as written here: what every function uses when given no language."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def number(self, n: float) -> str:
        return str(n)


ENGLISH: Words = _English()

SEATS = {"black": "First player", "white": "Second player"}  # English; name_of(t=) translates
"""A side in words where no name is known, in the order pairings and the new-match form list
the players: it stands where the name would (pages never call a player by a colour)."""

UNNAMED = frozenset({"", "black", "white"})
"""Given names (case and spaces aside) that name nobody: none, or the side's id, as matches
stored by earlier versions carry them."""


def is_named(name: object) -> bool:
    """True when ``name`` is a person's name rather than nothing or a side's id."""
    return isinstance(name, str) and " ".join(name.split()).casefold() not in UNNAMED


def name_of(player: str | None, names: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """The player's name, or the seat in words (``Second player``) when none was given."""
    if not player:
        return t.gettext("nobody")
    given = names.get(player)
    if is_named(given):
        return str(given).strip()
    if player == "black":
        return t.gettext("First player")
    if player == "white":
        return t.gettext("Second player")
    return player


def given_names(names: Mapping[str, Any]) -> dict[str, str]:
    """Each side's name as given, or ``""`` where none was: what a form starts from."""
    return {player: name_of(player, names) if is_named(names.get(player)) else ""
            for player in PLAYERS}


def players_named(names: Mapping[str, Any], t: Words = ENGLISH) -> dict[str, str]:
    """Each side's name, or its seat in words when it has none: what the pages show."""
    return {player: name_of(player, names, t) for player in PLAYERS}


def colour_words(colour: str, t: Words = ENGLISH) -> str:
    """A field's colour in words (a colour a catalog does not know stays as it is)."""
    known = {"red": t.gettext("red"), "yellow": t.gettext("yellow"),
             "blue": t.gettext("blue"), "green": t.gettext("green")}
    return known.get(colour, colour)


def field_words(field: str, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """``Bo's red`` for ``white.red``; ``the minus field`` for ``minus``."""
    if "." not in field:
        if field == "minus":
            return t.gettext("the minus field")
        return t.gettext("the {field} field").format(field=field)
    side, _, colour = field.partition(".")
    return t.gettext("{who}'s {colour}").format(who=name_of(side, names, t),
                                                 colour=colour_words(colour, t))


def phrase_words(phrase: str, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """A rules phrase (an effect's or a step's) in the players' names; a person's words in it
    are shown as typed."""
    return fill(phrase, lambda p: name_of(p, names, t), lambda f: field_words(f, names, t))


def restore_instruction(
    differences: Mapping[str, int], big_differences: Mapping[str, str], names: Mapping[str, str],
    *, blockades: Sequence[str] = (), bridges: Iterable[Sequence[str]] = (),
    t: Words = ENGLISH,
) -> str:
    """One calm sentence for putting the board back, e.g.
    ``Put back: take 3 skitts off Bo's red, 1 off the minus field``.

    ``blockades``: fields being cleared that the match now has blocked (flipping, R16): the
    sentence says where the flipped skitts from the pot go, which no sensor asks for.
    ``bridges``: bridges a skitt lies on that the match does not expect (a chain's skitt,
    R15), each as the two fields it joins: the sentence names them
    (:func:`clear_bridge_words`)."""
    parts: list[str] = []
    verb_used: set[str] = set()
    order = sorted(differences.items(), key=lambda kv: (kv[1] < 0, kv[0] == "minus", kv[0]))
    for field, diff in order:
        n = abs(diff)
        where = field_words(field, names, t)
        count = t.number(n)
        if diff > 0:
            text = (t.gettext("{n} off {where}") if "take" in verb_used else
                    t.ngettext("take {n} skitt off {where}", "take {n} skitts off {where}", n))
            verb_used.add("take")
        else:
            text = (t.gettext("{n} to {where}") if "add" in verb_used else
                    t.ngettext("add {n} skitt to {where}", "add {n} skitts to {where}", n))
            verb_used.add("add")
        parts.append(text.format(n=count, where=where))
    for player, what in sorted(big_differences.items()):
        who = name_of(player, names, t)
        parts.append(
            t.gettext("put {who}'s big skitt back on its spot").format(who=who)
            if what == BigDifference.MISSING
            else t.gettext("take {who}'s big skitt off its spot").format(who=who)
        )
    for first, second in sorted((str(a), str(b)) for a, b in bridges):
        parts.append(clear_bridge_words(first, second, names, t))
    if not parts:
        return t.gettext("Put the board back as the match shows it")
    text = t.gettext("Put back: {parts}").format(parts=", ".join(parts))
    if blockades:
        where = t.gettext(" and on ").join(field_words(f, names, t) for f in sorted(blockades))
        text += t.gettext("; then lay a flipped skitt from the pot on {where} (the blockades)"
                          ).format(where=where)
    return text


def clear_bridge_words(first: str, second: str, names: Mapping[str, str],
                       t: Words = ENGLISH) -> str:
    """Taking a skitt off the bridge between two fields, in players' words: ``take the skitt
    off the bridge between Bo's red and yellow`` for two fields of one side (as every
    board's bridges are), each field said in full otherwise."""
    side, _, colour = first.partition(".")
    other, _, other_colour = second.partition(".")
    if colour and other_colour and side == other:
        return t.gettext("take the skitt off the bridge between {who}'s {first} and {second}"
                         ).format(who=name_of(side, names, t), first=colour_words(colour, t),
                                  second=colour_words(other_colour, t))
    return t.gettext("take the skitt off the bridge between {first} and {second}").format(
        first=field_words(first, names, t), second=field_words(second, names, t))


def clearing_instruction(round_number: object, bigs: bool, t: Words = ENGLISH) -> str:
    """A new round starts from an empty board: one instruction, not every field."""
    if bigs:
        return t.gettext("Clear the board for round {round}: every skitt off and the big "
                         "skitts back in hand").format(round=round_number)
    return t.gettext("Clear the board for round {round}: every skitt off").format(
        round=round_number)


def skitts_label(n: int, t: Words = ENGLISH) -> str:
    """A count the referee taps: ``0``, ``1``, ``2``; ``1 came off`` for ``-1``."""
    return t.gettext("{n} came off").format(n=t.number(-n)) if n < 0 else t.number(n)


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer the referee taps: its label, and what it says (a count of skitts, or the
    player whose shot it was and where that answer goes)."""

    label: str
    skitts: int | None = None
    by: str | None = None
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.skitts is not None:
            return {"skitts": self.skitts, "label": self.label}
        return {"by": self.by, "label": self.label, "path": self.path, "body": {"by": self.by}}


@dataclass(frozen=True, slots=True)
class Question:
    """A question put to the referee, in words: what is asked (``text``, ``detail``), what
    everyone else reads meanwhile (``alert``), and the answers (``choices``). ``kind`` and
    ``heading`` name a question that is not about a full field (whose shot a landing was,
    ``web.table.order``)."""

    field: str
    by: str | None
    text: str
    detail: str
    alert: str
    choices: tuple[Choice, ...]
    kind: str | None = None
    heading: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The question as the pages get it."""
        out: dict[str, Any] = {} if self.kind is None else {"kind": self.kind}
        out.update({"field": self.field, "by": self.by, "text": self.text,
                    "detail": self.detail})
        if self.heading is not None:
            out["heading"] = self.heading
        out.update({"alert": self.alert, "choices": [c.to_json() for c in self.choices]})
        return out


@dataclass(frozen=True, slots=True)
class Moment:
    """A round or the game won, as the TV shows it large until the next shot."""

    kind: EffectKind
    """:attr:`EffectKind.ROUND` or :attr:`EffectKind.GAME`."""
    title: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"kind": str(self.kind), "title": self.title, "detail": self.detail}


def question_words(
    question: Mapping[str, Any] | None, names: Mapping[str, str], t: Words = ENGLISH
) -> Question | None:
    """The referee's question about a field as full as its sensors can count, e.g.
    ``Bo's blue is as full as its sensors can count: did Ann's skitt land there?`` with
    one choice per count (``scorekeeper.saturation``); None when nothing is asked."""
    asked = (question or {}).get("open")
    if not question or not asked:
        return None
    where = field_words(str(asked["field"]), names, t)
    where = where[:1].upper() + where[1:]
    who = name_of(str(question.get("by")), names, t)
    least = int(asked["least"])
    if least > 0:
        text = t.gettext("{where} is now as full as its sensors can count: how many skitts did "
                         "{who}'s shot add there?").format(where=where, who=who)
        detail = t.gettext("The sensors saw {n} arrive; more may cling to the cluster where no "
                           "sensor counts them.").format(n=t.number(least))
    elif least < 0:
        text = t.gettext("{where} is as full as its sensors can count: did {who}'s skitt land "
                         "there?").format(where=where, who=who)
        detail = t.gettext("Tap how many skitts the shot added there; it held more than its "
                           "sensors count, so some may also have come off unseen.")
    else:
        text = t.gettext("{where} is as full as its sensors can count: did {who}'s skitt land "
                         "there?").format(where=where, who=who)
        detail = t.gettext("Tap how many skitts the shot added there.")
    # what everyone else reads meanwhile (the TV): the referee counts; nothing to take off
    alert = t.gettext("The referee is counting {where}").format(
        where=field_words(str(asked["field"]), names, t))
    return Question(field=str(asked["field"]), by=question.get("by"), text=text,
                    detail=detail, alert=alert,
                    choices=tuple(Choice(skitts_label(int(n), t), skitts=int(n))
                                  for n in asked["choices"]))


def moment(
    state: Mapping[str, Any], names: Mapping[str, str], t: Words = ENGLISH
) -> Moment | None:
    """The round or game moment the TV shows large until the next shot, or None: a round
    won by the last step, or the final result once the game is over."""
    wins = state.get("round_wins") or {}
    score = state.get("score") or {}
    if state.get("phase") == Phase.GAME_OVER:
        winner = state.get("winner")
        loser = next((p for p in PLAYERS if p != winner), None)
        if (state.get("rules") or {}).get("variant") == Variant.TRIO:
            mine, theirs = int(score.get(winner, 0)), int(score.get(loser, 0))
            detail = t.ngettext("{mine} point to {theirs}", "{mine} points to {theirs}", mine)
        else:
            mine, theirs = int(wins.get(winner, 0)), int(wins.get(loser, 0))
            detail = t.ngettext("{mine} round win to {theirs}", "{mine} round wins to {theirs}",
                                mine)
        detail = detail.format(mine=t.number(mine), theirs=t.number(theirs))
        return Moment(EffectKind.GAME,
                      t.gettext("{who} wins the game").format(who=name_of(winner, names, t)),
                      t.gettext("Final result: {detail}").format(detail=detail))
    for effect in state.get("last_effects") or ():
        if effect.get("kind") == EffectKind.ROUND and effect.get("player"):
            winner = effect["player"]
            won = sum(int(v) for v in wins.values())
            tally = ", ".join(f"{name_of(p, names, t)} {t.number(int(wins.get(p, 0)))}"
                              for p in PLAYERS)
            return Moment(EffectKind.ROUND,
                          t.gettext("{who} wins round {n}").format(
                              who=name_of(winner, names, t), n=t.number(won)),
                          t.gettext("Round wins: {tally}").format(tally=tally))
    return None


def shootoff_prompt(t: Words = ENGLISH) -> str:
    """What the TV says while the shoot-off's result is awaited."""
    return t.gettext("Shoot-off: who starts? (enter it on the tablet)")


def turn_prompt(state: Mapping[str, Any], names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """``Ann to shoot`` / ``Ann: shoot your big skitt to the centre`` / the shoot-off."""
    phase = state.get("phase")
    if phase == Phase.GAME_OVER:
        return t.gettext("Game over")
    if phase == Phase.SHOOTOFF:
        return shootoff_prompt(t)
    turn = state.get("turn")
    if not turn:
        return ""
    who = name_of(turn, names, t)
    if state.get("must_place_big"):
        return t.gettext("{who}: shoot your big skitt to the centre").format(who=who)
    return t.gettext("{who} to shoot").format(who=who)


def reason_words(why: Why, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """What a refusal says in words, made from its data: the sentence translated, its
    players named, its fields said, its numbers written as the language writes them (a
    sentence without values is said as it is)."""
    text = t.gettext(why.template)
    if not why.values:
        return text
    return text.format_map({k: _value_words(v, names, t) for k, v in why.values.items()})


def _value_words(value: object, names: Mapping[str, str], t: Words) -> str:
    if isinstance(value, Why):
        return reason_words(value, names, t)
    if isinstance(value, Player):
        return name_of(value, names, t)
    if isinstance(value, Field):
        return field_words(value, names, t)
    if isinstance(value, Fields):
        return ", ".join(field_words(f, names, t) for f in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value)
    return str(value)


def refusal(why: Why, names: Mapping[str, str], t: Words = ENGLISH, *,
            ruling: bool = True) -> str:
    """A refused change in players' words, e.g.
    ``Not possible: one shot adds at most one skitt to the board, but the changes add 2
    (R2)``: the refusal's sentence (:func:`reason_words`) and the rulings that refused (left
    out with ``ruling=False``: the players' tablet leaves rule codes to the referee page)."""
    reason = reason_words(why, names, t)
    if why.rules and ruling:
        return t.gettext("Not possible: {reason} ({ruling})").format(
            reason=reason, ruling=", ".join(why.rules))
    return t.gettext("Not possible: {reason}").format(reason=reason)


def what_changed(event: Event, names: Mapping[str, str], t: Words = ENGLISH) -> list[str]:
    """What a logged step did, for the person whose change it overtook, e.g.
    ``Bo's score was set to 1`` for a correction; the step's own words otherwise."""
    if not isinstance(event, Correction):
        return [phrase_words(event.phrase(), names, t)]
    out: list[str] = []
    for p, n in (event.score or {}).items():
        out.append(t.gettext("{who}'s score was set to {n}").format(
            who=name_of(p, names, t), n=t.number(n)))
    for p, n in (event.round_wins or {}).items():
        out.append(t.gettext("{who}'s round wins were set to {n}").format(
            who=name_of(p, names, t), n=t.number(n)))
    for f, n in (event.board or {}).items():
        out.append(t.ngettext("{where} was set to {n} skitt", "{where} was set to {n} skitts",
                              n).format(where=field_words(f, names, t), n=t.number(n)))
    if event.blocked is not None:
        fields = ", ".join(field_words(f, names, t) for f in event.blocked) or t.gettext("none")
        out.append(t.gettext("the blocked fields were set to {fields}").format(fields=fields))
    if event.turn:
        out.append(t.gettext("{who} was made the one to shoot").format(
            who=name_of(event.turn, names, t)))
    out += _referee_records(event, names, t)
    return out or [phrase_words(event.phrase(), names, t)]


def _referee_records(event: Correction, names: Mapping[str, str], t: Words) -> list[str]:
    """What a correction recorded beyond the position (R18, R19), in words."""
    out: list[str] = []
    for p in event.handicaps or {}:
        out.append(t.gettext("{who}'s handicap was changed").format(who=name_of(p, names, t)))
    if event.points_to_win_round is not None:
        n = event.points_to_win_round
        out.append(t.ngettext("{n} point now wins a round", "{n} points now win a round",
                              n).format(n=t.number(n)))
    if event.rounds_to_win_game is not None:
        n = event.rounds_to_win_game
        out.append(t.ngettext("{n} round win now wins the game",
                              "{n} round wins now win the game", n).format(n=t.number(n)))
    if event.end_round == RoundEnd.DRAWN:
        out.append(t.gettext("the round was ended drawn"))
    elif event.end_round is not None:
        out.append(t.gettext("the round was ended, won by {who}").format(
            who=name_of(event.end_round, names, t)))
    if event.shootoff:
        out.append(t.gettext("a shoot-off was started"))
    return out


def board_status(
    tracker: Mapping[str, Any], state: Mapping[str, Any], names: Mapping[str, str],
    t: Words = ENGLISH,
) -> str:
    """What the board needs, for the referee, made from the tracker's mode and differences
    (the words of a language other than the rules'; :func:`board_words` words the tracker's
    own sentence)."""
    mode = Mode(tracker["mode"]) if tracker.get("mode") in tuple(Mode) else None
    turn = state.get("turn")
    differences = tracker.get("differences") or {}
    bigs = tracker.get("big_differences") or {}
    bridges = tracker.get("bridges") or ()
    if mode is Mode.PAUSED:
        return t.gettext("Sensing is paused")
    if mode is Mode.READY:
        if not turn:
            return t.gettext("Board ready")
        who = name_of(turn, names, t)
        if state.get("must_place_big"):
            return t.gettext("{who} to place the big skitt").format(who=who)
        return t.gettext("Board ready: {who} to shoot").format(who=who)
    if mode is Mode.QUESTION:
        asked = question_words(tracker.get("question"), names, t)
        if asked:
            return asked.alert
    if mode is Mode.RESTORE and (differences or bigs or bridges):
        return restore_instruction(differences, bigs, names, bridges=bridges, t=t)
    if mode is Mode.REVIEW and tracker.get("refusal"):
        return refused_shot_words(tracker, names, t)
    if mode is Mode.REVIEW and tracker.get("settled", True):
        return t.gettext("The board differs from the match: the referee decides")
    return t.gettext("Waiting for the board to come to rest")


def refused_shot_words(
    tracker: Mapping[str, Any], names: Mapping[str, str], t: Words = ENGLISH
) -> str:
    """A sensed shot the rules refused, made from the refusal's data (``tracker["refusal"]``,
    :meth:`Why.to_json`) with what the board differs by, e.g. ``The rules refused the sensed
    shot: one shot adds at most one skitt ... (R2). The referee decides. Put back: take 2
    skitts off Bo's blue``."""
    why = Why.from_json(tracker.get("refusal") or {})
    reason = reason_words(why, names, t)
    if why.rules:
        reason = t.gettext("{reason} ({ruling})").format(reason=reason,
                                                         ruling=", ".join(why.rules))
    text = " ".join((t.gettext("The rules refused the sensed shot: {reason}.").format(
        reason=reason), t.gettext("The referee decides.")))
    differences = tracker.get("differences") or {}
    bigs = tracker.get("big_differences") or {}
    bridges = tracker.get("bridges") or ()
    if differences or bigs or bridges:
        return f"{text} {restore_instruction(differences, bigs, names, bridges=bridges, t=t)}"
    return text


def board_words(tracker: Mapping[str, Any], names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """What the board needs in the rules' language: the tracker's own sentence, its phrase
    filled with names (it tells why the referee must look), but a refused shot is said from
    the refusal's data (:func:`refused_shot_words`) and a restore from what differs
    (:func:`restore_instruction`)."""
    if tracker.get("refusal"):
        return refused_shot_words(tracker, names, t)
    differences = tracker.get("differences") or {}
    bigs = tracker.get("big_differences") or {}
    bridges = tracker.get("bridges") or ()
    if tracker.get("mode") == Mode.RESTORE and (differences or bigs or bridges):
        return restore_instruction(differences, bigs, names, bridges=bridges, t=t)
    text = phrase_words(str(tracker.get("phrase", "")), names, t)
    return text[:1].upper() + text[1:]
