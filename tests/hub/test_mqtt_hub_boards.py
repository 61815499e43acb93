"""``skitter hub boards add/revoke`` against a real Mosquitto running the shipped skitter.conf:
an added board gets in and may publish on its own topics only; a revoked one gets nothing."""

from __future__ import annotations

import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker, shipped_broker
from mqtt_sim import wait_until
from test_mqtt_security import Peer

from hub.board_credentials import read_credentials
from hub.broker_users import BrokerFiles, password_matches
from skitter_cli.main import main

pytestmark = pytest.mark.mqtt


def boards(etc: Path, out: Path, *args: str) -> int:
    return main(["hub", "boards", *args, "--passwd-file", str(etc / "skitter.passwd"),
                 "--acl-file", str(etc / "skitter.acl"),
                 *(["--out", str(out)] if args[0] == "add" else [])])


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = shipped_broker(tmp_path, users={})
    etc = tmp_path / "etc"
    assert boards(etc, tmp_path / "cards", "add", "--count", "3", "--broker",
                  broker.url) == 0
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def url(broker: Broker, card: Path) -> str:
    c = read_credentials(card)
    return (f"mqtt://{c['SKITTER_MQTT_USERNAME']}:{c['SKITTER_MQTT_PASSWORD']}"
            f"@127.0.0.1:{broker.port}")


def peer(broker: Broker, tmp_path: Path, who: str) -> Peer:
    p = Peer(url(broker, tmp_path / "cards" / f"{who}.env"), f"peer-{who}")
    reason = p.connect()
    assert not reason.is_failure, (who, reason)
    return p


def test_an_added_board_publishes_on_its_own_topics_only(tmp_path: Path, broker: Broker):
    hub, one, two = (peer(broker, tmp_path, w) for w in ("hub", "board-01", "board-02"))
    try:
        hub.subscribe("skitter/+/events")
        hub.subscribe("skitter/+/state")
        two.subscribe("skitter/board-02/command")
        one.publish("skitter/board-02/events", b'{"forged": "event"}')
        one.publish("skitter/board-02/state", b'{"forged": "state"}')
        one.publish("skitter/board-02/command", b'{"forged": "command"}')
        one.publish("skitter/board-01/events", b'{"genuine": true}')
        hub.publish("skitter/board-02/command", b'{"from": "hub"}')
        wait_until(lambda: hub.got(b'{"genuine": true}'), what="board-01's own event")
        wait_until(lambda: two.got(b'{"from": "hub"}'), what="the hub's command")
        assert not hub.got(b'{"forged": "event"}') and not hub.got(b'{"forged": "state"}')
        assert [p for _, p in two.received] == [b'{"from": "hub"}']
    finally:
        for p in (hub, one, two):
            p.close()


def test_a_revoked_board_cannot_connect_and_the_others_still_can(tmp_path: Path, broker: Broker):
    assert boards(tmp_path / "etc", tmp_path / "cards", "revoke", "board-02") == 0
    assert broker.pid is not None
    os.kill(broker.pid, signal.SIGHUP)  # systemctl reload mosquitto

    def refused() -> bool:
        p = Peer(url(broker, tmp_path / "cards" / "board-02.env"), "peer-revoked")
        try:
            return bool(p.connect().is_failure)
        finally:
            p.close()

    wait_until(refused, what="board-02 refused once the broker reloaded its users")
    peer(broker, tmp_path, "board-01").close()
    peer(broker, tmp_path, "board-03").close()


def test_add_writes_a_credentials_file_and_a_qr_code_per_board(tmp_path: Path) -> None:
    etc, out = tmp_path / "etc", tmp_path / "cards"
    assert boards(etc, out, "add", "table-7", "table-8", "--broker", "mqtt://hub.local:1883",
                  "--page-url", "http://{board}.venue.lan:8000/referee") == 0
    card = read_credentials(out / "table-7.env")
    assert card["SKITTER_BOARD_ID"] == "table-7" == card["SKITTER_MQTT_USERNAME"]
    assert card["SKITTER_MQTT_URL"] == "mqtt://hub.local:1883"
    assert stat.S_IMODE((out / "table-7.env").stat().st_mode) == 0o600
    users = BrokerFiles(etc / "skitter.passwd", etc / "skitter.acl").users()
    assert list(users) == ["hub", "table-7", "table-8"]
    assert password_matches(card["SKITTER_MQTT_PASSWORD"], users["table-7"])
    assert not password_matches(card["SKITTER_MQTT_PASSWORD"], users["table-8"])
    assert (out / "table-7-referee.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (out / "hub-referee.png").exists()
    assert "SKITTER_BOARD_ID" not in read_credentials(out / "hub.env")


def test_the_qr_code_holds_the_boards_referee_page(tmp_path: Path) -> None:
    import io

    import segno

    assert boards(tmp_path / "etc", tmp_path / "cards", "add", "board-05") == 0
    drawn = io.BytesIO()  # the same code, drawn the same way, is the same picture
    segno.make("http://board-05.local:8000/referee", error="m").save(
        drawn, kind="png", scale=8, border=2)
    assert (tmp_path / "cards" / "board-05-referee.png").read_bytes() == drawn.getvalue()


def test_count_numbers_new_boards_after_those_already_there(tmp_path: Path) -> None:
    etc, out = tmp_path / "etc", tmp_path / "cards"
    assert boards(etc, out, "add", "--count", "2") == 0
    assert boards(etc, out, "add", "--count", "2") == 0
    users = BrokerFiles(etc / "skitter.passwd", etc / "skitter.acl").users()
    assert list(users) == ["hub", "board-01", "board-02", "board-03", "board-04"]


def test_a_board_already_there_or_called_hub_is_refused_and_nothing_changes(
    tmp_path: Path, capsys
) -> None:
    etc, out = tmp_path / "etc", tmp_path / "cards"
    assert boards(etc, out, "add", "board-01") == 0
    before = (etc / "skitter.passwd").read_bytes()
    assert boards(etc, out, "add", "board-01") == 2
    assert "already a broker user (revoke it first): board-01" in capsys.readouterr().err
    assert boards(etc, out, "add", "hub") == 2
    assert "cannot be called 'hub'" in capsys.readouterr().err
    assert boards(etc, out, "add", "no/slash") == 2
    assert "board id 'no/slash' must be" in capsys.readouterr().err
    assert (etc / "skitter.passwd").read_bytes() == before


def test_revoking_a_board_that_is_not_there_says_so(tmp_path: Path, capsys) -> None:
    etc, out = tmp_path / "etc", tmp_path / "cards"
    assert boards(etc, out, "add", "board-01") == 0
    assert boards(etc, out, "revoke", "board-09") == 2
    assert "no board with a broker user: board-09" in capsys.readouterr().err


def test_the_acl_names_each_boards_topics_and_the_hubs(tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    assert boards(etc, tmp_path / "cards", "add", "board-01") == 0
    acl = (etc / "skitter.acl").read_text().split("\n\n")
    assert acl[1].splitlines() == [
        "user board-01",
        "topic write skitter/board-01/state",
        "topic write skitter/board-01/events",
        "topic write skitter/board-01/status",
        "topic write skitter/board-01/command/result",
        "topic write skitter/board-01/selftest",
        "topic read skitter/board-01/command",
    ]
    assert "user hub" in acl[0] and "topic write skitter/+/command" in acl[0]
