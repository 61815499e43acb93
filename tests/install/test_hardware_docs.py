"""The hardware page agrees with the parts' datasheets and with the code: the Hall switch it
names is the one the parts list places, described as its order code is (response, output,
sample rate, current), the sensors have their own regulator, and the settle window and the
latency figures allow for the switch's sample period."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge.profile import load_profile
from firmware_bridge.wiring import HALL_SWITCH, REGULATOR

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.unit


def comparison_row(code: str) -> list[str]:
    (row,) = [line for line in README.splitlines() if re.match(rf"\| \**{code}\** \|", line)]
    return [cell.strip(" *") for cell in row.strip("|").split("|")]


def test_the_switch_the_parts_list_places_is_the_one_the_page_recommends() -> None:
    chosen = HALL_SWITCH.split()[0]
    assert chosen == "DRV5032FC"
    assert f"**{chosen}**" in README and "SLVSDC7" in README  # the datasheet it cites


def test_each_order_code_is_described_as_the_datasheet_has_it() -> None:
    # TI SLVSDC7, "Device Comparison": response, output, sample rate per order code.
    assert comparison_row("DRV5032FB")[2:5] == ["omnipolar", "push-pull", "5 Hz (200 ms)"]
    assert comparison_row("DRV5032FC")[2:5] == ["omnipolar", "open drain", "20 Hz (50 ms)"]
    assert comparison_row("DRV5032AJ")[1:5] == ["9.5 mT", "omnipolar", "open drain",
                                                "20 Hz (50 ms)"]
    assert "1.6 µA at 3 V" in comparison_row("DRV5032FC")[5]
    assert "unipolar, digital, open drain" not in README  # the old, wrong description


def test_the_sensors_have_their_own_regulator_not_the_pis_3v3_pin() -> None:
    assert "Power everything from the Pi's **3.3 V** rail" not in README
    assert "0.3–0.6 A" not in README
    assert "### Power" in README and "regulator" in REGULATOR


def test_the_settle_rule_covers_the_sample_period_the_latency_counts() -> None:
    profile = load_profile()
    sample_period_ms = 1000 / 20  # DRV5032FC
    assert profile.settle_ms >= 4 * sample_period_ms
    assert profile.settle is not None
    assert profile.settle.sample_ms == sample_period_ms
    assert profile.settle.land_ms >= 2 * sample_period_ms  # a passing skitt keeps a cell on
    assert "| the switch's next sample (DRV5032FC, 20 Hz) | 0–50 ms |" in README
    assert ("| settle: the landing outlasts the longest pass (`land_ms` in the profile's "
            f"`[settle]` table) | {profile.settle.land_ms} ms |") in README
    assert f"`leave_ms` ({profile.settle.leave_ms} ms)" in README
    assert f"`launch_ms` ({profile.settle.launch_ms} ms)" in README
    assert f"| debounce (`debounce_ms` in the profile) | {profile.debounce_ms} ms |" in README
