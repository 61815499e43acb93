"""The Pi's I2C bus, opened through Blinka, or one plain sentence saying why it cannot be.

A board builder meets this module when the bus is not there yet: I2C not enabled, the user
not in group ``i2c``, a Blinka platform library missing. Each of those is a
:class:`SourceError` of one line that names the device, the cause and the fix, never a
traceback.

Blinka decides which Pi it runs on by itself (``BLINKA_FORCEBOARD`` overrides it), and on
every Raspberry Pi its pin module needs the ``gpiod`` 2.x binding (declared in
pyproject.toml for Linux on ARM). On import it also offers, on a terminal, to pip-install
optional extras (PWM, NeoPixel) it would like: skitter needs none of them, and under systemd
nobody could answer, so :func:`quiet_blinka` turns that offer off before Blinka is imported.

The bus is opened by number (``/dev/i2c-<bus>``, the profile's ``[mcp23017] bus``) with
``adafruit_extended_bus.ExtendedI2C``, Adafruit's busio-compatible bus for any Linux I2C
adapter, so a HAT on another bus works as well as the header's bus 1.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from firmware_bridge.pi_model import raspberry_pi_model
from firmware_bridge.source import SourceError

ENABLE_I2C = ("enable I2C with 'sudo raspi-config nonint do_i2c 0' (or dtparam=i2c_arm=on in "
              "/boot/firmware/config.txt) and reboot")
"""The fix for a missing /dev/i2c-1 on Raspberry Pi OS."""

GPIOD_REQUIREMENT = "gpiod>=2.2.2,<3"
"""What Blinka 9+ needs on every Raspberry Pi (pyproject.toml declares it for ARM Linux)."""


def quiet_blinka() -> None:
    """Stop Blinka's import-time offer to pip-install optional platform extras.

    Only when the caller has not chosen otherwise; must run before ``board``/``busio``/
    ``digitalio`` are first imported."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")


def device(bus: int) -> str:
    return f"/dev/i2c-{bus}"


def blinka_failure(exc: BaseException) -> SourceError:
    """One line for Blinka failing to load its platform (a missing ``gpiod``, say)."""
    text = " ".join(str(exc).split())
    missing = getattr(exc.__cause__, "name", None) or getattr(exc, "name", None)
    if missing == "gpiod" or "'gpiod'" in text:
        return SourceError(
            f"the MCP23017 source cannot load: Blinka needs the gpiod binding "
            f"({GPIOD_REQUIREMENT}) on a Raspberry Pi and it is not installed; reinstall "
            "skitter with hardware/pi/install.sh (or pip install "
            f"'{GPIOD_REQUIREMENT}' into its venv)"
        )
    return SourceError(f"the MCP23017 source cannot load: Blinka failed ({text})")


def open_i2c_bus(bus: int = 1) -> Any:
    """A busio-compatible bus on ``/dev/i2c-<bus>``; :class:`SourceError` (one line) if not."""
    quiet_blinka()
    path = device(bus)
    try:
        from adafruit_extended_bus import ExtendedI2C
    except (ImportError, RuntimeError, AttributeError, NotImplementedError) as exc:
        raise blinka_failure(exc) from None
    try:
        return ExtendedI2C(bus, frequency=None)  # Linux sets the clock; None: no warning
    except PermissionError:
        user = _user()
        raise SourceError(
            f"I2C bus device {path} cannot be opened: permission denied for user {user}; "
            f"add the user to group i2c ('sudo usermod -aG i2c {user}', then log in again) "
            "or run as the skitter service, which is in that group"
        ) from None
    except (ValueError, RuntimeError, FileNotFoundError):
        # ExtendedI2C: ValueError "No device found"; Blinka: RuntimeError "Bus not found".
        if raspberry_pi_model() is None:
            raise SourceError(
                f"I2C bus device {path} does not exist: this computer is not a Raspberry Pi; "
                "read the board with --source serial (a Pico on USB) or try the simulated "
                "board with --source sim"
            ) from None
        raise SourceError(
            f"I2C bus device {path} does not exist: I2C is not enabled on this Pi (or the "
            f"profile's [mcp23017] bus = {bus} is wrong); {ENABLE_I2C}, and put the user in "
            "group i2c"
        ) from None
    except OSError as exc:
        raise SourceError(
            f"I2C bus device {path} cannot be opened: {exc.strerror or exc}"
        ) from None


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"
