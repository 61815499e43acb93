"""A hub killed mid-round whose file is lost comes back from its latest backup, and the
boards give it whatever the backup lacks: the standings end as a hub that never died says.

The hub runs as ``skitter hub`` in a process of its own, with backups to a second folder. A
witness hub, in this process with a copy of the same draw, hears the same boards the whole
time. Midway through round 1 (after a backup, after the backup stick was pulled out, and
after more steps the killed hub had already stored and acknowledged, so the broker will not
send them again) the hub is killed with SIGKILL and its file deleted; ``skitter hub restore``
brings the latest backup back, the boards finish their games while the hub is away, and the
restored hub is started again.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker
from mqtt_sim import SimBoard, wait_until
from mqtt_tournament_support import PLANS, HubUnderTest
from ports import free_port

from hub.backup import latest_backup
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from skitter_cli.main import main
from tournament_wire.wire import settings_from_url

pytestmark = pytest.mark.mqtt

ROOT = Path(__file__).resolve().parents[2]
BOARDS = 6


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path / "broker")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def start_hub(db: Path, url: str, backups: Path | None, log: Path) -> subprocess.Popen[str]:
    """``skitter hub`` in a process of its own; what it says goes to ``log`` (a pipe nobody
    reads until the end would fill up and stop the hub mid-test)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    env["HOME"] = str(log.parent)
    extra = [] if backups is None else ["--backup-dir", str(backups), "--backup-every", "0.01"]
    with log.open("a") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "skitter_cli.main", "hub", "--mqtt", url, "--db", str(db),
             "--port", str(free_port()), *extra],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)


def hub_wait(condition: Callable[[], bool], *, timeout: float, what: str, log: Path) -> None:
    """:func:`wait_until`, its failure telling what the hub said meanwhile."""
    try:
        wait_until(condition, timeout=timeout, what=what)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the hub said:\n{said(log)}") from None


def said(log: Path) -> str:
    """The end of what the hub said, for a failure's message."""
    return "\n".join(log.read_text().splitlines()[-30:]) if log.exists() else ""


def count(db: Path, sql: str) -> int:
    """A count read from a hub's file while its hub runs (SQLite lets a reader in)."""
    if not db.exists():
        return 0
    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(con.execute(sql).fetchone()[0])
    except sqlite3.OperationalError:  # not made yet
        return 0
    finally:
        con.close()


@pytest.mark.timeout(180)
def test_a_killed_hub_restored_from_its_backup_ends_with_the_same_standings(
    tmp_path: Path, broker: Broker
) -> None:
    db = tmp_path / "hub" / "hub.db"
    stick = tmp_path / "stick"
    draw = Tournament(HubStore(db), FakeClock(1_700_000_000.0))
    for i in range(2 * BOARDS):
        draw.add_player(f"Player {i:02d}")
    boards = [SimBoard(f"board-{i}", tmp_path / "boards", settings_from_url(broker.url))
              for i in range(BOARDS)]
    games = [p for p in draw.pair_next_round([b.board_id for b in boards]) if not p.is_bye]
    draw.store.close()
    shutil.copy(db, tmp_path / "witness.db")
    witness = HubUnderTest(tmp_path / "witness.db", broker.url, client_id="witness")
    log = tmp_path / "hub.log"
    hub = start_hub(db, broker.url, stick, log)
    try:
        for b in boards:
            b.link.start()
        for i, (board, p) in enumerate(zip(boards, games, strict=True)):
            board.new_match({"black": p.black, "white": p.white or ""}, PLANS[i % len(PLANS)])
            board.play_next()
        events = "SELECT COUNT(*) FROM events"
        hub_wait(lambda: (last := latest_backup(stick)) is not None
                 and count(last, events) >= BOARDS, timeout=60,
                 what="a backup holding every board's first step", log=log)
        pulled = tmp_path / "stick-pulled-out"
        stick.rename(pulled)  # the stick is pulled out: the hub's next backups fail
        stick.write_text("not a folder")
        for board in boards:
            board.play_next()
        hub_wait(lambda: count(db, events) >= 2 * BOARDS, timeout=60,
                 what="the second steps stored (and acknowledged) by the hub", log=log)

        hub_wait(lambda: "cannot back up the hub's file" in log.read_text(), timeout=30,
                 what="the hub saying that the stick is gone", log=log)
        assert hub.poll() is None  # and playing on

        hub.kill()  # SIGKILL: no goodbye, no last write
        hub.wait(timeout=30)
        backup = latest_backup(pulled)
        assert backup is not None
        assert BOARDS <= count(backup, events) < count(db, events), \
            "the backup must lack the second steps"
        for path in db.parent.glob("hub.db*"):
            path.unlink()  # the SD card is gone

        assert main(["hub", "restore", str(backup), "--db", str(db)]) == 0
        while any(b.play_next() for b in boards):  # the boards play on while the hub is away
            pass
        hub = start_hub(db, broker.url, None, log)
        hub_wait(lambda: count(db, "SELECT COUNT(*) FROM games") == BOARDS, timeout=90,
                 what="every result of round 1 at the restored hub", log=log)
        wait_until(lambda: not witness.tournament.round_open(1), timeout=30,
                   what="every result at the witness")
        expected = witness.tournament.standings()
        played = {b.board_id: (b.match_id, b.store.event_count(b.match_id))  # type: ignore[arg-type]
                  for b in boards}
    finally:
        if hub.poll() is None:
            hub.send_signal(signal.SIGTERM)
            hub.wait(timeout=30)
            assert hub.returncode == 0, said(log)
        witness.close()
        for b in boards:
            b.close()
    restored = Tournament(HubStore(db), FakeClock(1_700_000_000.0))
    try:
        assert restored.round_open(1) == []
        assert restored.standings() == expected
        for board, (match_id, steps) in played.items():
            assert restored.store.contiguous_seq(board, match_id) == steps, board
    finally:
        restored.store.close()
