"""Board profiles: the default board loads, and every builder's mistake is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge.profile import (
    ProfileError,
    default_profile_path,
    load_profile,
    loads_profile,
)
from scorekeeper.fields import field_names

pytestmark = pytest.mark.unit

MINIMAL = """
name = "tiny"
cells = {cells}
{extra_top}
[fields.black.red]
cells = [0]
[fields.black.yellow]
cells = [1]
[fields.black.blue]
cells = [2]
[fields.white.red]
cells = [3]
[fields.white.yellow]
cells = [4]
[fields.white.blue]
cells = [5]
[fields.minus]
cells = [6]
{extra}
"""


def tiny(extra: str = "", *, cells: int = 16, extra_top: str = "") -> str:
    return MINIMAL.format(cells=cells, extra=extra, extra_top=extra_top)


def refused(text: str, message: str) -> None:
    with pytest.raises(ProfileError, match=re.escape(message)):
        loads_profile(text)


# -- the default board -----------------------------------------------------------------------


def test_default_profile_is_found_next_to_the_package():
    assert default_profile_path().is_file()
    assert default_profile_path().parts[-3:] == ("hardware", "boards", "default.toml")


def test_default_profile_is_a_plausible_eight_expander_board():
    profile = load_profile()
    assert profile.field_names == field_names()
    assert profile.mcp23017 is not None
    assert profile.mcp23017.addresses == tuple(range(0x20, 0x28))
    assert profile.mcp23017.active_low is True
    assert profile.cells == 128 and len(profile.cell_roles()) == 112  # every input pin used
    assert len(profile.gpio.interrupt) == 8
    # the circle and the ring of each colour field: a round won on one field takes 7 skitts
    assert all(len(profile.fields[f].cells) == 14 for f in field_names()[:-1])
    assert all(profile.fields[f].capacity >= 7 for f in field_names()[:-1])
    assert len(profile.fields["minus"].cells) == profile.fields["minus"].capacity == 20
    assert set(profile.big) == {"black", "white"} == set(profile.launch)
    assert {b.fields for b in profile.bridges} == {
        ("black.red", "black.yellow"), ("black.yellow", "black.blue"),
        ("white.red", "white.yellow"), ("white.yellow", "white.blue"),
    }
    assert (profile.debounce_ms, profile.settle_ms) == (20, 300)


def test_default_profile_keeps_off_the_output_only_pins():
    used = load_profile().cell_roles()
    assert not [c for c in used if c % 16 in (7, 15)]


def test_default_count_map_is_one_skitt_per_cell():
    assert load_profile().fields["white.red"].counts == tuple(range(15))
    assert load_profile().fields["white.red"].capacity == 14


def test_describe_cell_names_field_expander_and_pin():
    assert load_profile().describe_cell(24) == "cell 24 (white.yellow, 0x21 GPB0)"


def test_serial_defaults_are_the_pico_usb_ids():
    profile = loads_profile(tiny())
    assert profile.serial.usb_ids == ((0x2E8A, 0x0005), (0x239A, 0x80F4))
    assert profile.serial.baudrate == 115200


def test_profile_file_not_found_is_a_profile_error(tmp_path: Path):
    with pytest.raises(ProfileError, match="not found"):
        load_profile(tmp_path / "nope.toml")


def test_profile_error_names_the_file(tmp_path: Path):
    path = tmp_path / "board.toml"
    path.write_text(tiny("[big]\nblack = [99]\n"))
    with pytest.raises(ProfileError, match=re.escape(f"{path}: big.black: cell 99")):
        load_profile(path)


def test_quoted_field_names_work_as_well_as_nested_tables():
    text = tiny().replace("[fields.white.red]", '[fields."white.red"]')
    assert loads_profile(text).fields["white.red"].cells == (3,)


# -- what a builder gets wrong ---------------------------------------------------------------


def test_unknown_field_is_refused():
    refused(tiny("[fields.white.green]\ncells = [9]\n"), "fields: unknown field 'white.green'")


def test_missing_field_is_refused():
    text = tiny().replace("[fields.minus]\ncells = [6]\n", "")
    refused(text, "fields: missing field 'minus'")


def test_cell_used_twice_is_refused():
    refused(tiny("[launch]\nblack = [3]\n"),
            "launch.black: cell 3 is used twice (already in fields.white.red.cells)")


def test_cell_out_of_range_is_refused():
    refused(tiny("[big]\nwhite = [16]\n", cells=16),
            "big.white: cell 16 out of range 0..15 (cells = 16)")


def test_sensor_on_gpa7_is_refused_as_output_only():
    text = tiny("[big]\nblack = [7]\n[mcp23017]\naddresses = [0x20]\n")
    refused(text, "big.black: cell 7 is GPA7 of the MCP23017 at 0x20, output-only on current "
                  "silicon")


def test_sensor_on_gpb7_of_second_expander_is_refused():
    text = tiny("[big]\nwhite = [31]\n[mcp23017]\naddresses = [0x20, 0x24]\n", cells=32)
    refused(text, "cell 31 is GPB7 of the MCP23017 at 0x24, output-only on current silicon")


def test_gpa7_is_fine_without_expanders():
    assert loads_profile(tiny("[big]\nblack = [7]\n")).big["black"] == (7,)


def test_expander_address_out_of_range_is_refused():
    refused(tiny("[mcp23017]\naddresses = [0x28]\n"),
            "mcp23017.addresses: address 0x28 out of range 0x20-0x27")


def test_more_cells_than_expander_pins_is_refused():
    refused(tiny("[mcp23017]\naddresses = [0x20]\n", cells=20),
            "cells: 20 cells but 1 MCP23017 expander(s) have only 16 pins")


def test_duplicate_gpio_pin_is_refused():
    text = tiny("[gpio]\ninterrupt = [17]\n[gpio.buttons.black]\nundo = 17\n")
    refused(text, "gpio.buttons.black.undo: GPIO pin 17 is used twice (already gpio.interrupt)")


def test_gpio_pin_out_of_range_is_refused():
    refused(tiny("[gpio]\nleds = { black = 28 }\n"),
            "gpio.leds.black: GPIO pin 28 out of range (BCM 0-27)")


def test_gpio_pin_of_the_i2c_bus_is_refused_with_expanders():
    refused(tiny("[mcp23017]\naddresses = [0x20]\n[gpio]\ninterrupt = [2]\n"),
            "gpio.interrupt: GPIO pin 2 is the I2C bus's SDA, which the MCP23017 expanders use")


def test_unknown_button_is_refused():
    refused(tiny("[gpio.buttons.black]\nfire = 5\n"),
            "gpio.buttons.black: unknown button 'fire'")


def test_count_map_of_wrong_length_is_refused():
    text = tiny().replace("[fields.minus]\ncells = [6]", "[fields.minus]\ncells = [6]\n"
                          "counts = [0, 1, 2]")
    refused(text, "fields.minus.counts: expected 2 counts (for 0..1 active cells)")


def test_decreasing_count_map_is_refused():
    text = tiny(cells=16).replace("[fields.minus]\ncells = [6]",
                                  "[fields.minus]\ncells = [6, 7]\ncounts = [0, 2, 1]")
    refused(text, "fields.minus.counts: counts must not decrease")


def test_a_capacity_names_the_most_skitts_the_counts_are_trusted_for():
    text = tiny(cells=16).replace("[fields.minus]\ncells = [6]",
                                  "[fields.minus]\ncells = [6, 7]\ncounts = [0, 1, 3]\n"
                                  "capacity = 2")
    minus = loads_profile(text).fields["minus"]
    assert minus.capacity == 2
    assert [minus.count_for(k) for k in range(3)] == [0, 1, 2]  # 2 means "2 or more"
    assert minus.capacity_with(muted=1) == 1


def test_a_capacity_beyond_the_counts_is_refused():
    text = tiny().replace("[fields.minus]\ncells = [6]", "[fields.minus]\ncells = [6]\n"
                          "capacity = 2")
    refused(text, "fields.minus.capacity: 2 is more than the counts reach (1 with every cell")
    refused(tiny().replace("[fields.minus]\ncells = [6]", "[fields.minus]\ncells = [6]\n"
                           "capacity = 0"), "fields.minus.capacity")


def test_bridge_across_sides_is_refused():
    refused(tiny('[[bridges]]\nfields = ["black.red", "white.red"]\ncells = [9]\n'),
            "bridges[0].fields: a bridge joins two different fields on the same side")


def test_unknown_top_level_key_is_refused():
    refused(tiny(extra_top="debounce = 5"), "unknown key 'debounce'")


def test_first_colour_must_be_red():
    refused(tiny(extra_top='colors = ["blue", "yellow", "red"]'),
            "colors: the first colour must be 'red'")


def test_missing_cells_count_is_refused():
    refused(tiny().replace("cells = 16\n", "", 1), "cells: expected an integer, got None")


def test_bad_toml_is_a_profile_error():
    refused("cells = [", "not valid TOML")


def test_i2c_bus_defaults_to_the_headers_bus_1_and_may_be_another():
    assert loads_profile(tiny("[mcp23017]\naddresses = [0x20]\n")).mcp23017.bus == 1
    assert loads_profile(tiny("[mcp23017]\naddresses = [0x20]\nbus = 13\n")).mcp23017.bus == 13
    refused(tiny("[mcp23017]\naddresses = [0x20]\nbus = -1\n"),
            "mcp23017.bus: expected at least 0, got -1")
