"""The Pi's own GPIO pins: expander interrupt lines, the trusted buttons, indicator LEDs.

This is the only module that imports ``gpiozero``. Every class takes a keyword-only
``pin_factory`` as gpiozero's devices do: leave it out on a Pi, pass
``gpiozero.pins.mock.MockFactory()`` in tests. Pins are named the gpiozero way: a BCM number
(``17``) or a string (``"GPIO17"``, ``"BOARD11"``).

Callbacks from gpiozero arrive on its own threads; each class turns them into something the
caller *polls* (a flag, a queue), so the pipeline stays single-threaded and clock-driven.

On a Pi 4 or 5 gpiozero picks its ``lgpio`` pin factory (Debian's ``python3-lgpio``, seen
through the venv's system site packages). lgpio creates its notification pipes
(``.lgd-nfy*``) in ``$LG_WD``, else in the working folder, the moment it is loaded: started
from ``/`` or another read-only folder it fails, started from a user's folder it litters it.
:func:`lgpio_work_dir` sets ``LG_WD`` before any real pin is opened (``skitter serve`` points
it at the data folder first; other commands get a private folder of the user's).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

from gpiozero import LED, Button, Device, DigitalInputDevice, GPIOZeroError

from firmware_bridge.pi_model import gpio_chosen_elsewhere, raspberry_pi_model
from firmware_bridge.profile_model import BUTTON_NAMES
from firmware_bridge.source import SourceError

Pin = int | str

"""The buttons the scorekeeper knows: end the turn, undo the last event, red skitt back."""


def lgpio_work_dir(folder: str | os.PathLike[str] | None = None) -> str:
    """The folder lgpio writes its pipes to: ``$LG_WD`` if set, else ``folder``, else a
    private per-user folder (``$XDG_RUNTIME_DIR/skitter`` or ``/tmp/skitter-<uid>``).

    Sets ``LG_WD`` so that lgpio, loaded later by gpiozero, uses it; never changes it once
    set (the caller who set it first, or the user, decided)."""
    chosen = os.environ.get("LG_WD")
    if not chosen:
        if folder is None:
            runtime = os.environ.get("XDG_RUNTIME_DIR")
            folder = (os.path.join(runtime, "skitter") if runtime
                      else os.path.join(tempfile.gettempdir(), f"skitter-{os.getuid()}"))
        chosen = os.fspath(folder)
        os.environ["LG_WD"] = chosen
    with contextlib.suppress(OSError):  # lgpio says so when it cannot write there
        os.makedirs(chosen, mode=0o700, exist_ok=True)
    return chosen


NOT_A_PI = "this computer is not a Raspberry Pi"


def _real_pins(pin_factory: Any) -> None:
    """Before gpiozero's own factory (not a test's) loads lgpio: give it its folder. Off a Pi
    (and no pin library chosen: by the user's ``GPIOZERO_PIN_FACTORY``, or already set as
    gpiozero's default) :class:`SourceError` says so in one line, before gpiozero tries and
    warns about each of its pin libraries in turn."""
    if pin_factory is None:
        chosen = Device.pin_factory is not None or gpio_chosen_elsewhere()
        if raspberry_pi_model() is None and not chosen:
            raise SourceError(NOT_A_PI)
        lgpio_work_dir()


def _lgpio_error() -> type[Exception]:
    """lgpio's own exception class when lgpio is loaded (a pin factory may raise it)."""
    import sys

    module = sys.modules.get("lgpio")
    error = getattr(module, "error", None)
    return error if isinstance(error, type) and issubclass(error, Exception) else GPIOZeroError


def _gpio_error(what: str, pin: Pin, exc: Exception) -> SourceError:
    return SourceError(f"cannot use GPIO {pin} for {what}: {exc}")


class InterruptLine:
    """An expander's INT output, wired to a Pi GPIO.

    Wiring: the MCP23017's INTA (mirrored to cover both ports, open drain) goes to the Pi
    pin; the Pi's internal pull-up holds the line high, and the expander pulls it low while it
    has an unread change. Several expanders may share one line (open drain makes a wired-OR).

    :meth:`take` answers "was there an interrupt since I last asked?"; :attr:`is_active` says
    whether the line is low right now (an edge may be lost, a level may not).
    """

    def __init__(self, pin: Pin, *, pin_factory: Any = None) -> None:
        self.pin = pin
        self._flag = threading.Event()
        _real_pins(pin_factory)
        try:
            self._device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        except (GPIOZeroError, OSError, RuntimeError, _lgpio_error()) as exc:
            raise _gpio_error("an expander interrupt line", pin, exc) from exc
        self._device.when_activated = self._flag.set

    @property
    def is_active(self) -> bool:
        """True while the line is pulled low (an expander has an unread change)."""
        return bool(self._device.is_active)

    def take(self) -> bool:
        """True if the line fell since the last call (clears the flag)."""
        if self._flag.is_set():
            self._flag.clear()
            return True
        return False

    def close(self) -> None:
        """Release the pin; safe to call twice."""
        self._device.close()


class Buttons:
    """Push buttons between a Pi GPIO and ground, read with the Pi's pull-ups.

    ``mapping`` names each button's pin, e.g. ``{"end_turn": 17, "undo": 27,
    "red_back": 22}``. Buttons are trusted hardware, wired to the table: a press needs no referee
    session. gpiozero's ``bounce_time`` (seconds) filters contact bounce.
    """

    def __init__(
        self,
        mapping: Mapping[str, Pin],
        *,
        pin_factory: Any = None,
        bounce_time: float | None = 0.05,
    ) -> None:
        for name, pin in mapping.items():
            if name not in BUTTON_NAMES:
                raise SourceError(
                    f"unknown button {name!r} on GPIO {pin}: known are {', '.join(BUTTON_NAMES)}"
                )
            sharing = [n for n, p in mapping.items() if p == pin]
            if len(sharing) > 1:
                raise SourceError(f"GPIO {pin} is given to several buttons: {', '.join(sharing)}")
        self._presses: deque[str] = deque()
        self._buttons: dict[str, Button] = {}
        _real_pins(pin_factory)
        try:
            for name, pin in mapping.items():
                try:
                    button = Button(
                        pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory
                    )
                except GPIOZeroError as exc:
                    raise _gpio_error(f"button {name!r}", pin, exc) from exc
                button.when_pressed = lambda _device=None, n=name: self._presses.append(n)
                self._buttons[name] = button
        except SourceError:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._buttons)

    def poll(self) -> list[str]:
        """Names of the buttons pressed since the last call, in order."""
        out: list[str] = []
        while self._presses:
            out.append(self._presses.popleft())
        return out

    def is_pressed(self, name: str) -> bool:
        """True while button ``name`` is held down."""
        return bool(self._buttons[name].is_pressed)

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


class Leds:
    """Indicator LEDs, each between a Pi GPIO (through a ~330 Ω resistor) and ground.

    ``mapping`` names each LED's pin, e.g. ``{"link": 5, "hold": 6}``: lit means high.
    """

    def __init__(self, mapping: Mapping[str, Pin], *, pin_factory: Any = None) -> None:
        self._leds: dict[str, LED] = {}
        _real_pins(pin_factory)
        try:
            for name, pin in mapping.items():
                try:
                    self._leds[name] = LED(pin, pin_factory=pin_factory)
                except GPIOZeroError as exc:
                    raise _gpio_error(f"LED {name!r}", pin, exc) from exc
        except SourceError:
            self.close()
            raise

    def set(self, name: str, lit: bool) -> None:
        """Light LED ``name`` or put it out."""
        led = self._leds.get(name)
        if led is None:
            raise KeyError(f"no LED named {name!r}: known are {', '.join(self._leds) or 'none'}")
        if lit:
            led.on()
        else:
            led.off()

    def is_lit(self, name: str) -> bool:
        return bool(self._leds[name].is_lit)

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
