"""The sensor-link frame codec against docs/sensor-link.md ("Lines and frames")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.linkproto import (
    MAX_LINE,
    DropReason,
    Fault,
    Hello,
    Leds,
    LineAssembler,
    LinkError,
    Query,
    State,
    crc8,
    encode,
    encode_frame,
    parse_line,
)

pytestmark = pytest.mark.unit


def test_crc8_smbus_check_value_is_f4() -> None:
    assert crc8(b"123456789") == 0xF4


def test_crc8_of_nothing_is_zero() -> None:
    assert crc8(b"") == 0


def test_encode_frame_appends_upper_case_crc_and_newline() -> None:
    assert encode_frame("123456789") == b"123456789*F4\n"


def test_encode_frame_refuses_non_printable_text() -> None:
    with pytest.raises(ValueError, match="printable ASCII"):
        encode_frame("S 1 f\n")


def test_encode_frame_refuses_a_line_longer_than_256_bytes() -> None:
    with pytest.raises(ValueError, match="longer than 256"):
        encode_frame("E x " + "a" * 260)


@pytest.mark.parametrize(
    "frame",
    [
        Hello(firmware="1.2.0", board_id="club-7", cells=24),
        State(seq=65535, bits=0x80_0001),
        State(seq=0, bits=0),
        Fault("i2c", "expander 0x20 missing"),
        Fault("brownout"),
        Query(),
        Leds(0x5),
    ],
)
def test_every_frame_survives_a_round_trip(frame: object) -> None:
    assert parse_line(encode(frame)) == frame  # type: ignore[arg-type]


def test_fault_without_text_has_no_trailing_space() -> None:
    line = encode(Fault("i2c"))
    assert line.startswith(b"E i2c*")


def test_crc_may_be_read_in_lower_case() -> None:
    text = "S 3 ab"
    line = f"{text}*{crc8(text.encode()):02x}\n".encode()
    assert parse_line(line) == State(3, 0xAB)


def test_carriage_return_before_newline_is_ignored() -> None:
    assert parse_line(encode(State(1, 2)).replace(b"\n", b"\r\n")) == State(1, 2)


def test_hex_bits_in_upper_case_with_leading_zeros_are_read() -> None:
    text = "S 9 000F"
    assert parse_line(encode_frame(text)) == State(9, 0xF)


def _reason(line: bytes, cells: int | None = None) -> DropReason:
    result = parse_line(line, cells)
    assert isinstance(result, LinkError), result
    return result.reason


def test_line_longer_than_256_bytes_is_dropped_as_too_long() -> None:
    assert _reason(b"E x " + b"a" * 300 + b"\n") is DropReason.TOO_LONG


def test_line_of_exactly_256_bytes_with_crlf_is_accepted() -> None:
    text = "E x " + "a" * (MAX_LINE - 4 - 5)
    line = encode_frame(text).replace(b"\n", b"\r\n")
    assert len(line) == MAX_LINE
    assert parse_line(line) == Fault("x", "a" * (MAX_LINE - 9))


def test_non_ascii_byte_is_dropped_as_not_ascii() -> None:
    assert _reason(b"S 1 \xff*00\n") is DropReason.NOT_ASCII


def test_control_character_is_malformed() -> None:
    assert _reason(b"S 1\t2*00\n") is DropReason.MALFORMED


def test_wrong_crc_is_dropped_as_bad_crc() -> None:
    line = bytearray(encode(State(5, 0x10)))
    line[-2] = ord("0") if line[-2] != ord("0") else ord("1")
    assert _reason(bytes(line)) is DropReason.BAD_CRC


def test_flipped_payload_bit_is_caught_by_the_crc() -> None:
    assert _reason(encode(State(5, 0x10)).replace(b"10*", b"11*")) is DropReason.BAD_CRC


@pytest.mark.parametrize(
    "text",
    [
        "S 1",  # no bits
        "S 1 2 3",  # one field too many
        "S  1 2",  # double space
        "S 1 2 ",  # trailing space
        "S -1 2",  # negative sequence
        "S 65536 2",  # sequence beyond 16 bits
        "S 1 xyz",  # bits not hex
        "H 1 fw board",  # hello without cells
        "H 2 fw board 8",  # protocol 2
        "H 1 fw board 0",  # no cells
        "E",  # fault without a code
        "L zz",
        "? 1",
    ],
)
def test_malformed_frames_are_dropped(text: str) -> None:
    assert _reason(encode_frame(text)) is DropReason.MALFORMED


def test_line_without_crc_is_malformed() -> None:
    assert _reason(b"S 1 2\n") is DropReason.MALFORMED


def test_crc_of_three_digits_is_malformed() -> None:
    assert _reason(b"S 1 2*0AB\n") is DropReason.MALFORMED


def test_state_bit_at_the_cell_count_is_malformed() -> None:
    line = encode(State(1, 1 << 8))
    assert parse_line(line, cells=9) == State(1, 1 << 8)
    assert _reason(line, cells=8) is DropReason.MALFORMED


def test_unknown_frame_type_is_dropped_as_unknown() -> None:
    assert _reason(encode_frame("X 1 2")) is DropReason.UNKNOWN_TYPE


@given(st.binary(max_size=300))
def test_nothing_a_sender_writes_makes_parse_line_raise(data: bytes) -> None:
    result = parse_line(data, cells=16)
    assert isinstance(result, LinkError | Hello | State | Fault | Query | Leds)
    if not isinstance(result, LinkError):  # a frame: what the sender writes for it reads back
        assert parse_line(encode(result), cells=16) == result


def test_assembler_splits_lines_across_chunks() -> None:
    asm = LineAssembler()
    line = encode(State(1, 3))
    assert asm.feed(line[:4]) == []
    assert asm.feed(line[4:] + line) == [line, line]


def test_assembler_resynchronises_after_junk() -> None:
    asm = LineAssembler()
    good = encode(State(2, 1))
    lines = asm.feed(b"\x00\xffgarbage" + b"\n" + good)
    assert [parse_line(x) for x in lines][-1] == State(2, 1)
    assert isinstance(parse_line(lines[0]), LinkError)


def test_assembler_cuts_an_endless_line_and_recovers_at_the_next_newline() -> None:
    asm = LineAssembler()
    out = asm.feed(b"x" * 1000)
    assert len(out) == 1 and _reason(out[0]) is DropReason.TOO_LONG
    assert asm.feed(b"y" * 5000) == []
    good = encode(State(3, 7))
    assert asm.feed(b"tail\n" + good) == [good]
