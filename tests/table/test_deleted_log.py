"""A match log deleted (or replaced) while the board serves is noticed: the next step gets
503 naming it and ``/healthz`` says so, as for a full disk; nothing more is answered as
stored into a file no restart would find."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, state, step

BIG = {"shot": {"by": "black", "big": "placed"}}


@pytest.fixture
def serving(make_client: Callable[..., TestClient]) -> TestClient:
    client = make_client()
    assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    assert step(client, BIG).status_code == 200
    assert client.get("/healthz").status_code == 200
    return client


def remove_log(tmp_path: Path) -> list[str]:
    gone = sorted(p.name for p in tmp_path.glob("skitter.db*"))
    for p in tmp_path.glob("skitter.db*"):
        p.unlink()
    return gone


def assert_refused(client: TestClient, what: str) -> None:
    before = state(client)["log_length"]
    answer = step(client, {"shot": {"by": "white", "big": "placed"}})
    assert answer.status_code == 503, answer.text
    assert answer.json()["detail"].startswith("match log cannot be written: ")
    assert what in answer.json()["detail"]
    health = client.get("/healthz")
    assert health.status_code == 503
    assert any(what in p for p in health.json()["problems"]), health.json()
    shown = state(client)
    assert shown["log_length"] == before
    assert any(a["kind"] == "storage" and what in a["message"] for a in shown["alerts"])


def test_a_log_deleted_while_serving_answers_503_and_health_names_it(
    serving: TestClient, tmp_path: Path
) -> None:
    assert "skitter.db" in remove_log(tmp_path)
    health = serving.get("/healthz")  # noticed without any write
    assert health.status_code == 503
    assert any("was deleted while in use" in p for p in health.json()["problems"])
    assert_refused(serving, "was deleted while in use")
    assert_refused(serving, "was deleted while in use")  # and it stays so: no file to clear it


def test_a_log_replaced_by_another_file_is_refused_too(
    serving: TestClient, tmp_path: Path
) -> None:
    db = tmp_path / "skitter.db"
    os.replace(db, tmp_path / "moved.db")
    db.write_bytes((tmp_path / "moved.db").read_bytes())
    assert_refused(serving, "skitter.db was replaced by another file")


def test_only_the_write_ahead_file_deleted_is_refused_as_well(
    serving: TestClient, tmp_path: Path
) -> None:
    (tmp_path / "skitter.db-wal").unlink()
    assert_refused(serving, "skitter.db-wal was deleted")
