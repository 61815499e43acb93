"""From settled board readings to shots: the rule-aware half of sensing.

The pipeline in ``firmware_bridge`` says what the board looks like once it is at rest; the
tracker compares that with the board the match expects and decides what the difference is:

- **ready**: the board agrees with the match; the next difference is the shot of the player
  due (its net field changes are the shot's ``delta``; the big-skitt spots tell ``placed`` /
  ``missed``; a bridge cell tells a chain; a launch spot marks a shot that changed nothing).
- **restore**: the rules changed the board beyond what the sensors saw (a clearing, a chain's
  skitt, an invalid shot, a gift skitt, a new round), or the referee undid or corrected a
  step. Nothing scores until the sensors agree with the expected board again; changes on the
  way there are not shots, and the instruction counts down as skitts are put back. A change
  that is not the restore (a skitt where none was to go) is never dropped: it goes to the
  referee as the shot it looks like (:func:`scorekeeper.restore.split_restore`). The referee
  can always end a restore in one step: the board is as the match expects though the
  sensors differ (:meth:`Tracker.board_as_expected`), or the match takes the board as sensed.
- **review**: after a pause, a lost sensor link, a restart, or a reading the rules refused,
  a board that differs from the match is never scored automatically: the referee accepts
  it as the shot of the player due, or has it restored.
- **question**: a field the shot may have changed is as full as its sensors can count
  (:mod:`scorekeeper.saturation`): the shot waits for the referee's count there, one tap per
  field, and is then proposed like any sensed shot. A full field is never "no change".
- **paused**: sensing is paused by the referee or the link is down; readings are ignored.

The comparisons behind every mode (which fields differ, the shot a difference shows) are in
:mod:`scorekeeper.expectation`. The tracker is pure: it reads no clock and does no I/O. It
proposes shots as match events (:class:`~scorekeeper.events.ShotEvent`), which the caller
applies to the match as they are, and calls :meth:`Tracker.sync` after every change of the
match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from scorekeeper.errors import Why, because
from scorekeeper.events import ShotEvent
from scorekeeper.expectation import (
    Expectation,
    agrees,
    big_differences,
    board_differences,
    shot_from_reading,
)
from scorekeeper.options import BigState
from scorekeeper.phrases import literal, slot
from scorekeeper.reading import BoardReading
from scorekeeper.restore import Override, split_restore
from scorekeeper.saturation import Question, QuestionError, full_fields, question_for
from scorekeeper.shot import Shot
from scorekeeper.tracker_status import (
    Mode,
    PauseReason,
    TrackerStatus,
    describe_differences,
    field_place,
)


class Tracker:
    """Turns settled readings into proposed shots, and tells people what the board needs.

    Call :meth:`observe` with every settled reading and the current expectation; apply a
    returned shot to the match; then call :meth:`sync` with the new expectation (also after
    undo, corrections, decisions and new matches). Call :meth:`refused` when the rules
    refused a proposed shot.
    """

    def __init__(self) -> None:
        self._mode: Mode = Mode.REVIEW
        self._paused_by: set[PauseReason] = set()
        self._reading: BoardReading | None = None
        self._expected: Expectation | None = None
        self._note_text = ""
        self._after_gap = False
        """The note says sensing resumed and the board is being checked (a new note ends
        it): the first reading that disagrees then says the board changed in the gap."""
        self._refusal: Why | None = None
        """The rules' refusal the note tells of, as data for the pages' words."""
        self._override: Override | None = None
        """The referee's word that the board is as the match expects (see restore.py)."""
        self._base: tuple[dict[str, int], dict[str, str], frozenset[tuple[str, str]]] | None = None
        """During a restore: the differences still to put back at the last reading (fields,
        big spots, bridges), to tell the restore from a shot played meanwhile."""
        self._suspect: ShotEvent | None = None
        """The shot a change during a restore looks like, for the referee to score."""
        self._question: Question | None = None
        self._asked_on: BoardReading | None = None
        """The reading a full field's question was asked on: the board the answered shot
        left. A later reading that differs was a change made while the referee was asked,
        and is asked about once the question is answered (:meth:`sync`)."""

    @property
    def _note(self) -> str:
        """Why the referee must look, in the rules' English, as a phrase (players and fields
        left open, :mod:`scorekeeper.phrases`); a new note ends a refusal's."""
        return self._note_text

    @_note.setter
    def _note(self, text: str) -> None:
        self._note_text = text
        self._refusal = None
        self._after_gap = False

    # Inputs --------------------------------------------------------------------------

    def observe(self, reading: BoardReading, expected: Expectation) -> ShotEvent | None:
        """A new settled reading: the shot it shows, if the board is ready for one."""
        self._reading = reading
        self._expected = expected
        if self._paused_by:
            return None
        if self._mode == Mode.QUESTION:
            return None  # the referee's count comes first; the board is read again after
        seen, judged = self._judged(reading, expected)
        if self._mode == Mode.READY:
            shot = shot_from_reading(seen, judged)
            if shot is None:
                return None
            self._note = ""
            return self._propose(shot, seen, judged)
        if agrees(seen, judged):
            self._ready()
        elif self._mode == Mode.RESTORE or (self._mode == Mode.REVIEW and self._base is not None):
            # (a review that a change during a restore started follows the board: once that
            # change is gone again, it is the restore again)
            self._restore_step(seen, judged)
        elif self._after_gap:
            self._note = "the board changed while sensing was interrupted"
        return None

    @property
    def reading(self) -> BoardReading | None:
        """The last settled reading observed (None before the first)."""
        return self._reading

    def _judged(
        self, reading: BoardReading, expected: Expectation
    ) -> tuple[BoardReading, Expectation]:
        """The reading and expectation as judged: under the referee's word, if given (it
        lapses once the sensors agree with the match by themselves)."""
        if self._override is None:
            return reading, expected
        if agrees(reading, expected):
            self._override = None
            return reading, expected
        return self._override.adjust(reading, expected)

    def _ready(self) -> None:
        self._mode = Mode.READY
        self._note = ""
        self._base = None
        self._suspect = None
        self._question = None

    def _restore_from(self, seen: BoardReading, judged: Expectation) -> None:
        """Start (or start again) a restore from this reading: all of it is to put back."""
        self._mode = Mode.RESTORE
        self._suspect = None
        self._base = (board_differences(seen, judged), big_differences(seen, judged),
                      seen.bridges)

    def _restore_step(self, seen: BoardReading, judged: Expectation) -> None:
        """A reading during a restore: count down, or hand a change that is not the restore
        to the referee as the shot it looks like."""
        if self._base is None:
            self._restore_from(seen, judged)
            return
        counts, bigs_before, bridges_before = self._base
        left, away = split_restore(counts, board_differences(seen, judged))
        bigs = big_differences(seen, judged)
        new_bigs = {p: v for p, v in bigs.items() if bigs_before.get(p) != v}
        new_bridges = seen.bridges - bridges_before
        if not away and not new_bigs and not new_bridges:
            self._base = (left, bigs, seen.bridges & bridges_before)
            self._mode, self._note, self._suspect = Mode.RESTORE, "", None
            return
        # The part that is not the restore, as if the rest had been put back.
        counts_now = {n: int(judged.board.get(n, 0)) + away.get(n, 0)
                      for n in set(judged.board) | set(away)}
        big_now = dict(seen.big)
        for player in bigs:
            if player not in new_bigs:
                big_now[player] = judged.big.get(player) == BigState.CENTER
        alone = replace(seen, counts=counts_now, big=big_now, bridges=new_bridges)
        shot = shot_from_reading(alone, judged)
        self._mode = Mode.REVIEW
        self._suspect = None if shot is None else ShotEvent(shot)
        who = judged.turn if shot is not None else None
        self._note = (
            f"the board changed during a restore; this looks like {slot(who)}'s shot: score it, "
            "or put the board back" if who else "the board changed during a restore"
        )

    def sync(self, expected: Expectation, *, after_shot: bool = False) -> None:
        """The match changed: wait for a restore if the board must now differ from the last reading.

        ``after_shot`` is True right after a shot this tracker proposed was applied: the
        sensed board is then the shot's result, and any difference is the rules' doing.
        """
        self._expected = expected
        self._suspect = None  # judged against the match as it was
        asked_on, self._asked_on = self._asked_on, None
        if self._question is not None:
            # The match changed before the referee answered: the asked shot is void.
            self._question = None
            self._mode = Mode.REVIEW
            self._note = "the match changed before the referee said what the shot added"
        if self._paused_by:
            return
        if self._reading is None:
            self._mode = Mode.REVIEW
            return
        if after_shot and asked_on is not None and _moved(asked_on, self._reading):
            self._changed_while_asked(asked_on, expected)
            return
        seen, judged = self._judged(self._reading, expected)
        if agrees(seen, judged):
            self._ready()
        elif after_shot or self._mode in (Mode.READY, Mode.RESTORE):
            self._restore_from(seen, judged)

    def _changed_while_asked(self, asked_on: BoardReading, expected: Expectation) -> None:
        """The answered shot left the board as ``asked_on``; the board changed after that
        while the referee was asked: the change goes to the referee as the shot it looks
        like (or as a change during the restore the answered shot started)."""
        latest = self._reading
        assert latest is not None
        before, judged = self._judged(asked_on, expected)
        if agrees(before, judged):
            seen, judged = self._judged(latest, expected)
            shot = shot_from_reading(seen, judged)
            self._mode, self._base = Mode.REVIEW, None
            self._suspect = None if shot is None else ShotEvent(shot)
            who = judged.turn if shot is not None else None
            self._note = (
                f"the board changed while the referee was asked; this looks like {slot(who)}'s "
                "shot: score it, or put the board back" if who else
                "the board changed while the referee was asked")
            return
        self._restore_from(before, judged)
        self._restore_step(*self._judged(latest, expected))

    def ask(self, reading: BoardReading, expected: Expectation, note: str) -> None:
        """The table asks the referee about ``reading`` (``note``: why, in the rules'
        English, as a phrase: ``{black}'s skitt landed ...``): nothing scores until the
        referee decides or the match changes."""
        self._reading, self._expected = reading, expected
        self._mode, self._base, self._suspect, self._question = Mode.REVIEW, None, None, None
        self._note = note

    def refused(self, message: str, why: Why | None = None) -> None:
        """The rules refused the proposed shot: the referee must look at the board.
        ``why``: the refusal as data (``IllegalEventError.why``), for words in names."""
        self._mode, self._base, self._suspect = Mode.REVIEW, None, None
        self._question, self._asked_on = None, None
        self._note = f"the rules refused the sensed shot: {literal(message)}"
        self._refusal = why

    def not_recorded(self, message: str) -> None:
        """A sensed shot could not be written to the match log: it is not scored, and the
        referee accepts the board again once the log can be written."""
        self._mode, self._base, self._suspect = Mode.REVIEW, None, None
        self._question, self._asked_on = None, None
        self._note = f"the sensed shot was not recorded ({literal(message)})"

    def mark_no_change(self, expected: Expectation) -> ShotEvent | None:
        """A launch spot, a button or the tablet says: the player due shot and nothing changed."""
        if expected.turn is None or not expected.playing:
            return None
        if self._question is not None:
            return None  # already asked: the referee's count completes the shot
        shot = Shot(by=expected.turn, big="missed" if expected.must_place_big else None)
        if self._reading is None:
            return ShotEvent(shot)
        return self._propose(shot, self._reading, expected)

    def accept_board(self, expected: Expectation) -> ShotEvent | None:
        """The referee accepts the board as sensed: the difference is the shot of the player due."""
        if self._reading is None:
            return None
        suspect = self._suspect
        self._ready()
        if suspect is not None:
            return suspect  # a change during a restore: the shot it looked like, alone
        seen, judged = self._judged(self._reading, expected)
        turn = {expected.turn} if expected.turn else set()
        forced = replace(seen, launched=seen.launched | turn)
        shot = shot_from_reading(forced, judged)
        return None if shot is None else self._propose(shot, forced, judged)

    def answer(self, field_name: str, skitts: int) -> ShotEvent | None:
        """The referee's count for the open question's field: how many skitts the shot
        added there. Returns the completed shot once every full field is answered (apply it
        like an observed one, then :meth:`sync` with ``after_shot``); :class:`QuestionError`
        for an answer that does not fit (nothing changes then)."""
        if self._question is None:
            raise QuestionError("answer", because("no question is open (the board is counted)"))
        question = self._question.answered(field_name, skitts)
        if question.open is not None:
            self._question = question
            return None
        self._ready()
        return ShotEvent(question.completed())

    def _propose(
        self, shot: Shot, reading: BoardReading, expected: Expectation
    ) -> ShotEvent | None:
        """The shot, or None with a question open when a field it may have changed is as
        full as its sensors can count."""
        question = question_for(shot, reading, expected.board)
        if question is None:
            return ShotEvent(shot)
        self._question = question
        self._asked_on = reading
        self._mode = Mode.QUESTION
        return None

    def restore_board(self) -> None:
        """The referee has the board restored to what the match expects (all of it,
        including a change during a restore that was not scored)."""
        self._note = ""
        if self._reading is not None and self._expected is not None:
            self._restore_from(*self._judged(self._reading, self._expected))
        else:
            self._mode, self._base, self._suspect = Mode.RESTORE, None, None

    def board_as_expected(self) -> None:
        """The referee says the board lies as the match expects, whatever the sensors show
        (a field beyond its sensors' count, a spot that cannot be sensed): play goes on, and
        what the sensors show now is not asked to be restored again. ``ValueError`` in
        words when there is nothing to say it of."""
        reading, expected = self._reading, self._expected
        if self._paused_by:
            raise ValueError("sensing is paused: resume it first")
        if reading is None or expected is None:
            raise ValueError("the board is not at rest yet: wait a moment and try again")
        if agrees(reading, expected) or (self._mode == Mode.READY and self._override is not None):
            raise ValueError("the board already agrees with the match: nothing to set")
        self._override = Override(
            counts=board_differences(reading, expected),
            big=frozenset(big_differences(reading, expected)),
            bridges=reading.bridges,
        )
        self._ready()

    def board_as_sensed(self) -> dict[str, int]:
        """The counts the match must take for the board to be as the sensors see it (a
        referee's correction); ``ValueError`` in words when that cannot end the difference."""
        reading, expected = self._reading, self._expected
        if self._paused_by:
            raise ValueError("sensing is paused: resume it first")
        if reading is None or expected is None:
            raise ValueError("the board is not at rest yet: wait a moment and try again")
        if agrees(reading, expected):
            raise ValueError("the board already agrees with the match: nothing to take")
        if big_differences(reading, expected) or reading.bridges:
            raise ValueError(
                "a big skitt or a skitt on a bridge cannot be taken as sensed: put it right, "
                "or tell the match the board is as it expects")
        return {name: reading.count(name) for name in board_differences(reading, expected)}

    def pause(self, why: PauseReason = PauseReason.REFEREE) -> None:
        """Stop taking readings; several reasons may hold."""
        self._paused_by.add(why)

    def resume(self, why: PauseReason = PauseReason.REFEREE) -> None:
        """Take readings again; the board is judged afresh before anything scores.

        The last reading was taken before the gap (a pause, a lost link, bus errors): the
        board may have changed meanwhile unseen, so it is forgotten. The next settled reading
        decides: the board agrees with the match (ready) or the referee decides (review).
        The caller must make sure that reading is taken after the gap (the table has the
        pipeline owe a fresh one and drops readings taken before it resumed).
        """
        self._paused_by.discard(why)
        if not self._paused_by:
            if self._reading is not None:
                self._note = "sensing resumed: checking the board"
                self._after_gap = True
            self._mode, self._base, self._suspect = Mode.REVIEW, None, None
            self._reading = None
            self._question, self._asked_on = None, None

    # Output --------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return Mode.PAUSED if self._paused_by else self._mode

    @property
    def question(self) -> Question | None:
        """The shot waiting for the referee's count on a full field, if any."""
        return self._question

    def status(self) -> TrackerStatus:
        """What the board needs, in words for the scoreboard and the referee."""
        expected = self._expected
        reading = self._reading
        board = dict(expected.board) if expected else {}
        if reading is not None and expected is not None and self._override is not None:
            reading, expected = self._override.adjust(reading, expected)
        diffs = board_differences(reading, expected) if reading and expected else {}
        bigs = big_differences(reading, expected) if reading and expected else {}
        bridges = tuple(sorted(reading.bridges)) if reading and expected else ()
        return TrackerStatus(
            mode=self.mode,
            phrase=self._phrase(expected, diffs, bigs, bridges),
            expected=board,
            differences=diffs,
            big_differences=bigs,
            overridden=dict(self._override.counts) if self._override else {},
            question=self._question,
            full=full_fields(reading) if reading else (),
            settled=self._reading is not None,
            refusal=self._refusal,
            bridges=bridges,
        )

    def _phrase(
        self, expected: Expectation | None, diffs: Mapping[str, int], bigs: Mapping[str, str],
        bridges: tuple[tuple[str, str], ...],
    ) -> str:
        mode = self.mode
        if mode == Mode.PAUSED:
            if PauseReason.LINK in self._paused_by:
                return "sensor link down: play paused"
            return "sensing paused by the referee"
        if expected is None or self._reading is None:
            if self._note:
                return f"{self._note}; waiting for the board to come to rest"
            return "waiting for the board to come to rest"
        if mode == Mode.READY:
            if expected.turn is None:
                return "board ready"
            if expected.must_place_big:
                return f"{slot(expected.turn)} to place the big skitt"
            return f"board ready: {slot(expected.turn)} to shoot"
        if mode == Mode.QUESTION and self._question is not None:
            asked = self._question.open
            where = field_place(asked.field if asked is not None else "minus")
            return (f"{where} is as full as its sensors can count: referee to say how many "
                    f"skitts {slot(self._question.shot.by)}'s shot added there")
        what = describe_differences(diffs, bigs, bridges)
        if mode == Mode.RESTORE:
            return f"restore the board: {what}"
        lead = self._note or "the board differs from the match"
        return f"{lead}; referee to decide ({what})" if what else lead


def _moved(before: BoardReading, after: BoardReading) -> bool:
    """Do two readings show a different board (counts, big spots, bridges)?"""
    return (before.counts != after.counts or before.big != after.big
            or before.bridges != after.bridges)
