"""The hub's page and API: open to read, the tournament referee's PIN to change anything."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hub_support import play_game, play_round
from thread_hops import threaded_dependencies

from hub.app import STATIC, Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.page_files import COMMON
from web_common.pin import PinStore

PIN = "4321"


class FakeSender:
    """Stands in for the MQTT link: records what would be published."""

    def __init__(self) -> None:
        self.connected = True
        self.sent: list[dict[str, Any]] = []
        self.broken: list[str] = []

    def problems(self) -> list[str]:
        return list(self.broken)

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        self.sent.append({"board": board, "kind": kind, **kw})
        return f"cmd-{len(self.sent)}"


@pytest.fixture(scope="module")
def pins(tmp_path_factory: pytest.TempPathFactory) -> PinStore:
    store = PinStore(tmp_path_factory.mktemp("pin"))
    store.set(PIN)
    return store


@pytest.fixture
def hub(tmp_path: Path, pins: PinStore) -> Iterator[Hub]:
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    try:
        yield Hub(tournament, FakeSender(), pins, clock)
    finally:
        tournament.store.close()


@pytest.fixture
def hub_client(hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_hub_app(hub)) as c:
        yield c


@pytest.fixture
def hub_referee(hub_client: TestClient) -> TestClient:
    assert hub_client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    return hub_client


def board_online(hub: Hub, board: str, match_id: int = 1, seq: int = 3) -> None:
    store = hub.tournament.store
    store.set_board_status(board, True, at=1.0)
    store.set_board_state(board, {"match_id": match_id, "seq": seq, "names": {},
                                  "state": {"phase": "playing"}}, at=1.0)


def seen(c: TestClient) -> dict[str, int]:
    """A change's body with the tournament's version as the page shows it now."""
    return {"seq": c.get("/api/hub").json()["field_seq"]}


def test_the_page_and_its_files_come_from_the_hub_itself(hub_client: TestClient) -> None:
    page = hub_client.get("/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/hub.js">' in page.text
    for name in ("index.html", "hub.js", "hub.css"):
        text = (STATIC / name).read_text()
        assert "http://" not in text and "https://" not in text, name
    assert hub_client.get("/static/hub.js").status_code == 200


SCRIPT_TAG = re.compile(r"<script\b([^>]*)>")
IMPORTED = re.compile(r'^import\s[^;]*?\bfrom\s*"([^"]+)";', re.M)
FOLDERS = {"/static/": STATIC, "/shared/": COMMON}


def modules_of(page: str) -> dict[str, str]:
    """Every module a hub page loads, by address (its entry and what each imports, as the
    browser resolves them), with its file's text."""
    entries = [re.search(r'src="([^"]+)"', attrs) for attrs in SCRIPT_TAG.findall(page)]
    todo = [e.group(1) for e in entries if e]
    found: dict[str, str] = {}
    while todo:
        address = todo.pop()
        if address in found:
            continue
        folder = next(f for prefix, f in FOLDERS.items() if address.startswith(prefix))
        found[address] = (folder / address.rsplit("/", 1)[1]).read_text(encoding="utf-8")
        todo += [posixpath.normpath(posixpath.join(posixpath.dirname(address), spec))
                 for spec in IMPORTED.findall(found[address])]
    return found


@pytest.mark.parametrize("name", ["index.html", "bracket.html", "overlay.html",
                                  "overlay-standings.html"])
def test_each_hub_page_loads_one_module_and_gets_every_file_it_imports_as_it_is(
        hub_client: TestClient, name: str) -> None:
    """No bundle and no global: each page has one ``<script type="module">``; it and every
    module it imports (the hub's own, the board's from ``/shared/``) are served as the files
    they are, as JavaScript."""
    page = (STATIC / name).read_text(encoding="utf-8")
    scripts = [attrs.strip() for attrs in SCRIPT_TAG.findall(page)]
    assert len(scripts) == 1 and scripts[0].startswith('type="module" src="/static/'), scripts
    modules = modules_of(page)
    assert any(a.startswith("/shared/") for a in modules), modules
    for address, text in modules.items():
        answer = hub_client.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["content-type"] == "text/javascript; charset=utf-8", address
        assert answer.text == text, address


def test_scripts_are_javascript_whatever_the_machines_mime_table_says(
        hub_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.11 without ``/etc/mime.types`` calls ``.js`` ``application/javascript``."""
    import starlette.responses

    monkeypatch.setattr(starlette.responses, "guess_type",
                        lambda *_a, **_k: ("application/javascript", None))
    for address in ("/static/hub.js", "/shared/words.js"):
        assert hub_client.get(address).headers["content-type"].startswith("text/javascript")
    assert hub_client.get("/shared/common.js").status_code == 404  # no bundle any more
    assert hub_client.get("/shared/board.html").status_code == 404  # only what the hub uses


def test_anyone_may_read_the_tournament(hub_client: TestClient) -> None:
    body = hub_client.get("/api/hub").json()
    assert body["standings"] == [] and body["boards"] == [] and body["broker_connected"]


def test_registering_a_player_needs_the_referee(hub_client: TestClient) -> None:
    response = hub_client.post("/api/players", json={"name": "Ann"})
    assert response.status_code == 401


def test_the_pin_buys_an_httponly_strict_cookie(hub_client: TestClient) -> None:
    response = hub_client.post("/api/referee/login", json={"pin": PIN})
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert hub_client.get("/api/referee/session").json() == {"referee": True}


def test_a_wrong_pin_is_refused_then_slowed_down(hub_client: TestClient) -> None:
    assert hub_client.post("/api/referee/login", json={"pin": "0000"}).status_code == 401
    again = hub_client.post("/api/referee/login", json={"pin": PIN})
    assert again.status_code == 429 and again.headers["retry-after"] == "1"


def test_the_referee_registers_players_and_pairs_the_first_round(hub_referee: TestClient) -> None:
    for name in ("Ann", "Bob", "Cid"):
        assert hub_referee.post("/api/players", json={"name": name}).status_code == 200
    paired = hub_referee.post("/api/rounds", json=seen(hub_referee))
    assert paired.json() == {"round": 1, "pairings": 2}
    body = hub_referee.get("/api/hub").json()
    (first,) = body["rounds"]
    assert body["system"] == "round_robin" and body["planned_rounds"] == 3
    assert [p["bye"] for p in first["pairings"]] == [False, True]
    assert body["next_round_blocked"] == "round 1 still has games without a result"
    blocked = hub_referee.post("/api/rounds", json=seen(hub_referee))
    assert blocked.status_code == 409
    assert blocked.json()["detail"] == ("cannot pair the next round: round 1 still has games "
                                        "without a result")


def test_pairing_on_an_old_picture_of_the_field_is_refused_saying_what_changed(
        hub: Hub, hub_referee: TestClient) -> None:
    for name in ("Ann", "Bob", "Cid", "Dee"):
        hub_referee.post("/api/players", json={"name": name})
    chosen = hub_referee.post("/api/system", json={"system": "swiss", **seen(hub_referee)})
    assert chosen.status_code == 200
    assert hub_referee.post("/api/rounds", json=seen(hub_referee)).status_code == 200
    play_round(hub.tournament)
    # Two referees look at the hub page; one drops Dee, the other then pairs round 2 on the
    # picture in which Dee is still in.
    with TestClient(hub_referee.app) as other:
        assert other.post("/api/referee/login", json={"pin": PIN}).status_code == 200
        before = seen(other)
        dropped = hub_referee.post("/api/players/Dee/drop",
                                   json={"reason": "left", **seen(hub_referee)})
        assert dropped.status_code == 200, dropped.text
        stale = other.post("/api/rounds", json=before)
        assert stale.status_code == 409
        assert stale.json()["detail"] == (
            "the tournament changed since you looked (Dee dropped out after round 1); "
            "nothing was changed: look at it again and decide")
        assert hub.tournament.store.round_numbers() == [(1, "swiss")]
        # Looking again, they pair the field as it is: Dee is not in round 2.
        assert other.post("/api/rounds", json=seen(other)).json()["round"] == 2
        assert "Dee" not in {n for p in hub.tournament.store.pairings(2) for n in p.players()}
        # The first referee's press on the picture before round 2 is refused, not paired.
        late = hub_referee.post("/api/rounds", json=before | {"seq": before["seq"] + 1})
        assert late.status_code == 409 and "Round 2 paired" in late.json()["detail"]
    assert hub_referee.post("/api/rounds", json={}).status_code == 422  # the version is needed


def test_a_duplicate_player_is_refused_with_the_reason(hub_referee: TestClient) -> None:
    hub_referee.post("/api/players", json={"name": "Ann"})
    response = hub_referee.post("/api/players", json={"name": "Ann"})
    assert response.status_code == 422
    assert "already registered" in response.json()["detail"]


def test_a_game_can_be_put_on_a_board(hub_referee: TestClient, hub: Hub) -> None:
    for name in ("Ann", "Bob"):
        hub_referee.post("/api/players", json={"name": name})
    hub_referee.post("/api/rounds", json=seen(hub_referee))
    response = hub_referee.post("/api/rounds/1/tables/1/board",
                                json={"board": "board-7", **seen(hub_referee)})
    assert response.status_code == 200
    assert hub.tournament.store.pairings(1)[0].board == "board-7"
    bad = hub_referee.post("/api/rounds/1/tables/1/board",
                           json={"board": "no such/board", **seen(hub_referee)})
    assert bad.status_code == 422 and "board id 'no such/board' must be" in bad.json()["detail"]


def test_a_command_goes_to_an_online_board(hub_referee: TestClient, hub: Hub) -> None:
    board_online(hub, "board-1")
    response = hub_referee.post("/api/boards/board-1/command",
                            json={"kind": "undo", "match_id": 1, "seq": 3})
    assert response.status_code == 202
    assert hub.sender.sent == [  # type: ignore[attr-defined]
        {"board": "board-1", "kind": "undo", "match_id": 1, "correct": None, "seq": 3}
    ]


def test_a_correction_is_checked_before_it_is_sent(hub_referee: TestClient, hub: Hub) -> None:
    board_online(hub, "board-1")
    bad = hub_referee.post("/api/boards/board-1/command",
                       json={"kind": "correct", "correct": {"score": {"green": 2}}})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("correct.score key:")
    empty = hub_referee.post("/api/boards/board-1/command",
                         json={"kind": "correct", "correct": {"reason": "nothing"}})
    assert empty.status_code == 422
    assert empty.json()["detail"] == "a correction must set something (score, board, ...)"
    assert hub.sender.sent == []  # type: ignore[attr-defined]


def test_a_deeply_nested_correction_is_a_422_naming_the_depth(hub_referee: TestClient,
                                                              hub: Hub) -> None:
    board_online(hub, "board-1")
    deep = "[" * 1000 + "]" * 5000
    response = hub_referee.post("/api/boards/board-1/command",
                            content='{"kind": "correct", "correct": {"reason": ' + deep + "}}",
                            headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "16 levels" in response.text and "[[[[" not in response.text
    assert hub.sender.sent == []  # type: ignore[attr-defined]


def test_no_command_to_an_unknown_or_offline_board(hub_referee: TestClient, hub: Hub) -> None:
    assert hub_referee.post("/api/boards/ghost/command", json={"kind": "undo"}).status_code == 404
    board_online(hub, "board-2")
    hub.tournament.store.set_board_status("board-2", False, at=2.0)
    offline = hub_referee.post("/api/boards/board-2/command", json={"kind": "undo"})
    assert offline.status_code == 409 and offline.json()["detail"] == "board board-2 is offline"


def test_a_finished_matchs_log_is_served(hub_client: TestClient, hub: Hub) -> None:
    t = hub.tournament
    t.add_player("Ann")
    t.add_player("Bob")
    t.pair_next_round(["b1"])
    play_game(t, "b1", 1, ("Ann", "Bob"), black_wins=True)
    log = hub_client.get("/api/matches/b1/1").json()
    assert log["complete"] and log["counted"] and log["result"]["winner"] == "Ann"
    assert log["events"][3]["effects"][0].startswith("Ann +1")  # in the players' names
    assert log["events"][0]["text"] == "Ann's shot"
    assert log["events"][0]["event"] == {"shot": {"by": "black", "delta": {}}}  # the raw step
    assert hub_client.get("/api/matches/b1/2").status_code == 404
    # the same game reported by a board it is not paired to: shown, but not counted
    play_game(t, "b2", 1, ("Ann", "Bob"), black_wins=False)
    other = hub_client.get("/api/matches/b2/1").json()
    assert other["result"]["winner"] == "Bob" and other["counted"] is False


def test_the_live_socket_starts_with_the_whole_tournament(hub_client: TestClient) -> None:
    with hub_client.websocket_connect("/ws") as ws:
        snapshot = ws.receive_json()
    assert {"boards", "standings", "rounds", "games"} <= snapshot.keys()


def test_health_says_when_the_broker_is_unreachable(hub_client: TestClient, hub: Hub) -> None:
    assert hub_client.get("/healthz").status_code == 200
    hub.sender.connected = False
    response = hub_client.get("/healthz")
    assert response.status_code == 503 and response.json()["broker"] == "not connected"


def test_pairing_a_round_offers_each_board_its_game_in_the_tournaments_format(
    hub_referee: TestClient, hub: Hub
) -> None:
    fmt = {"points_to_win_round": 5, "rounds_to_win_game": 3, "flipping": False,
           "variant": "classic"}
    assert hub_referee.post("/api/format", json=fmt).json()["words"] == (
        "5 points a round, 3 round wins take the game, no flipping")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        hub_referee.post("/api/players", json={"name": name})
    board_online(hub, "board-1")
    board_online(hub, "board-2")
    assert hub_referee.post("/api/rounds", json=seen(hub_referee)).status_code == 200
    offers = [c for c in hub.sender.sent if c["kind"] == "offer"]  # type: ignore[attr-defined]
    assert [c["board"] for c in offers] == ["board-1", "board-2"]
    pairings = hub.tournament.store.pairings(1)
    for sent, p in zip(offers, pairings, strict=True):
        offer = sent["offer"]
        assert (offer.black, offer.white, offer.round, offer.table) == (p.black, p.white, 1,
                                                                        p.table)
        assert offer.format.to_json() == fmt
    assert hub_referee.get("/api/hub").json()["format"]["words"].startswith("5 points a round")
    # The format is fixed from round 1 on; a game moved to another board is offered there.
    late = hub_referee.post("/api/format", json={**fmt, "rounds_to_win_game": 1})
    assert late.status_code == 422 and "fixed once round 1 is paired" in late.json()["detail"]
    hub_referee.post("/api/rounds/1/tables/1/board", json={"board": "board-9",
                                                           **seen(hub_referee)})
    moved, offered = hub.sender.sent[-2:]  # type: ignore[attr-defined]
    # The board the game left lets its offer go; the new board is offered it.
    assert (moved["board"], moved["kind"]) == ("board-1", "withdraw")
    assert moved["withdraw"] == offers[0]["offer"].id
    assert (offered["board"], offered["kind"]) == ("board-9", "offer")


def test_a_game_given_its_result_by_hand_is_taken_back_from_its_board(
        hub: Hub, hub_referee: TestClient) -> None:
    for name in ("Ann", "Bob"):
        hub_referee.post("/api/players", json={"name": name})
    board_online(hub, "board-1")
    assert hub_referee.post("/api/rounds", json=seen(hub_referee)).status_code == 200
    sent: list[dict[str, Any]] = hub.sender.sent  # type: ignore[attr-defined]
    (offer,) = [c["offer"] for c in sent if c["kind"] == "offer"]
    entered = hub_referee.post("/api/rounds/1/tables/1/result", json={
        "winner": "Bob", "first_rounds": 0, "second_rounds": 1, "first_points": 2,
        "second_points": 5, "reason": "the board broke; played on paper", "version": ""})
    assert entered.status_code == 200, entered.text
    assert (sent[-1]["board"], sent[-1]["kind"], sent[-1]["withdraw"]) == (
        "board-1", "withdraw", offer.id)
    # Removed again, the game waits for a result: its board is offered it once more.
    version = hub_referee.get("/api/hub").json()["rounds"][0]["pairings"][0]["version"]
    removed = hub_referee.post("/api/rounds/1/tables/1/result/remove", json={
        "version": version, "reason": "entered for the wrong table"})
    assert removed.status_code == 200, removed.text
    assert (sent[-1]["board"], sent[-1]["kind"], sent[-1]["offer"]) == (
        "board-1", "offer", offer)


def test_a_format_the_boards_cannot_play_is_refused(hub_referee: TestClient) -> None:
    bad = hub_referee.post("/api/format", json={"points_to_win_round": 5, "rounds_to_win_game": 3,
                                            "flipping": True, "variant": "trio"})
    assert bad.status_code == 422 and "Trio has no blockades" in bad.json()["detail"]
    assert hub_referee.get("/api/hub").json()["format"] is None


def test_swiss_rounds_set_on_an_old_version_are_refused_saying_what_changed(
        hub_referee: TestClient, hub: Hub) -> None:
    hub_referee.post("/api/system", json={"system": "swiss", **seen(hub_referee)})
    for name in ("Ann", "Bob", "Cy", "Dee"):
        hub_referee.post("/api/players", json={"name": name})
    looked = seen(hub_referee)
    # Another referee plans the rounds first, at another screen.
    assert hub_referee.post("/api/swiss-rounds", json={"count": 3, **looked}).status_code == 200
    stale = hub_referee.post("/api/swiss-rounds", json={"count": 5, **looked})
    assert stale.status_code == 409
    assert "changed since you looked" in stale.json()["detail"]
    assert "3 Swiss rounds planned" in stale.json()["detail"]
    assert hub.tournament.planned_rounds() == 3
    assert hub_referee.post("/api/swiss-rounds", json={"count": 5}).status_code == 422
    now = hub_referee.post("/api/swiss-rounds", json={"count": 5, **seen(hub_referee)})
    assert now.status_code == 200 and now.json()["planned_rounds"] == 5


def test_a_game_moved_on_an_old_version_is_refused_saying_what_changed(
        hub_referee: TestClient, hub: Hub) -> None:
    for name in ("Ann", "Bob", "Cy", "Dee"):
        hub_referee.post("/api/players", json={"name": name})
    hub_referee.post("/api/rounds", json=seen(hub_referee))
    looked = seen(hub_referee)
    assert hub_referee.post("/api/rounds/1/tables/1/board",
                            json={"board": "board-7", **looked}).status_code == 200
    stale = hub_referee.post("/api/rounds/1/tables/1/board", json={"board": "board-8", **looked})
    assert stale.status_code == 409
    assert "table 1 of round 1 moved to board board-7" in stale.json()["detail"]
    assert hub.tournament.store.pairings(1)[0].board == "board-7"
    assert hub_referee.post("/api/rounds/1/tables/1/board",
                            json={"board": "board-8"}).status_code == 422
    now = hub_referee.post("/api/rounds/1/tables/1/board",
                           json={"board": "board-8", **seen(hub_referee)})
    assert now.status_code == 200 and hub.tournament.store.pairings(1)[0].board == "board-8"


def test_one_swiss_round_planned_is_said_in_the_singular(
        hub_referee: TestClient) -> None:
    hub_referee.post("/api/system", json={"system": "swiss", **seen(hub_referee)})
    for name in ("Ann", "Bob"):
        hub_referee.post("/api/players", json={"name": name})
    looked = seen(hub_referee)
    assert hub_referee.post("/api/swiss-rounds", json={"count": 1, **looked}).status_code == 200
    for lang, words in (("en", "1 Swiss round planned"), ("de", "1 Schweizer Runde geplant")):
        stale = hub_referee.post(f"/api/swiss-rounds?lang={lang}", json={"count": 2, **looked})
        assert stale.status_code == 409 and words in stale.json()["detail"], stale.text
        assert "rounds planned" not in stale.json()["detail"]


def test_a_pairing_system_chosen_on_an_old_version_is_refused_saying_what_changed(
        hub_referee: TestClient, hub: Hub) -> None:
    hub_referee.post("/api/players", json={"name": "Ann"})
    looked = seen(hub_referee)
    # Another referee chooses Swiss first, at another screen.
    assert hub_referee.post("/api/system", json={"system": "swiss", **looked}).status_code == 200
    stale = hub_referee.post("/api/system", json={"system": "round_robin", **looked})
    assert stale.status_code == 409, stale.text
    assert "Swiss pairing chosen" in stale.json()["detail"]
    assert hub.tournament.system == "swiss"
    assert hub_referee.post("/api/system", json={"system": "round_robin"}).status_code == 422


def test_no_hub_request_hops_to_a_thread_for_the_hubs_own_state(hub_client: TestClient) -> None:
    """The hub, the login record are read off the app in the event loop; the referee's session
    check alone runs on a worker thread (it may read the PIN file): tests/api/test_thread_hops.py
    says the same of the board."""
    hops = threaded_dependencies(hub_client.app)  # type: ignore[arg-type]
    assert {hop.split(" ")[0] for hop in hops} == {"require_referee"}, sorted(hops)
