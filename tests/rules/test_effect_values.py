"""Effects and steps as values (issue 26, item 3): their kind is an enum whose JSON is the
same word as before, their parts (fields, the other player, the Hit on Red choice) are kept
apart, and their words are made in names from the start, a person's words left as typed."""

from __future__ import annotations

import json

import pytest

from scorekeeper.effect_words import effect_words, sent_effects_in_words
from scorekeeper.effects import EffectKind
from scorekeeper.events import Correction
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.phrases import field_slot, literal, plain, slot
from scorekeeper.state import Phase
from scorekeeper.stream_words import last_shot_line
from scorekeeper.words import phrase_words

pytestmark = pytest.mark.unit

NAMES = {"black": "Al", "white": "Bo"}


def _match(**board: int) -> Match:
    """A classic match, black to shoot, both big skitts placed, with ``board`` set."""
    m = Match(Rules(), Setup(first="black", big={"black": "center", "white": "center"}))
    if board:
        m.apply({"correct": {"board": {k.replace("_", "."): v for k, v in board.items()},
                             "reason": "set up"}})
    return m


def test_a_phrase_names_players_and_fields_and_keeps_a_persons_words() -> None:
    phrase = (f"{slot('black')} +1 on {slot('white')}'s red field; {field_slot('white.blue')} "
              f"({literal('the white {tile} slipped')})")
    assert plain(phrase) == "black +1 on white's red field; white.blue (the white {tile} slipped)"
    assert phrase_words(phrase, NAMES) == (
        "Al +1 on Bo's red field; Bo's blue (the white {tile} slipped)")


def test_a_correction_says_its_reason_as_typed() -> None:
    m = _match()
    (effect,) = m.apply({"correct": {"score": {"white": 1}, "reason": "the white tile slipped"}})
    assert effect.kind is EffectKind.CORRECTION
    assert effect.text == "referee correction: score white 1 (the white tile slipped)"
    assert effect_words(effect, NAMES) == (
        "referee correction: score Bo 1 (the white tile slipped)")
    assert phrase_words(Correction(reason="black's fault").phrase(), NAMES) == (
        "the correction (black's fault)")
    assert last_shot_line(Correction(reason="the white tile slipped"), [], NAMES) == (
        "The correction (the white tile slipped)")


def test_a_red_point_keeps_its_field_and_its_hit_on_red_choice() -> None:
    m = _match(white_red=2)
    effects = m.apply({"shot": {"by": "black", "delta": {"white.red": 1}}})
    point = next(e for e in effects if e.kind is EffectKind.POINT)
    assert (point.player, point.fields, point.red, point.who) == (
        "black", ("white.red",), "advance", None)
    assert effect_words(point, NAMES) == (
        "Al +1: third skitt on Bo's red field (Hit on Red: advance)")
    assert json.loads(json.dumps(point.to_json())) == {
        "kind": "point", "player": "black", "amount": 1, "reason": "R3",
        "text": "black +1: third skitt on white's red field (Hit on Red: advance)",
        "phrase": "{black} +1: third skitt on {white}'s red field (Hit on Red: advance)",
        "fields": ["white.red"], "red": "advance"}


def test_a_point_set_back_names_who_set_it_back() -> None:
    m = _match(white_red=2)
    effects = m.apply({"shot": {"by": "black", "delta": {"white.red": 1}, "red": ["back"]}})
    back = next(e for e in effects if e.kind is EffectKind.BACK)
    assert (back.player, back.who, back.red, back.fields) == ("white", "black", "back",
                                                              ("white.red",))


def test_an_own_goal_names_the_shooter_and_a_penalty_the_penalised() -> None:
    m = _match(black_yellow=2)
    effects = m.apply({"shot": {"by": "black", "delta": {"black.yellow": 1}}})
    goal = next(e for e in effects if e.kind is EffectKind.POINT)
    assert (goal.player, goal.who, goal.fields) == ("white", "black", ("black.yellow",))
    effects = m.apply({"shot": {"by": "white", "delta": {"minus": 1}}})
    penalty = next(e for e in effects if e.kind is EffectKind.PENALTY)
    assert (penalty.player, penalty.who, penalty.amount) == ("white", "white", -1)


def test_a_clearing_keeps_both_fields() -> None:
    m = _match(black_yellow=2, white_yellow=1)
    effects = m.apply({"shot": {"by": "black", "delta": {"white.yellow": 1}}})
    clear = next(e for e in effects if e.kind is EffectKind.CLEAR)
    assert clear.fields == ("white.yellow", "black.yellow")


def test_the_phase_is_an_enum_sent_as_the_same_word() -> None:
    m = _match()
    assert m.state.phase is Phase.PLAYING and not m.state.is_game_over
    assert json.dumps(m.state.to_json()["phase"]) == '"playing"'
    assert str(EffectKind.SHOOTOFF) == "shootoff" and EffectKind("gift") is EffectKind.GIFT


def test_stats_count_hit_on_red_choices_from_the_effects_values() -> None:
    """An advance chosen counts as one; a back that had to count as advance (the other
    player at −1) counts as neither, as before."""
    from scorekeeper.events import parse_event
    from scorekeeper.stats import step_tally

    for red, advances in ((["advance"], 1), (["back"], 0)):
        m = _match(white_red=2)
        m.apply({"correct": {"score": {"white": -1}, "reason": "set up"}})
        shot = {"shot": {"by": "black", "delta": {"white.red": 1}, "red": red}}
        tally = step_tally(parse_event(shot), m.apply(shot))
        assert (tally.points, tally.red_advance, tally.red_back) == (1, advances, 0)


def test_a_note_reads_as_what_it_says_in_german_not_as_its_rulings_name() -> None:
    """A note (an open unblock right, a loose skitt kept in hand) said in German is its own
    sentence, naming the player and the fields, never the bare name of its ruling (the right
    to lift a blockade read "Umdrehen", the kept skitt "Pott")."""
    from web_common.i18n import language

    de = language("de")
    m = Match(Rules(flipping=True), Setup(first="black", big={"black": "center",
                                                              "white": "center"}))
    m.apply({"correct": {"board": {"white.red": 2}, "blocked": ["white.blue"],
                         "reason": "set up"}})
    effects = m.apply({"shot": {"by": "black", "delta": {"white.red": 1}}})
    (right,) = [e for e in effects if e.kind is EffectKind.NOTE]
    assert effect_words(right, NAMES) == (
        "Al may lift one blockade (Bo's blue) until the next shot")
    assert effect_words(right, NAMES, de, source=False) == (
        "Al darf eine Blockade aufheben (Blau bei Bo)")
    sent = sent_effects_in_words([right.to_json()], NAMES, de)
    assert sent[0]["text"] == "Al darf eine Blockade aufheben (Blau bei Bo)"
    kept = _match().apply({"shot": {"by": "black", "delta": {}, "keep": True}})
    (note,) = [e for e in kept if e.kind is EffectKind.NOTE]
    assert effect_words(note, NAMES, de, source=False) == (
        "Al behält einen losen Skitt in der Hand: der nächste Schuss wird mit ihm gespielt, "
        "nicht aus dem Pott")
