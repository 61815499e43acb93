"""Runs once at power-up: give the sensor link its own USB serial port.

CircuitPython then shows two ports with the same USB id: the console (REPL, tracebacks) and
the data port the Pi reads ("CircuitPython CDC2 data"), which the host prefers, so a
traceback on the console never mixes into the frames.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
