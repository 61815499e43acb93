"""A match log in RAM is named: /healthz warns and the referee page says so, on real mounts.

The real-mount tests mount a tmpfs (and an overlay whose upper layer is that tmpfs, the way
Raspberry Pi OS's overlay file system lays out ``/``) as root, and unmount it afterwards.
Without root or ``mount`` they skip, except under CI, where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    SCREENSHOTS,
    keep_screenshot,
    live_server,
    probe,
    require_chromium,
    wait_answer_read,
)

from web.table.durability import volatile_reason

VIEWPORTS = {"tv": (1920, 1080), "tv-small": (1280, 720), "tablet": (1024, 768),
             "tablet-portrait": (768, 1024), "phone": (390, 844)}

PI_OVERLAY = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
25 27 0:23 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
26 25 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
27 1 0:24 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,\
upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
28 27 179:1 / /boot/firmware rw,relatime - vfat /dev/mmcblk0p1 rw
"""


def test_raspberry_pi_os_overlay_file_system_is_named():
    reason = volatile_reason("/var/lib/skitter", PI_OVERLAY)
    assert reason is not None and "overlay" in reason and "tmpfs in RAM" in reason


def test_a_persistent_partition_beside_the_overlay_is_fine():
    text = PI_OVERLAY + "29 27 8:1 / /var/lib/skitter rw - ext4 /dev/sda1 rw\n"
    assert volatile_reason("/var/lib/skitter", text) is None
    assert volatile_reason("/var/lib/skitter-old", text) is not None  # not under that mount


def test_an_overlay_on_a_disk_keeps_what_is_written():
    container = ("27 1 0:24 / / rw - overlay overlay rw,lowerdir=/l,upperdir=/var/lib/d/diff,"
                 "workdir=/var/lib/d/work\n")
    assert volatile_reason("/var/lib/skitter", container) is None


def test_a_mount_point_with_a_space_is_read():
    text = "27 1 0:24 / / rw - ext4 /dev/vda rw\n30 27 0:5 / /srv/my\\040data rw - tmpfs t rw\n"
    assert volatile_reason("/srv/my data/skitter", text) is not None


# ----------------------------------------------------------------------------- real mounts


def _mount(*args: str) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        message = f"cannot mount ({' '.join(args)}): {result.stderr.strip()}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _umount(path: Path) -> None:
    if subprocess.run(["umount", str(path)], capture_output=True, check=False).returncode:
        subprocess.run(["umount", "-l", str(path)], capture_output=True, check=False)


@pytest.fixture
def ram(tmp_path: Path) -> Iterator[Path]:
    """A real tmpfs, mounted for the test and gone afterwards."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        message = "mounting a tmpfs needs root and mount(8)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    point = tmp_path / "ram"
    point.mkdir()
    _mount("-t", "tmpfs", "-o", "size=32m,mode=0700", "tmpfs", str(point))
    try:
        yield point
    finally:
        _umount(point)


@pytest.fixture
def overlay(ram: Path, tmp_path: Path) -> Iterator[Path]:
    """An overlay whose writable layer is the tmpfs: Raspberry Pi OS's read-only root."""
    lower, merged = tmp_path / "lower", tmp_path / "merged"
    lower.mkdir()
    merged.mkdir()
    (ram / "upper").mkdir()
    (ram / "work").mkdir()
    _mount("-t", "overlay", "overlay", "-o",
           f"lowerdir={lower},upperdir={ram / 'upper'},workdir={ram / 'work'}", str(merged))
    try:
        yield merged
    finally:
        _umount(merged)


@pytest.fixture
def disk() -> Iterator[Path]:
    """A folder on the clone's own disk (``/tmp`` itself may be a tmpfs on some machines)."""
    base = Path(__file__).resolve().parents[2] / "test-artifacts"
    base.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="disk-", dir=base))
    try:
        if volatile_reason(folder) is not None:
            pytest.skip(f"this clone itself is in RAM ({volatile_reason(folder)})")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def healthz(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_healthz_warns_when_the_match_log_is_on_a_tmpfs(ram):
    with live_server(ram) as server:
        status, body = healthz(server.url)
    assert status == 200 and body["ok"] is True  # it works now; the warning is for later
    assert body["store"]["volatile"] is True
    (warning,) = body["warnings"]
    assert str(ram) in warning and "tmpfs" in warning and "power cut" in warning


def test_healthz_warns_on_an_overlay_in_ram(overlay):
    data = overlay / "var-lib-skitter"
    data.mkdir()
    with live_server(data) as server:
        status, body = healthz(server.url)
    assert status == 200 and body["store"]["volatile"] is True
    assert "overlay" in body["warnings"][0]


def test_healthz_is_quiet_on_a_disk(disk):
    with live_server(disk) as server:
        status, body = healthz(server.url)
    assert body["warnings"] == [] and body["store"]["volatile"] is False


@pytest.mark.browser
def test_referee_page_says_a_power_cut_would_lose_the_match(ram, tmp_path, browser):
    require_chromium()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with live_server(ram) as server:
        for name, (width, height) in VIEWPORTS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(server.url + "/referee")
                warning = page.locator("#power-warning")
                warning.wait_for(state="visible", timeout=10000)
                text = warning.inner_text()
                assert "power cut would lose the whole match" in text
                assert "tmpfs" not in text and str(ram) not in text  # words, not paths
                box = warning.bounding_box()
                assert box is not None and box["width"] <= width
                assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
                assert page.locator(".alert-storage").count() == 0  # play is not stopped
                keep_screenshot(page, f"referee-power-warning-{name}")
            finally:
                page.close()


@pytest.mark.browser
def test_referee_page_has_no_warning_on_a_disk(disk, browser):
    require_chromium()
    with live_server(disk) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        try:
            probe(page)
            page.goto(server.url + "/referee")
            page.wait_for_function("document.getElementById('power-warning') !== null")
            wait_answer_read(page, "/healthz")  # the page has read what /healthz says
            assert page.locator("#power-warning").is_hidden()
        finally:
            page.close()
