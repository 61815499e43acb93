"""The files shipped for the Pi: the systemd unit, the udev rule, the kiosk, the example config."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from kiosk_support import PI, kiosk_browser_args, run_kiosk

from firmware_bridge.profile_model import DEFAULT_USB_IDS
from web.config.settings import load_settings


def unit_entries(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as section -> key -> every value given (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        assert current is not None and "=" in line, f"line {number} is not key=value: {line}"
        key, value = line.split("=", 1)
        current.setdefault(key, []).append(value)
    return sections


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return unit_entries(PI / "skitter.service")["Service"]


def test_unit_runs_serve_with_the_venue_config(service):
    assert service["ExecStart"] == [
        "/opt/skitter/venv/bin/skitter serve --config /etc/skitter/skitter.toml"
    ]


def test_unit_runs_as_the_dedicated_user_in_the_hardware_groups(service):
    assert service["User"] == ["skitter"]
    assert set(service["SupplementaryGroups"][0].split()) >= {"i2c", "gpio", "dialout"}


def test_unit_restarts_on_failure(service):
    assert service["Restart"] == ["on-failure"]


def test_unit_waits_for_ready_and_restarts_a_hung_scorekeeper(service):
    # web_common/watchdog.py sends READY=1 and WATCHDOG=1 from the main process.
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 10
    assert "AF_UNIX" in service["RestrictAddressFamilies"][0].split()


def test_unit_keeps_its_data_in_var_lib_skitter(service):
    assert service["StateDirectory"] == ["skitter"]  # systemd makes /var/lib/skitter
    assert "SKITTER_DATA=/var/lib/skitter" in service["Environment"]


def test_unit_logs_to_the_journal(service):
    assert service["StandardOutput"] == ["journal"] and service["StandardError"] == ["journal"]


def test_hardening_still_lets_the_sensors_through(service):
    # PrivateDevices would hide /dev/i2c-*, /dev/gpiochip* and /dev/ttyACM* entirely.
    assert service.get("PrivateDevices", ["no"]) == ["no"]
    assert service["DevicePolicy"] == ["closed"]
    allowed = " ".join(service["DeviceAllow"])
    for device in ("char-i2c", "char-gpiochip", "char-ttyACM"):
        assert f"{device} rw" in allowed
    assert service["ProtectSystem"] == ["strict"] and service["NoNewPrivileges"] == ["yes"]


def test_unit_starts_at_boot():
    assert unit_entries(PI / "skitter.service")["Install"]["WantedBy"] == ["multi-user.target"]


def test_systemd_accepts_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing (install the systemd package)")
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "skitter.service"
    # verify insists that ExecStart exists; point it at a program this machine has.
    unit.write_text(
        (PI / "skitter.service").read_text().replace("/opt/skitter/venv/bin/skitter", "/bin/true")
    )
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "skitter.service" not in result.stderr, result.stderr


# ----------------------------------------------------------------------------- udev

_UDEV_TOKEN = re.compile(r'\s*([A-Za-z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(,|$)')


def udev_rules(path: Path) -> list[dict[str, tuple[str, str]]]:
    """Each rule line as key -> (operator, value); fails on a line that does not parse."""
    rules = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rule: dict[str, tuple[str, str]] = {}
        position = 0
        while position < len(line):
            match = _UDEV_TOKEN.match(line, position)
            assert match, f"udev rule does not parse at column {position}: {line}"
            rule[match[1]] = (match[2], match[3])
            position = match.end()
        rules.append(rule)
    return rules


def test_udev_names_both_rp2040_firmwares_skitter_board():
    named = [r for r in udev_rules(PI / "99-skitter.rules") if "SYMLINK" in r]
    assert len(named) == 2
    assert {(r["ATTRS{idVendor}"], r["ATTRS{idProduct}"]) for r in named} == {
        (("==", "2e8a"), ("==", "0005")),
        (("==", "239a"), ("==", "80f4")),
    }
    for rule in named:
        assert rule["SUBSYSTEM"] == ("==", "tty")
        assert rule["SYMLINK"] == ("+=", "skitter-board")
        assert rule["GROUP"] == ("=", "dialout")


def test_udev_names_circuitpythons_data_port_not_its_console():
    # boot.py enables console (interface 00) and data (interface 02) under one USB id.
    circuitpython = [
        r for r in udev_rules(PI / "99-skitter.rules") if r["ATTRS{idVendor}"] == ("==", "239a")
    ]
    named = [r for r in circuitpython if "SYMLINK" in r]
    assert [r["ENV{ID_USB_INTERFACE_NUM}"] for r in named] == [("==", "02")]
    for rule in circuitpython:
        assert rule["GROUP"] == ("=", "dialout")


def test_udev_ids_are_the_ids_the_host_looks_for():
    # The udev rule and the serial source's port search must name the same USB ids.
    named = {
        (int(r["ATTRS{idVendor}"][1], 16), int(r["ATTRS{idProduct}"][1], 16))
        for r in udev_rules(PI / "99-skitter.rules")
        if "SYMLINK" in r
    }
    assert named == set(DEFAULT_USB_IDS)


# ----------------------------------------------------------------------------- kiosk


def test_kiosk_autostart_entry_starts_the_kiosk_script():
    text = (PI / "skitter-kiosk.desktop").read_text()
    assert text.startswith("[Desktop Entry]\n")
    assert "Type=Application" in text and "Exec=/opt/skitter/bin/skitter-kiosk" in text


def test_kiosk_opens_the_scoreboard_full_screen_once_the_server_answers(tmp_path):
    result, calls = run_kiosk(tmp_path, launches=1)
    assert result.returncode == 0, result.stderr
    assert calls[0].startswith("curl ") and calls[0].endswith("http://localhost:8000/?caller=on")
    assert calls[1].startswith("chromium --kiosk ")
    assert calls[1].endswith(" http://localhost:8000/?caller=on")


def test_kiosk_lets_the_caller_speak_without_a_tap(tmp_path):
    args, url = kiosk_browser_args(tmp_path)
    assert "--autoplay-policy=no-user-gesture-required" in args
    assert "caller=on" in url


def test_kiosk_starts_chromium_again_when_it_exits(tmp_path):
    result, calls = run_kiosk(tmp_path, launches=3)
    assert result.returncode == 0, result.stderr
    assert [c.split()[-1] for c in calls if c.startswith("chromium ")] == [
        "http://localhost:8000/?caller=on"] * 3
    assert result.stderr.count("Chromium exited") == 2


def test_kiosk_without_a_browser_says_so(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "curl").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "curl").chmod(0o755)
    # Only the basic tools: no chromium on this PATH.
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("sleep",):
        (tools / name).symlink_to(shutil.which(name))
    env = {"PATH": f"{bin_dir}:{tools}", "HOME": str(tmp_path)}
    result = subprocess.run(
        ["/bin/sh", str(PI / "skitter-kiosk")], env=env, capture_output=True, text=True,
        timeout=30,
    )  # fmt: skip
    assert result.returncode == 1
    assert "no chromium-browser or chromium installed" in result.stderr


# ----------------------------------------------------------------------------- example config


def test_example_config_is_valid_and_set_for_the_venue(tmp_path):
    # As install.sh lays it out: the board profile beside the configuration.
    shutil.copy(PI / "skitter.toml", tmp_path / "skitter.toml")
    shutil.copy(PI.parent / "boards" / "default.toml", tmp_path / "board.toml")
    settings = load_settings(tmp_path / "skitter.toml", environ={})
    assert settings.profile == tmp_path / "board.toml"
    assert settings.source == "mcp23017"
    assert settings.host == "0.0.0.0"
    assert settings.data_dir == Path("/var/lib/skitter")
    assert settings.db == Path("/var/lib/skitter/skitter.db")


def test_install_script_is_valid_bash():
    result = subprocess.run(
        ["bash", "-n", str(PI / "install.sh")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert os.access(PI / "install.sh", os.X_OK)


# ----------------------------------------------------------------------------- the guide


def test_setup_guide_names_only_files_that_exist():
    readme = (PI.parent / "README.md").read_text()
    assert "## Set up a Pi from scratch" in readme
    guide = readme[readme.index("## Set up a Pi from scratch") :]
    for name in re.findall(r"hardware/pi/([\w.-]+)", guide):
        assert (PI / name).exists(), name
    for command in ("install.sh --kiosk", "set-pin", "config --show", "systemctl status skitter"):
        assert command in guide


def test_unit_leaves_room_for_the_connection_cap(service):
    from web_common.serving import MAX_CONNECTIONS, SPARE_DESCRIPTORS

    assert int(service["LimitNOFILE"][0]) >= MAX_CONNECTIONS + SPARE_DESCRIPTORS
    assert service["KillSignal"] == ["SIGTERM"]
