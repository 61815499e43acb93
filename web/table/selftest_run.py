"""The board self-test run from the referee page, inside ``skitter serve``.

The walk itself is :class:`firmware_bridge.selftest.SelfTest`, the one ``skitter selftest``
runs. Here it is fed from the table's own polling: the sensing's raw events (its ``tap``),
the board's buttons (diverted from the match while the test runs) and the expanders' I2C
error counts. Sensing is paused for the test, so no skitt placed for it is ever taken for a
shot; when it ends, sensing resumes as after any pause (a board that differs from the match
goes to the referee). The sheet is kept as the board's last self-test; a disk that refuses
it (full) never keeps sensing paused: the sheet waits in memory and is written once there
is room, and until then the view says it is not saved.

Every method runs on the sensing thread (``table.feed.thread``), as the tap does, so the
walk is only ever touched from one thread.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_bridge.selftest import SelfTest, Sheet
from firmware_bridge.source import SensorEvent
from scorekeeper.errors import because
from scorekeeper.words import ENGLISH, Words
from web.table import selftest_record
from web.table.table import Refused, Table

if TYPE_CHECKING:
    from web.table.controls import HardwareControls


class StaleStep(Refused):
    """A skip meant for a step the walk has already left (another referee was faster)."""


def stale_words(t: Words = ENGLISH) -> str:
    """Why a :class:`StaleStep` was refused, in the language ``t``."""
    return t.gettext("the self-test has moved on since that step was shown")


def stale_run_words(t: Words = ENGLISH) -> str:
    """Why a start or a stop made on an older view of the self-test was refused."""
    return t.gettext("someone else started or stopped the self-test since this page showed "
                     "it: nothing was changed; it now shows the self-test as it is")


class SelfTestRun:
    """At most one walk at a time for ``table``; the last sheet in ``directory``."""

    def __init__(self, table: Table, directory: Path, board_id: str, *,
                 date: Callable[[], str], controls: HardwareControls | None = None) -> None:
        self.table = table
        self.directory = directory
        self.board_id = board_id
        self.date = date
        self.controls = controls
        self.test: SelfTest | None = None
        self._was_paused = False
        self._errors_before: dict[str, int] = {}
        self.runs = 0
        """Walks started so far; a step is named by (run, index), so a skip meant for
        another walk's step is refused."""
        self.last_sheet: dict[str, Any] | None = selftest_record.load(directory)
        self.unsaved: Sheet | None = None
        """The last sheet while the disk has refused it (full): kept here and written at
        the next look at the self-test once there is room."""

    def check_run(self, run: int) -> None:
        """Refuse a start or a stop decided on the view of walk ``run`` when another walk
        has started since (:class:`StaleStep`, HTTP 409)."""
        if run != self.runs:
            raise StaleStep(stale_run_words(), "selftest.run")

    def start(self) -> None:
        sensing = self.table.sensing
        if sensing is None:
            raise Refused(because("the self-test needs a sensor source"), "selftest")
        if self.test is not None:
            raise Refused(because("a self-test is already running"), "selftest")
        feed = self.table.feed
        self._was_paused = feed.paused
        self.table.set_paused(True)
        self._errors_before = self._errors()
        buttons = {}
        if self.controls is not None:
            buttons = {role: list(b.names) for role, b in self.controls.buttons.items()}
        test = SelfTest(sensing.profile, self.table.clock.now(),
                        initial=sensing.source.snapshot(), buttons=buttons,
                        source=sensing.source.name)
        self.test = test
        self.runs += 1
        sensing.tap = lambda events: self._feed(test, events)
        if self.controls is not None:
            thread = feed.thread
            now = self.table.clock.now
            self.controls.divert = lambda role, name: thread.submit(
                self._press, test, role, name, now())

    def skip(self, run: int, index: int) -> None:
        test = self._running()
        if run != self.runs or index != test.index:
            raise StaleStep(stale_words(), "selftest.step")
        test.skip()
        if test.current is None:
            self.stop()

    def stop(self) -> dict[str, Any]:
        """End the walk (done or stopped early): keep its sheet, resume sensing."""
        test = self._running()
        self._collect(test)
        test.finish(self.table.clock.now())
        sheet = test.sheet(self.board_id, self.date())
        self.test = None
        sensing = self.table.sensing
        if sensing is not None:
            sensing.tap = None
        if self.controls is not None:
            self.controls.divert = None
        self.table.set_paused(self._was_paused)  # first: sensing resumes whatever the disk does
        self.last_sheet = sheet.to_json()
        self.unsaved = sheet
        self._save()
        return self.last_sheet

    def view(self, t: Words = ENGLISH) -> dict[str, Any]:
        """The walk as it stands (None when none runs) and the last sheet (kept as made, in
        English), both in the language ``t``."""
        test = self.test
        if test is not None:
            self._collect(test)
        self._save()
        return {
            "running": test is not None,
            "saved": self.unsaved is None,
            "run": self.runs,
            "walk": None if test is None else test.view(t),
            "last": None if self.last_sheet is None else selftest_record.worded(
                self.last_sheet, t),
        }

    # -- inside ----------------------------------------------------------------------------------

    def _save(self) -> None:
        """Write the sheet the disk refused so far, if it has room now."""
        if self.unsaved is None:
            return
        try:
            selftest_record.save(self.directory, self.unsaved)
        except OSError:
            return  # full (or read-only): kept in memory, the page says it is not saved yet
        self.unsaved = None

    def _running(self) -> SelfTest:
        if self.test is None:
            raise Refused(because("no self-test is running"), "selftest")
        return self.test

    def _feed(self, test: SelfTest, events: list[SensorEvent]) -> None:
        test.feed(events)
        self._finish_later(test)

    def _press(self, test: SelfTest, role: str, name: str, at: float) -> None:
        if test is self.test:
            test.press(role, name, at)
            self._finish_later(test)

    def _finish_later(self, test: SelfTest) -> None:
        """The last step has just answered: end the walk once this polling step is over
        (it runs on the same thread, so sensing resumes between two polls)."""
        if test.current is None and test is self.test:
            self.table.feed.thread.submit(self._finish, test)

    def _finish(self, test: SelfTest) -> None:
        if test is self.test:
            self.stop()

    def _errors(self) -> dict[str, int]:
        sensing = self.table.sensing
        source = getattr(sensing, "source", None)
        source = getattr(source, "inner", source)  # a RecordingSource wraps the real one
        errors_of = getattr(source, "errors_by_expander", None)
        return dict(errors_of()) if errors_of is not None else {}

    def _collect(self, test: SelfTest) -> None:
        """I2C errors since the walk began, per expander."""
        now = self._errors()
        test.expander_errors({k: v - self._errors_before.get(k, 0) for k, v in now.items()})
