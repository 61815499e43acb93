"""Two scripted matches between Ann and Bo, shared by the statistics, caller and browser tests.

Each comment counts the shot for its shooter, so the statistics tests can check every figure
against a count made by hand from the rules' effects (R3-R7, R13, R15, R19).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import state, step

SETUP_NOTE = "set up for the test"

# Ann (black) against Bo (white): Ann wins 2 rounds to 0.
MATCH_1: list[dict[str, Any]] = [
    {"shot": {"by": "black", "big": "placed"}},                           # Ann shot 1
    {"shot": {"by": "white", "big": "placed"}},                           # Bo shot 1
    {"correct": {"board": {"white.red": 2, "white.blue": 2, "white.yellow": 2,
                           "black.yellow": 1}, "reason": SETUP_NOTE}},
    {"shot": {"by": "black", "delta": {"white.red": 1}, "red": ["back"]}},  # Ann 2: red back
    {"shot": {"by": "white", "delta": {"minus": 1}}},                     # Bo 2: penalty
    {"shot": {"by": "black", "delta": {"white.blue": 1}}},                # Ann 3: point, round
    {"shot": {"by": "white", "big": "placed"}},                           # Bo 3
    {"shot": {"by": "black", "big": "placed"}},                           # Ann 4
    {"correct": {"board": {"white.yellow": 2, "black.red": 2, "black.blue": 2,
                           "white.red": 2, "white.blue": 2}, "reason": SETUP_NOTE}},
    {"shot": {"by": "white", "delta": {"white.yellow": 1}}},              # Bo 4: own goal
    {"shot": {"by": "black", "delta": {"black.yellow": 1}}},              # taken back:
    {"undo": True},                                                       # counts nothing
    {"shot": {"by": "black", "delta": {}, "chain": ["white.red", "white.blue"]}},  # Ann 5
]

# "bo" (black, typed in lower case) against "ANN " (white): Bo wins 2 rounds to 0.
MATCH_2: list[dict[str, Any]] = [
    {"shot": {"by": "black", "big": "placed"}},                           # Bo 1
    {"shot": {"by": "white", "big": "placed"}},                           # Ann 1
    {"correct": {"board": {"black.red": 2, "white.red": 1, "black.blue": 2, "white.blue": 2,
                           "white.yellow": 2, "black.yellow": 2}, "reason": SETUP_NOTE}},
    {"shot": {"by": "black", "delta": {"white.red": 1}}},                 # Bo 2: clearing
    {"shot": {"by": "white", "delta": {"black.blue": 1}}},                # Ann 2: point
    {"shot": {"by": "black", "delta": {"white.blue": 1}}},                # Bo 3: point
    {"shot": {"by": "white", "delta": {"minus": 1}}},                     # Ann 3: penalty
    {"shot": {"by": "black", "delta": {"white.yellow": 1}}},              # Bo 4: point, round
    {"shot": {"by": "white", "big": "placed"}},                           # Ann 4
    {"shot": {"by": "black", "big": "placed"}},                           # Bo 5
    {"correct": {"board": {"white.red": 2, "white.blue": 2, "white.yellow": 2},
                 "reason": SETUP_NOTE}},
    {"shot": {"by": "white", "delta": {}}},                               # Ann 5
    {"shot": {"by": "black", "delta": {"white.red": 1}}},                 # Bo 6: red advance
    {"decide": {"by": "black", "red": ["back"]}},                         # ... changed to back
    {"shot": {"by": "white", "delta": {}}},                               # Ann 6
    {"shot": {"by": "black", "delta": {"white.blue": 1}}},                # Bo 7: point
    {"shot": {"by": "white", "delta": {}}},                               # Ann 7
    {"shot": {"by": "black", "delta": {"white.yellow": 1}}},              # Bo 8: point, game
]


def new_match(client: TestClient, black: str, white: str) -> None:
    response = client.post("/api/match/new", json={
        "seq": state(client)["seq"], "names": {"black": black, "white": white},
        "points_to_win_round": 2, "rounds_to_win_game": 2, "first": "black"})
    assert response.status_code == 200, response.text


def play(client: TestClient, steps: list[dict[str, Any]]) -> None:
    for body in steps:
        response = step(client, body)
        assert response.status_code == 200, (body, response.text)
