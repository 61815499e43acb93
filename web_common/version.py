"""The version of skitter that runs: the installed package's metadata, the one place it is
kept (``version`` in ``pyproject.toml``, copied into the metadata by the install).

``skitter --version`` prints it, ``/api/about`` gives it to the referee page, each board
sends it to the hub with its status, and the OpenAPI document carries it.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "skitter-scorekeeper"

UNKNOWN = "unknown"
"""What a copy of the sources that was never installed reports (no metadata to read)."""


@cache
def skitter_version() -> str:
    """The installed version, e.g. ``0.4.0``."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN
