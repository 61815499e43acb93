"""Issue 29: every ``skitter`` command's messages in German for a German locale
(``LANG=de_DE.UTF-8``, or ``LANGUAGE=de``) or a configuration with ``language = "de"``:
results, errors and prompts (the --help: tests/api/test_cli_help_words.py)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from serve_proc import free_port, start, stop, wait_ready

from firmware_bridge.profile import default_profile_path
from scorekeeper.store import MatchStore
from skitter_cli.main import main
from web_common.i18n import language

SETUP = {"first": "black", "big": {"black": "center", "white": "center"}}


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A German locale and no configuration file anywhere."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "SKITTER_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("SKITTER_DATA", str(tmp_path / "data"))
    monkeypatch.setattr("web.config.settings.DEFAULT_CONFIG_PATH", tmp_path / "none.toml")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "skitter.db"
    with MatchStore(path) as store:
        m = store.create_match({"variant": "classic"}, SETUP, {"black": "Ann", "white": "Bo"},
                               at=1_700_000_000.0)
        store.append(m, {"shot": {"by": "black", "delta": {"white.red": 1}}}, at=1_700_000_001.0)
        store.create_match({"variant": "classic"}, SETUP, {}, at=1_700_000_100.0)
    return path


def test_log_lists_exports_and_refuses_in_german(german, db, tmp_path, capsys) -> None:
    assert main(["log", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Ann gegen Bo  (classic, 1 Schritt)" in out
    assert "Erster Spieler gegen Zweiter Spieler" in out
    assert main(["log", "--db", str(db), "--export", "newest"]) == 1
    assert "--export erwartet eine Partie-Nummer oder 'latest', nicht 'newest'" in \
        capsys.readouterr().err
    export = tmp_path / "m.jsonl"
    assert main(["log", "--db", str(db), "--export", "1", "-o", str(export)]) == 0
    assert f"Partie 1 (1 Schritt) exportiert nach {export}" in capsys.readouterr().out
    assert main(["log", "--db", str(db), "--export", "99"]) == 1
    assert capsys.readouterr().err.startswith("skitter log: keine Partie 99 in ")


def test_the_configured_language_speaks_over_an_english_locale(
        german, db, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert main(["log", "--db", str(db)]) == 0
    assert "Ann vs Bo" in capsys.readouterr().out
    config = tmp_path / "skitter.toml"
    config.write_text('language = "de"\n', encoding="utf-8")
    assert main(["log", "--db", str(db), "--config", str(config)]) == 0
    assert "Ann gegen Bo" in capsys.readouterr().out
    assert main(["stats", "--db", str(tmp_path / "none.db"), "--config", str(config)]) == 1
    assert "skitter stats: kein Spielprotokoll unter " in capsys.readouterr().err


def test_language_names_german_before_an_english_lang(german, db, monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.setenv("LANGUAGE", "de:en")
    assert main(["log", "--db", str(db)]) == 0
    assert "Ann gegen Bo" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "C")  # as for gettext: the C locale ignores LANGUAGE
    assert main(["log", "--db", str(db)]) == 0
    assert "Ann vs Bo" in capsys.readouterr().out


def test_stats_speak_german(german, db, capsys) -> None:
    assert main(["stats", "--db", str(db)]) == 0
    assert "noch keine beendeten Partien zwischen Spielern mit Namen" in capsys.readouterr().out
    assert main(["stats", "--db", str(db), "--player", "Zoe"]) == 1
    assert "keine beendete Partie eines Spielers namens 'Zoe'" in capsys.readouterr().err


def test_the_stats_table_heads_every_column_in_german(capsys) -> None:
    from skitter_cli.stats import _table

    row = {"name": "Ann", "rating": 3.44, "matches": 1, "matches_won": 1, "rounds_won": 1,
           "points_per_shot": 0.5}
    assert _table(SimpleNamespace(table=lambda: [row]), language("de")) == 0  # type: ignore[arg-type]
    head = capsys.readouterr().out.splitlines()[0].split()
    assert head == ["Spieler", "Wertung", "Partien", "Gewonnen", "Runden", "Punkte/Schuss"]


def test_rules_check_counts_in_german(german, tmp_path, capsys) -> None:
    assert main(["rules-check", str(tmp_path / "missing.json")]) == 2
    out = capsys.readouterr().out
    assert "missing.json: keine solche Datei und kein solcher Ordner" in out
    assert "keine Szenariodateien gefunden in " in out and "0 bestanden, 1 nicht bestanden" in out


def test_the_self_test_walks_and_prints_its_sheet_in_german(german, tmp_path, capsys) -> None:
    code = main(["selftest", "--source", "sim", "--step-timeout", "0", "--board-id", "board-9",
                 "--data-dir", str(tmp_path / "data")])
    assert code == 1
    out = capsys.readouterr().out
    assert ("[1/" in out and "] Nacheinander einen Skitt auf jeden Punkt legen und jedes Mal "
            "wieder abheben: Feld Rot des ersten Spielers" in out)
    assert "  weiter: die Zellen 0, 1, 2" in out
    assert "skitter Selbsttest des Bretts: board-9" in out and "Ergebnis: NICHT BESTANDEN" in out
    assert "als letzter Selbsttest des Bretts gespeichert: " in out


def test_the_live_frame_and_the_audit_speak_german(german, db, capsys) -> None:
    assert main(["sensors", "--source", "sim", "--once"]) == 0
    out = capsys.readouterr().out
    assert "· Quelle sim · Verbindung verbunden" in out and "Felder:" in out
    assert "Brett in Ruhe" in out or "Brett kommt zur Ruhe" in out
    assert main(["sensors", "--audit", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Sensorprüfung über 1 Partie · I2C-Fehler: 0\n")
    assert "Nachträge je Feld" in out and "Feld Rot des zweiten Spielers: 0 von 0" in out


def test_calibrate_asks_and_quits_in_german(german, tmp_path, monkeypatch, capsys) -> None:
    profile = tmp_path / "board.toml"
    shutil.copy(default_profile_path(), profile)
    prompts: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt="": prompts.append(prompt) or "q")
    assert main(["calibrate", "--source", "sim", "--profile", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "wird kalibriert, Quelle sim." in out and "nichts geschrieben" in out
    assert prompts[0].endswith("leeren und Enter drücken (s = Feld überspringen, q = beenden): ")


def test_config_and_hub_errors_speak_german(german, tmp_path, capsys) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("port = 'x'\n", encoding="utf-8")
    assert main(["config", "--config", str(broken)]) == 2
    assert capsys.readouterr().err.startswith("skitter: Fehler in der Konfiguration: ")
    assert main(["hub", "--mqtt", "mqtt://127.0.0.1", "--port", "0"]) == 2
    assert "--port muss zwischen 1 und 65535 liegen, nicht 0" in capsys.readouterr().err


@pytest.mark.timeout(90)
def test_serve_announces_itself_in_german(german, tmp_path) -> None:
    path = tmp_path / "skitter.db"
    with MatchStore(path) as store:
        m = store.create_match({"variant": "classic"}, {"first": "black"}, {},
                               at=1_700_000_000.0)
        for by in ("black", "white"):
            store.append(m, {"shot": {"by": by, "big": "placed"}}, at=1_700_000_001.0)
    port = free_port()
    proc = start(tmp_path / "data", port, "--db", str(path), "--source", "sim")
    try:
        wait_ready(port, proc)
    finally:
        out = stop(proc)
    assert f"skitter: Partie 1 (2 Schritte im Protokoll) aus {path}" in out
    assert "simuliertes Brett" in out and f"erreichbar nur unter 127.0.0.1:{port}" in out
    assert f"  Anzeigetafel       http://127.0.0.1:{port}/\n" in out
    assert "Schiedsrichter-PIN (neu, nur einmal angezeigt" in out and "Strg-C beendet" in out


@pytest.mark.parametrize(("argv", "said"), [
    (["log", "--bogus"], "skitter: Fehler: nicht erkannte Argumente: --bogus"),
    (["serve", "--port", "abc"],
     "skitter serve: Fehler: Argument --port: ungültiger int-Wert: 'abc'"),
    (["nonsense"], "skitter: Fehler: Argument BEFEHL: ungültige Auswahl: 'nonsense' "
                   "(möglich sind: "),
    (["serve", "--port"], "skitter serve: Fehler: Argument --port: erwartet ein Argument"),
])
def test_argparse_refusals_of_an_argument_are_german_too(german, capsys, argv, said) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert err.startswith("Aufruf: skitter"), err  # the usage line above it


def test_argparse_refusals_stay_english_for_an_english_locale(german, monkeypatch,
                                                              capsys) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    with pytest.raises(SystemExit):
        main(["log", "--bogus"])
    assert "skitter: error: unrecognized arguments: --bogus" in capsys.readouterr().err


def test_a_secret_typed_on_the_command_line_is_warned_of_in_german() -> None:
    from skitter_cli.args import command_line_secrets

    said = command_line_secrets("2468", "mqtt://hub:geheim@broker", language("de"))
    assert said == [
        "--pin legt die PIN dort ab, wo jeder Benutzer dieses Rechners sie lesen kann (ps); "
        "besser --pin-file oder $SKITTER_PIN",
        "die --mqtt-Adresse enthält ein Passwort, das jeder Benutzer dieses Rechners lesen "
        "kann (ps); besser --mqtt-password-file oder $SKITTER_MQTT_PASSWORD"]
    assert not any("geheim" in line for line in said)


def test_serve_refuses_a_damaged_log_in_german_and_the_players_names(german, tmp_path,
                                                                    capsys) -> None:
    db = tmp_path / "damaged.db"
    with MatchStore(db) as store:
        m = store.create_match({"variant": "classic"}, SETUP, {"black": "Ann", "white": "Bo"},
                               at=1_700_000_000.0)
        store.append(m, {"shot": {"by": "white", "delta": {}}}, at=1_700_000_001.0)
    assert main(["serve", "--db", str(db), "--pin", "2468", "--port", str(free_port())]) == 1
    err = capsys.readouterr().err
    assert (f"skitter serve: Nicht möglich: Partie 1 in {db} kann nicht weitergespielt "
            "werden: ihr Schritt 1 wird abgelehnt: Bo hat außer der Reihe geschossen, Ann ist "
            "dran (R1)") in err, err
    assert "white" not in err and "black" not in err
