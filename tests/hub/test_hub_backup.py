"""Backups of the hub's file: whole copies in a second folder, the newest N kept, and
``skitter hub restore`` bringing back only a checked hub's file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hub_support import play_round
from mqtt_sim import wait_until

from hub.backup import (
    BackupPlan,
    Backups,
    BackupTimer,
    backups_in,
    latest_backup,
    round_progress,
)
from hub.restore import RestoreError, check_backup, restore
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from skitter_cli.main import main

pytestmark = pytest.mark.unit


def tournament_at(path: Path) -> Tournament:
    t = Tournament(HubStore(path), FakeClock(1_700_000_000.0))
    for name in ("Ann", "Bob", "Cid", "Dee"):
        t.add_player(name)
    return t


def test_a_backup_is_the_whole_tournament_and_a_hub_resumes_from_it(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    t.pair_next_round()
    play_round(t)
    copy = Backups(t.store, BackupPlan(tmp_path / "stick")).take("round-1")
    assert copy.parent == tmp_path / "stick" and copy.name.endswith("-round-1.db")
    standby = Tournament(HubStore(copy), FakeClock(1_700_000_100.0))
    assert standby.standings() == t.standings()
    assert standby.store.players() == t.store.players()
    assert [p for p in standby.store.pairings()] == t.store.pairings()
    standby.store.close()
    t.store.close()


def test_a_backup_is_one_file_with_nothing_beside_it(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    copy = Backups(t.store, BackupPlan(tmp_path / "stick")).take("timer")
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]
    assert check_backup(copy).players == 4
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # read: still alone
    t.store.close()


def test_only_the_newest_backups_are_kept(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    clock = iter(range(1_700_000_000, 1_700_000_100))
    backups = Backups(t.store, BackupPlan(tmp_path / "stick", keep=3),
                      wall=lambda: float(next(clock)))
    taken = [backups.take(f"n{i}") for i in range(5)]
    assert backups_in(tmp_path / "stick") == taken[2:]
    assert latest_backup(tmp_path / "stick") == taken[-1]
    t.store.close()


def test_a_stick_that_is_gone_is_said_and_the_hub_goes_on(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the stick's folder should be")
    backups = Backups(t.store, BackupPlan(blocked / "stick"))
    assert backups.try_take("timer") is None
    assert backups.failure is not None
    t.add_player("Eve")  # the tournament goes on
    t.store.close()


def test_a_backup_is_taken_as_soon_as_a_round_is_paired_and_when_it_is_over(
    tmp_path: Path,
) -> None:
    t = tournament_at(tmp_path / "hub.db")
    timer = BackupTimer(Backups(t.store, BackupPlan(tmp_path / "stick", every=3600)),
                        lambda: round_progress(t), check=0.02)
    timer.start()
    try:
        wait_until(lambda: len(timer.taken) == 1, what="the backup at start")
        assert round_progress(t) == (0, 0)
        t.pair_next_round()
        wait_until(lambda: any(p.name.endswith("-round-0-of-1.db") for p in timer.taken),
                   what="the backup once round 1 is paired")
        play_round(t)
        wait_until(lambda: any(p.name.endswith("-round-1-of-1.db") for p in timer.taken),
                   what="the backup after round 1")
        last = latest_backup(tmp_path / "stick")
        assert last is not None and check_backup(last).games == 2
    finally:
        timer.stop()
        t.store.close()


def test_round_progress_counts_rounds_paired_and_rounds_over(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    t.pair_next_round()
    assert round_progress(t) == (1, 0)
    t.store.close()


# ------------------------------------------------------------------------------ restore


def test_restore_brings_a_backup_back_and_keeps_the_file_it_replaces(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    t.pair_next_round()
    play_round(t)
    copy = Backups(t.store, BackupPlan(tmp_path / "stick")).take("round-1")
    expected = t.standings()
    t.store.set_meta("note", "after the backup")  # only in the file replaced
    t.store.close()
    facts, kept = restore(copy, tmp_path / "hub.db", wall=lambda: 1_700_000_000.0)
    assert (facts.players, facts.rounds, facts.games) == (4, 1, 2)
    assert kept is not None and kept.name == "hub.db.replaced-20231114T221320Z"
    back = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(1_700_000_100.0))
    assert back.standings() == expected and back.store.get_meta("note") is None
    back.store.close()
    old = HubStore(kept)
    assert old.get_meta("note") == "after the backup"
    old.close()


def test_restore_command_says_what_it_brought_back(tmp_path: Path, capsys) -> None:
    t = tournament_at(tmp_path / "old.db")
    copy = Backups(t.store, BackupPlan(tmp_path / "stick")).take("timer")
    t.store.close()
    assert main(["hub", "restore", str(copy), "--db", str(tmp_path / "new" / "hub.db")]) == 0
    out = capsys.readouterr().out
    assert "4 players, 0 rounds, 0 games" in out
    assert (tmp_path / "new" / "hub.db").exists()


def test_restore_refuses_a_damaged_file_and_leaves_the_hubs_file_alone(
    tmp_path: Path, capsys
) -> None:
    t = tournament_at(tmp_path / "hub.db")
    copy = Backups(t.store, BackupPlan(tmp_path / "stick")).take("timer")
    t.store.close()
    data = bytearray(copy.read_bytes())
    page = 4096
    data[2 * page:3 * page] = b"\xa5" * page  # a whole page of a table overwritten
    copy.write_bytes(bytes(data))
    before = (tmp_path / "hub.db").read_bytes()
    assert main(["hub", "restore", str(copy), "--db", str(tmp_path / "hub.db")]) == 2
    err = capsys.readouterr().err
    assert str(copy) in err and ("damaged" in err or "not a usable SQLite file" in err)
    assert (tmp_path / "hub.db").read_bytes() == before


def test_restore_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("round 1: Ann beat Bob\n" * 200)
    with pytest.raises(RestoreError, match="not a usable SQLite file"):
        check_backup(junk)


def test_restore_refuses_a_database_that_is_not_a_hubs(tmp_path: Path) -> None:
    other = tmp_path / "skitter.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    with pytest.raises(RestoreError, match="not a skitter hub's file: it has no table 'meta'"):
        check_backup(other)


def test_restore_names_a_column_a_hubs_table_lacks(tmp_path: Path) -> None:
    t = tournament_at(tmp_path / "hub.db")
    t.store.close()
    db = sqlite3.connect(tmp_path / "hub.db")
    db.execute("ALTER TABLE games DROP COLUMN winner")
    db.commit()
    db.close()
    with pytest.raises(RestoreError, match="its table 'games' lacks winner"):
        check_backup(tmp_path / "hub.db")


def test_restore_of_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(RestoreError, match="no such file"):
        restore(tmp_path / "gone.db", tmp_path / "hub.db", wall=lambda: 0.0)
    assert not (tmp_path / "hub.db").exists()


def test_a_backup_never_waits_for_the_hub_and_holds_only_whole_changes(tmp_path: Path) -> None:
    import threading

    t = tournament_at(tmp_path / "hub.db")
    inside, done = threading.Event(), threading.Event()

    def long_change() -> None:  # a burst of messages being stored, not yet committed
        with t.store.batch():
            t.store.set_meta("note", "half of a change")
            inside.set()
            assert done.wait(30)

    writer = threading.Thread(target=long_change)
    writer.start()
    taken: list[Path] = []
    try:
        assert inside.wait(10)
        backup = threading.Thread(target=lambda: taken.append(
            Backups(t.store, BackupPlan(tmp_path / "stick")).take("timer")))
        backup.start()
        backup.join(10)
        assert taken, "the backup waited for the hub's change to end"
    finally:
        done.set()
        writer.join(10)
        backup.join(10)
    copy = taken[0]
    standby = HubStore(copy)
    assert standby.get_meta("note") is None and len(standby.players()) == 4
    standby.close()
    assert t.store.get_meta("note") == "half of a change"
    t.store.close()


def test_the_hub_refuses_to_keep_no_backups(tmp_path: Path, capsys) -> None:
    code = main(["hub", "--mqtt", "mqtt://127.0.0.1:1", "--db", str(tmp_path / "hub.db"),
                 "--pin", "1234", "--backup-dir", str(tmp_path / "stick"), "--backup-keep", "0"])
    assert code == 2
    assert "backups to keep must be at least 1, got 0" in capsys.readouterr().err
    assert not (tmp_path / "stick").exists() and not (tmp_path / "hub").exists()


def test_the_hub_without_a_broker_says_what_it_needs(tmp_path: Path, capsys) -> None:
    assert main(["hub", "--db", str(tmp_path / "hub.db")]) == 2
    assert "the broker is needed: --mqtt URL" in capsys.readouterr().err


def test_restore_from_the_backups_folder_takes_the_newest(tmp_path: Path, capsys) -> None:
    t = tournament_at(tmp_path / "old.db")
    clock = iter([1_700_000_000.0, 1_700_000_060.0])
    backups = Backups(t.store, BackupPlan(tmp_path / "stick"), wall=lambda: next(clock))
    backups.take("timer")
    t.pair_next_round()
    newest = backups.take("round-0-of-1")
    t.store.close()
    assert main(["hub", "restore", str(tmp_path / "stick"), "--db", str(tmp_path / "hub.db")]) == 0
    assert f"restored {newest}" in capsys.readouterr().out
    assert main(["hub", "restore", str(tmp_path), "--db", str(tmp_path / "x.db")]) == 2
    assert f"no backup in {tmp_path}" in capsys.readouterr().err
