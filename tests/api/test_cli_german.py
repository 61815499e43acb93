"""Issue 29: the ``skitter`` command speaks the configuration's ``language`` when the
configuration sets it, else the person's locale (LC_ALL, LC_MESSAGES, LANG), else English."""

from __future__ import annotations

import pytest
from test_pin_set_pin import no_default_config, set_pin  # noqa: F401  (no stray config)

from skitter_cli.language import command_language, from_locale


@pytest.mark.parametrize(("environ", "code"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT.UTF-8@euro"}, "de"),
    ({"LC_ALL": "de_CH.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
    ({"LC_MESSAGES": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, None),
    ({"LANG": "POSIX"}, None),
    ({"LANG": "fr_FR.UTF-8"}, None),
    ({}, None),
])
def test_the_locale_names_the_language(environ: dict[str, str], code: str | None) -> None:
    assert from_locale(environ) == code


def test_without_a_configured_language_the_locale_decides() -> None:
    assert command_language(None, {"LANG": "de_DE.UTF-8"}).code == "de"
    assert command_language(None, {"LANG": "C"}).code == "en"


def test_set_pin_speaks_german_for_a_german_locale(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert set_pin(["--data-dir", str(tmp_path)], ["482916", "482916"]) == 0
    assert "Schiedsrichter-PIN gespeichert in " in capsys.readouterr().out
    assert set_pin(["--data-dir", str(tmp_path)], ["482916", "482917"]) == 2
    assert "die beiden PINs sind verschieden; es wurde nichts geändert" in capsys.readouterr().err


def test_the_configured_language_wins_over_the_locale(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    config = tmp_path / "skitter.toml"
    config.write_text('language = "de"\n', encoding="utf-8")
    assert set_pin(["--data-dir", str(tmp_path), "--config", str(config)],
                   ["482916", "482916"]) == 0
    out = capsys.readouterr().out
    assert "Schiedsrichter-PIN gespeichert in " in out
    assert "pin_hash geschrieben in " in out
