"""Player words: names instead of sides and field ids, calm restore instructions."""

from __future__ import annotations

import pytest

from scorekeeper.effects import EffectKind
from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.options import Setup
from scorekeeper.words import (
    Moment,
    given_names,
    moment,
    name_of,
    phrase_words,
    players_named,
    restore_instruction,
    turn_prompt,
)

pytestmark = pytest.mark.unit

NAMES = {"black": "Ann", "white": "Bo"}


def test_effects_name_the_players_and_their_fields():
    text = "{black} +1: third skitt on {white}'s yellow field"
    assert phrase_words(text, NAMES) == "Ann +1: third skitt on Bo's yellow field"
    assert phrase_words("take 1 skitt off {white.red}", NAMES) == "take 1 skitt off Bo's red"
    assert phrase_words("{white} wins round 1", NAMES) == "Bo wins round 1"


def test_a_restore_is_one_calm_instruction_in_player_words():
    said = restore_instruction({"white.red": 3, "minus": 1}, {}, NAMES)
    assert said == "Put back: take 3 skitts off Bo's red, 1 off the minus field"
    assert restore_instruction({}, {"black": "missing"}, NAMES) == (
        "Put back: put Ann's big skitt back on its spot")


def test_a_chains_restore_names_the_bridge_to_take_off_by_the_fields_it_joins():
    """After a chain the rules take its skitt back to the pot (R15): the restore says which
    bridge it lies on, by the two fields it joins, in the player's name."""
    chain = [("white.red", "white.yellow")]
    assert restore_instruction({}, {}, NAMES, bridges=chain) == (
        "Put back: take the skitt off the bridge between Bo's red and yellow")
    both = restore_instruction({"minus": 1}, {}, NAMES,
                               bridges=[("black.yellow", "black.blue"), *chain])
    assert both == ("Put back: take 1 skitt off the minus field, take the skitt off the "
                    "bridge between Ann's yellow and blue, take the skitt off the bridge "
                    "between Bo's red and yellow")


def test_the_board_line_of_a_chains_restore_names_each_player_once():
    """The tablet's and the referee's board line during a chain's restore is made from the
    tracker's values: a bridge between two fields of one player names that player once
    ("Bo's red and yellow", never "Bo's red and Bo's yellow"); a bridge between two players'
    fields names both; in English and in German alike."""
    from scorekeeper.words import board_status, board_words
    from web_common.i18n import language

    def tracker(*bridges: tuple[str, str]) -> dict[str, object]:
        message = "restore the board: " + ", ".join(
            f"take the skitt off the bridge between {a} and {b}" for a, b in bridges)
        return {"mode": "restore", "message": message, "differences": {},
                "big_differences": {}, "bridges": [list(b) for b in bridges]}

    state = {"phase": "play", "turn": "black"}
    own = tracker(("white.red", "white.yellow"))
    across = tracker(("black.yellow", "white.red"))
    assert board_words(own, NAMES) == (
        "Put back: take the skitt off the bridge between Bo's red and yellow")
    assert board_words(across, NAMES) == (
        "Put back: take the skitt off the bridge between Ann's yellow and Bo's red")
    de = language("de")
    assert board_status(own, state, NAMES, de) == (
        "Zurücklegen: den Skitt von der Brücke zwischen Rot und Gelb bei Bo nehmen")
    assert board_status(across, state, NAMES, de) == (
        "Zurücklegen: den Skitt von der Brücke zwischen Gelb bei Ann und Rot bei Bo nehmen")


def test_the_round_and_the_game_are_moments_with_the_winner_named():
    state = {"phase": "play", "round_wins": {"black": 0, "white": 1},
             "last_effects": [{"kind": "round", "player": "white"}]}
    assert moment(state, NAMES) == Moment(EffectKind.ROUND, "Bo wins round 1",
                                          "Round wins: Ann 0, Bo 1")
    over = {"phase": "game_over", "winner": "black", "round_wins": {"black": 2, "white": 1},
            "rules": {"variant": "classic"}}
    assert moment(over, NAMES).detail == "Final result: 2 round wins to 1"  # type: ignore[union-attr]
    assert moment({"phase": "play", "last_effects": []}, NAMES) is None


def test_the_prompt_says_who_shoots_and_what():
    assert turn_prompt({"phase": "play", "turn": "black"}, NAMES) == "Ann to shoot"
    assert turn_prompt({"phase": "play", "turn": "white", "must_place_big": True}, NAMES) == (
        "Bo: shoot your big skitt to the centre")


def _refused(step: dict) -> IllegalEventError:
    with pytest.raises(IllegalEventError) as caught:
        Match(setup=Setup(first="black", big={"black": "center", "white": "center"}),
              names=NAMES).apply(step)
    return caught.value


def test_a_refusal_reads_as_a_sentence_with_its_ruling():
    from scorekeeper.words import refusal

    err = _refused({"shot": {"by": "black", "delta": {"white.red": 1, "white.blue": 1}}})
    assert str(err) == (
        "shot.delta: one shot adds at most one skitt to the board, but the changes add 2"
        " (R2) [round 1, black to shoot, score black 0 white 0, pot 20]")
    assert refusal(err.why, NAMES) == (
        "Not possible: one shot adds at most one skitt to the board, but the changes add 2 (R2)")


def test_a_refusal_is_made_from_its_data_in_names_never_from_its_text():
    from scorekeeper.words import refusal

    err = _refused({"shot": {"by": "white", "delta": {}}})
    assert (err.key, err.rule) == ("shot.by", "R1")
    assert err.why.values == {"who": "white", "due": "black"}
    assert refusal(err.why, NAMES) == "Not possible: Bo shot out of turn, Ann is due (R1)"
    err = _refused({"shot": {"by": "black", "delta": {"white.red": -1}}})
    assert (err.key, err.rule) == ("shot.delta.white.red", "R2")
    assert refusal(err.why, NAMES) == (
        "Not possible: -1 would leave -1 skitts on Bo's red, which holds 0 (R2)")


def test_a_refusal_reads_wholly_in_german():
    from scorekeeper.words import refusal
    from web_common.i18n import language

    err = _refused({"shot": {"by": "white", "delta": {}}})
    assert refusal(err.why, NAMES, language("de")) == (
        "Nicht möglich: Bo hat außer der Reihe geschossen, Ann ist dran (R1)")
    err = _refused({"correct": {"score": {"white": 7}, "reason": "slip"}})
    assert err.rule == "R19"
    assert refusal(err.why, NAMES, language("de")) == (
        "Nicht möglich: der Stand 7 von Bo liegt außerhalb von -1..4 (ein Stand von 5 beendet "
        "die Runde) (R19)")


def test_a_side_without_a_name_is_its_seat_in_words():
    assert players_named(NAMES) == NAMES
    assert players_named({"black": " Ann ", "white": ""}) == {
        "black": "Ann", "white": "Second player"}
    assert players_named({}) == {"black": "First player", "white": "Second player"}
    assert phrase_words("{white}'s shot", players_named({})) == "Second player's shot"


def test_a_player_is_never_called_by_a_colour():
    """Pages speak to players: a side without a name (or named by its colour, as matches
    stored by earlier versions are) is its seat, in every sentence the pages show."""
    for unnamed in ({}, {"black": "", "white": "  "}, {"black": "Black", "white": " WHITE "}):
        assert name_of("black", unnamed) == "First player"
        assert turn_prompt({"phase": "play", "turn": "white"}, unnamed) == (
            "Second player to shoot")
        assert phrase_words("{black} +1: third skitt on {white.yellow}", unnamed) == (
            "First player +1: third skitt on Second player's yellow")
    assert given_names({"black": "Black", "white": " Bo "}) == {"black": "", "white": "Bo"}


def test_a_score_refusal_needs_no_plural_when_one_point_ends_the_round():
    """R19: a correction may not set a score that would already have ended the round. Played
    to one point, the reason must not read "1 Punkte" (a refusal has no plural forms)."""
    from scorekeeper.options import Rules
    from scorekeeper.words import refusal
    from web_common.i18n import language

    with pytest.raises(IllegalEventError) as caught:
        Match(Rules(points_to_win_round=1),
              Setup(first="black", big={"black": "center", "white": "center"}),
              names=NAMES).apply({"correct": {"score": {"white": 1}, "reason": "slip"}})
    german = refusal(caught.value.why, NAMES, language("de"))
    assert german == ("Nicht möglich: der Stand 1 von Bo liegt außerhalb von -1..0 "
                      "(ein Stand von 1 beendet die Runde) (R19)")
    assert refusal(caught.value.why, NAMES) == (
        "Not possible: Bo's score 1 is outside -1..0 (a score of 1 ends the round) (R19)")


def test_trio_with_flipping_is_refused_in_the_readers_language_with_its_ruling_as_data():
    """Trio has no blockades (R17): the refusal of a Trio match with flipping says so in
    German on a German page (it read "Nicht möglich: Trio has no blockades"), its ruling
    kept as data for the referee page, not written into the sentence."""
    from scorekeeper.errors import MalformedEventError
    from scorekeeper.options import Rules
    from scorekeeper.words import refusal
    from web_common.i18n import language

    with pytest.raises(MalformedEventError) as caught:
        Rules(variant="trio", flipping=True)
    assert caught.value.key == "rules.flipping" and caught.value.rules == ("R17",)
    assert str(caught.value) == "rules.flipping: Trio has no blockades (R17)"
    assert refusal(caught.value.why, NAMES, language("de"), ruling=False) == (
        "Nicht möglich: Trio hat keine Blockaden")
    assert refusal(caught.value.why, NAMES) == "Not possible: Trio has no blockades (R17)"
