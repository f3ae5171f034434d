"""Copying one shift to other days of the roster, all or nothing.

A manager who copies Tuesday's shift to every Tuesday of the month expects either all copies or none:
half a pattern is worse than no pattern. Every day is tried inside a savepoint of the caller's
transaction, so every clash is found and reported at once, and any clash rolls the whole copy back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from core.errors import ShiftcastError, ValidationError
from core.roster import rules
from core.store.models import Shift, ShiftStatus
from core.texts import Text, t


@dataclass(frozen=True)
class CopyProblem:
    day: dt.date
    problem: Text

    @property
    def reason(self) -> str:
        """Why the day cannot take the copy, in English."""
        return str(self.problem)

    @property
    def text(self) -> Text:
        return t("copy.day", day=self.day.isoformat(), reason=self.problem)

    def __str__(self) -> str:
        return str(self.text)


class CopyRejected(ValidationError):
    """Nothing was copied; `problems` names every day that could not take the copy."""

    def __init__(self, problems: list[CopyProblem]) -> None:
        self.problems = problems
        super().__init__(t("copy.rejected", problems=tuple(p.text for p in problems)))


def copy_shift(session: Session, shift_id: int, days: Iterable[dt.date], *, now: dt.datetime) -> list[Shift]:
    """Add a draft copy of the shift on each day (same teacher, classroom, times and note).

    Copies are drafts whatever the source's status: nobody has been told about them yet, and the
    month's confirmation is the one moment teachers learn of new shifts. Raises CopyRejected (the
    caller's transaction must then roll back) if any day fails; returns the copies in date order.
    """
    source = rules.get_shift(session, shift_id)
    wanted = sorted(set(days))
    if not wanted:
        raise ValidationError(t("roster.copy_no_days"))
    template = rules.ShiftDraft(
        classroom_id=source.classroom_id,
        teacher_id=source.teacher_id,
        local_date=source.local_date,
        start_time=source.start_time,
        end_time=source.end_time,
        ends_next_day=source.ends_next_day,
        note=source.note,
        status=ShiftStatus.DRAFT,
    )
    copies: list[Shift] = []
    problems: list[CopyProblem] = []
    for day in wanted:
        if day == source.local_date:
            problems.append(CopyProblem(day, t("copy.same_day")))
            continue
        savepoint = session.begin_nested()
        try:
            copies.append(rules.add_shift(session, replace(template, local_date=day), now=now))
            savepoint.commit()
        except ShiftcastError as exc:
            savepoint.rollback()
            problems.append(CopyProblem(day, exc.text if isinstance(exc.text, Text) else t("text.plain", text=exc.text)))
    if problems:
        raise CopyRejected(problems)
    return copies

