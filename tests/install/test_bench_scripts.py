"""Each benchmark script runs and prints its figures with the machine they were taken on.

Smoke tests with tiny counts: they check that the scripts work and report, never how fast
anything is (timings on a shared CI machine mean nothing; ``bench/README.md`` has a run).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for label in ("machine:", "python:", "date:", "Result:"):
        assert label in out, f"{script} printed no {label!r}:\n{out}"
    assert "bench bug" not in out
    return out


def test_pipeline_cost_prints_bus_driver_and_pipeline_figures() -> None:
    out = run_bench("pipeline_cost.py", "--scans", "200", "--rounds", "1")
    assert "bus transactions alone" in out and "driver reads alone" in out
    assert "ratio to driver" in out and "pipeline / driver reads =" in out
    assert "the pipeline's cells match the board" in out


@pytest.mark.timeout(120)
def test_log_replay_prints_events_per_second_the_decode_ratio_and_the_resume() -> None:
    out = run_bench("log_replay.py", "--events", "400", "--rounds", "1", "--resume-steps", "50")
    assert "events/s" in out and "ratio to decode" in out
    assert "log: 400 events" in out
    assert "start to first state, 50 steps" in out and "Result: resume of a 50-step" in out


@pytest.mark.timeout(120)
def test_memory_prints_idle_and_after_match_figures() -> None:
    out = run_bench("memory.py", "--shots", "8", "--viewers", "1", "--idle", "0.2")
    assert "idle:" in out and "after the match:" in out
    assert "peak resident memory" in out


@pytest.mark.timeout(120)
def test_latency_prints_percentiles_and_the_echo_baseline() -> None:
    out = run_bench("latency.py", "--shots", "1", "--clients", "1,3")
    assert "bare WebSocket echo round trip" in out
    assert "p99 added latency with 3 clients" in out


@pytest.mark.timeout(120)
def test_web_faults_prints_pin_checks_under_concurrent_guessing() -> None:
    out = run_bench("web_faults.py", "--skip-serve")
    assert "for 100 simultaneous wrong PINs from one address" in out
    assert "PIN checks a minute under concurrent guessing" in out


def test_stats_read_prints_cold_and_warm_reads() -> None:
    out = run_bench("stats_read.py", "--matches", "6", "--steps", "40", "--players", "4")
    assert "cold read (replay all)" in out and "warm read (cached)" in out
    assert "matches stored: 6" in out


def test_review_size_prints_bytes_per_shot_with_and_without_timelines() -> None:
    out = run_bench("review_size.py", "--shots", "30")
    assert "bytes per shot" in out and "after pruning the timelines" in out
    assert "steps: " in out and "(30 shots" in out


@pytest.mark.timeout(120)
def test_swiss_prints_each_round_and_the_slowest() -> None:
    out = run_bench("swiss.py", "--players", "12", "--rounds", "3")
    assert "round 1: 6 pairs in" in out and "round 3: 6 pairs in" in out
    assert "players 12: slowest round" in out and "Result: slowest Swiss round at 12" in out


@pytest.mark.timeout(120)
def test_hub_rows_prints_the_bytes_the_hub_keeps_per_step() -> None:
    out = run_bench("hub_rows.py", "--steps", "40")
    assert "steps: 40" in out and "state as sent" in out and "state kept" in out
    assert "Result: the hub keeps" in out and "bytes per step" in out


@pytest.mark.mqtt
@pytest.mark.timeout(120)
def test_hub_scale_prints_hub_cpu_and_step_to_page_latency() -> None:
    from mqtt_broker import require_mosquitto

    require_mosquitto()
    out = run_bench("hub_scale.py", "--boards", "2", "--pages", "3", "--seconds", "4",
                    "--warmup", "1")
    assert "CPU, share of one core: hub" in out and "board step -> page: p50" in out
    assert "0 not shown by the end" in out


def test_board_link_prints_the_cpu_of_a_step_early_and_late() -> None:
    out = run_bench("board_link.py", "--steps", "40", "--window", "3")
    assert "CPU per step at step 10:" in out and "CPU per step at step 40:" in out


def test_shot_order_prints_the_cost_of_a_shot_beside_the_code_before() -> None:
    out = run_bench("shot_order.py", "--shots", "3", "--rounds", "1", "--base", str(ROOT))
    assert "two gifts, last skitt" in out and "before" in out and "of a scan period" in out


def _path_bench(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "tap_path.py"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_path_bench_follows_a_shot_from_the_sensors_and_a_correction_to_the_store() -> None:
    tap = _path_bench()
    assert "The tap-to-TV path" in tap and "firmware_bridge/settle.py" in tap
    correction = _path_bench("--correction")
    assert "The correction path" in correction
    assert "scorekeeper/rules/corrections.py" in correction
    assert "scorekeeper/store/writing.py" in correction
    for out in (tap, correction):
        assert "broadcaster.py" in out
        files = re.search(r"^files +(\d+)$", out, re.MULTILINE)
        assert files is not None and int(files.group(1)) > 10, out


@pytest.mark.browser
def test_chromium_contexts_prints_the_cost_of_a_context_in_both_browsers() -> None:
    from browser_support import CHROMIUM, HEADLESS_CHROMIUM, require_chromium

    require_chromium(CHROMIUM)
    require_chromium(HEADLESS_CHROMIUM)
    out = run_bench("chromium_contexts.py", "--contexts", "2")
    for browser in ("before (the full browser): chromium ",
                    "now (the headless build):  chromium-headless-shell "):
        line = next((line for line in out.splitlines() if line.startswith(browser)), "")
        assert re.search(r"\d\.\d\d s of processor time a context", line), out


@pytest.mark.timeout(120)
def test_request_cost_prints_start_refusal_and_request_figures() -> None:
    out = run_bench("request_cost.py", "--requests", "5", "--rounds", "1")
    assert "start: processor time, s" in out and "refusal (no I2C bus): wall, s" in out
    assert "GET /api/state: us per request" in out
    assert "POST /api/referee/login, wrong PIN: us per request" in out
