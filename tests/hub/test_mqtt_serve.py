"""``skitter serve --board-id ID --mqtt URL`` joins a tournament broker: a real Mosquitto."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from mqtt_broker import Broker, broker_fixture
from serve_proc import free_port, start, stop, wait_ready


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.mark.timeout(90)
def test_serve_publishes_its_state_under_its_board_id(tmp_path: Path, broker: Broker) -> None:
    got: queue.Queue[tuple[str, dict]] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="watcher")
    client.on_message = lambda c, u, m: got.put((m.topic, json.loads(m.payload or b"null")))
    client.connect("127.0.0.1", broker.port)
    client.subscribe("skitter/table-7/#", qos=1)
    client.loop_start()
    port = free_port()
    proc = start(tmp_path / "data", port, "--board-id", "table-7", "--mqtt", broker.url)
    try:
        wait_ready(port, proc)
        deadline = time.monotonic() + 20
        topics: dict[str, dict] = {}
        while "skitter/table-7/state" not in topics:
            assert time.monotonic() < deadline, f"no state published; saw {sorted(topics)}"
            try:
                topic, payload = got.get(timeout=0.5)
            except queue.Empty:
                continue
            topics[topic] = payload
        state = topics["skitter/table-7/state"]
        assert state["board_id"] == "table-7"
        assert "seq" in state
        out = stop(proc)
        assert "board id 'table-7'" in out
    finally:
        if proc.poll() is None:
            proc.kill()
        client.loop_stop()
        client.disconnect()
