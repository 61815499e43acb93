"""The tournament page's live feed: a full state, then versioned changes of what changed only."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hub_app_support import QuietSender
from hub_support import event, play_game, state
from waiting import turn_of_the_loop, wait_until_async

from hub.app import BATCH, Hub
from hub.feed import Feed
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.broadcaster import QUEUE_LIMIT, Broadcaster
from web_common.pin import PinStore


def apply(page: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """What the page does with a frame (hub.js ``onFrame``), or AssertionError on a gap."""
    if frame["type"] == "full":
        return frame
    assert frame["after"] == page["version"], "a missed version"
    boards = {b["board"]: b for b in page["boards"]}
    boards.update({b["board"]: b for b in frame["boards"]})
    out = {**page, **{k: v for k, v in frame.items() if k not in ("type", "after", "boards")}}
    out["boards"] = [boards[b] for b in sorted(boards)]
    out["type"] = "full"
    return out


def card(board: str, score: int) -> dict[str, Any]:
    return {"board": board, "score": {"black": score, "white": 0}}


def test_the_first_update_carries_everything_and_an_unchanged_one_nothing() -> None:
    feed = Feed()
    assert json.loads(feed.full()) == {"type": "full", "version": 0, "boards": []}
    frame = feed.update({"b2": card("b2", 0), "b1": card("b1", 0)}, {"standings": []})
    assert frame is not None and frame.version == feed.version == 1
    delta = json.loads(frame.delta)
    assert delta["after"] == 0 and [b["board"] for b in delta["boards"]] == ["b1", "b2"]
    assert json.loads(frame.full)["standings"] == []
    assert feed.update({"b1": card("b1", 0)}, {"standings": []}) is None
    assert feed.version == 1


def test_a_changed_card_goes_out_alone_with_the_next_version() -> None:
    feed = Feed()
    feed.update({"b1": card("b1", 0), "b2": card("b2", 0)}, {"standings": [], "games": []})
    frame = feed.update({"b1": card("b1", 0), "b2": card("b2", 3)}, {"standings": []})
    assert frame is not None
    delta = json.loads(frame.delta)
    assert delta == {"type": "delta", "version": 2, "after": 1, "boards": [card("b2", 3)]}
    frame = feed.update({}, {"standings": [{"player": "Ann"}]})
    assert frame is not None
    assert json.loads(frame.delta) == {"type": "delta", "version": 3, "after": 2, "boards": [],
                                       "standings": [{"player": "Ann"}]}


def test_the_changes_applied_in_order_give_the_full_state_and_a_missed_one_is_noticed() -> None:
    feed = Feed()
    page = json.loads(feed.full())
    frames = []
    for i in range(12):
        cards = {f"b{j}": card(f"b{j}", i if j == i % 3 else 0) for j in range(3)}
        frame = feed.update(cards, {"games": list(range(i // 4))})
        if frame is not None:
            frames.append(frame)
    for frame in frames:
        page = apply(page, json.loads(frame.delta))
    assert page == json.loads(feed.full())
    with pytest.raises(AssertionError, match="missed"):
        apply(apply(json.loads(feed.full()), json.loads(frames[-1].delta)),
              json.loads(frames[-2].delta))


def test_a_client_too_far_behind_gets_the_full_state_instead_of_what_it_missed() -> None:
    async def received() -> list[str | None]:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        broadcaster.publish_frame("delta start", "full start")
        await turn_of_the_loop()
        reader = broadcaster.stream(keepalive=0.05)
        got = [await anext(reader)]  # joined: the whole state so far
        for i in range(QUEUE_LIMIT + 1):  # published while the reader reads nothing
            broadcaster.publish_frame(f"delta {i}", f"full {i}")
        await turn_of_the_loop()
        got += [await anext(reader), await anext(reader)]
        await reader.aclose()
        return got

    # the whole state after the last frame, then nothing more (a quiet keepalive)
    assert asyncio.run(received()) == ["full start", f"full {QUEUE_LIMIT}", None]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        tournament.add_player(name)
    tournament.pair_next_round(["b1", "b2"])
    try:
        yield Hub(tournament, QuietSender(), PinStore(tmp_path / "pin"), clock)
    finally:
        tournament.store.close()


def frames_of(hub: Hub) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    hub.broadcaster.publish_frame = (  # type: ignore[method-assign]
        lambda frame, full: sent.append(json.loads(frame)))
    return sent


def test_a_step_of_a_boards_match_sends_its_card_only(hub: Hub) -> None:
    store = hub.tournament.store
    for b in ("b1", "b2"):
        store.set_board_state(b, {"match_id": 1, "seq": 0, "names": {}}, at=1.0)
    hub.refresh()
    sent = frames_of(hub)
    hub.tournament.receive(event("b1", 1, 1, state(score=(1, 0))))
    store.set_board_state("b1", {"match_id": 1, "seq": 1, "names": {}, "state": state()}, at=2.0)
    hub.refresh()
    (delta,) = sent
    assert [b["board"] for b in delta["boards"]] == ["b1"]
    assert delta["boards"][0]["received"] == 1
    assert set(delta) == {"type", "version", "after", "boards"}


def test_a_finished_game_sends_standings_rounds_and_games(hub: Hub) -> None:
    sent = frames_of(hub)
    hub.refresh()
    first = hub.tournament.store.pairings(1)[0]
    play_game(hub.tournament, "b1", 1, (first.black, first.white), black_wins=True)
    hub.refresh()
    delta = sent[-1]
    assert {"standings", "rounds", "games"} <= delta.keys()
    assert [g["winner"] for g in delta["games"]] == [first.black]


def test_an_event_of_another_match_than_the_boards_own_may_need_the_referee(hub: Hub) -> None:
    store = hub.tournament.store
    store.set_board_state("b1", {"match_id": 2, "seq": 0}, at=1.0)
    store.take_touched()
    hub.tournament.receive(event("b1", 2, 1, state()))
    assert store.take_touched().tournament is False
    hub.tournament.receive(event("b1", 1, 1, state()))
    touched = store.take_touched()
    assert touched.boards == {"b1"} and touched.tournament
    store.set_board_state("b1", {"match_id": 3, "seq": 0}, at=1.0)
    assert store.take_touched().tournament


def test_the_refresher_wakes_on_change_and_batches_a_burst(hub: Hub) -> None:
    store = hub.tournament.store
    refreshes: list[int] = []
    refresh = hub.refresh

    def counted() -> str:
        refreshes.append(1)
        return refresh()

    hub.refresh = counted  # type: ignore[method-assign]
    sent = frames_of(hub)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        task = asyncio.create_task(hub.refresher())
        await wait_until_async(lambda: refreshes, "the first refresh")
        quiet = len(refreshes)
        later = loop.time() + 0.5
        await wait_until_async(lambda: loop.time() >= later, "half a second with no change")
        assert len(refreshes) == quiet, "no polling while nothing changes"
        began = time.monotonic()
        for seq in range(1, 21):  # a change every tenth of a batch
            store.set_board_state("b1", {"match_id": 1, "seq": seq}, at=float(seq))
            hub.changed()
            next_change = loop.time() + BATCH / 10
            await wait_until_async(lambda t=next_change: loop.time() >= t,
                                   "a tenth of a batch", every=BATCH / 100)
        took.append(time.monotonic() - began)
        await wait_until_async(lambda: any(
            f["boards"] and f["boards"][0]["board"] == "b1" and f["boards"][0]["seq"] == 20
            for f in sent), "the frame of the last change")
        task.cancel()

    took: list[float] = []
    asyncio.run(run())
    burst = [f for f in sent if f["boards"] and f["boards"][0]["board"] == "b1"]
    # One frame per batch at most (plus the first, sent at once after the quiet spell),
    # however long a loaded machine took over the 20 changes: never one frame per change.
    assert 1 <= len(burst) <= took[0] / BATCH + 2, (len(burst), took)
    assert len(burst) < 20, "a frame for every change"
    assert burst[-1]["boards"][0]["seq"] == 20
    assert json.loads(hub.feed.full())["boards"][0]["seq"] == 20


def test_a_page_that_connects_gets_the_full_state_at_the_current_version(hub: Hub) -> None:
    from fastapi.testclient import TestClient

    from hub.app import create_hub_app

    with TestClient(create_hub_app(hub)) as client:
        fetched = client.get("/api/hub").json()
        with client.websocket_connect("/ws") as ws:
            first = ws.receive_json()
    assert first["type"] == fetched["type"] == "full"
    assert first["version"] == fetched["version"] == hub.feed.version
    assert first == fetched
    assert [p["table"] for p in first["rounds"][0]["pairings"]] == [1, 2]


def test_a_refresh_that_fails_leaves_its_changes_for_the_next(
    hub: Hub, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hub import view

    hub.refresh()
    sent = frames_of(hub)
    hub.tournament.store.set_board_status("b1", True, at=1.0)
    build = view.boards_view
    monkeypatch.setattr(view, "boards_view", lambda *a: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        hub.refresh()
    monkeypatch.setattr(view, "boards_view", build)
    hub.refresh()
    assert [b["board"] for b in sent[-1]["boards"]] == ["b1"]
