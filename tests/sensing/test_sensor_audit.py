"""Sensor audits across matches (issue 28, item 2): matches played on the virtual board
through the real pipeline, one sensed shot amended, a flag and I2C errors noted; then the
audit on the API and on ``skitter sensors --audit``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import run_for, state

from firmware_bridge.audit import MatchSensing, audit
from firmware_bridge.profile import load_profile
from scorekeeper.clock import FakeClock
from skitter_cli.main import main
from web.table.sensor_health_log import HealthLog

PROFILE = load_profile()


def post(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def play_match(client: TestClient, clock: FakeClock, *, amend: bool) -> None:
    """Both big skitts, then the first player lands one on the second player's red, all
    sensed; ``amend``: the referee amends that shot (a skitt also went off the board)."""
    post(client, "/api/match/new", {"seq": state(client)["seq"], "first": "black"})
    run_for(client, clock)
    for player in ("black", "white"):
        post(client, "/api/board/big", {"player": player, "on": True})
        run_for(client, clock)
    post(client, "/api/board/place", {"field": "white.red"})
    run_for(client, clock)
    last = state(client)["last_step"]
    assert last["source"] == "sensor" and "white.red" in last["step"]["shot"]["delta"]
    if amend:
        post(client, "/api/match/amend", {"seq": state(client)["seq"], "off_board": 1})


def test_the_audit_over_three_matches(referee: TestClient, fake_clock: FakeClock,
                                      tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for amend in (True, False, False):
        play_match(referee, fake_clock, amend=amend)
    audit_json = referee.get("/api/sensors/audit").json()
    assert audit_json["matches"] >= 3
    cells = {c["cell"]: c for c in audit_json["cells"]}
    assert cells[16]["changes"] >= 3 and cells[16]["silent_for"] == 0  # white.red's first
    assert cells[36]["matches_changed"] >= 3  # the first player's big-skitt spot
    assert cells[0]["silent_for"] >= 3 and 0 in audit_json["silent"]  # never shot at
    assert 16 not in audit_json["silent"]
    fields = {f["field"]: f for f in audit_json["fields"]}
    assert fields["white.red"]["shots"] == 3 and fields["white.red"]["amended"] == 1
    assert fields["white.red"]["rate"] == pytest.approx(1 / 3, abs=0.001)
    assert fields["white.red"]["part"] == "the second player's red field"

    db = referee.app.state.table.store.path  # type: ignore[attr-defined]
    assert main(["sensors", "--audit", "--db", str(db), "--matches", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sensor audit over the last 3 matches")
    red = len(PROFILE.fields["black.red"].cells)
    assert ("not changed in the last 3 matches or more: the first player's red field (all "
            f"{red} cells)") in out  # a whole field silent: the field, not a wall of numbers
    quiet = [c for c in PROFILE.fields["white.red"].cells if c in audit_json["silent"]]
    assert 0 < len(quiet) < red
    assert f"cells {', '.join(map(str, quiet))} (the second player's red field)" in out
    assert audit_json["silent_words"] in out
    assert "the second player's red field: 1 of 3 (33%)" in out
    assert main(["sensors", "--audit", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] >= 3


def test_flags_and_i2c_errors_are_noted_per_match(tmp_path: Path) -> None:
    log = HealthLog(tmp_path)
    base = {"match_id": 4, "link": {"errors": 2}, "sensors": {"flags": []}}
    log.observe(base)  # errors before are not this match's
    log.observe({**base, "link": {"errors": 5},
                 "sensors": {"flags": [{"cell": 33, "kind": "jittery"}]}})
    log.observe({**base, "match_id": 5, "link": {"errors": 5},
                 "sensors": {"flags": [{"cell": 33, "kind": "jittery"}]}})
    log.observe({"match_id": "x"})  # nonsense is ignored
    again = HealthLog(tmp_path)  # kept on disk
    log.observe({**base, "match_id": 5, "link": {"errors": 6}, "sensors": {"flags": []}})
    from web.table.sensor_health_log import load

    kept = load(tmp_path)
    assert kept["4"] == {"flags": {"33": ["jittery"]}, "i2c_errors": 3}
    assert kept["5"]["i2c_errors"] == 1 and again is not None
    result = audit(PROFILE, [MatchSensing(4, {33: 1}, flags={33: frozenset({"jittery"})},
                                          i2c_errors=3),
                             MatchSensing(5, {33: 2}, muted=frozenset({33}), i2c_errors=1)])
    cell = next(c for c in result.cells if c.cell == 33)
    assert cell.flagged == {"jittery": 1} and cell.muted_in == 1 and cell.changes == 3
    assert result.i2c_errors == 4
    assert result.silent == ()  # two matches: too few to name a silent cell
    assert "jittery x1, muted x1" in result.text()
