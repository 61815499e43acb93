"""The tournament hub: many boards reporting over MQTT, one page for the tournament referee.

``tournament_wire`` is the contract both sides speak (topics, payloads, the offered game,
connecting to the broker);
``pairings`` and ``standings`` are plain functions over plain values; ``store`` keeps the
tournament in its own SQLite file; ``tournament`` turns received events into results;
``link`` is the hub's MQTT client; ``app`` serves the page and the referee's API.
"""
