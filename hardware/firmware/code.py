"""skitter sensor firmware for a Raspberry Pi Pico (RP2040) running CircuitPython.

Each Hall switch goes between a GPIO below and GND (3.3 V supply); the RP2040's internal
pull-ups hold a free input high and an open-drain switch (A3144, DRV5032FB) pulls it LOW when
a magnet is present, so low = magnet. Cell *i* is ``SENSOR_PINS[i]``. The frames go out on
the USB data port that ``boot.py`` enables (docs/sensor-link.md); the on-board LED follows
LED bit 0 of the host's ``L`` frame.

Edit ``BOARD_ID`` (it must match the profile's ``board_id`` if the profile names one) and
``SENSOR_PINS`` (their number is the profile's ``cells``), then copy this file,
``boot.py`` and ``skitterlink.py`` to the CIRCUITPY drive.
"""

import board
import digitalio
import microcontroller
import skitterlink
import supervisor
import usb_cdc

BOARD_ID = "skitter-1"
VERSION = "1.0.0"
SENSOR_PINS = (
    board.GP2, board.GP3, board.GP4, board.GP5, board.GP6, board.GP7,
    board.GP8, board.GP9, board.GP10, board.GP11, board.GP12, board.GP13,
    board.GP14, board.GP15, board.GP16, board.GP17, board.GP18, board.GP19,
    board.GP20, board.GP21, board.GP22, board.GP26, board.GP27, board.GP28,
)


def open_sensors():
    sensors = []
    for pin in SENSOR_PINS:
        sensor = digitalio.DigitalInOut(pin)
        sensor.switch_to_input(pull=digitalio.Pull.UP)
        sensors.append(sensor)
    return sensors


def read_bits(sensors):
    bits = 0
    for i, sensor in enumerate(sensors):
        if not sensor.value:  # pulled low by the switch: a magnet
            bits |= 1 << i
    return bits


def main():
    port = usb_cdc.data if usb_cdc.data is not None else usb_cdc.console
    port.timeout = 0
    port.write_timeout = 0.05
    led = digitalio.DigitalInOut(board.LED)
    led.switch_to_output(value=False)
    sensors = open_sensors()
    firmware = skitterlink.Firmware(len(sensors), BOARD_ID, VERSION)
    brownout = microcontroller.cpu.reset_reason == microcontroller.ResetReason.BROWNOUT
    out = firmware.boot(supervisor.ticks_ms(), read_bits(sensors), brownout=brownout)
    while True:
        if out and port.connected:
            port.write(out)
        waiting = port.in_waiting
        incoming = port.read(waiting) if waiting else b""
        out = firmware.step(supervisor.ticks_ms(), read_bits(sensors), incoming or b"")
        led.value = bool(firmware.leds & 1)


main()
