"""``skitter serve`` that cannot serve says why in one line, before any banner, and makes no
PIN: a port another program holds, a data folder another server holds.

The second server on one data folder is refused while the first runs (the lock file names
the first's process), the folder is free again once the first stops, and a lock file left by
a crash (its process gone) is taken over.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from ports import free_port
from serve_proc import ROOT, start, stop, wait_ready

from skitter_cli.folder_lock import LOCK_FILE_NAME, FolderInUse, FolderLock
from web_common.pin import PIN_FILE_NAME


def serve(data: Path, port: int, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    env.update(HOME=str(data), LANG="C.UTF-8")
    return subprocess.run(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--data-dir", str(data),
         "--port", str(port), *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )


def test_a_taken_port_is_one_line_naming_it_and_how_to_choose_another(tmp_path: Path) -> None:
    with socket.socket() as holder:  # another program listening on a port the OS gave it
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = serve(tmp_path / "data", port)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"port {port} is in use by another program" in lines[0]
    assert "--port" in lines[0]
    assert "Errno" not in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""  # no addresses, no "Ctrl-C stops", no PIN
    assert not (tmp_path / "data" / PIN_FILE_NAME).exists()


def test_the_taken_port_is_told_in_german(tmp_path: Path) -> None:
    config = tmp_path / "skitter.toml"
    config.write_text('language = "de"\n')
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = serve(tmp_path / "data", port, "--config", str(config))
    assert result.returncode == 1
    assert f"Port {port}" in result.stderr and "--port" in result.stderr
    assert "in use" not in result.stderr


def test_a_second_server_on_one_data_folder_names_the_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first_port = free_port()
    first = start(data, first_port, "--pin", "246810")
    try:
        wait_ready(first_port, first)
        lock = data / LOCK_FILE_NAME
        assert lock.read_text().strip() == str(first.pid)
        second = serve(data, free_port())
        assert second.returncode == 1
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert f"the data folder {data} is in use by another skitter serve" in lines[0]
        assert f"(process {first.pid})" in lines[0] and "--data-dir" in lines[0]
        assert second.stdout == ""
        assert lock.read_text().strip() == str(first.pid)  # the refused one wrote nothing
    finally:
        stop(first)
    # Released on exit: the folder is free, and the lock file names no one.
    assert (data / LOCK_FILE_NAME).read_text() == ""
    again = FolderLock(data)
    again.acquire()
    again.release()


def test_a_lock_left_by_a_crash_is_taken_over(tmp_path: Path) -> None:
    data = tmp_path / "data"
    crashed = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                             capture_output=True, text=True, check=True)
    gone = int(crashed.stdout)
    data.mkdir()
    (data / LOCK_FILE_NAME).write_text(f"{gone}\n")  # as a killed server leaves it
    port = free_port()
    proc = start(data, port, "--pin", "246810")
    try:
        wait_ready(port, proc)
        assert (data / LOCK_FILE_NAME).read_text().strip() == str(proc.pid)
    finally:
        stop(proc)


def test_the_lock_is_held_by_one_holder_at_a_time(tmp_path: Path) -> None:
    first, second = FolderLock(tmp_path), FolderLock(tmp_path)
    first.acquire()
    try:
        second.acquire()
    except FolderInUse as exc:
        assert exc.pid == os.getpid() and exc.folder == tmp_path
    else:
        raise AssertionError("a second holder took the folder")
    finally:
        first.release()
    second.acquire()
    second.release()
