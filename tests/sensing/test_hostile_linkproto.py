"""The sensor-link parser against whatever a broken or hostile sender writes.

Property-based (hypothesis): random bytes, frames cut short, lines far over the limit,
corrupted CRCs, valid frames buried in junk and split at arbitrary points. The parser must
never raise, never accept a damaged frame as a different one, and read every valid frame
that starts on a line of its own, whatever came before it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lanes import examples

from firmware_bridge.linkproto import (
    MAX_LINE,
    DropReason,
    Fault,
    Frame,
    Hello,
    Leds,
    LineAssembler,
    LinkError,
    Query,
    State,
    crc8,
    encode,
    parse_line,
)

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
fuzz = settings(
    max_examples=examples(2000 if FULL else 150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

WORD = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="*"),
    min_size=1,
    max_size=20,
)
frames: st.SearchStrategy[Frame] = st.one_of(
    st.builds(Hello, firmware=WORD, board_id=WORD, cells=st.integers(1, 1024)),
    st.builds(State, seq=st.integers(0, 65535), bits=st.integers(0, 2**200 - 1)),
    st.builds(Fault, code=WORD, message=st.lists(WORD, max_size=4).map(" ".join)),
    st.just(Query()),
    st.builds(Leds, bits=st.integers(0, 2**32 - 1)),
)


def encoded(frame: Frame) -> bytes:
    try:
        return encode(frame)
    except ValueError:  # too long for one line: not a frame a sender can write
        assume(False)
        raise


def read_stream(chunks: list[bytes]) -> tuple[list[Frame], list[LinkError]]:
    """What a receiver makes of a byte stream arriving in ``chunks``."""
    assembler = LineAssembler()
    got: list[Frame] = []
    dropped: list[LinkError] = []
    for chunk in chunks:
        for line in assembler.feed(chunk):
            result = parse_line(line)
            (dropped if isinstance(result, LinkError) else got).append(result)
    return got, dropped


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def is_subsequence(needles: list[Frame], haystack: list[Frame]) -> bool:
    it = iter(haystack)
    return all(any(n == h for h in it) for n in needles)


def assert_frame_or_reason(result: object, cells: int | None) -> None:
    """A dropped line with its reason, or a frame that reads back from what it writes."""
    assert isinstance(result, LinkError | Hello | State | Fault | Query | Leds)
    if not isinstance(result, LinkError):
        assert parse_line(encode(result), cells) == result


# -- single lines -----------------------------------------------------------------------------


@fuzz
@given(st.binary(max_size=4 * MAX_LINE), st.one_of(st.none(), st.integers(0, 512)))
def test_random_bytes_never_raise_and_always_give_a_frame_or_a_reason(
    data: bytes, cells: int | None
) -> None:
    result = parse_line(data, cells)
    assert_frame_or_reason(result, cells)


@fuzz
@given(frames, st.data())
def test_a_frame_cut_short_is_never_accepted(frame: Frame, data: st.DataObject) -> None:
    line = encoded(frame)
    cut = data.draw(st.integers(0, len(line) - 2), label="cut")  # keep less than text+CRC
    result = parse_line(line[:cut])
    assert isinstance(result, LinkError)
    assert result.reason in (DropReason.MALFORMED, DropReason.BAD_CRC), result


@fuzz
@given(frames, st.integers(0, 255))
def test_every_wrong_crc_is_dropped_as_bad_crc(frame: Frame, crc: int) -> None:
    text = encoded(frame)[:-4]
    assume(crc != crc8(text))
    result = parse_line(text + b"*%02X\n" % crc)
    assert isinstance(result, LinkError) and result.reason is DropReason.BAD_CRC


@fuzz
@given(frames, st.data())
def test_a_flipped_bit_never_turns_a_frame_into_another(frame: Frame,
                                                        data: st.DataObject) -> None:
    line = bytearray(encoded(frame))
    index = data.draw(st.integers(0, len(line) - 2), label="byte")  # not the newline
    line[index] ^= 1 << data.draw(st.integers(0, 7), label="bit")
    result = parse_line(bytes(line))
    # Either dropped, or the very same frame (a CRC digit's case flipped: 'A' <-> 'a').
    assert isinstance(result, LinkError) or result == frame


@fuzz
@given(st.binary(min_size=MAX_LINE - 1, max_size=8 * MAX_LINE))
def test_over_long_lines_are_dropped_as_too_long(data: bytes) -> None:
    line = data.replace(b"\n", b"x") + b"\n"
    assume(len(line) > MAX_LINE)
    result = parse_line(line)
    assert isinstance(result, LinkError) and result.reason is DropReason.TOO_LONG


@fuzz
@given(st.integers(1, 256), st.integers(0, 2**300 - 1), st.integers(0, 65535))
def test_a_state_naming_a_cell_the_board_lacks_is_malformed(
    cells: int, bits: int, seq: int
) -> None:
    result = parse_line(encode(State(seq, bits)), cells)
    if bits >> cells:
        assert isinstance(result, LinkError) and result.reason is DropReason.MALFORMED
    else:
        assert result == State(seq, bits)


# -- byte streams -----------------------------------------------------------------------------

junk_lines = st.one_of(
    st.binary(max_size=80),  # noise
    st.binary(min_size=MAX_LINE, max_size=3 * MAX_LINE),  # a runaway line
    frames.map(lambda f: encode(f)[: len(encode(f)) // 2]),  # a frame cut short
    frames.map(lambda f: encode(f)[:-3] + b"00\n"),  # a CRC gone wrong (or right, by luck)
).map(lambda junk: junk.replace(b"\n", b"") + b"\n")


@fuzz
@given(
    st.lists(st.tuples(junk_lines, frames), min_size=1, max_size=12),
    st.lists(st.integers(0, 10_000), max_size=30),
    st.booleans(),
)
def test_every_valid_frame_among_junk_is_read_whatever_the_chunking(
    items: list[tuple[bytes, Frame]], cuts: list[int], crlf: bool
) -> None:
    sent = [f for _, f in items]
    stream = b"".join(junk + encoded(f)[:-1] + (b"\r\n" if crlf else b"\n") for junk, f in items)
    got, dropped = read_stream(split(stream, cuts))
    assert is_subsequence(sent, got), f"lost a frame: sent {sent}, read {got}"
    assert len(got) + len(dropped) >= len(sent)


@fuzz
@given(frames, st.integers(MAX_LINE, 50 * MAX_LINE), st.integers(1, 4096))
def test_a_runaway_sender_does_not_grow_the_buffer_and_the_next_frame_is_read(
    frame: Frame, junk_size: int, chunk: int
) -> None:
    stream = b"J" * junk_size + b"\n" + encoded(frame)
    assembler = LineAssembler()
    lines: list[bytes] = []
    for start in range(0, len(stream), chunk):
        lines += assembler.feed(stream[start : start + chunk])
        assert all(len(line) <= MAX_LINE + 1 for line in lines)
    assert parse_line(lines[0]) == LinkError(DropReason.TOO_LONG, f"{MAX_LINE + 1} bytes")
    assert parse_line(lines[-1]) == frame
    assert len(lines) == 2
