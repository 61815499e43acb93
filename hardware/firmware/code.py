"""skitter sensor firmware for a Raspberry Pi Pico (RP2040) running CircuitPython.

Each Hall switch goes between a GPIO below and GND (3.3 V supply); the RP2040's internal
pull-ups hold a free input high and an open-drain switch (DRV5032FC, DRV5032AJ) pulls it LOW when
a magnet is present, so low = magnet. Cell *i* is ``SENSOR_PINS[i]``. The frames go out on
the USB data port that ``boot.py`` enables (docs/sensor-link.md); the on-board LED follows
LED bit 0 of the host's ``L`` frame.

The Pico's own GPIOs carry 24 cells. The reference board (128 cells, eight MCP23017) is read
through the expanders instead: list their addresses in ``EXPANDERS`` and wire their SDA to
GP0 and SCL to GP1; cell = index in ``EXPANDERS`` * 16 + pin (GPA0-GPA7, GPB0-GPB7), the same
numbers as on the Pi, low = magnet through the expanders' pull-ups. An expander that stops
answering keeps its cells as last read and is reported once as an ``i2c`` fault.

The board is set up in ``settings.toml`` (CircuitPython reads it with ``os.getenv``), not
here: ``SKITTER_BOARD_ID`` (it must match the profile's ``board_id`` if the profile names
one) and ``SKITTER_SENSOR_PINS`` (their number is the profile's ``cells``) or
``SKITTER_EXPANDERS`` (16 cells each). Copy this file, ``boot.py``, ``skitterlink.py`` and
``settings.toml`` to the CIRCUITPY drive, then edit ``settings.toml`` there.
"""

import os

import board
import digitalio
import microcontroller
import skitterlink
import supervisor
import usb_cdc

VERSION = "1.0.0"
BOARD_ID = os.getenv("SKITTER_BOARD_ID") or "skitter-1"
SENSOR_PINS = tuple(getattr(board, "GP" + str(n))
                    for n in skitterlink.sensor_pins(os.getenv("SKITTER_SENSOR_PINS")))
EXPANDERS = skitterlink.expander_addresses(os.getenv("SKITTER_EXPANDERS"))

# MCP23017 registers (IOCON.BANK = 0, as after power-up): pairs for port A and B.
IODIR, GPPU, GPIO, OLAT = 0x00, 0x0C, 0x12, 0x14
INPUTS = 0x7F  # GPA7/GPB7 are output-only on current silicon: outputs, driven low


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


class Expanders:
    """The MCP23017s on the Pico's I2C: each read gives 16 cells, low = magnet."""

    def __init__(self, addresses):
        import busio

        self.addresses = addresses
        self.i2c = busio.I2C(board.GP1, board.GP0, frequency=400000)  # SCL, SDA
        while not self.i2c.try_lock():
            pass
        self.last = [0] * len(addresses)
        self.failing = set()
        self.faults = []
        self.ready = set()
        self.buffer = bytearray(2)

    def _configure(self, address):
        for register, value in ((IODIR, INPUTS), (GPPU, INPUTS), (OLAT, 0)):
            self.i2c.writeto(address, bytes((register, value, value)))
        self.ready.add(address)

    def read_bits(self):
        bits = 0
        for index, address in enumerate(self.addresses):
            try:
                if address not in self.ready:
                    self._configure(address)  # at start, and again once it answers
                self.i2c.writeto_then_readfrom(address, bytes((GPIO,)), self.buffer)
            except OSError:
                self.ready.discard(address)
                if address not in self.failing:
                    self.failing.add(address)
                    self.faults.append(f"expander 0x{address:02x} not answering")
            else:
                self.failing.discard(address)
                low = ~(self.buffer[0] | self.buffer[1] << 8) & (INPUTS | INPUTS << 8)
                self.last[index] = low
            bits |= self.last[index] << (16 * index)
        return bits

    def take_faults(self):
        out, self.faults = self.faults, []
        return out


def main():
    port = usb_cdc.data if usb_cdc.data is not None else usb_cdc.console
    port.timeout = 0
    port.write_timeout = 0.05
    led = digitalio.DigitalInOut(board.LED)
    led.switch_to_output(value=False)
    if EXPANDERS:
        expanders = Expanders(EXPANDERS)
        cells, read, faults = 16 * len(EXPANDERS), expanders.read_bits, expanders.take_faults
    else:
        sensors = open_sensors()
        cells, read, faults = len(sensors), lambda: read_bits(sensors), list
    firmware = skitterlink.Firmware(cells, BOARD_ID, VERSION)
    brownout = microcontroller.cpu.reset_reason == microcontroller.ResetReason.BROWNOUT
    out = firmware.boot(supervisor.ticks_ms(), read(), brownout=brownout)
    while True:
        for fault in faults():
            out += skitterlink.fault_frame("i2c", fault)
        if out and port.connected:
            port.write(out)
        waiting = port.in_waiting
        incoming = port.read(waiting) if waiting else b""
        out = firmware.step(supervisor.ticks_ms(), read(), incoming or b"")
        led.value = bool(firmware.leds & 1)


main()
