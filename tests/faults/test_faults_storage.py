"""A match log that cannot be written, is half written, or was damaged on disk.

- An amend (undo + amended shot) is one transaction: a failure between its writes (what a
  SIGKILL or a full disk does there) leaves neither row, and nothing changes in memory.
- A disk that refuses writes: the step gets 503 "match log cannot be written: <reason>",
  ``/healthz`` says so (503), the snapshot's alerts carry the same plain message, and all of
  it clears by itself once writes succeed again. Tested on a :class:`FailingDisk` and on a
  real, tiny tmpfs (root only; under ``CI`` a missing mount is a failure, not a skip).
- A damaged log is refused at start with one line naming the file: empty file, random bytes
  in page 2, a changed score digit in a stored row. It is never overwritten.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tiny_disk import fill, referee_on
from web_helpers import logged_in, place_bigs, state, step

from scorekeeper.clock import FakeClock
from scorekeeper.events import parse_event
from scorekeeper.store import SCHEMA_VERSION, MatchStore, StoreError, StoreUnwritable, open_sqlite
from web.table.table import Table


class FailingDisk:
    """A disk that refuses writes on demand; a store's connection is opened on it with
    ``connect=disk.connect``. While ``stuck``, and from the ``n``-th write after
    :meth:`fail_from` on, every INSERT INTO events (and the header rewrite of a recheck)
    raises ``error(message)``, as a full disk or a kill between writes does."""

    def __init__(self, message: str = "database or disk is full",
                 error: type[Exception] = sqlite3.OperationalError) -> None:
        self.message = message
        self.error = error
        """What the failing write raises: SQLite's errors of every kind, or an OSError."""
        self.writes = 0
        self.fail_at: int | None = None
        self.stuck = False

    def fail_from(self, n: int) -> None:
        """Let ``n - 1`` more writes through, then fail every one."""
        self.writes, self.fail_at = 0, n

    def connect(self, path: str | Path, schema: str) -> sqlite3.Connection:
        """A store's ``connect``: its connection, on this disk."""
        return _Failing(open_sqlite(path, schema), self)  # type: ignore[return-value]


class _Failing:
    """A connection on a :class:`FailingDisk`."""

    def __init__(self, db: sqlite3.Connection, disk: FailingDisk) -> None:
        self.db = db
        self.disk = disk

    def execute(self, sql: str, *args: Any) -> Any:
        disk = self.disk
        if sql.lstrip().upper().startswith(("INSERT INTO EVENTS", "PRAGMA USER_VERSION =")):
            disk.writes += 1
            if disk.stuck or (disk.fail_at is not None and disk.writes >= disk.fail_at):
                raise disk.error(disk.message)
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.fixture
def disk() -> FailingDisk:
    return FailingDisk()


@pytest.fixture
def referee(make_client: Callable[..., TestClient], disk: FailingDisk) -> TestClient:
    """The referee's client on a table whose match log lies on ``disk``."""
    return logged_in(make_client(connect=disk.connect))


# -- one transaction per change -------------------------------------------------------------


def test_a_failure_between_the_writes_of_an_amend_leaves_no_lone_undo(
    tmp_path: Path, disk: FailingDisk,
) -> None:
    clock = FakeClock(100.0)
    store = MatchStore(tmp_path / "log.db", connect=disk.connect)
    seen: list[dict[str, Any]] = []
    table = Table(store, clock=clock, wall=clock, publish=seen.append)
    for by in ("black", "white"):
        table.apply_step({"shot": {"by": by, "big": "placed"}})
    table.apply_step({"correct": {"score": {"black": 2}, "reason": "set up"}})
    table.apply_step({"shot": {"by": "black", "delta": {}}})
    before = table.snapshot()
    disk.fail_from(2)  # the undo is written, the amended shot is not
    with pytest.raises(StoreUnwritable, match="match log cannot be written: database or disk"):
        table.amend_last_shot({"off_board": 1})
    now = table.snapshot()
    assert now["log"] == before["log"] and now["state"] == before["state"]
    assert seen and seen[-1]["storage"]["message"].startswith("match log cannot be written")
    table.close()
    with MatchStore(tmp_path / "log.db") as reopened:
        steps = [e.body for e in reopened.iter_events(1)]
    assert steps[-1] == {"shot": {"by": "black", "delta": {}}}  # no lone undo after it
    assert len(steps) == 4


def test_a_full_disk_leaves_the_live_match_as_it_was(tmp_path: Path, disk: FailingDisk) -> None:
    clock = FakeClock(100.0)
    store = MatchStore(tmp_path / "log.db", connect=disk.connect)
    table = Table(store, clock=clock, wall=clock)
    before = table.snapshot()
    disk.stuck = True
    with pytest.raises(StoreUnwritable):
        table.apply_step({"shot": {"by": "black", "big": "placed"}})
    assert table.snapshot()["state"] == before["state"]
    assert table.snapshot()["log_length"] == 0
    table.close()


FAILURES = [
    (sqlite3.DatabaseError, "database disk image is malformed"),
    (sqlite3.IntegrityError, "UNIQUE constraint failed: events.match_id, events.seq"),
    (OSError, "[Errno 5] Input/output error"),
]


def logged(store: MatchStore, match_id: int) -> tuple[Any, ...]:
    return tuple(parse_event(e.body) for e in store.iter_events(match_id))


@pytest.mark.parametrize(("error", "message"), FAILURES, ids=lambda v: getattr(v, "__name__", ""))
def test_any_failure_of_the_append_leaves_the_live_match_equal_to_the_log(
    tmp_path: Path, error: type[Exception], message: str,
) -> None:
    clock = FakeClock(100.0)
    disk = FailingDisk(message, error)
    store = MatchStore(tmp_path / "log.db", connect=disk.connect)
    table = Table(store, clock=clock, wall=clock)
    table.apply_step({"shot": {"by": "black", "big": "placed"}})
    before = table.snapshot()
    disk.stuck = True
    with pytest.raises(StoreUnwritable, match=f"match log cannot be written: .*{message[-12:]}"):
        table.apply_step({"shot": {"by": "white", "big": "placed"}})
    assert table.match.events == logged(store, table.match_id)
    assert table.snapshot()["state"] == before["state"]
    disk.stuck = False
    table.apply_step({"shot": {"by": "white", "big": "placed"}})  # the same step, now kept
    assert table.match.events == logged(store, table.match_id)
    assert table.snapshot()["log_length"] == 2
    table.close()


@pytest.mark.parametrize(("error", "message"), FAILURES, ids=lambda v: getattr(v, "__name__", ""))
def test_any_failure_of_the_append_is_503_with_the_reason_never_500(
    referee: TestClient, disk: FailingDisk, error: type[Exception], message: str,
) -> None:
    disk.error, disk.message, disk.stuck = error, message, True
    response = step(referee, {"shot": {"by": "black", "big": "placed"}})
    assert response.status_code == 503, response.text
    assert response.json()["detail"].startswith("match log cannot be written: ")
    assert message in response.json()["detail"]
    assert state(referee)["log_length"] == 0
    disk.stuck = False
    place_bigs(referee)
    assert state(referee)["log_length"] == 2


# -- a disk that refuses writes, through the API ---------------------------------------------


def test_a_refused_write_is_503_on_healthz_and_the_pages_and_clears_by_itself(
    referee: TestClient, disk: FailingDisk,
) -> None:
    disk.stuck = True
    response = step(referee, {"shot": {"by": "black", "big": "placed"}})
    assert response.status_code == 503
    assert response.json()["detail"] == "match log cannot be written: database or disk is full"
    health = referee.get("/healthz")
    assert health.status_code == 503
    assert "match log cannot be written: database or disk is full" in health.json()["problems"]
    shown = state(referee)
    assert shown["log_length"] == 0
    assert {"kind": "storage",
            "message": "match log cannot be written: database or disk is full"} in shown["alerts"]
    disk.stuck = False  # space is back
    assert referee.get("/healthz").json()["store"]["ok"] is True
    assert all(a["kind"] != "storage" for a in state(referee)["alerts"])
    place_bigs(referee)
    assert state(referee)["log_length"] == 2


def test_the_polling_loop_clears_the_alert_when_writes_succeed_again(
    tmp_path: Path, disk: FailingDisk,
) -> None:
    clock = FakeClock(100.0)
    store = MatchStore(tmp_path / "log.db", connect=disk.connect)
    table = Table(store, clock=clock, wall=clock)
    disk.stuck = True
    with pytest.raises(StoreUnwritable):
        table.apply_step({"shot": {"by": "black", "big": "placed"}})
    assert table.snapshot()["storage"]["ok"] is False
    disk.stuck = False
    clock.advance(6.0)
    table.tick()
    assert table.snapshot()["storage"] == {"ok": True, "message": ""}
    table.close()


def test_a_real_full_disk_gives_503_and_recovers_when_space_returns(
    tiny_disk: Path, fake_clock: FakeClock,
) -> None:
    with referee_on(tiny_disk, fake_clock) as client:
        ballast = fill(tiny_disk)
        codes = []
        for i in range(200):  # until the WAL needs a page the disk does not have
            response = step(client, {"correct": {"score": {"black": i % 2 + 1},
                                                 "reason": "x" * 300 + str(i)}})
            codes.append(response.status_code)
            if response.status_code != 200:
                break
        assert codes[-1] == 503, codes
        assert response.json()["detail"].startswith("match log cannot be written: ")
        assert client.get("/healthz").status_code == 503
        kept = state(client)["log_length"]
        ballast.unlink()  # space returns
        assert client.get("/healthz").json()["store"]["ok"] is True
        assert step(client, {"correct": {"score": {"black": 3},
                                         "reason": "space again"}}).status_code == 200
        assert state(client)["log_length"] == kept + 1


def test_a_read_only_log_is_refused_at_start_with_one_line(
    tiny_disk: Path, tmp_path: Path
) -> None:
    db = tiny_disk / "skitter.db"
    with MatchStore(db) as store:
        store.create_match({}, {"first": "black"}, at=1.0)
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    out = run_serve(db, tmp_path / "data")
    assert out.returncode != 0
    assert "match log cannot be written" in out.stderr and str(db) in out.stderr
    assert "Traceback" not in out.stderr


# -- a damaged log --------------------------------------------------------------------------


def run_serve(db: Path, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """``skitter serve`` on ``db``; it must refuse before it listens."""
    return subprocess.run(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--db", str(db), "--source", "sim",
         "--port", "8765", "--host", "127.0.0.1", "--data-dir", str(data_dir), "--pin", "2468"],
        capture_output=True, text=True, timeout=60, check=False,
        cwd=Path(__file__).resolve().parents[2],
    )


def played_log(path: Path) -> Path:
    clock = FakeClock(100.0)
    table = Table(MatchStore(path), clock=clock, wall=clock)
    for by in ("black", "white"):
        table.apply_step({"shot": {"by": by, "big": "placed"}})
    table.apply_step({"correct": {"score": {"black": 3}, "reason": "seen by both"}})
    table.close()
    return path


def refused(path: Path) -> str:
    before = path.read_bytes()
    # opening it, then reading it as serve does
    with pytest.raises(StoreError) as caught, MatchStore(path) as store:
        for match in store.list_matches():
            store.load_header(match["id"])
            list(store.iter_rows(match["id"]))
    assert path.read_bytes() == before  # never overwritten
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    return message


def test_an_empty_file_where_a_log_was_expected_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "skitter.db"
    path.write_bytes(b"")
    assert "empty" in refused(path)


def test_random_bytes_in_page_two_are_refused_not_a_traceback(tmp_path: Path) -> None:
    path = played_log(tmp_path / "skitter.db")
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    end = 2 * page  # page 2's rows lie at its end (the first match's header)
    data[end - 120:end - 56] = random.Random(64).randbytes(64)
    path.write_bytes(bytes(data))
    assert "damaged" in refused(path)


def test_a_changed_score_digit_in_a_stored_row_is_refused(tmp_path: Path) -> None:
    path = played_log(tmp_path / "skitter.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body = replace(body, '\"black\":3', '\"black\":9') "
               "WHERE seq = 3")
    db.commit()
    db.close()
    message = refused(path)
    assert "step 3 of match 1 does not match its checksum" in message


def test_serve_refuses_a_damaged_log_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "skitter.db"
    path.write_bytes(b"")
    out = run_serve(path, tmp_path / "data")
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    assert f"match log {path} is damaged" in out.stderr
    assert path.read_bytes() == b""


def test_an_old_log_without_checksums_is_migrated_and_then_guarded(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL,"
        " rules TEXT NOT NULL, setup TEXT NOT NULL, names TEXT NOT NULL, meta TEXT NOT NULL);"
        "CREATE TABLE events (match_id INTEGER NOT NULL, seq INTEGER NOT NULL, at REAL NOT"
        " NULL, source TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (match_id, seq));"
        "INSERT INTO matches VALUES (1, 1.0, '{}', '{\"first\":\"black\"}', '{}', '{}');"
        "INSERT INTO events VALUES (1, 1, 2.0, 'manual',"
        " '{\"shot\":{\"by\":\"black\",\"big\":\"placed\"}}');"
    )
    db.commit()
    db.close()
    with MatchStore(path) as store:
        assert [e.body for e in store.iter_events(1)] == [
            {"shot": {"by": "black", "big": "placed"}}]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.execute("UPDATE events SET body = replace(body, 'placed', 'missed')")
    db.commit()
    db.close()
    assert "checksum" in refused(path)


def test_a_clean_stop_checkpoints_the_wal_so_the_db_alone_is_whole(tmp_path: Path) -> None:
    path = played_log(tmp_path / "skitter.db")
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())  # the .db alone, without any -wal
    with MatchStore(copy) as store:
        assert store.event_count(1) == 3

