"""The serial source's fixtures (``serial_rig``: a FakeClock at 50 s, the pty's path, the
emulated microcontroller on it and the source reading it) for ``test_serial_source*.py``; a
module with fixtures of these names (``test_mcp23017.py``'s clock and source) uses its own."""

from serial_rig import clock, link, mcu, source  # noqa: F401
