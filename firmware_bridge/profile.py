"""Board profiles: which sensor cell belongs to which field, and how a board is wired.

A profile is a TOML file a builder edits (``hardware/boards/*.toml``). It is read with
``tomllib`` and validated once, on load: every mistake a builder can make (a cell used twice,
a cell out of range, a sensor on an MCP23017's output-only pin, a GPIO pin used twice) is a
:class:`ProfileError` that names the key and the problem, so a board never runs on a profile
that silently miscounts. ``skitter calibrate`` writes count maps back with ``tomlkit``.

Cells are numbered from 0 to ``cells - 1``. With MCP23017 expanders the number is fixed by
the wiring: ``cell = address_index * 16 + pin``, pin 0-7 is GPA0-GPA7 and pin 8-15 is
GPB0-GPB7 of the expander at ``addresses[address_index]``. GPA7 and GPB7 (pins 7 and 15) are
output-only on current silicon, so no sensor may be mapped to them.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

# The values the rest of the program reads a profile through; the constants of the wiring
# (pin ranges, addresses, button names) are imported from ``profile_model`` where they are used.
from firmware_bridge.profile_model import BoardProfile, FieldCells, GpioConfig, ProfileError
from firmware_bridge.profile_parse import parse_profile

__all__ = [
    "BoardProfile", "FieldCells", "GpioConfig", "ProfileError", "default_profile_path",
    "is_shipped_copy", "load_profile", "loads_profile", "parse_profile",
]


def default_profile_path() -> Path:
    """The reference profile shipped inside the package (``firmware_bridge/boards/``).

    In a checkout that file is a link to ``hardware/boards/default.toml``, the one builders
    edit, and the link is resolved so that ``skitter calibrate`` writes there; in an installed
    wheel it is a plain file in site-packages, which :func:`is_shipped_copy` recognises."""
    return Path(str(files("firmware_bridge") / "boards" / "default.toml")).resolve()


def is_shipped_copy(path: str | Path) -> bool:
    """True for a profile inside the installed package, which an update replaces: it is
    read, never written (``install.sh`` copies it to ``/etc/skitter/board.toml``)."""
    shipped = Path(str(files("firmware_bridge") / "boards")).resolve()
    return Path(path).resolve().parent == shipped


def load_profile(path: str | Path | None = None) -> BoardProfile:
    """Read and validate the profile at ``path`` (the default profile when None)."""
    p = Path(path) if path is not None else default_profile_path()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"board profile {p} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"board profile {p} cannot be read: {exc}") from None
    return loads_profile(text, path=p)


def loads_profile(text: str, *, path: Path | None = None) -> BoardProfile:
    """Parse and validate profile text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path or 'profile'}: not valid TOML: {exc}") from None
    return parse_profile(data, path=path)
