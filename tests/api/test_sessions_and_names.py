"""Sessions, framing and names (issue 22, item 8).

A PIN change ends every old session; no page may be framed; the session cookie is named and
bound per port; sessions survive a restart of ``skitter serve`` while a PIN change or a
logout still ends them; names that differ only by invisible characters are one player on
the board and on the hub alike (one normalisation: ``scorekeeper.names``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hub_support import play_game
from serve_proc import PIN as SERVE_PIN
from serve_proc import ROOT, ServeProcess
from web_helpers import PIN, state

from scorekeeper.clock import FakeClock
from scorekeeper.names import name_key, normal_name
from skitter_cli import set_pin as cmd_set_pin
from web_common.auth import cookie_name

NEW_PIN = "975310"


def set_pin_cli(data_dir: Path, pin: str) -> None:
    """``skitter set-pin --data-dir ... --pin ...``, in process."""
    parser = argparse.ArgumentParser(prog="skitter set-pin")
    cmd_set_pin.add_arguments(parser)
    assert cmd_set_pin.run(parser.parse_args(["--data-dir", str(data_dir), "--pin", pin]),
                           ask=lambda prompt: pin) == 0


def changes(client: TestClient) -> int:
    """The status of one change made with the client's cookie (a pause: nothing logged)."""
    return client.post("/api/referee/pause",
                       json={"seq": state(client)["seq"], "paused": False}).status_code


# -- the PIN ends sessions -------------------------------------------------------------------


def test_a_pin_change_while_serving_ends_every_old_session(
    referee: TestClient, tmp_path: Path
) -> None:
    other = TestClient(referee.app)
    assert other.post("/api/referee/login", json={"pin": PIN}).is_success
    assert changes(referee) == 200 and changes(other) == 200
    set_pin_cli(tmp_path / "data", NEW_PIN)  # the fixtures' PIN lives in tmp_path/data
    assert changes(referee) == 401
    assert changes(other) == 401
    assert referee.get("/api/referee/session").json() == {"referee": False}
    assert referee.post("/api/referee/login", json={"pin": PIN}).status_code == 401
    referee.app.state.auth.throttle.succeeded("testclient")  # the old PIN's try forgotten
    assert referee.post("/api/referee/login", json={"pin": NEW_PIN}).is_success
    assert changes(referee) == 200


def test_a_logout_ends_that_session_only(referee: TestClient) -> None:
    token = referee.cookies.get(cookie_name(None))
    other = TestClient(referee.app)
    assert other.post("/api/referee/login", json={"pin": PIN}).is_success
    assert referee.post("/api/referee/logout").is_success
    stolen = TestClient(referee.app)
    stolen.cookies.set(cookie_name(None), token)  # the cookie kept after logging out
    assert changes(stolen) == 401
    assert changes(other) == 200


# -- framing ---------------------------------------------------------------------------------


PAGES = ["/", "/tablet", "/referee", "/board", "/stats", "/static/tablet.js", "/api/state",
         "/docs", "/no-such-page"]


@pytest.mark.parametrize("path", PAGES)
def test_no_page_of_the_board_may_be_framed(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["x-frame-options"] == "DENY", path
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path


def test_no_page_of_the_hub_may_be_framed_and_refusals_say_so_too(
    hub_client: TestClient, client: TestClient
) -> None:
    for r in (hub_client.get("/"), hub_client.get("/api/hub"),
              client.post("/api/match/undo", content=b"x" * 20_000,
                          headers={"content-type": "application/json"})):
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


# -- the cookie is per port ------------------------------------------------------------------


@pytest.fixture
def two_ports(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two scorekeepers on ports 8001 and 8002 of one host, sharing even the data directory
    (the worst case: the same secret signs both servers' sessions)."""
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    clock = FakeClock(1000.0)
    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    tables, clients = [], []
    for port in (8001, 8002):
        broadcaster = Broadcaster()
        table = open_table(tmp_path / f"{port}.db", "sim", clock=clock, wall=clock,
                           publish=broadcaster.publish)
        app: FastAPI = create_app(table, Auth.create(pins, clock), broadcaster,
                                  poll_interval=None)
        tables.append(table)
        clients.append(TestClient(app, base_url=f"http://127.0.0.1:{port}"))
    try:
        yield clients[0], clients[1]
    finally:
        for table in tables:
            table.close()


def test_the_session_cookie_is_named_and_bound_per_port(
    two_ports: tuple[TestClient, TestClient],
) -> None:
    a, b = two_ports
    r = a.post("/api/referee/login", json={"pin": PIN})
    assert r.is_success
    assert "skitter_session_8001=" in r.headers["set-cookie"]
    token = a.cookies.get("skitter_session_8001")
    assert token and changes(a) == 200
    # the browser sends the host's cookies to port 8002 too: not a session there
    b.cookies.set("skitter_session_8001", token)
    assert changes(b) == 401
    # nor when renamed as 8002's own
    b.cookies.clear()
    b.cookies.set("skitter_session_8002", token)
    assert changes(b) == 401
    assert b.get("/api/referee/session").json() == {"referee": False}


# -- a restart keeps sessions; a PIN change and a logout still end them -----------------------


def test_sessions_survive_a_restart_of_skitter_serve_but_not_a_pin_change(
    tmp_path: Path,
) -> None:
    first = ServeProcess(tmp_path)
    try:
        first.wait_ready()
        first.login()
        assert first.cookie.startswith(f"skitter_session_{first.port}=")
        logged_out = ServeProcess.__new__(ServeProcess)  # a second tablet, logged out later
        vars(logged_out).update(vars(first))
        logged_out.login()
        assert logged_out.request("POST", "/api/referee/logout", {})[0] == 200
        first.step({"shot": {"by": "black", "big": "placed"}})
    finally:
        first.stop()
    second = ServeProcess(tmp_path, pin=None, port=first.port)
    try:
        second.wait_ready()
        second.cookie = first.cookie  # the tablet's cookie from before the restart
        assert second.get("/api/referee/session") == {"referee": True}
        second.step({"shot": {"by": "white", "big": "placed"}})
        second.cookie = logged_out.cookie  # a logout holds over the restart
        assert second.get("/api/referee/session") == {"referee": False}
        second.cookie = first.cookie
        subprocess.run(
            [sys.executable, "-m", "skitter_cli.main", "set-pin", "--data-dir", str(tmp_path),
             "--pin", NEW_PIN], cwd=ROOT, check=True, capture_output=True, timeout=60)
        assert second.get("/api/referee/session") == {"referee": False}
        status, _ = second.request("POST", "/api/match/undo", {"seq": second.seq or 0})
        assert status == 401
    finally:
        second.stop()
    assert SERVE_PIN != NEW_PIN


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["Ann\u200b", "\u200bAnn", "An\u00adn", "\ufeffAnn",
                                   "Ａｎｎ", " Ann  "])
def test_a_name_differing_only_by_invisible_characters_is_the_same_name(typed: str) -> None:
    assert normal_name(typed) == "Ann"
    assert name_key(typed) == name_key("ann")


@pytest.mark.parametrize("typed", ["\u200b", "\u200b \u2060", "Ann\u202e", "Ann\x07"])
def test_a_name_of_nothing_visible_or_with_controls_is_refused(typed: str) -> None:
    with pytest.raises(ValueError, match="must not"):
        normal_name(typed)


def test_the_board_keeps_a_name_without_its_invisible_characters(referee: TestClient) -> None:
    r = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                             "names": {"black": "Ann\u200b", "white": "Bo"}})
    assert r.status_code == 200, r.text
    assert r.json()["names"]["black"] == "Ann"
    refused = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                                   "names": {"black": "\u200b\u200c"}})
    assert refused.status_code == 422
    assert "names" in refused.json()["field"]


def test_the_hub_takes_an_invisible_variant_of_a_registered_name_as_that_player(
    hub_client: TestClient, tmp_path: Path
) -> None:
    assert hub_client.post("/api/referee/login", json={"pin": PIN}).is_success
    assert hub_client.post("/api/players", json={"name": "Ann"}).is_success
    again = hub_client.post("/api/players", json={"name": "Ann\u200b"})
    assert again.status_code == 422
    assert "already registered" in again.json()["detail"]
    assert hub_client.post("/api/players", json={"name": "Ａｎｎ"}).status_code == 422
    r = hub_client.post("/api/players", json={"name": "Bo\u2060b"})
    assert r.json() == {"player": "Bob"}
    # a board's result names "Ann\u200b": it is Ann's game
    tournament = hub_client.app.state.hub.tournament
    tournament.pair_next_round(["b1"])
    play_game(tournament, "b1", 1, ("Ann\u200b", "Bob"), black_wins=True)
    (game,) = tournament.store.games()
    assert (game.round, game.result.winner) == (1, "Ann")
    assert [s.won for s in tournament.standings() if s.player == "Ann"] == [1]


def test_the_stream_overlays_alone_may_be_framed(hub_client: TestClient,
                                                 client: TestClient) -> None:
    """A streaming tool may lay the overlay over its picture in a frame: the overlay has
    nothing to click, so framing it cannot score a step. Its scripts stay unframeable, and
    so does every other page of the same servers."""
    for r in (client.get("/overlay"), hub_client.get("/overlay?table=1"),
              hub_client.get("/overlay/standings")):
        assert r.status_code == 200
        assert "x-frame-options" not in r.headers
        assert "frame-ancestors" not in r.headers.get("content-security-policy", "")
    for r in (client.get("/overlay/x"), client.post("/overlay"), hub_client.get("/overlays"),
              client.get("/static/overlay.js")):
        assert r.headers["x-frame-options"] == "DENY"
