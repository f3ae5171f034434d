"""Small builders for test data, through the same core functions the app uses."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Table
from sqlalchemy.orm import Session

from core.roster import channel_choice, contacts, rules
from core.store.models import Base, Channel, Classroom, Shift, ShiftStatus, Teacher, TeacherContact
from core.store.paths import DataPaths, data_paths


def classroom(session: Session, name: str = "本校", **kwargs: object) -> Classroom:
    return rules.create_classroom(session, name=name, **kwargs)  # type: ignore[arg-type]


def teacher(session: Session, name: str = "佐藤", n: int = 1, **kwargs: object) -> Teacher:
    kwargs.setdefault("line_user_id", f"U{n:032x}")
    kwargs.setdefault("line_opt_in", True)
    return rules.create_teacher(session, name=name, **kwargs)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Reach:
    """A teacher's LINE and e-mail contacts under the names the teachers table once had, for assertions."""

    line_user_id: str | None
    email: str | None
    line_opt_in: bool
    email_opt_in: bool
    line_opt_in_at: dt.datetime | None  # when they agreed on LINE themselves (a pairing code)
    line_unreachable_at: dt.datetime | None
    channel: str  # the word of their choice: line, email, both, line_fallback


def reach(teacher: Teacher) -> Reach:
    line = contacts.on(teacher.contacts, Channel.LINE)
    fields = rules.contact_fields(teacher)
    return Reach(
        line_user_id=line.address if line else None,
        email=contacts.address_on(teacher, Channel.EMAIL),
        line_opt_in=bool(fields["line_opt_in"]),
        email_opt_in=bool(fields["email_opt_in"]),
        line_opt_in_at=line.agreed_at if line is not None and line.agreed_by_teacher else None,
        line_unreachable_at=line.unreachable_since if line else None,
        channel=channel_choice.of(teacher).word,
    )


def reach_of(session: Session, teacher_id: int) -> Reach:
    """`reach` of the teacher with this id, who must exist."""
    teacher = session.get(Teacher, teacher_id)
    assert teacher is not None, teacher_id
    return reach(teacher)


def line(teacher: Teacher) -> TeacherContact:
    """The teacher's LINE contact, to change it as LINE's answers would."""
    return contacts.contact(teacher, Channel.LINE)


def shift(
    session: Session,
    room: Classroom,
    who: Teacher,
    day: dt.date,
    start: str = "16:00",
    end: str = "21:00",
    *,
    now: dt.datetime,
    status: ShiftStatus = ShiftStatus.DRAFT,
    note: str = "",
) -> Shift:
    from core.roster.clock import parse_wall_time

    start_time, _ = parse_wall_time(start)
    end_time, next_day = parse_wall_time(end, allow_next_day=True)
    return rules.add_shift(
        session,
        rules.ShiftDraft(
            classroom_id=room.id,
            teacher_id=who.id,
            local_date=day,
            start_time=start_time,
            end_time=end_time,
            ends_next_day=next_day,
            note=note,
            status=status,
        ),
        now=now,
    )


def table(model: type[Base]) -> Table:
    """A model's table, typed as the Table it is (`__table__` is declared as any FromClause), for the
    Core statements a test writes past the ORM."""
    return Base.metadata.tables[model.__tablename__]


def home_paths() -> DataPaths:
    """This test's own data folder (conftest's autouse fixture points SHIFTCAST_HOME at it)."""
    return data_paths(Path(os.environ["SHIFTCAST_HOME"]))
