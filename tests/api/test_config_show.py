"""``skitter config --show``: the effective configuration, masked, with each value's origin."""

from __future__ import annotations

import argparse
import json
import tomllib

import pytest

from skitter_cli import config_cmd as cmd_config
from skitter_cli import main as cli


def main(argv: list[str]) -> int:
    """Run ``skitter config ...`` alone (other commands may be missing while they are built)."""
    assert argv[0] == "config"
    parser = argparse.ArgumentParser(prog="skitter config")
    cmd_config.add_arguments(parser)
    return cmd_config.run(parser.parse_args(argv[1:]))


def test_config_command_is_registered():
    assert cli.COMMANDS["config"] == cmd_config.__name__


@pytest.fixture
def config_file(tmp_path, monkeypatch):
    """A configuration file, and an environment that names no other."""
    monkeypatch.delenv("SKITTER_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SKITTER_DATA", raising=False)
    path = tmp_path / "skitter.toml"
    path.write_text(
        'host = "0.0.0.0"\nport = 8080\n\n[mqtt]\nurl = "mqtt://ref:topsecret@broker"\n'
    )
    return path


def test_show_prints_values_with_their_origins(config_file, capsys):
    assert main(["config", "--show", "--config", str(config_file), "--port", "9000"]) == 0
    out = capsys.readouterr().out
    assert f"read from {config_file}" in out
    assert 'host = "0.0.0.0" # file' in out
    assert "port = 9000 # command line" in out
    assert 'source = "sim" # default' in out
    assert "# profile is not set: the board profile shipped with skitter (default)" in out


def test_show_masks_the_password(config_file, capsys):
    main(["config", "--show", "--config", str(config_file)])
    out = capsys.readouterr().out
    assert "topsecret" not in out
    assert 'password = "********" # file' in out
    assert 'url = "mqtt://broker" # file' in out


def test_show_output_is_valid_toml(config_file, capsys):
    main(["config", "--config", str(config_file)])
    shown = tomllib.loads(capsys.readouterr().out)
    assert shown["port"] == 8080 and shown["mqtt"]["username"] == "ref"


def test_show_as_json(config_file, capsys):
    main(["config", "--json", "--config", str(config_file)])
    body = json.loads(capsys.readouterr().out)
    assert body["config_file"] == str(config_file)
    assert body["settings"]["host"] == {"value": "0.0.0.0", "from": "file"}
    assert body["settings"]["mqtt.password"]["value"] == "********"


def test_invalid_configuration_exits_2_with_the_key_named(config_file, capsys):
    config_file.write_text("port = 99999\n")
    assert main(["config", "--show", "--config", str(config_file)]) == 2
    err = capsys.readouterr().err
    assert "configuration error: port: must be between 1 and 65535, got 99999" in err


def test_environment_names_the_file(config_file, monkeypatch, capsys):
    monkeypatch.setenv("SKITTER_CONFIG", str(config_file))
    main(["config", "--show"])
    assert "port = 8080 # file" in capsys.readouterr().out
