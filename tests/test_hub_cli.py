"""``skitter hub`` refuses bad options with a message naming them, before it serves anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from web.cli.main import main


def test_hub_refuses_a_broker_url_that_is_not_mqtt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hub", "--mqtt", "http://broker", "--db", str(tmp_path / "hub.db")])
    assert code == 2
    assert "mqtt:// or mqtts://" in capsys.readouterr().err
    assert not (tmp_path / "hub.db").exists()


def test_hub_refuses_a_pin_that_is_too_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hub", "--mqtt", "mqtt://broker", "--db", str(tmp_path / "hub.db"),
                 "--pin", "12"])
    assert code == 2
    assert "4 to 12 digits" in capsys.readouterr().err


def test_hub_is_a_skitter_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["hub", "--help"])
    assert "--mqtt URL" in capsys.readouterr().out
