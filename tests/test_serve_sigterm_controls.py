"""SIGTERM (systemd's stop) releases the board's GPIO buttons and LEDs, as Ctrl-C does.

``skitter serve`` runs in this process on a free port with the controls on gpiozero's mock
pins; SIGTERM is sent to the process once the server answers. Released pins can be claimed
again; pins still held raise ``GPIOPinInUse``.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED, Button
from gpiozero.pins.mock import MockFactory
from serve_proc import free_port

from firmware_bridge.profile import load_profile
from web.cli import serve as serve_cli
from web.config.pin import PinStore
from web.config.settings import Settings
from web.table.controls import HardwareControls
from web.table.table import Table

GPIO = load_profile().gpio


@pytest.fixture
def restored_sigterm() -> Iterator[None]:
    before = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def sigterm_once_serving(port: int) -> threading.Thread:
    def run() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.timeout(60)
def test_sigterm_releases_the_gpio_buttons_and_leds(
    tmp_path: Path, mock_factory: MockFactory, restored_sigterm: None,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    assert GPIO is not None
    built: list[HardwareControls] = []

    def controls(table: Table) -> HardwareControls:
        built.append(HardwareControls(table, GPIO, pin_factory=mock_factory))
        return built[-1]

    monkeypatch.setattr(serve_cli, "_hardware_controls", controls)
    port = free_port()
    pins = PinStore(tmp_path / "pin")
    pins.set("135790")
    signaller = sigterm_once_serving(port)
    code = serve_cli.serve(Settings(data_dir=tmp_path, port=port), pins, None)
    signaller.join(5)
    assert code == 0
    assert "skitter: stopped" in capsys.readouterr().out
    assert built, "serve built no controls"
    claimed: list[Any] = []
    try:  # every pin the controls held can be claimed again: they were released
        for mapping in GPIO.buttons.values():
            claimed.extend(Button(pin, pin_factory=mock_factory) for pin in mapping.values())
        claimed.extend(LED(pin, pin_factory=mock_factory) for pin in GPIO.leds.values())
    finally:
        for device in claimed:
            device.close()
