"""What the caller says after a step: one short sentence in the players' words.

The sentences are the catalogs' (``web_common/locale``, as every page's words); :func:`sentence`
picks one from the last step and its effects (the values, never their JSON) and the state after it,
and fills in the players' names and the numbers, spoken as words. It is a pure function of the
committed match, so every screen and every test gets the same words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper import words
from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.events import Correction, Decision, Event, ShootOff, ShotEvent, Undo
from scorekeeper.fields import PLAYERS, opponent
from scorekeeper.state import State
from scorekeeper.words import Words
from web.config.values import CALLER_LANGUAGES as LANGUAGES
from web_common.i18n import language as catalog

__all__ = ["LANGUAGES", "Line", "next_game", "number", "sentence"]

def _table(t: Words) -> dict[str, str]:
    """The caller's sentences in the language ``t`` (the catalogs of ``web_common/locale``)."""
    return {
        "scores": t.gettext("{shooter} scores, {mine} to {theirs}"),
        "penalty": t.gettext("Penalty for {shooter}"),
        "own_goal": t.gettext("Own goal by {shooter}, {mine} to {theirs}"),
        "no_score": t.gettext("No score"),
        "big": t.gettext("{shooter} places the big skitt"),
        "invalid": t.gettext("Invalid shot"),
        "shootoff_again": t.gettext("Equal, shoot off again"),
        "shootoff": t.gettext("{winner} starts"),
        "undo": t.gettext("Taken back"),
        "correction": t.gettext("The referee corrected the match"),
        "decision": t.gettext("{shooter} chooses, {mine} to {theirs}"),
        "put_back": t.gettext("Put back the board"),
    }


def _won(which: EffectKind, t: Words, mine: int) -> str:
    """``{winner} wins the round, two rounds to one``: the count of rounds decides the plural."""
    if which is EffectKind.GAME:
        return t.ngettext("{winner} wins the game, {mine} round to {theirs}",
                          "{winner} wins the game, {mine} rounds to {theirs}", mine)
    return t.ngettext("{winner} wins the round, {mine} round to {theirs}",
                      "{winner} wins the round, {mine} rounds to {theirs}", mine)


def _numbers(t: Words) -> tuple[str, ...]:
    """Numbers as the voice says them (espeak-ng reads digits beyond twelve itself)."""
    return (t.gettext("zero"), t.gettext("one"), t.gettext("two"), t.gettext("three"),
            t.gettext("four"), t.gettext("five"), t.gettext("six"), t.gettext("seven"),
            t.gettext("eight"), t.gettext("nine"), t.gettext("ten"), t.gettext("eleven"),
            t.gettext("twelve"))


@dataclass(frozen=True)
class Line:
    """A sentence to say, and in which language."""

    text: str
    language: str


def number(n: int, language: str) -> str:
    """``3`` → ``three`` / ``drei``; beyond twelve the digits (the voice reads them)."""
    t = catalog(language)
    spoken = _numbers(t)
    if n < 0:
        return t.gettext("minus {n}").format(n=number(-n, language))
    return spoken[n] if n < len(spoken) else t.number(n)


@dataclass(frozen=True)
class _Said:
    """What one sentence is made from: the step, its effects, the state it left."""

    event: Event
    effects: tuple[Effect, ...]
    state: State
    names: Mapping[str, str]
    language: str
    t: Words

    def name(self, player: str | None) -> str:
        return words.name_of(player, self.names, self.t) if player in PLAYERS else ""

    def pair(self, counts: Mapping[str, int], player: str) -> dict[str, str]:
        """``mine`` and ``theirs``: ``player``'s count and the other's, spoken."""
        return {"mine": number(int(counts.get(player, 0)), self.language),
                "theirs": number(int(counts.get(opponent(player), 0)), self.language)}

    def first(self, kind: EffectKind) -> Effect | None:
        return next((e for e in self.effects if e.kind is kind), None)


def sentence(event: Event, effects: Sequence[Effect], state: State, names: Mapping[str, str],
             language: str) -> Line:
    """The sentence for the step ``event`` with its ``effects``, which left ``state``."""
    if language not in LANGUAGES:
        raise ValueError(f"language: expected one of {', '.join(LANGUAGES)}, got {language!r}")
    t = catalog(language)
    said = _Said(event, tuple(effects), state, names, language, t)
    table = _table(t)
    text = _step_sentence(said, table)
    if state.board_must_change and not state.is_game_over:
        text = f"{text}. {table['put_back']}"
    return Line(text, language)


def _step_sentence(said: _Said, table: Mapping[str, str]) -> str:
    """The sentence for the step itself, by what kind of step it is."""
    event = said.event
    if isinstance(event, Undo):
        return table["undo"]
    if isinstance(event, Correction):
        return table["correction"]
    if isinstance(event, ShootOff):
        starter = said.first(EffectKind.SHOOTOFF)
        return table["shootoff"].format(winner=said.name(starter.player)) \
            if starter is not None and starter.player else table["shootoff_again"]
    won = said.first(EffectKind.GAME) or said.first(EffectKind.ROUND)
    if won is not None and won.player is not None:
        return _won_sentence(said, won)
    if isinstance(event, Decision):
        return table["decision"].format(shooter=said.name(event.by),
                                        **said.pair(said.state.score, event.by))
    if isinstance(event, ShotEvent):
        return _shot_sentence(said, event.shot.by, table)
    return table["no_score"]


def _won_sentence(said: _Said, won: Effect) -> str:
    """A round or the game won: the winner, and the round wins."""
    winner = str(won.player)
    counts = said.pair(said.state.round_wins, winner)
    mine = int(said.state.round_wins.get(winner, 0))
    return _won(won.kind, said.t, mine).format(winner=said.name(winner), **counts)


def _shot_sentence(said: _Said, shooter: str, table: Mapping[str, str]) -> str:
    """A shot that ended no round: invalid, a penalty, an own goal, a score, the big skitt."""
    kinds = {e.kind for e in said.effects}
    counts = said.pair(said.state.score, shooter)
    if EffectKind.INVALID in kinds:
        return table["invalid"]
    if EffectKind.PENALTY in kinds:
        return table["penalty"].format(shooter=said.name(shooter))
    if any(e.reason is Reason.OWN_GOAL for e in said.effects):
        return table["own_goal"].format(shooter=said.name(shooter), **counts)
    if any(_scores_for(e, shooter) for e in said.effects):
        return table["scores"].format(shooter=said.name(shooter), **counts)
    if EffectKind.BIG in kinds:
        return table["big"].format(shooter=said.name(shooter))
    return table["no_score"]


def _scores_for(effect: Effect, shooter: str) -> bool:
    """A point for the shooter, or the other player set back by the shooter's Hit on Red."""
    return (effect.kind is EffectKind.POINT and effect.player == shooter
            or effect.kind is EffectKind.BACK and effect.player == opponent(shooter))


def next_game(offer: Mapping[str, Any], language: str) -> Line:
    """What the caller says once when the hub offers the board its next tournament game
    (``tournament_wire.offer``): the two players, the round and the table."""
    text = catalog(language).gettext("Next: {black} v {white}, round {round}, table {table}")
    return Line(text.format(black=offer["black"], white=offer["white"], round=offer["round"],
                            table=offer["table"]), language)
