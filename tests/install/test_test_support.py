"""The test suite's own tools: ports no other test can take, and the list of tests that
cannot fail."""

from __future__ import annotations

import socket
import textwrap
from pathlib import Path

import pytest
from find_assertless import assertless
from ports import free_port, held_count, listening_socket, release_ports


def test_a_port_handed_out_is_the_tests_alone_until_it_ends() -> None:
    mark = held_count()
    port = free_port()
    try:
        with socket.socket() as other, pytest.raises(OSError):  # a probe, or a server
            other.bind(("127.0.0.1", port))  # without SO_REUSEADDR
        for _ in range(200):  # the OS hands it to no one else
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                assert s.getsockname()[1] != port
        with socket.socket() as server:  # the test's own server (uvicorn, Mosquitto)
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", port))
            server.listen()
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                pass
    finally:
        release_ports(mark)
    assert held_count() == mark


def test_a_listening_socket_answers_at_once() -> None:
    with listening_socket() as sock:
        port = sock.getsockname()[1]
        assert port > 0
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass


def test_tests_asserting_nothing_or_only_a_type_are_listed(tmp_path: Path) -> None:
    root = tmp_path / "tests"
    (root / "support").mkdir(parents=True)
    (root / "support" / "checks.py").write_text("def check_seen(x):\n    assert x\n")
    area = root / "area"
    area.mkdir()
    (area / "test_some.py").write_text(textwrap.dedent("""
        import pytest
        from checks import check_seen

        def helper(x):
            assert x == 1

        def test_asserts():
            assert 1 + 1 == 2

        def test_through_a_helper():
            helper(1)

        def test_through_a_shared_helper():
            check_seen(True)

        def test_raises():
            with pytest.raises(ValueError):
                int("x")

        def test_nothing():
            int("1")

        def test_a_type_only():
            assert isinstance(int("1"), int)

        class TestGroup:
            def test_nothing_either(self):
                print("hello")
    """))
    found = assertless(root, root)
    assert [line.split()[-1] if "(" not in line else line.split()[1] for line in found] == [
        "test_nothing", "test_a_type_only", "test_nothing_either"]
    assert found[1].endswith("(asserts only isinstance)")


def test_the_suite_has_no_test_that_cannot_fail() -> None:
    tests = Path(__file__).resolve().parents[1]
    assert assertless(tests, tests) == []
