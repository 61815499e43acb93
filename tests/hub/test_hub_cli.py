"""``skitter hub`` refuses bad options with a message naming them, before it serves anything."""

from __future__ import annotations

from pathlib import Path

import pytest
from ports import free_port
from serve_proc import ctrl_c
from waiting import wait_until

from skitter_cli.main import main


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


@pytest.mark.timeout(60)
def test_sigterm_stops_the_hub_like_ctrl_c(tmp_path) -> None:
    """The broker may be away (port 1 refuses): the page still runs and SIGTERM stops it."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")} | {
        "HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "hub", "--mqtt", "mqtt://127.0.0.1:1",
         "--db", str(tmp_path / "hub.db"), "--port", str(port)],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    def answers() -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/hub", timeout=1).close()
            return True
        except OSError:
            assert proc.poll() is None, proc.communicate()[0]
            return False

    wait_until(answers, "the hub's page", timeout=20, every=0.05)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    wal = tmp_path / "hub.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0



@pytest.mark.timeout(60)
def test_a_hub_started_with_ctrl_c_ignored_stops_on_one_just_after_its_banner(tmp_path) -> None:
    """A script's background job (``skitter hub &``) starts with Ctrl-C ignored; uvicorn takes
    it over once it serves, and a Ctrl-C that came just after the banner, before that, was
    lost: the hub served on. It stops on one from the banner on, however it was started."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")} | {
        "HOME": str(tmp_path)}
    hub = [sys.executable, "-m", "skitter_cli.main", "hub", "--mqtt", "mqtt://127.0.0.1:1",
           "--db", str(tmp_path / "hub.db"), "--port", str(free_port())]
    proc = subprocess.Popen(
        ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *hub],  # Ctrl-C ignored, as by `&`
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    said: list[str] = []
    while not any("tournament page on" in line for line in said):
        line = proc.stdout.readline()
        assert line, "".join(said)  # the hub ended before its banner
        said.append(line)
    out = ctrl_c(proc, "the hub, given one just after its banner,", "".join(said))
    assert proc.returncode == 0, "".join(said) + out


def test_secrets_typed_on_the_hubs_command_line_are_warned_about_never_repeated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hub", "--mqtt", "mqtt://hub:hunter22@broker/x", "--db",
                 str(tmp_path / "hub.db"), "--pin", "12"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--pin puts the PIN where every user" in err
    assert "--mqtt address holds a password" in err and "hunter22" not in err


def test_the_hubs_pin_comes_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pin").write_text("12\n")
    code = main(["hub", "--mqtt", "mqtt://broker", "--db", str(tmp_path / "hub.db"),
                 "--pin-file", str(tmp_path / "pin")])
    err = capsys.readouterr().err
    assert code == 2 and "4 to 12 digits" in err and "warning" not in err
