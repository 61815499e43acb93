"""The hub's systemd unit: started by systemd once serving, restarted when hung or failed.

The unit file is checked by ``systemd-analyze verify`` and read like the board's
(``test_pi_files.py``); the hub itself is run as systemd would run it, with a fake
``NOTIFY_SOCKET``, and must say READY once its page answers and keep feeding the watchdog.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_systemd import FakeSystemd
from ports import free_port
from test_pi_files import unit_entries

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "hardware" / "hub" / "skitter-hub.service"


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return unit_entries(UNIT)["Service"]


def test_hub_unit_waits_for_ready_and_has_a_watchdog_like_the_boards(service):
    board = unit_entries(ROOT / "hardware" / "pi" / "skitter.service")["Service"]
    for key in ("Type", "NotifyAccess", "WatchdogSec", "Restart", "KillSignal"):
        assert service[key] == board[key], key
    assert service["Type"] == ["notify"] and service["Restart"] == ["on-failure"]
    assert "AF_UNIX" in service["RestrictAddressFamilies"][0].split()


def test_hub_unit_runs_the_hub_with_its_broker_user_from_the_environment_file(service):
    command = service["ExecStart"][0].split()
    assert command[:2] == ["/opt/skitter/venv/bin/skitter", "hub"]
    assert command[command.index("--mqtt") + 1] == "${SKITTER_MQTT_URL}"
    assert command[command.index("--mqtt-user") + 1] == "${SKITTER_MQTT_USERNAME}"
    assert service["EnvironmentFile"] == ["/etc/skitter/hub.env"]
    # the password comes from the environment file, never the command line
    assert "PASSWORD" not in " ".join(service["ExecStart"])


def test_hub_unit_backs_up_to_the_stick_it_may_write(service):
    command = service["ExecStart"][0].split()
    backup = command[command.index("--backup-dir") + 1]
    assert service["ProtectSystem"] == ["strict"]
    assert service["ReadWritePaths"] == [f"-{backup}"]
    db = Path(command[command.index("--db") + 1])
    assert db.parent == Path("/var/lib") / service["StateDirectory"][0]


def test_hub_unit_starts_after_its_broker_and_at_boot():
    unit = unit_entries(UNIT)
    assert "mosquitto.service" in unit["Unit"]["After"][0].split()
    assert "mosquitto.service" in unit["Unit"]["Wants"][0].split()
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_systemd_accepts_the_hub_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing (install the systemd package)")
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "skitter-hub.service"
    unit.write_text(UNIT.read_text().replace("/opt/skitter/venv/bin/skitter", "/bin/true"))
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "skitter-hub.service" not in result.stderr, result.stderr


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path / "notify")
    yield fake
    fake.close()


@pytest.mark.timeout(90)
def test_skitter_hub_says_ready_once_serving_and_keeps_feeding_the_watchdog(systemd, tmp_path):
    # The broker may be away (port 1 refuses): the hub still serves, and its threads answer.
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="200000", HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "hub", "--mqtt", "mqtt://127.0.0.1:1",
         "--db", str(tmp_path / "hub.db"), "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        ready = systemd.wait_for("READY=1")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/hub", timeout=5) as r:
            assert r.status == 200  # READY means serving: the page answers at once
        assert any("STATUS=serving the tournament" in m for _, m in systemd.drain())
        systemd.wait_for_pings(4, since=ready)
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0, output
    assert any(m == "STOPPING=1" for _, m in systemd.drain())


# ----------------------------------------------------------------------------- the guide

GUIDE = ROOT / "docs" / "tournament.md"


def guide_commands() -> list[list[str]]:
    """Every ``skitter hub ...`` command the organiser's guide shows, as its arguments."""
    import shlex

    text = GUIDE.read_text().replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        words = shlex.split(line.strip()) if "skitter hub" in line and not line.startswith(
            ("#", "-", "`")) else []
        starts = [i for i in range(len(words) - 1) if words[i:i + 2] == ["skitter", "hub"]]
        if starts:
            found.append(words[starts[0] + 1:])
    return found


def test_the_guide_walks_from_boxes_of_pis_to_round_1():
    guide = GUIDE.read_text()
    for step in ("skitter hub boards add", "Raspberry Pi Imager", "--board-credentials",
                 "systemctl enable --now skitter-hub", "skitter hub restore", "### Round 1",
                 "access point", "fixed address", "congested", "skitter hub export",
                 "skitter hub import"):
        assert step in guide, step
    for name in sorted(set(__import__("re").findall(r"hardware/[\w/.-]+\w", guide))):
        assert (ROOT / name).exists(), name


def test_every_hub_command_in_the_guide_is_one_skitter_takes():
    from skitter_cli.main import build_parser

    commands = guide_commands()
    assert {c[1] for c in commands} >= {"boards", "restore", "export", "import"}
    parser = build_parser([])
    for args in commands:
        parsed = parser.parse_args(args)  # exits (fails the test) on a wrong option
        assert parsed._run.__name__ != "run", args  # a tool, not the hub itself
