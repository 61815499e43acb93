"""hardware/pi/install.sh staged with --root: right files, right places, idempotent, no commands.

The script is run for real into a temporary folder. Every system command it might run
(useradd, systemctl, raspi-config...) is shadowed on PATH by a stub that records its call, so a
test fails if the script ever runs one under --root instead of printing it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from pathlib import Path

import pytest

from web.config.settings import load_settings

PI = Path(__file__).resolve().parents[2] / "hardware" / "pi"
INSTALL = PI / "install.sh"
SYSTEM_COMMANDS = (
    "useradd", "usermod", "groupadd", "systemctl", "raspi-config", "udevadm", "apt-get",
    "chown", "pip", "pip3",
)  # fmt: skip


@pytest.fixture
def stubs(tmp_path: Path) -> Path:
    """A folder of stand-ins for system commands; each appends its call to ``calls.log``."""
    folder = tmp_path / "stubs"
    folder.mkdir()
    for name in SYSTEM_COMMANDS:
        stub = folder / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{tmp_path}/calls.log"\n')
        stub.chmod(0o755)
    return folder


def install(root: Path, stubs: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": f"{stubs}:{os.environ['PATH']}",
        "HOME": str(root.parent / "home"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        ["bash", str(INSTALL), "--root", str(root), *args],
        capture_output=True, text=True, env=env, cwd=root.parent, timeout=60, check=False,
    )  # fmt: skip


def tree(root: Path) -> dict[str, tuple[int, str]]:
    """Every file and folder under root with its mode and (for files) content hash."""
    out: dict[str, tuple[int, str]] = {}
    for path in sorted(root.rglob("*")):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_symlink():
            digest = "-> " + os.readlink(path)
        elif path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            digest = "dir"
        out[str(path.relative_to(root))] = (mode, digest)
    return out


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "root"


def test_files_land_in_their_places_with_the_shipped_content(root, stubs):
    result = install(root, stubs, "--kiosk")
    assert result.returncode == 0, result.stderr
    expected = {
        "etc/systemd/system/skitter.service": ("skitter.service", 0o644),
        "etc/udev/rules.d/99-skitter.rules": ("99-skitter.rules", 0o644),
        "etc/skitter/skitter.toml": ("skitter.toml", 0o640),
        "opt/skitter/bin/skitter-kiosk": ("skitter-kiosk", 0o755),
        "etc/xdg/autostart/skitter-kiosk.desktop": ("skitter-kiosk.desktop", 0o644),
    }
    for target, (source, wanted_mode) in expected.items():
        assert (root / target).read_bytes() == (PI / source).read_bytes(), target
        assert mode(root / target) == wanted_mode, target
    assert (root / "etc/modules-load.d/skitter-i2c.conf").read_text() == "i2c-dev\n"
    assert (root / "opt/skitter").is_dir()
    assert os.readlink(root / "usr/local/bin/skitter") == "/opt/skitter/venv/bin/skitter"


def test_nothing_is_run_only_printed(root, stubs, tmp_path):
    out = install(root, stubs, "--kiosk").stdout
    assert not (tmp_path / "calls.log").exists()
    for line in (
        "would run: useradd --system --user-group --home-dir /var/lib/skitter",
        "would run: usermod --append --groups i2c,gpio,dialout skitter",
        "would run: python3 -m venv --system-site-packages /opt/skitter/venv",
        "would run: systemctl daemon-reload",
        "would run: systemctl enable skitter.service",
        "would run: udevadm control --reload-rules",
        "would run: raspi-config nonint do_blanking 1",
        "would run: chown root:skitter /etc/skitter/skitter.toml",
    ):
        assert line in out


def test_the_callers_voice_is_installed(root, stubs):
    """The caller speaks with Debian's espeak-ng: the package list names it."""
    out = install(root, stubs, "--kiosk").stdout
    apt = [line for line in out.splitlines() if "apt-get install" in line]
    assert apt and any("espeak-ng" in line.split() for line in apt), apt


def test_the_venv_the_script_builds_is_the_one_the_unit_runs(root, stubs):
    out = install(root, stubs).stdout
    unit = (root / "etc/systemd/system/skitter.service").read_text()
    assert "ExecStart=/opt/skitter/venv/bin/skitter serve" in unit
    assert "/opt/skitter/venv/bin/pip install" in out


def test_i2c_is_enabled_once_in_the_bookworm_config(root, stubs):
    install(root, stubs)
    install(root, stubs)
    config = (root / "boot/firmware/config.txt").read_text()
    assert config.count("dtparam=i2c_arm=on") == 1


def test_existing_config_txt_keeps_its_lines_and_gets_i2c_under_all(root, stubs):
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    original = "dtparam=audio=on\ncamera_auto_detect=1\n\n[cm4]\notg_mode=1\n"
    config.write_text(original)
    result = install(root, stubs)
    text = config.read_text()
    assert text.startswith(original)
    assert text.endswith("[all]\n# skitter: I2C bus for the MCP23017 sensor expanders\n"
                         "dtparam=i2c_arm=on\n")
    assert "changed: /boot/firmware/config.txt (added dtparam=i2c_arm=on)" in result.stdout
    assert "reboot the Pi" in result.stdout


def test_config_txt_ending_in_all_section_gets_no_second_header(root, stubs):
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("[pi4]\narm_boost=1\n\n[all]\ndtoverlay=vc4-kms-v3d")  # no final newline
    install(root, stubs)
    text = config.read_text()
    assert text.count("[all]") == 1
    assert "dtoverlay=vc4-kms-v3d\n# skitter" in text


def test_i2c_switched_off_is_switched_on_not_duplicated(root, stubs):
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("dtparam=i2c_arm=off\ndtparam=spi=on\n")
    install(root, stubs)
    assert config.read_text() == "dtparam=i2c_arm=on\ndtparam=spi=on\n"


def test_commented_out_i2c_line_does_not_count(root, stubs):
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("#dtparam=i2c_arm=on\n")
    install(root, stubs)
    lines = config.read_text().splitlines()
    assert lines[0] == "#dtparam=i2c_arm=on" and "dtparam=i2c_arm=on" in lines[1:]


def test_older_systems_use_boot_config_txt(root, stubs):
    config = root / "boot/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("dtparam=audio=on\n")
    install(root, stubs)
    assert "dtparam=i2c_arm=on" in config.read_text()
    assert not (root / "boot/firmware").exists()


def test_second_run_changes_nothing(root, stubs):
    install(root, stubs, "--kiosk")
    before = tree(root)
    result = install(root, stubs, "--kiosk")
    assert result.returncode == 0
    assert tree(root) == before
    assert "done: every file was already in place." in result.stdout
    lines = result.stdout.splitlines()
    assert not [line for line in lines if line.startswith(("installed:", "changed:"))]


def test_an_existing_configuration_is_never_overwritten(root, stubs):
    config = root / "etc/skitter/skitter.toml"
    config.parent.mkdir(parents=True)
    config.write_text('port = 9000  # ours\n')
    config.chmod(0o600)
    result = install(root, stubs)
    assert config.read_text() == 'port = 9000  # ours\n'
    assert mode(config) == 0o600
    assert "kept: /etc/skitter/skitter.toml" in result.stdout
    assert "chown root:skitter" not in result.stdout


def test_an_edited_unit_is_put_back(root, stubs):
    install(root, stubs)
    unit = root / "etc/systemd/system/skitter.service"
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    result = install(root, stubs)
    assert unit.read_bytes() == (PI / "skitter.service").read_bytes()
    assert "installed: /etc/systemd/system/skitter.service" in result.stdout


def test_kiosk_is_optional(root, stubs):
    result = install(root, stubs)
    assert not (root / "etc/xdg/autostart/skitter-kiosk.desktop").exists()
    assert not (root / "opt/skitter/bin/skitter-kiosk").exists()
    assert "raspi-config" not in result.stdout


def test_writes_nothing_beside_the_root(root, stubs, tmp_path):
    install(root, stubs, "--kiosk")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["root", "stubs"]


def test_staged_configuration_is_valid_for_the_venue(root, stubs):
    install(root, stubs)
    settings = load_settings(root / "etc/skitter/skitter.toml", environ={})
    assert settings.source == "mcp23017"
    assert (settings.host, settings.port) == ("0.0.0.0", 8000)
    assert settings.data_dir == Path("/var/lib/skitter")


def test_unknown_option_is_refused(root, stubs):
    result = install(root, stubs, "--kiosck")
    assert result.returncode == 2
    assert "unknown option '--kiosck'" in result.stderr
    assert not root.exists() or not any(root.iterdir())


def test_help_documents_the_print_only_root(stubs, tmp_path):
    result = subprocess.run(
        ["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=30, check=False
    )
    assert result.returncode == 0
    assert "--root DIR" in result.stdout and "would run" in result.stdout


def test_the_board_profile_is_copied_where_calibrate_may_write(root, stubs):
    install(root, stubs)
    staged = root / "etc/skitter/board.toml"
    assert staged.read_bytes() == (PI.parent / "boards" / "default.toml").read_bytes()
    assert mode(staged) == 0o644
    settings = load_settings(root / "etc/skitter/skitter.toml", environ={})
    assert settings.profile == staged  # relative to the configuration's folder


def test_a_calibrated_profile_is_never_overwritten(root, stubs):
    install(root, stubs)
    staged = root / "etc/skitter/board.toml"
    staged.write_text(staged.read_text() + "# calibrated\n")
    result = install(root, stubs)
    assert staged.read_text().endswith("# calibrated\n")
    assert "kept: /etc/skitter/board.toml" in result.stdout


def test_the_venv_gets_the_versions_ci_tested(root, stubs):
    out = install(root, stubs).stdout
    src = PI.parent.parent
    assert (f"would run: /opt/skitter/venv/bin/pip install --quiet -c {src}/constraints.txt "
            "WHEELDIR/skitter_scorekeeper-VERSION-py3-none-any.whl") in out
    assert (src / "constraints.txt").is_file()


def test_the_wheel_is_built_apart_from_the_checkout_and_that_is_installed(root, stubs):
    """pip never gets the checkout itself (it would build in place, as root): the wheel
    build-wheel.sh made in a temporary folder."""
    out = install(root, stubs).stdout
    assert f"would run: {PI}/build-wheel.sh /opt/skitter/venv/bin/python WHEELDIR" in out
    pip_lines = [line for line in out.splitlines() if "/pip install" in line]
    assert pip_lines and all(line.endswith(".whl") for line in pip_lines), pip_lines


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_32_bit_raspberry_pi_os_is_refused_in_plain_words(root, stubs, tmp_path, arch):
    (stubs / "dpkg").write_text(f'#!/bin/sh\n[ "$1" = --print-architecture ] && echo {arch}\n')
    (stubs / "dpkg").chmod(0o755)
    result = install(root, stubs)
    assert result.returncode == 1
    assert f"this is a 32-bit system ({arch})" in result.stderr
    assert "64-bit Raspberry Pi OS" in result.stderr
    assert not root.exists()
    assert not (tmp_path / "calls.log").exists()


def test_64_bit_raspberry_pi_os_is_installed(root, stubs):
    (stubs / "dpkg").write_text('#!/bin/sh\necho arm64\n')
    (stubs / "dpkg").chmod(0o755)
    assert install(root, stubs).returncode == 0
