"""``skitter ... --help`` speaks the command's language (``skitter_cli.language`` decides)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skitter_cli.main import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def german(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("SKITTER_CONFIG", str(tmp_path / "none.toml"))


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 0
    return capsys.readouterr().out


def test_serve_help_is_german_under_a_german_locale(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    german(monkeypatch, tmp_path)
    out = help_of(["serve", "--help"], capsys)
    assert out.startswith("Aufruf: skitter serve")
    assert "Den Punktezähler starten" in out
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    assert "Konfiguration überschreiben (hat Vorrang vor der Datei):" in out
    assert "Sensorquellen: sim, physics, mcp23017, serial, serial:PORT oder replay:FILE" in out
    assert "Run the scorekeeper" not in out and "options:" not in out


def test_the_command_list_is_german_and_english_under_c(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    german(monkeypatch, tmp_path)
    out = help_of(["--help"], capsys)
    assert "Punktezähler für Skitter" in out and "BEFEHL" in out
    monkeypatch.setenv("LANG", "C")
    out = help_of(["--help"], capsys)
    assert "Scorekeeper for skitter, the magnetic flicking game." in out
    assert "options:" in out


def test_the_hub_help_is_german_from_the_shell(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="de_DE.UTF-8", SKITTER_CONFIG=str(tmp_path / "none.toml"))
    done = subprocess.run([sys.executable, "-m", "skitter_cli.main", "hub", "--help"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60, check=True)
    assert "Die Turnierzentrale starten" in done.stdout
    assert "die SQLite-Datei der" in done.stdout and "Aufruf: skitter hub" in done.stdout


def test_each_override_names_what_it_takes_not_its_internal_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("SKITTER_CONFIG", str(tmp_path / "none.toml"))
    out = help_of(["serve", "--help"], capsys)
    assert "OPT_" not in out, out
    for shown in ("--port PORT", "--host ADDRESS", "--data-dir DIR", "--db FILE",
                  "--source SOURCE", "--mqtt URL", "--settle-ms MS", "--board-id NAME"):
        assert shown in out, shown


def test_a_command_imports_its_own_module_only_and_skitter_alone_lists_every_command() -> None:
    """``skitter serve`` does not import the hub's command (nor the hub, nor its pairing
    library); ``skitter --help`` lists every command with its help."""
    probe = ("import sys; from skitter_cli.main import build_parser; "
             "build_parser(sys.argv[1:]); "
             "print(' '.join(m for m in ('skitter_cli.hub', 'skitter_cli.log', 'networkx', "
             "'skitter_cli.serve') if m in sys.modules))")
    run = [sys.executable, "-c", probe]
    asked = subprocess.run([*run, "serve", "--help"], capture_output=True, text=True,
                           check=True).stdout.split()
    assert asked == ["skitter_cli.serve"], asked
    everything = subprocess.run([*run, "--help"], capture_output=True, text=True,
                                check=True).stdout.split()
    assert everything == ["skitter_cli.hub", "skitter_cli.log", "networkx", "skitter_cli.serve"]
    listed = build_parser(["--help"]).format_help()
    for name in COMMANDS:
        assert name in listed, name
