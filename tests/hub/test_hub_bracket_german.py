"""Issue 29: the knockout's words in German: the bracket's stages and who plays the games to
come carry their catalog entries (the pages word them in their language), the field's log
says the knockout began in German, and a knockout that cannot start says why in German."""

from __future__ import annotations

import pytest
from test_hub_bracket import hub, seq, swiss_played  # noqa: F401  (eight players, two rounds)

from hub.bracket import bracket_view, start_knockout
from hub.said import Sentence
from hub.tournament import Tournament, TournamentError
from web_common.i18n import language

DE = language("de")


def test_the_bracket_words_itself_in_german(hub: Tournament) -> None:  # noqa: F811
    swiss_played(hub)
    start_knockout(hub, 8, third_place=True, reason="as planned", seq=seq(hub))
    view = bracket_view(hub)
    assert view is not None
    names = [Sentence.from_json(s["name_said"]).worded(DE) for s in view["stages"]]
    assert names == ["Viertelfinale", "Halbfinale", "Finale"]
    semi = view["stages"][1]["games"][1]
    assert semi["waits_for"] == "the winners of quarter-finals 3 and 4"
    assert Sentence.from_json(semi["waits_for_said"]).worded(DE) == (
        "die Sieger der Viertelfinale 3 und 4")
    third = view["stages"][2]["games"][1]
    assert Sentence.from_json(third["waits_for_said"]).worded(DE) == (
        "die Verlierer der Halbfinale")
    log = hub.store.field_changes()[-1]
    assert log.words == ("Knockout of the top 8 started in round 3, with a third-place game "
                         "(as planned)")
    assert log.said().worded(DE) == ("K.-o.-Runde der besten 8 in Runde 3 begonnen, mit Spiel "
                                     "um Platz drei (as planned)")


def test_a_knockout_too_early_says_why_in_german(hub: Tournament) -> None:  # noqa: F811
    hub.pair_next_round()
    with pytest.raises(TournamentError) as caught:
        start_knockout(hub, 4, third_place=False, reason="", seq=seq(hub))
    assert str(caught.value) == ("cannot start the knockout: round 1 still has games without "
                                 "a result")
    assert caught.value.worded(DE) == ("die K.-o.-Runde kann nicht beginnen: in Runde 1 haben "
                                       "noch Spiele kein Ergebnis")
