"""Whether this computer is a Raspberry Pi, as its firmware says (``/proc/device-tree/model``).

Off a Pi (a laptop running a board over USB, a test machine) the sensor and GPIO errors say
so in one line, instead of gpiozero's walk through every pin library and advice meant for a
Pi ("enable I2C on this Pi").
"""

from __future__ import annotations

import os
from pathlib import Path

MODEL = Path("/proc/device-tree/model")


def raspberry_pi_model(model: Path = MODEL,
                       environ: os._Environ[str] | dict[str, str] = os.environ) -> str | None:
    """The Pi's model ("Raspberry Pi 5 Model B Rev 1.0"), or None on any other computer.

    A board Blinka is told to be (``BLINKA_FORCEBOARD=RASPBERRY_PI_5``) counts as that Pi:
    whoever forced it wants the Pi's path, its errors and advice included.
    """
    try:
        text = model.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    if text.startswith("Raspberry Pi"):
        return text
    forced = environ.get("BLINKA_FORCEBOARD", "")
    if forced.startswith("RASPBERRY_PI"):
        return forced.replace("_", " ").title()  # "Raspberry Pi 5"
    return None


def gpio_chosen_elsewhere() -> bool:
    """True when the user named gpiozero's pin library (``GPIOZERO_PIN_FACTORY``: remote
    pins over the network, a mock): GPIO may work off a Pi then."""
    return bool(os.environ.get("GPIOZERO_PIN_FACTORY"))
