"""Whether this computer is a Raspberry Pi, as its firmware says (``/proc/device-tree/model``).

Off a Pi (a laptop running a board over USB, a test machine) the sensor and GPIO errors say
so in one line, instead of gpiozero's walk through every pin library and advice meant for a
Pi ("enable I2C on this Pi").
"""

from __future__ import annotations

import os
from pathlib import Path

MODEL = Path("/proc/device-tree/model")


def raspberry_pi_model(model: Path = MODEL) -> str | None:
    """The Pi's model ("Raspberry Pi 5 Model B Rev 1.0"), or None on any other computer."""
    try:
        text = model.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return None
    return text if text.startswith("Raspberry Pi") else None


def gpio_chosen_elsewhere() -> bool:
    """True when the user named gpiozero's pin library (``GPIOZERO_PIN_FACTORY``: remote
    pins over the network, a mock): GPIO may work off a Pi then."""
    return bool(os.environ.get("GPIOZERO_PIN_FACTORY"))
