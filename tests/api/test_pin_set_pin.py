"""``skitter set-pin``: asks twice, writes the hash, and keeps the config file's comments."""

from __future__ import annotations

import argparse
import stat
import tomllib

import pytest

from skitter_cli import main as cli
from skitter_cli import set_pin as cmd_set_pin
from web_common.pin import PIN_FILE_NAME, PinStore, hash_pin, verify_pin

VENUE = """\
# Skitter at the club: edit and restart the service.
host = "0.0.0.0"   # reachable from the tablets

# Tournament broker
[mqtt]
url = "mqtt://broker.local"  # the club's Pi 4
"""


@pytest.fixture(autouse=True)
def no_default_config(monkeypatch, tmp_path):
    monkeypatch.setenv("SKITTER_CONFIG", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SKITTER_DATA", raising=False)
    monkeypatch.setattr("web.config.settings.DEFAULT_CONFIG_PATH", tmp_path / "no-default.toml")


def set_pin(argv: list[str], answers: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skitter set-pin")
    cmd_set_pin.add_arguments(parser)
    replies = iter(answers or [])
    return cmd_set_pin.run(parser.parse_args(argv), ask=lambda prompt: next(replies))


def test_set_pin_command_is_registered():
    assert cli.COMMANDS["set-pin"] == cmd_set_pin.__name__


def test_pin_is_asked_twice_and_stored_as_a_hash(tmp_path, capsys):
    assert set_pin(["--data-dir", str(tmp_path)], ["482916", "482916"]) == 0
    assert PinStore(tmp_path).verify("482916")
    path = tmp_path / PIN_FILE_NAME
    assert "482916" not in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert f"referee PIN saved in {path}" in capsys.readouterr().out


def test_differing_answers_change_nothing(tmp_path, capsys):
    PinStore(tmp_path).set("1111")
    assert set_pin(["--data-dir", str(tmp_path)], ["482916", "482917"]) == 2
    assert "the two PINs differ; nothing was changed" in capsys.readouterr().err
    assert PinStore(tmp_path).verify("1111")


def test_bad_pin_is_refused(tmp_path, capsys):
    assert set_pin(["--data-dir", str(tmp_path), "--pin", "12"]) == 2
    assert "must have 4 to 12 digits, got 2" in capsys.readouterr().err
    assert not (tmp_path / PIN_FILE_NAME).exists()


def test_data_dir_comes_from_the_config_file(tmp_path):
    config = tmp_path / "skitter.toml"
    config.write_text(f'data_dir = "{tmp_path / "state"}"\n')
    set_pin(["--config", str(config), "--pin", "2024"])
    assert PinStore(tmp_path / "state").verify("2024")


def test_config_gets_pin_hash_and_keeps_its_comments(tmp_path):
    config = tmp_path / "skitter.toml"
    config.write_text(VENUE)
    config.chmod(0o640)
    argv = ["--config", str(config), "--data-dir", str(tmp_path / "d"), "--pin", "7777"]
    assert set_pin(argv) == 0
    text = config.read_text()
    for line in VENUE.splitlines():
        assert line in text
    data = tomllib.loads(text)
    assert verify_pin("7777", data["pin_hash"])
    assert data["mqtt"] == {"url": "mqtt://broker.local"}  # pin_hash stayed top-level
    assert stat.S_IMODE(config.stat().st_mode) == 0o640


def test_existing_pin_hash_in_the_config_is_replaced(tmp_path):
    config = tmp_path / "skitter.toml"
    config.write_text(f'# fixed PIN\npin_hash = "{hash_pin("1234")}"  # set by set-pin\n')
    set_pin(["--config", str(config), "--data-dir", str(tmp_path), "--pin", "5678"])
    text = config.read_text()
    assert "# fixed PIN" in text and "# set by set-pin" in text
    assert text.count("pin_hash") == 1
    assert verify_pin("5678", tomllib.loads(text)["pin_hash"])


def test_config_in_effect_holding_a_pin_hash_is_updated_too(tmp_path, monkeypatch):
    # Otherwise the config's old hash would still win and the new PIN would not work.
    config = tmp_path / "skitter.toml"
    config.write_text(f'pin_hash = "{hash_pin("1234")}"\n')
    monkeypatch.setenv("SKITTER_CONFIG", str(config))
    set_pin(["--data-dir", str(tmp_path), "--pin", "8642"])
    assert verify_pin("8642", tomllib.loads(config.read_text())["pin_hash"])


def test_config_in_effect_without_pin_hash_is_left_alone(tmp_path, monkeypatch):
    config = tmp_path / "skitter.toml"
    config.write_text(VENUE)
    monkeypatch.setenv("SKITTER_CONFIG", str(config))
    set_pin(["--data-dir", str(tmp_path), "--pin", "8642"])
    assert config.read_text() == VENUE


def test_bad_config_is_reported(tmp_path, capsys):
    config = tmp_path / "skitter.toml"
    config.write_text("port = 'x'\n")
    assert set_pin(["--config", str(config), "--pin", "1234"]) == 2
    assert "port: expected an integer" in capsys.readouterr().err
