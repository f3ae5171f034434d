"""Small builders for test data, through the same core functions the app uses."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from sqlalchemy.orm import Session

from core.roster import rules
from core.store.models import Classroom, Shift, ShiftStatus, Teacher
from core.store.paths import DataPaths, data_paths


def classroom(session: Session, name: str = "本校", **kwargs: object) -> Classroom:
    return rules.create_classroom(session, name=name, **kwargs)  # type: ignore[arg-type]


def teacher(session: Session, name: str = "佐藤", n: int = 1, **kwargs: object) -> Teacher:
    kwargs.setdefault("line_user_id", f"U{n:032x}")
    kwargs.setdefault("line_opt_in", True)
    return rules.create_teacher(session, name=name, **kwargs)  # type: ignore[arg-type]


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


def home_paths() -> DataPaths:
    """This test's own data folder (conftest's autouse fixture points SHIFTCAST_HOME at it)."""
    return data_paths(Path(os.environ["SHIFTCAST_HOME"]))
