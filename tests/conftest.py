"""Shared fixtures: a fake clock, and the web app on the simulated board behind a test client.

PINs are hashed at a token scrypt cost in every test (:func:`cheap_pin_hashes`); the commands
speak English whatever the machine's locale (:func:`english_commands`).

Every fixture that swaps something in restores it, so tests stay independent: the client's
dependency overrides are cleared and the table (store and source) is closed in teardown.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lanes
import longest_first
import pytest
from fastapi.testclient import TestClient
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings
from web_helpers import PIN, logged_in

from scorekeeper.clock import FakeClock
from scorekeeper.store import Connect, open_sqlite

TESTS = Path(__file__).resolve().parent
AREAS = {
    "rules": "the rules engine (scorekeeper/)",
    "sensing": "sensing: sources, the pipeline, the emulated hardware",
    "table": "the live table: match log, sensing wired to the match",
    "api": "the web app's API and the skitter commands",
    "hub": "the tournament hub and MQTT",
    "faults": "faults injected: stalls, kills, lost links",
    "install": "building, installing and packaging",
    "browser": "pages in headless Chromium",
}
"""Test folders; each test is marked with its folder's name (``pytest -m rules``)."""


RAM_DISK = Path("/dev/shm")
"""Where the tests' temporary folders go when the machine has it (Linux's RAM disk)."""


def temporary_folders_in_ram(config: pytest.Config) -> None:
    """The tests' temporary folders (``tmp_path``, and ``TMPDIR`` for the servers they start)
    on the RAM disk: the match log commits each change with an fsync, which took 10 to 30 ms
    on this machine's disk and was most of the time of a test of the API. A test of a full
    or failing disk mounts one of its own (``tests/support/tiny_disk.py``). A worker is given
    its folder, under the controller's, by pytest-xdist; ``--basetemp`` is kept."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    if RAM_DISK.is_dir() and os.access(RAM_DISK, os.W_OK | os.X_OK):
        tempfile.tempdir = str(RAM_DISK)
        os.environ["TMPDIR"] = str(RAM_DISK)


def bytecode_kept(config: pytest.Config) -> None:
    """Compiled modules kept in ``__pycache__`` for the run, where the machine says not to
    (``PYTHONDONTWRITEBYTECODE``, set on the CI machines): without them every worker compiles
    and rewrites each test module afresh, and every ``skitter serve`` a test starts compiles
    the whole project again (``make fast`` took 110 s so, 91 s with them from a fresh clone).
    The workers and the servers the tests start inherit it; set before any test module is
    imported."""
    if hasattr(config, "workerinput"):
        return
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What importing and collecting built (modules, FastAPI's and pydantic's schemas, the
    collected tests: over half a million objects) is set aside from the garbage collector for
    the run (``gc.freeze``). It lives as long as the process anyway; every full collection
    walked it again, some 0.9 s each by the end of a worker's run.

    And the collector runs less often from then on (``gc.set_threshold``): a test makes
    and drops objects by the thousand, and the default thresholds ran about 2,800 collections
    a worker over ``make fast``, 5.5 s of processor time in all; these run 140 a worker,
    2.3 s, for the same peak memory (160-220 MB a worker either way)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """The heap is set aside once more as the process ends: the interpreter's collections on
    the way out walked every object the tests left (4 s on each worker of ``make fast``
    before the summary could print); the memory goes back to the system with the process."""
    gc.freeze()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the machine has cores. A quarter of the fast lane's
    time is spent waiting on a server, a broker or a pseudo-terminal a test started (measured
    per test with ``getrusage``); a third worker keeps both cores busy meanwhile (``make
    fast`` 85 s -> 66 s on two cores). ``make test`` too, since its pages are tested in
    Chromium's headless build: two workers left the cores idle an eighth of the time, and
    three took 5:46 where two took 6:53 (two idle cores)."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    bytecode_kept(config)
    temporary_folders_in_ram(config)
    if lanes.FAST:  # a property test without its own count tries a quarter of the 100
        settings.register_profile("fast", max_examples=lanes.examples(100))
        settings.load_profile("fast")
    for area, what in AREAS.items():
        if area != "browser":  # declared in pyproject.toml
            config.addinivalue_line("markers", f"{area}: tests in tests/{area}: {what}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by its folder, and as ``browser`` when it drives Chromium (the
    ``chromium`` fixture, or ``browser`` that uses it), wherever it lives: ``make fast``
    selects by these marks. In the fast lane, the files that took longest last time go
    first (:mod:`longest_first`)."""
    for item in items:
        try:
            folder = item.path.relative_to(TESTS).parts[0]
        except ValueError:
            continue
        if folder in AREAS:
            item.add_marker(folder)
        if "chromium" in getattr(item, "fixturenames", ()) and folder != "browser":
            item.add_marker("browser")
    cache = getattr(config, "cache", None)  # none with -p no:cacheprovider (make test-lowest)
    if lanes.FAST and cache is not None:
        seconds = longest_first.remembered(cache.get(longest_first.CACHE_KEY, {}), {})
        longest_first.longest_first(items, seconds)


_reports: list[pytest.TestReport] = []
"""The fast lane's test reports, in the process that writes the summary (the controller)."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if lanes.FAST and "PYTEST_XDIST_WORKER" not in os.environ:
        _reports.append(report)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The fast lane keeps what each file took, for the next run's order."""
    cache = getattr(session.config, "cache", None)
    if not lanes.FAST or "PYTEST_XDIST_WORKER" in os.environ or cache is None or not _reports:
        return
    old = cache.get(longest_first.CACHE_KEY, {})
    cache.set(longest_first.CACHE_KEY,
              longest_first.remembered(old, longest_first.file_seconds(_reports)))


@pytest.fixture(autouse=True)
def english_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``skitter`` commands (in this process and the servers it starts) speak English
    whatever the machine's locale (``skitter_cli/language.py``), as the tests read their output;
    a test about another language sets its own locale."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def cheap_pin_hashes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """PINs set in this process are hashed with a token scrypt cost (n=16, r=1, p=1).

    The real cost (``web_common.pin.PIN_COST``, ~50 ms a hash and as much per login, far more
    on a loaded machine) dominated the set-up of the web tests, which set a PIN for every app.
    Hashes carry their parameters, so checks against them are as cheap; production code is
    unchanged, and servers started as processes still hash at the real cost. A test about the
    real cost itself is marked ``@pytest.mark.real_pin_cost``.
    """
    if request.node.get_closest_marker("real_pin_cost") is None:
        from web_common import pin

        monkeypatch.setattr(pin, "PIN_COST", pin.ScryptCost(n=16, r=1, p=1))


@pytest.fixture(autouse=True)
def held_ports() -> Iterator[None]:
    """Ports a test took with ``ports.free_port`` are let go when it ends (its servers are
    stopped by then: this fixture is set up before, so torn down after, theirs)."""
    from ports import held_count, release_ports

    mark = held_count()
    yield
    release_ports(mark)


@pytest.fixture(autouse=True)
def apps_let_go() -> Iterator[None]:
    """When a test ends, FastAPI's caches of what kind of function each endpoint and
    dependency is (``fastapi.dependencies.models``, up to 4096 entries each) are emptied.

    An app's endpoints are functions made for that app, so each entry kept the app it was
    made for alive, with its routes and pydantic schemas: some sixty apps, over a million
    objects, that every garbage collection walked again (a second of a worker's CPU for each
    full one by the end of ``make fast``). A server builds one app and keeps it, so the cap
    is all it needs there."""
    yield
    models = sys.modules.get("fastapi.dependencies.models")
    for value in vars(models).values() if models is not None else ():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


EXPECT_TIMEOUT_MS = 10_000
"""How long Playwright's ``expect`` waits in every browser test (its own default, 5 s, is short
on a loaded machine). A test that needs another wait passes ``timeout=`` to that one call;
nobody calls ``expect.set_options``."""


@pytest.fixture(autouse=True)
def expect_timeout() -> None:
    """Every test starts with ``expect`` waiting :data:`EXPECT_TIMEOUT_MS`, whatever an earlier
    test in the worker did (Playwright is loaded by then in a browser test: its ``browser``
    fixture, of a wider scope, is set up first)."""
    sync_api = sys.modules.get("playwright.sync_api")
    if sync_api is not None:
        sync_api.expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture
def fake_clock() -> FakeClock:
    """A clock at t=1000 s that moves only when a test advances it."""
    return FakeClock(1000.0)


@pytest.fixture
def make_client(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Callable[..., TestClient]]:
    """Build clients on ``tmp_path/skitter.db`` (call again after closing one to "restart").

    ``connect`` opens the log's connection (a fault test's failing or stalling disk);
    ``allowed_origins`` as ``skitter serve`` passes its setting of that name."""
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    opened: list[tuple[TestClient, object]] = []

    def build(*, source: str = "sim", connect: Connect = open_sqlite,
              allowed_origins: tuple[str, ...] = ()) -> TestClient:
        broadcaster = Broadcaster()
        table = open_table(tmp_path / "skitter.db", source, clock=fake_clock, wall=fake_clock,
                           publish=broadcaster.publish, connect=connect)
        app = create_app(table, Auth.create(pins, fake_clock), broadcaster, poll_interval=None,
                         allowed_origins=allowed_origins)
        client = TestClient(app)
        client.__enter__()
        opened.append((client, table))
        return client

    yield build
    for client, table in opened:
        client.app.dependency_overrides.clear()  # type: ignore[attr-defined]
        client.__exit__(None, None, None)
        table.close()  # type: ignore[attr-defined]


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """The app on the simulated board; nobody logged in."""
    return make_client()


@pytest.fixture
def referee(client: TestClient) -> TestClient:
    """The same client, logged in as the referee."""
    return logged_in(client)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default factory; the previous factory comes back after."""
    save_factory = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = save_factory


# -- The browser tests' Chromium (one per worker) and a live server on the simulated board --

class _Chromium:
    """The worker's one headless Chromium (and the Playwright driving it), started when a
    test first asks for it and kept for the session: launching both cost some 2 s for every
    test file that drove a browser.

    Playwright's synchronous API marks its event loop as running in this thread between its
    calls, so ``asyncio.run`` in a test that drives no browser would refuse to start: such a
    test runs with the mark taken away, and it is put back after it
    (:func:`pytest_runtest_protocol`)."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        """The Chromium, launched now if none runs (or the last one went away)."""
        from browser_support import CHROMIUM_ARGS, HEADLESS_CHROMIUM, require_chromium

        require_chromium()
        if self.browser is not None and self.browser.is_connected():
            return self.browser
        if self.playwright is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=HEADLESS_CHROMIUM,
                                                       args=CHROMIUM_ARGS)
        return self.browser

    def loop(self) -> asyncio.AbstractEventLoop | None:
        """Playwright's event loop, while it is open."""
        return None if self.playwright is None else self.playwright._loop  # noqa: SLF001

    def stop(self) -> None:
        loop = self.loop()
        if loop is None:
            return
        asyncio.events._set_running_loop(loop)  # as Playwright left it after its last call
        try:
            if self.browser is not None and self.browser.is_connected():
                self.browser.close()
        finally:
            self.playwright.stop()
            self.playwright = self.browser = None


_worker_chromium = _Chromium()
_chromium: list[Any] = []
"""The worker's Chromium, once a test asked for it."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A test that drives no browser runs without Playwright's "loop running" mark (see
    :class:`_Chromium`); the mark is back before Playwright is called again."""
    loop = _worker_chromium.loop()
    if loop is None or "chromium" in getattr(item, "fixturenames", ()):
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        if _worker_chromium.loop() is loop:
            asyncio.events._set_running_loop(loop)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """The worker's headless Chromium, for the whole session (:class:`_Chromium`)."""
    browser = _worker_chromium.get()
    _chromium[:] = [browser]
    try:
        yield browser
    finally:
        _chromium.clear()
        _worker_chromium.stop()


@pytest.fixture(scope="session")
def playwright_driver(chromium: Any) -> Any:
    """The worker's Playwright, for a test that launches a Chromium of its own (a windowed
    one)."""
    return _worker_chromium.playwright


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """The worker's Chromium for a test file; each test works in contexts of its own, closed
    when it ends (:func:`browser_contexts_per_test`), and those the file's fixtures opened are
    closed when the file is done."""
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)  # for the file's fixtures too
    browser = _worker_chromium.get()  # (a new one if the last went away)
    _chromium[:] = [browser]
    before = set(map(id, browser.contexts))
    yield browser
    if browser.is_connected():
        for ctx in list(browser.contexts):
            if id(ctx) not in before:
                ctx.close()


@pytest.fixture(autouse=True)
def browser_contexts_per_test() -> Iterator[None]:
    """The browser contexts (and pages) a test opened are closed when it ends; those of its
    file's fixtures, opened before, stay for the file's other tests."""
    before = set(map(id, _chromium[0].contexts)) if _chromium else set()
    yield
    if _chromium and _chromium[0].is_connected():
        for ctx in list(_chromium[0].contexts):
            if id(ctx) not in before:
                ctx.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test leaves a screenshot of every page it still had open, under
    test-artifacts/screenshots/failed/ (other screenshots are taken with SCREENSHOTS=1)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or not _chromium:
        return
    from browser_support import SCREENSHOTS

    folder = SCREENSHOTS / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in item.nodeid)
    pages = [page for ctx in _chromium[0].contexts for page in ctx.pages]
    for n, page in enumerate(pages):
        try:
            page.screenshot(path=str(folder / f"{name}-{n}.png"), full_page=True, timeout=5000)
        except Exception:  # a page that is gone or hangs: the failure itself is what counts
            continue


@pytest.fixture
def server(tmp_path: Path) -> Iterator[object]:
    from browser_support import live_server

    with live_server(tmp_path) as s:
        yield s


class _Sender:
    """The hub's MQTT side, for apps tested without a broker: every command is 'sent'."""

    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **_: object) -> str:
        return f"{board}-{kind}"


@pytest.fixture
def hub_client(tmp_path: Path) -> Iterator[TestClient]:
    """The tournament hub's app on ``tmp_path/hub.db`` with the referee PIN :data:`PIN`."""
    from hub.app import Hub, create_hub_app
    from hub.store import HubStore
    from hub.tournament import Tournament
    from web_common.pin import PinStore

    clock = FakeClock(1_700_000_000.0)
    pins = PinStore(tmp_path / "hub-pin")
    pins.set(PIN)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    try:
        with TestClient(create_hub_app(Hub(tournament, _Sender(), pins, clock))) as c:
            yield c
    finally:
        tournament.store.close()
