"""The test suite's own tools: ports no other test can take, the list of tests that
cannot fail, and the fast lane's order (the files that took longest first)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from find_assertless import assertless
from longest_first import CACHE_KEY, file_seconds, longest_first, remembered
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


@dataclass
class Run:
    nodeid: str
    duration: float = 0.0


def test_the_files_that_took_longest_go_first_each_in_its_own_order() -> None:
    items = [Run(n) for n in ("a.py::one", "a.py::two", "b.py::one", "c.py::one",
                              "c.py::two[1]", "c.py::two[2]", "d.py::one")]
    longest_first(items, {"c.py": 9.0, "a.py": 0.5, "gone.py": 99.0})
    assert [r.nodeid for r in items] == [
        "c.py::one", "c.py::two[1]", "c.py::two[2]", "a.py::one", "a.py::two",
        "b.py::one", "d.py::one"]  # files it does not know keep their order, after


def test_what_a_file_took_is_summed_and_kept_over_the_last_runs() -> None:
    took = file_seconds([Run("a.py::one", 1.0), Run("a.py::one", 0.25), Run("b.py::x[2]", 2.0)])
    assert took == {"a.py": 1.25, "b.py": 2.0}
    assert remembered({"a.py": 7.0, "c.py": 3.0}, took) == {"a.py": 1.25, "b.py": 2.0,
                                                             "c.py": 3.0}
    # a damaged cache counts as nothing; what it got right is kept
    assert remembered({"a.py": "slow", "c.py": 3, 4: 1.0}, {}) == {"c.py": 3.0}
    assert remembered(["a.py"], took) == took


def _fast_lane(tmp_path: Path, *args: str, lane: str = "fast") -> subprocess.CompletedProcess[str]:
    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "SKITTER_LANE": lane}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n0", "-q", "-o",
         f"cache_dir={tmp_path / 'cache'}", *args],
        cwd=tests.parent, env=env, capture_output=True, text=True, timeout=120)


def test_the_fast_lane_keeps_what_each_file_took_and_starts_with_the_longest(
    tmp_path: Path,
) -> None:
    pin, words = "tests/api/test_pin.py", "tests/api/test_catalogs.py"
    ran = _fast_lane(tmp_path, pin)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    kept = json.loads((tmp_path / "cache" / "v" / CACHE_KEY).read_text())
    assert set(kept) == {pin} and kept[pin] > 0
    listed = _fast_lane(tmp_path, "--collect-only", words, pin)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    files = [line.partition("::")[0] for line in listed.stdout.splitlines() if "::" in line]
    assert files[0] == pin and files[-1] == words, files  # given after it, run before it


@pytest.mark.parametrize("lane", ["fast", "full"])
def test_either_lane_runs_without_pytests_cache(tmp_path: Path, lane: str) -> None:
    """``make test-lowest`` runs with ``-p no:cacheprovider``: no order, nothing kept, no
    error."""
    ran = _fast_lane(tmp_path, "-p", "no:cacheprovider", "tests/api/test_pin.py", lane=lane)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "passed" in ran.stdout and not (tmp_path / "cache").exists()
