"""What a referee could not enter before the fourth reading of the rulebook, through the API's
steps (each with the ``seq`` its person saw, each undoable): the end of a round by hand, a
shoot-off, fewer points or rounds by agreement, a handicap changed during the game, a
correction that empties the pot; and the new things a shot can say."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import place_bigs, state, step


def correct(client: TestClient, **keys: object):
    return step(client, {"correct": {"reason": "agreed at the table", **keys}})


def test_the_referee_ends_a_round_by_hand_and_undoes_it(referee: TestClient) -> None:
    place_bigs(referee)
    response = correct(referee, end_round="white")
    assert response.status_code == 200, response.text
    shown = state(referee)["state"]
    assert shown["rounds"] == ["white"] and shown["turn"] == "black"
    assert referee.post("/api/match/undo", json={"seq": state(referee)["seq"]}).status_code == 200
    assert state(referee)["state"]["rounds"] == []


def test_a_drawn_round_and_a_shootoff_by_hand(referee: TestClient) -> None:
    place_bigs(referee)
    assert correct(referee, end_round="drawn").status_code == 200
    assert state(referee)["state"]["shootoff_due"] is True
    assert referee.post("/api/match/undo", json={"seq": state(referee)["seq"]}).status_code == 200
    assert correct(referee, shootoff=True).status_code == 200
    assert state(referee)["state"]["phase"] == "shootoff"


def test_a_stale_seq_is_409_and_changes_nothing(referee: TestClient) -> None:
    place_bigs(referee)
    seen = state(referee)["seq"]
    assert step(referee, {"shot": {"by": "black", "delta": {}}}).status_code == 200
    response = step(referee, {"correct": {"end_round": "black", "reason": "x"}}, seq=seen)
    assert response.status_code == 409
    assert state(referee)["state"]["rounds"] == []


def test_fewer_points_by_agreement_and_a_refusal_naming_the_rule(referee: TestClient) -> None:
    assert correct(referee, points_to_win_round=3).status_code == 200
    assert state(referee)["state"]["rules"]["points_to_win_round"] == 3
    response = correct(referee, rounds_to_win_game=9)
    assert response.status_code == 422, response.text
    assert "R19" in response.text and "fewer" in response.text


def test_a_handicap_changed_during_the_game_is_shown(referee: TestClient) -> None:
    response = correct(referee, handicaps={"black": {"line": "beginner"}})
    assert response.status_code == 200, response.text
    assert state(referee)["handicaps"]["black"]["line"] == "beginner"


def test_a_correction_that_empties_the_pot_ends_the_round(referee: TestClient) -> None:
    place_bigs(referee)
    response = correct(referee, board={"minus": 20}, score={"black": 1})
    assert response.status_code == 200, response.text
    shown = state(referee)["state"]
    assert shown["rounds"] == ["black"] and shown["pot"] == 19


def amend(client: TestClient, **keys: object):
    return client.post("/api/match/amend", json={"seq": state(client)["seq"], **keys})


def test_a_shot_says_a_big_skitt_flew_off_and_a_skitt_was_kept(referee: TestClient) -> None:
    place_bigs(referee)
    assert step(referee, {"shot": {"by": "black", "delta": {}}}).status_code == 200
    response = amend(referee, knocked_big="off", keep=True)
    assert response.status_code == 200, response.text
    shown = state(referee)["state"]
    assert shown["score"]["black"] == -1 and shown["big"]["black"] == "hand"
    assert shown["kept"] == 1 and shown["pot"] == 19
    assert referee.post("/api/match/undo", json={"seq": state(referee)["seq"]}).status_code == 200


def test_a_chain_made_by_a_moved_skitt_is_amended(referee: TestClient) -> None:
    place_bigs(referee)
    body = {"correct": {"board": {"white.red": 2, "white.yellow": 2, "white.blue": 1},
                        "reason": "set up"}}
    assert step(referee, body).status_code == 200
    shot = {"shot": {"by": "black", "delta": {"white.red": 1, "white.blue": -1}}}
    assert step(referee, shot).status_code == 200
    response = amend(referee, chain=["white.red", "white.yellow"], chain_from="white.blue")
    assert response.status_code == 200, response.text
    assert state(referee)["state"]["score"]["black"] == 3


def test_a_refused_amendment_names_the_rule(referee: TestClient) -> None:
    place_bigs(referee)
    assert step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).status_code == 200
    response = amend(referee, chain=["white.red", "white.yellow"], chain_from="white.blue")
    assert response.status_code == 422, response.text
    assert "R15" in response.text


def test_the_log_words_the_new_shot_inputs() -> None:
    from scorekeeper.shot import Shot
    from web.table.review import shot_words
    from web_common.i18n import language

    names = {"black": "Ann", "white": "Bo"}
    said = shot_words(Shot("black", big="off", keep=True), names)
    assert said == "Ann: big skitt off the board, a loose skitt kept for the next shot"
    chained = Shot("black", delta={"white.blue": -1}, chain=("white.red", "white.yellow"),
                   chain_from="white.blue")
    assert "the chain's skitt came from Bo's blue" in shot_words(chained, names)
    assert "Treffer auf dem Minusfeld" in shot_words(Shot("white", minus_hit=True), names,
                                                     language("de"))


def test_the_referee_is_told_which_order_of_effects_was_taken(referee: TestClient) -> None:
    place_bigs(referee)
    assert correct(referee, big={"black": "hand"}, board={"black.red": 2, "minus": 17},
                   score={"black": 4, "white": 3}).status_code == 200
    shot = {"shot": {"by": "black", "big": "white.red", "knocked_big": "white.yellow"}}
    assert step(referee, shot).status_code == 200, state(referee)
    shown = state(referee)
    assert shown["state"]["rounds"] == ["black"]
    said = [e["text"] for e in shown["words"]["effects"]]
    assert any(text.startswith("the order best for") and "yellow" in text for text in said), said
