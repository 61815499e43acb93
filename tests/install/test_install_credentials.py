"""``install.sh --board-credentials FILE``: the board joins the tournament with the broker user
``skitter hub boards add`` made for it (staged with --root, as test_install.py does)."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from test_install import install, root, stubs  # noqa: F401 - fixtures

from hub.board_credentials import read_credentials
from skitter_cli.main import main
from web.config.settings import load_settings


@pytest.fixture
def card(tmp_path: Path) -> Path:
    etc = tmp_path / "mosquitto"
    assert main(["hub", "boards", "add", "board-07", "--broker", "mqtt://skitter-hub.local",
                 "--passwd-file", str(etc / "passwd"), "--acl-file", str(etc / "acl"),
                 "--out", str(tmp_path / "cards")]) == 0
    return tmp_path / "cards" / "board-07.env"


def test_the_board_id_and_broker_user_land_in_the_configuration(root, stubs, card):  # noqa: F811
    result = install(root, stubs, "--board-credentials", str(card))
    assert result.returncode == 0, result.stderr
    # as the Pi reads it: the password file at its place on the Pi
    text = (root / "etc/skitter/skitter.toml").read_text()
    staged = root / "etc/skitter/staged.toml"  # beside board.toml
    staged.write_text(text.replace("/etc/skitter/", f"{root}/etc/skitter/"))
    settings = load_settings(staged, environ={})
    assert settings.board_id == "board-07"
    assert settings.mqtt.url == "mqtt://skitter-hub.local"
    assert settings.mqtt.username == "board-07"
    assert 'password_file = "/etc/skitter/broker-password"' in text
    secret = root / "etc/skitter/broker-password"
    assert secret.read_text().strip() == read_credentials(card)["SKITTER_MQTT_PASSWORD"]
    assert stat.S_IMODE(secret.stat().st_mode) == 0o640
    assert "would run: chown root:skitter /etc/skitter/broker-password" in result.stdout
    assert settings.source == "mcp23017"  # the rest of the example configuration stays
    assert settings.mqtt.password == read_credentials(card)["SKITTER_MQTT_PASSWORD"]


def test_a_second_run_changes_nothing(root, stubs, card):  # noqa: F811
    install(root, stubs, "--board-credentials", str(card))
    before = (root / "etc/skitter/skitter.toml").read_text()
    result = install(root, stubs, "--board-credentials", str(card))
    assert result.returncode == 0, result.stderr
    assert (root / "etc/skitter/skitter.toml").read_text() == before
    assert "kept: board_id" in result.stdout and "kept: [mqtt]" in result.stdout


def test_a_board_already_configured_keeps_its_id(root, stubs, card):  # noqa: F811
    toml = root / "etc/skitter/skitter.toml"
    toml.parent.mkdir(parents=True)
    toml.write_text('board_id = "table-1"\n')
    result = install(root, stubs, "--board-credentials", str(card))
    assert result.returncode == 0, result.stderr
    assert tomllib.loads(toml.read_text())["board_id"] == "table-1"
    assert "kept: board_id" in result.stdout


@pytest.mark.parametrize(("line", "said"), [
    ("SKITTER_BOARD_ID=$(reboot)", "SKITTER_BOARD_ID must be"),
    ("PATH=/tmp", "line 7: unknown key 'PATH'"),
    ("SKITTER_MQTT_URL=http://hub", "SKITTER_MQTT_URL must be"),
])
def test_a_wrong_credentials_file_is_refused_naming_what_is_wrong(
        root, stubs, card, line, said):  # noqa: F811
    lines = card.read_text().splitlines()
    key = line.split("=")[0]
    lines = [line if row.startswith(key + "=") else row for row in lines]
    if not any(row == line for row in lines):
        lines.append(line)
    card.write_text("\n".join(lines) + "\n")
    result = install(root, stubs, "--board-credentials", str(card))
    assert result.returncode == 2
    assert said in result.stderr
    assert not (root / "etc/skitter/broker-password").exists()
