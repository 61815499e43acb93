"""The wiring diagram and the bill of materials of a board, made from its profile.

The profile is the single truth of cells, expanders, addresses and pins: the diagram (an SVG
drawn with schemdraw) and the parts list (CSV rows) are made from it, so they can never
disagree with what the scorekeeper reads. ``skitter hardware`` writes both.

The parts chosen here, and why, are in hardware/README.md ("What to buy"): the Hall switch
is chosen by its sample rate (it bounds how soon a landing can be seen) and its current
(it sizes the sensors' regulator).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from firmware_bridge.profile_model import BoardProfile, ProfileError

HALL_SWITCH = "DRV5032FC (omnipolar, open drain, 20 Hz; TI SLVSDC7)"
"""The reference board's Hall switch (hardware/README.md, "Choosing the Hall switch")."""

EXPANDER = "MCP23017 (I2C GPIO expander, 16 pins)"
REGULATOR = "3.3 V LDO regulator, 150 mA or more, fed from the Pi's 5 V (pin 2)"

MCP_PINS = {**{f"GPB{i}": str(1 + i) for i in range(8)},
            **{f"GPA{i}": str(21 + i) for i in range(8)},
            "VDD": "9", "VSS": "10", "SCL": "12", "SDA": "13", "A0": "15", "A1": "16",
            "A2": "17", "RESET": "18", "INTA": "20"}
"""The MCP23017's DIP-28 pin numbers by name."""


@dataclass(frozen=True)
class Part:
    """One line of the bill of materials."""

    ref: str
    part: str
    connects: str
    note: str = ""


def sensed_cells(profile: BoardProfile) -> dict[int, tuple[int, str, str]]:
    """Every cell the profile uses → (expander address, pin name, what it senses).

    Raises :class:`ProfileError` for a profile without expanders (a board read by a
    microcontroller over USB wires its cells to that board's pins instead)."""
    if profile.mcp23017 is None:
        raise ProfileError(f"profile {profile.name!r} has no [mcp23017] section: the "
                           "wiring diagram and parts list describe expander boards")
    out = {}
    for cell, role in sorted(profile.cell_roles().items()):
        address, pin = profile.mcp23017.locate(cell)
        out[cell] = (address, pin, role)
    return out


def parts(profile: BoardProfile) -> list[Part]:
    """The bill of materials, one row per part placed (one Hall switch per cell)."""
    cells = sensed_cells(profile)
    assert profile.mcp23017 is not None
    interrupts = profile.gpio.interrupt if profile.gpio else ()
    rows = [Part("REG1", REGULATOR, "5 V in; 3.3 V out to every VDD and every switch VCC",
                 "sized for the budget in hardware/README.md, not the Pi's 3V3 pin"),
            Part("C1", "10 uF ceramic", "regulator output to GND")]
    for index, address in enumerate(profile.mcp23017.addresses):
        strap = " ".join(f"A{b}={'3V3' if address - 0x20 >> b & 1 else 'GND'}"
                         for b in range(3))
        line = (f"INTA to GPIO{interrupts[index]}" if index < len(interrupts)
                else "INTA unconnected (polled)")
        rows.append(Part(f"U{index + 1}", EXPANDER, f"I2C 0x{address:02X}; {strap}; {line}",
                         "RESET to 3V3; GPA7 and GPB7 unconnected (output-only)"))
        rows.append(Part(f"C{index + 2}", "100 nF ceramic", f"U{index + 1} VDD to VSS"))
    for cell, (address, pin, role) in cells.items():
        rows.append(Part(f"H{cell}", HALL_SWITCH,
                         f"cell {cell}: OUT to 0x{address:02X} {pin}", role))
    if profile.gpio is not None:
        for player, buttons in profile.gpio.buttons.items():
            for name, gpio in buttons.items():
                rows.append(Part(f"SW-{player}-{name}", "push button, normally open",
                                 f"GPIO{gpio} to GND", f"{player} {name}"))
        for name, gpio in profile.gpio.leds.items():
            rows.append(Part(f"LED-{name}", "LED + 330 ohm resistor", f"GPIO{gpio} to GND",
                             name))
    return rows


def bom_csv(profile: BoardProfile) -> str:
    """The bill of materials as CSV text (a header, then :func:`parts`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["ref", "part", "connects", "note"])
    for p in parts(profile):
        writer.writerow([p.ref, p.part, p.connects, p.note])
    return out.getvalue()


def schematic_svg(profile: BoardProfile) -> str:
    """The wiring diagram: each expander with its address straps, interrupt line and every
    input pin labelled with its cell and what that cell senses."""
    import schemdraw
    import schemdraw.elements as elm

    cells = sensed_cells(profile)
    assert profile.mcp23017 is not None
    interrupts = profile.gpio.interrupt if profile.gpio else ()
    by_pin = {(address, pin): (cell, role) for cell, (address, pin, role) in cells.items()}
    schemdraw.config(fontsize=9)
    schemdraw.svgconfig.text = "text"  # words a reader can search and copy, not outlines
    drawing = schemdraw.Drawing(show=False)
    drawing += elm.Label().at((0, 3)).label(
        f"skitter board '{profile.name}': {len(cells)} Hall switches on "
        f"{len(profile.mcp23017.addresses)} MCP23017 expanders; every switch VCC and every "
        "VDD from REG1 (3.3 V), never the Pi's 3V3 pin", loc="right", halign="left")
    for index, address in enumerate(profile.mcp23017.addresses):
        x, y = (index % 2) * 16.0, -(index // 2) * 14.0
        pins = [elm.IcPin(name=f"GP{bank}{i}", pin=MCP_PINS[f"GP{bank}{i}"], side="left")
                for bank in "AB" for i in range(8)]
        pins += [elm.IcPin(name=n, pin=MCP_PINS[n], side="right")
                 for n in ("VDD", "VSS", "SDA", "SCL", "INTA", "RESET", "A0", "A1", "A2")]
        ic = elm.Ic(pins=pins, pinspacing=0.6, edgepadH=0.4, leadlen=0.5,
                    label=f"U{index + 1} MCP23017 0x{address:02X}", lblloc="top")
        drawing += ic.at((x, y)).anchor("center")
        for bank in "AB":
            for i in range(8):
                name = f"GP{bank}{i}"
                used = by_pin.get((address, name))
                text = (f"cell {used[0]} {used[1]}" if used
                        else "output-only: leave free" if i == 7 else "unused")
                drawing += elm.Label().at(getattr(ic, name)).label(
                    text, loc="left", halign="right", ofst=(-0.2, 0))
        interrupt = (f"GPIO{interrupts[index]}" if index < len(interrupts) else "polled")
        right = {"VDD": "3V3 (REG1)", "VSS": "GND", "SDA": "SDA GPIO2", "SCL": "SCL GPIO3",
                 "INTA": interrupt, "RESET": "3V3"}
        for b in range(3):
            right[f"A{b}"] = "3V3" if address - 0x20 >> b & 1 else "GND"
        for name, text in right.items():
            drawing += elm.Label().at(getattr(ic, name)).label(
                text, loc="right", halign="left", ofst=(0.2, 0))
    return drawing.get_imagedata("svg").decode("utf-8")
