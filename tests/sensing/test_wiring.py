"""The wiring diagram and the parts list are made from the board profile, the single truth
of cells, expanders, addresses and pins: every cell of every shipped profile is in both, on
the expander pin the profile reads it from."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_bridge.profile import load_profile
from firmware_bridge.wiring import bom_csv, schematic_svg

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "firmware_bridge" / "boards").glob("*.toml"))


def svg_words(svg: str) -> set[str]:
    return {"".join(node.itertext()) for node in ET.fromstring(svg).iter()
            if node.tag.endswith("text")}


def test_profiles_are_shipped() -> None:
    assert SHIPPED, "no board profile in firmware_bridge/boards"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_cell_is_in_the_diagram_and_the_parts_list(path: Path) -> None:
    profile = load_profile(path)
    assert profile.mcp23017 is not None
    roles = profile.cell_roles()
    words = svg_words(schematic_svg(profile))
    rows = {row["ref"]: row for row in csv.DictReader(io.StringIO(bom_csv(profile)))}
    missing = []
    for cell, role in roles.items():
        address, pin = profile.mcp23017.locate(cell)
        if f"cell {cell} {role}" not in words:
            missing.append(f"diagram: cell {cell}")
        row = rows.get(f"H{cell}")
        if row is None or row["connects"] != f"cell {cell}: OUT to 0x{address:02X} {pin}" \
                or row["note"] != role:
            missing.append(f"parts list: cell {cell}")
    assert missing == []
    hall = [ref for ref in rows if ref.startswith("H")]
    assert len(hall) == len(roles)  # one switch per sensed cell, none for a free pin


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_expander_is_drawn_and_listed_at_its_address(path: Path) -> None:
    profile = load_profile(path)
    assert profile.mcp23017 is not None
    words = svg_words(schematic_svg(profile))
    rows = list(csv.DictReader(io.StringIO(bom_csv(profile))))
    for index, address in enumerate(profile.mcp23017.addresses):
        assert f"U{index + 1} MCP23017 0x{address:02X}" in words
        (row,) = [r for r in rows if r["ref"] == f"U{index + 1}"]
        assert row["connects"].startswith(f"I2C 0x{address:02X}")
        if profile.gpio and index < len(profile.gpio.interrupt):
            assert f"INTA to GPIO{profile.gpio.interrupt[index]}" in row["connects"]
    # The sensors' supply is a regulator of its own, never the Pi's 3V3 pin.
    assert rows[0]["ref"] == "REG1" and "regulator" in rows[0]["part"]


def test_skitter_hardware_writes_both(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "skitter_cli.main", "hardware", "--profile", str(SHIPPED[0]),
         "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "wiring.svg").read_text().startswith("<svg")
    assert (tmp_path / "parts.csv").read_text() == bom_csv(load_profile(SHIPPED[0]))
