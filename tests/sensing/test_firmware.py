"""The RP2040 firmware's pure logic (hardware/firmware/skitterlink.py) under CPython, and
code.py's main loop on stand-ins for CircuitPython's modules."""

from __future__ import annotations

import importlib.util
import random
import runpy
import sys
import tomllib
import types
from pathlib import Path

import pytest

from firmware_bridge.linkproto import Fault, Hello, LineAssembler, State, encode_frame, parse_line

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"


def _load_skitterlink() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("skitterlink", FIRMWARE / "skitterlink.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sk = _load_skitterlink()


def frames(data: bytes, cells: int | None = None) -> list[object]:
    return [parse_line(line, cells) for line in LineAssembler().feed(data)]


def states(data: bytes) -> list[State]:
    return [f for f in frames(data) if isinstance(f, State)]


def test_firmware_crc_matches_the_check_value_and_the_host() -> None:
    assert sk.crc8(b"123456789") == 0xF4
    assert sk.frame("S 4 1f") == encode_frame("S 4 1f")


def test_boot_sends_hello_then_the_full_state() -> None:
    fw = sk.Firmware(24, "club-7", "1.0.0")
    out = frames(fw.boot(1000, raw=0b110), cells=24)
    assert out == [Hello("1.0.0", "club-7", 24), State(0, 0b110)]


def test_boot_after_a_brownout_reports_the_fault() -> None:
    fw = sk.Firmware(4, "b", "1")
    out = frames(fw.boot(0, brownout=True))
    assert Fault("brownout", "reset by low supply voltage") in out


def test_change_held_for_the_debounce_time_is_reported_once() -> None:
    fw = sk.Firmware(8, "b", "1", heartbeat_ms=10_000)
    fw.boot(0)
    assert fw.step(1, 0b1) == b""  # just changed
    assert fw.step(10, 0b1) == b""  # 9 ms
    assert states(fw.step(11, 0b1)) == [State(1, 0b1)]  # held 10 ms
    assert fw.step(30, 0b1) == b""


def test_blip_shorter_than_the_debounce_time_is_never_reported() -> None:
    fw = sk.Firmware(8, "b", "1", heartbeat_ms=10_000)
    fw.boot(0)
    for now, raw in ((100, 0b100), (105, 0), (108, 0b100), (112, 0), (200, 0)):
        assert fw.step(now, raw) == b""


@pytest.mark.parametrize("max_step_ms", [1, 10, 45])
def test_heartbeat_never_leaves_more_than_200_ms_between_states(max_step_ms: int) -> None:
    rng = random.Random(max_step_ms)
    fw = sk.Firmware(16, "b", "1")
    now = 5000
    sent = [now]
    fw.boot(now)
    while now < 15000:
        now += rng.randint(1, max_step_ms)
        if states(fw.step(now, 0)):
            sent.append(now)
    assert max(b - a for a, b in zip(sent, sent[1:], strict=False)) <= 200


def test_sequence_numbers_count_up_and_wrap_to_zero() -> None:
    fw = sk.Firmware(2, "b", "1", heartbeat_ms=1)
    fw.boot(0)
    fw.seq = 65535
    assert [s.seq for s in states(fw.step(5, 0) + fw.step(10, 0))] == [65535, 0]


def test_heartbeat_survives_the_ticks_wrap() -> None:
    fw = sk.Firmware(2, "b", "1")
    now = sk.TICKS_PERIOD - 100
    fw.boot(now)
    got = b""
    for _ in range(40):
        now = (now + 10) % sk.TICKS_PERIOD
        got += fw.step(now, 0)
    assert len(states(got)) >= 2


def test_query_gets_a_hello_and_a_state_at_once() -> None:
    fw = sk.Firmware(12, "b", "1", heartbeat_ms=10_000)
    fw.boot(0)
    out = frames(fw.step(5, 0, encode_frame("?")), cells=12)
    assert out == [Hello("1", "b", 12), State(1, 0)]


def test_query_split_over_two_reads_is_answered_when_complete() -> None:
    fw = sk.Firmware(4, "b", "1", heartbeat_ms=10_000)
    fw.boot(0)
    query = encode_frame("?")
    assert fw.step(1, 0, query[:2]) == b""
    assert len(frames(fw.step(2, 0, query[2:]))) == 2


def test_led_frame_sets_the_leds() -> None:
    fw = sk.Firmware(4, "b", "1")
    fw.boot(0)
    fw.step(1, 0, encode_frame("L 5"))
    assert fw.leds == 5


def test_commands_with_bad_crc_or_junk_are_dropped() -> None:
    fw = sk.Firmware(4, "b", "1", heartbeat_ms=10_000)
    fw.boot(0)
    assert fw.step(1, 0, b"?*00\n" + b"\xff\xfe\n" + b"x" * 600 + b"\n") == b""
    assert fw.dropped == 3
    assert len(frames(fw.step(2, 0, encode_frame("?")))) == 2


def test_stalled_loop_reports_an_overrun_fault() -> None:
    fw = sk.Firmware(4, "b", "1")
    fw.boot(0)
    out = frames(fw.step(350, 0))
    assert Fault("overrun", "loop stalled 350 ms") in out


# --- code.py on stand-ins for CircuitPython ------------------------------------------------


class _StopLoop(Exception):
    pass


class _Port:
    def __init__(self, to_board: bytes) -> None:
        self.timeout: float | None = None
        self.write_timeout: float | None = None
        self.connected = True
        self.rx = bytearray(to_board)
        self.tx = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.rx)

    def read(self, n: int) -> bytes:
        data, self.rx = bytes(self.rx[:n]), self.rx[n:]
        return data

    def write(self, data: bytes) -> int:
        self.tx += data
        return len(data)


def _fake_circuitpython(
    monkeypatch: pytest.MonkeyPatch, port: _Port, low_pins: set[str], passes: int,
    **settings: str,
) -> None:
    """CircuitPython's modules, and its ``os.getenv`` reading the shipped ``settings.toml``
    (with ``settings`` changed, as a builder edits it on the drive)."""
    shipped = tomllib.loads((FIRMWARE / "settings.toml").read_text())
    for key, value in {**shipped, **settings}.items():
        monkeypatch.setenv(key, value)
    board = types.ModuleType("board")
    for name in [f"GP{i}" for i in range(29)] + ["LED"]:
        setattr(board, name, name)

    class DigitalInOut:
        def __init__(self, pin: str) -> None:
            self.pin = pin
            self.pull = None

        def switch_to_input(self, pull: object = None) -> None:
            self.pull = pull

        def switch_to_output(self, value: bool = False) -> None:
            self._value = value

        @property
        def value(self) -> bool:
            return self.pin not in low_pins

        @value.setter
        def value(self, v: bool) -> None:
            self._value = v

    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut  # type: ignore[attr-defined]
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")  # type: ignore[attr-defined]
    reasons = types.SimpleNamespace(BROWNOUT="brownout", POWER_ON="power_on")
    microcontroller = types.ModuleType("microcontroller")
    microcontroller.ResetReason = reasons  # type: ignore[attr-defined]
    microcontroller.cpu = types.SimpleNamespace(reset_reason="power_on")  # type: ignore[attr-defined]
    ticks = iter(range(0, passes * 5, 5))
    supervisor = types.ModuleType("supervisor")

    def ticks_ms() -> int:
        for t in ticks:
            return t
        raise _StopLoop

    supervisor.ticks_ms = ticks_ms  # type: ignore[attr-defined]
    usb_cdc = types.ModuleType("usb_cdc")
    usb_cdc.data = port  # type: ignore[attr-defined]
    usb_cdc.console = None  # type: ignore[attr-defined]
    for module in (board, digitalio, microcontroller, supervisor, usb_cdc):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(sys.modules, "skitterlink", sk)


def test_code_py_reports_low_pins_as_magnets_and_answers_queries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = _Port(encode_frame("?"))
    _fake_circuitpython(monkeypatch, port, low_pins={"GP2", "GP26"}, passes=100)
    with pytest.raises(_StopLoop):
        runpy.run_path(str(FIRMWARE / "code.py"), run_name="__main__")
    out = frames(bytes(port.tx), cells=24)
    hellos = [f for f in out if isinstance(f, Hello)]
    assert hellos == [Hello("1.0.0", "skitter-1", 24)] * 2  # at boot and for the `?`
    sent = [f for f in out if isinstance(f, State)]
    assert sent and all(s.bits == (1 << 0) | (1 << 21) for s in sent)  # GP2, GP26
    assert [s.seq for s in sent] == list(range(len(sent)))


def test_code_py_reads_the_reference_boards_eight_expanders_over_i2c(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """With ``EXPANDERS`` set the Pico carries the reference board: 128 cells read from
    emulated MCP23017 register models, the same cell numbers as the Pi's source."""
    from emulation.i2c import FakeI2C

    from firmware_bridge.profile import load_profile

    profile = load_profile()
    addresses = profile.mcp23017.addresses  # type: ignore[union-attr]
    bus = FakeI2C(addresses)
    for cell in (0, 36, 126):  # black.red, black's centre spot, the minus field's last
        bus.magnet(cell, True)
    busio = types.ModuleType("busio")
    busio.I2C = lambda scl, sda, frequency=100000: bus  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "busio", busio)
    port = _Port(encode_frame("?"))
    _fake_circuitpython(monkeypatch, port, low_pins=set(), passes=120,
                        SKITTER_EXPANDERS=",".join(f"0x{a:02x}" for a in addresses))
    bus.detach(0x27)  # one expander is off the bus at first, back after 40 passes
    reads = 0
    read = bus.writeto_then_readfrom

    def reading(address: int, *args: object, **kwargs: object) -> None:
        nonlocal reads
        reads += 1
        if reads == 8 * 40:
            bus.attach(0x27).drive(14, 0)  # and its GPB6 (cell 126) sees a magnet
        read(address, *args, **kwargs)

    bus.writeto_then_readfrom = reading  # type: ignore[method-assign]
    with pytest.raises(_StopLoop):
        runpy.run_path(str(FIRMWARE / "code.py"), run_name="__main__")
    out = frames(bytes(port.tx), cells=profile.cells)
    assert [f for f in out if isinstance(f, Hello)] == [Hello("1.0.0", "skitter-1", 128)] * 2
    sent = [f.bits for f in out if isinstance(f, State)]
    seen = (1 << 0) | (1 << 36)
    assert sent[0] == seen and sent[-1] == seen | 1 << 126  # 0x27 read once it answers
    assert set(sent) == {seen, seen | 1 << 126}
    faults = [f for f in out if isinstance(f, Fault)]
    assert [(f.code, f.message) for f in faults] == [("i2c", "expander 0x27 not answering")]
    for address in addresses:  # every chip configured, 0x27 once it came back
        chip = bus.chips[address]
        assert chip.regs[0x0C] == chip.regs[0x0D] == 0x7F  # pull-ups on the inputs
        assert chip.regs[0x00] == chip.regs[0x01] == 0x7F  # GPA7/GPB7 outputs


# --- settings.toml: the board's settings, where CircuitPython reads them ----------------


def test_the_shipped_settings_are_valid_toml_of_strings_circuitpython_reads() -> None:
    settings = tomllib.loads((FIRMWARE / "settings.toml").read_text())
    assert set(settings) == {"SKITTER_BOARD_ID", "SKITTER_SENSOR_PINS", "SKITTER_EXPANDERS"}
    assert all(isinstance(v, str) for v in settings.values())
    assert len(sk.sensor_pins(settings["SKITTER_SENSOR_PINS"])) == 24
    assert sk.expander_addresses(settings["SKITTER_EXPANDERS"]) == ()
    code = (FIRMWARE / "code.py").read_text()
    assert 'os.getenv("SKITTER_BOARD_ID")' in code and "board.GP2," not in code


def test_the_reference_boards_expanders_in_settings_give_its_cells() -> None:
    from firmware_bridge.profile import load_profile

    profile = load_profile()
    assert profile.mcp23017 is not None
    text = ",".join(f"0x{a:02x}" for a in profile.mcp23017.addresses)
    assert 16 * len(sk.expander_addresses(text)) == profile.cells


def test_a_board_id_set_in_settings_is_the_one_the_board_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = _Port(encode_frame("?"))
    _fake_circuitpython(monkeypatch, port, low_pins=set(), passes=20,
                        SKITTER_BOARD_ID="table-3", SKITTER_SENSOR_PINS="2,3,4")
    with pytest.raises(_StopLoop):
        runpy.run_path(str(FIRMWARE / "code.py"), run_name="__main__")
    hellos = [f for f in frames(bytes(port.tx), cells=3) if isinstance(f, Hello)]
    assert hellos and hellos[0] == Hello("1.0.0", "table-3", 3)


@pytest.mark.parametrize("text, why", [
    ("2,x", "'x' is not a number"), ("2,30", "30 is outside 0-29"), ("2,2", "2 is listed twice"),
])
def test_a_bad_pin_list_is_refused_naming_the_setting_and_the_item(text: str, why: str) -> None:
    with pytest.raises(ValueError, match="SKITTER_SENSOR_PINS: " + why):
        sk.sensor_pins(text)


def test_an_address_no_mcp23017_answers_at_is_refused() -> None:
    with pytest.raises(ValueError, match="SKITTER_EXPANDERS: 0x30 is outside 32-39"):
        sk.expander_addresses("0x20,0x30")

