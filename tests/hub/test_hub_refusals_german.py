"""Issue 29: the hub's refusals a page shows to a person follow the request's language (the
page's ``?lang=``, else its Accept-Language): a stale change (409) and a board that is offline;
the players' names and what the tournament's log says stay as written."""

from __future__ import annotations

from fastapi.testclient import TestClient
from test_hub_app import pins  # noqa: F401  (the module's PIN fixture)
from test_hub_field_api import field_seq, hub, referee, six_players_paired  # noqa: F401

from hub.app import Hub


def test_a_stale_change_is_refused_in_german(referee: TestClient, hub: Hub) -> None:  # noqa: F811
    six_players_paired(referee, hub)
    seen = field_seq(referee)
    assert referee.post("/api/players/Fay/drop",
                        json={"reason": "ill", "seq": seen}).status_code == 200
    r = referee.post("/api/players/Eve/drop?lang=de", json={"reason": "ill", "seq": seen})
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail.startswith("das Turnier hat sich geändert, seit du nachgesehen hast (")
    assert "Fay" in detail
    r = referee.post("/api/players/Eve/drop", json={"reason": "ill", "seq": seen},
                     headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
    assert r.json()["detail"].startswith("das Turnier hat sich geändert")
    r = referee.post("/api/players/Eve/drop", json={"reason": "ill", "seq": seen})
    assert r.json()["detail"].startswith("the tournament changed since you looked (")


def test_an_offline_board_is_refused_in_german(referee: TestClient, hub: Hub) -> None:  # noqa: F811
    hub.tournament.store.set_board_status("b7", False, at=1.0)
    r = referee.post("/api/boards/b7/command?lang=de", json={"kind": "undo", "match_id": 1,
                                                             "seq": 1})
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == "Brett b7 ist offline"
