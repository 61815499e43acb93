"""SIGTERM (systemd's stop) releases the board's GPIO buttons and LEDs, as Ctrl-C does.

``skitter serve`` runs in this process on a free port, on an emulated microcontroller behind a
pty (the simulator has no buttons), with gpiozero's mock pins as the default factory: serve
builds its controls itself, as on a Pi. SIGTERM is sent to the process once the server
answers and holds the pins. Released pins can be claimed again; pins still held raise
``GPIOPinInUse``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from emulation.mcu import EmulatedMcu
from gpiozero import LED, Button, GPIOPinInUse
from gpiozero.pins.mock import MockFactory
from serve_proc import free_port
from waiting import wait_until

from firmware_bridge.profile import load_profile
from skitter_cli import serve as serve_cli
from web.config.settings import Settings
from web_common.pin import PinStore

GPIO = load_profile().gpio


@pytest.fixture
def restored_signals() -> Iterator[None]:
    """What this process does on SIGINT and SIGTERM, as it was before serve took them over."""
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def claim_every_pin(factory: MockFactory) -> list[Any]:
    """A device on each of the profile's button and LED pins (closed again by the caller)."""
    assert GPIO is not None
    claimed: list[Any] = []
    try:
        for mapping in GPIO.buttons.values():
            claimed.extend(Button(pin, pin_factory=factory) for pin in mapping.values())
        claimed.extend(LED(pin, pin_factory=factory) for pin in GPIO.leds.values())
    except BaseException:
        close(claimed)
        raise
    return claimed


def close(devices: list[Any]) -> None:
    for device in devices:
        device.close()


def sigterm_once_serving(port: int, factory: MockFactory) -> tuple[threading.Thread, list[str]]:
    """SIGTERM once the server answers; what it found of the pins then (``held``, or why not)."""
    seen: list[str] = []

    def run() -> None:
        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1):
                    return True
            except OSError:
                return False

        with contextlib.suppress(AssertionError):  # not answering: the pins are found free
            wait_until(answers, "the server's first state", timeout=20, every=0.05)
        try:
            close(claim_every_pin(factory))
            seen.append("free while serving")
        except GPIOPinInUse:
            seen.append("held")
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, seen


def test_sigterm_releases_the_gpio_buttons_and_leds(
    tmp_path: Path, mock_factory: MockFactory, restored_signals: None,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    assert GPIO is not None
    monkeypatch.setenv("LG_WD", str(tmp_path / "lgpio"))  # serve sets it for lgpio otherwise
    link = tmp_path / "ttyACM-skitter"
    mcu = EmulatedMcu(link, cells=load_profile().cells)
    port = free_port()
    pins = PinStore(tmp_path / "pin")
    pins.set("135790")
    signaller, seen = sigterm_once_serving(port, mock_factory)
    try:
        code = serve_cli.serve(Settings(data_dir=tmp_path, port=port, source=f"serial:{link}"),
                               pins, None)
    finally:
        mcu.close()
    signaller.join(5)
    assert code == 0
    assert "skitter: stopped" in capsys.readouterr().out
    assert seen == ["held"], "serve did not hold its buttons and LEDs while serving"
    close(claim_every_pin(mock_factory))  # every pin the controls held: released


def test_a_ctrl_c_just_after_the_banner_stops_the_board_and_lets_its_sensors_go(
    tmp_path: Path, mock_factory: MockFactory, restored_signals: None,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A Ctrl-C that comes while the server is still being made (after the banner, before
    uvicorn takes the signal over) stops the board like any other: the match log and the
    sensor link are closed and the process can end. It escaped, and left both open."""
    from web_common import serving

    monkeypatch.setenv("LG_WD", str(tmp_path / "lgpio"))
    made = serving.server_config

    def ctrl_c_meanwhile(*args: Any, **kwargs: Any) -> Any:
        made(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(serving, "server_config", ctrl_c_meanwhile)
    link = tmp_path / "ttyACM-skitter"
    mcu = EmulatedMcu(link, cells=load_profile().cells)
    pins = PinStore(tmp_path / "pin")
    pins.set("135790")
    try:
        try:
            code: int | str = serve_cli.serve(
                Settings(data_dir=tmp_path, port=free_port(), source=f"serial:{link}"), pins,
                None)
        except KeyboardInterrupt:
            code = "the Ctrl-C escaped"
        sensing = [t.name for t in threading.enumerate() if t.name.startswith("skitter-")]
    finally:
        mcu.close()
    assert code == 0
    assert "Ctrl-C stops" in (said := capsys.readouterr().out) and "skitter: stopped" in said
    assert sensing == [], "the sensors are still read after the stop"
    close(claim_every_pin(mock_factory))


@pytest.fixture
def started_with_ctrl_c_ignored() -> Iterator[None]:
    """This process as a script's background job (``skitter serve &``) starts: with Ctrl-C
    (SIGINT) ignored; restored after."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_board_started_with_ctrl_c_ignored_stops_on_one_just_after_the_banner(
    tmp_path: Path, restored_signals: None, started_with_ctrl_c_ignored: None,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """uvicorn takes Ctrl-C over once it serves, whatever it was before, so a board started
    with Ctrl-C ignored stops on one then. One that came while the server was being made,
    just after the banner, was ignored, and the board served on (seen in a loaded test run:
    ``test_off_a_pi`` waited 60 s for a stop). The board now stops on a Ctrl-C from the
    banner on, however it was started."""
    from web_common import serving

    monkeypatch.setenv("LG_WD", str(tmp_path / "lgpio"))
    made = serving.server_config

    def ctrl_c_meanwhile(*args: Any, **kwargs: Any) -> Any:
        config = made(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return config

    monkeypatch.setattr(serving, "server_config", ctrl_c_meanwhile)
    port = free_port()
    returned = threading.Event()
    served_on: list[str] = []

    def stop_a_board_that_served_on() -> None:
        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1):
                    return True
            except OSError:
                return returned.is_set()

        wait_until(answers, "the server's first answer, or its stop", timeout=30, every=0.05)
        if not returned.is_set():
            served_on.append("it answered after the Ctrl-C")
            os.kill(os.getpid(), signal.SIGTERM)

    watcher = threading.Thread(target=stop_a_board_that_served_on, daemon=True)
    watcher.start()
    pins = PinStore(tmp_path / "pin")
    pins.set("135790")
    try:
        code = serve_cli.serve(Settings(data_dir=tmp_path, port=port, source="sim"), pins, None)
    finally:
        returned.set()
        watcher.join(10)
    assert served_on == [], "the board served on after a Ctrl-C that came after its banner"
    assert code == 0
    assert "Ctrl-C stops" in (said := capsys.readouterr().out) and "skitter: stopped" in said
