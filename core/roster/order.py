"""The manager's own order of the teachers: moving one up, down or to a place, and going back to the
order by reading.

Places are 1…n over every teacher not erased, as the teachers' list shows them. A move numbers them
all as the list stands after it, so the first move fixes the order the manager was looking at (by
reading) and then moves; a teacher added later has no place and is listed after the placed ones, by
reading, until moved (core/roster/reading.py). Teacher edits are not on the Shifts area's undo stack,
so neither are these: "back to order by reading" and a move the other way are the way back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

from core.errors import NotFoundError
from core.roster import rules
from core.texts import t


def moved(ids: Sequence[int], teacher_id: int, place: int) -> list[int]:
    """`ids` with `teacher_id` taken out and put back at `place` (1 first), kept within the list."""
    rest = [ident for ident in ids if ident != teacher_id]
    index = min(max(place, 1), len(rest) + 1) - 1
    return [*rest[:index], teacher_id, *rest[index:]]


def move_to(session: Session, teacher_id: int, place: int) -> int:
    """Put a teacher at `place` in the list (beyond either end: at that end); the place they got."""
    return _move(session, teacher_id, lambda _now_at: place)


def move_by(session: Session, teacher_id: int, step: int) -> int:
    """Move a teacher `step` places down the list (negative: up); the place they got."""
    return _move(session, teacher_id, lambda now_at: now_at + step)


def by_reading(session: Session) -> int:
    """Every teacher back to the order by reading (no place); how many had one."""
    placed = [teacher for teacher in rules.list_teachers(session, include_erased=True) if teacher.position is not None]
    for teacher in placed:
        teacher.position = None
    session.flush()
    return len(placed)


def _move(session: Session, teacher_id: int, target: Callable[[int], int]) -> int:
    """Number every teacher as the list stands with `teacher_id` at target(their place now)."""
    teachers = rules.list_teachers(session)
    ids = [teacher.id for teacher in teachers]
    if teacher_id not in ids:  # erased or never there: erased teachers have no place in the list
        raise NotFoundError(t("roster.no_teacher_id", id=teacher_id))
    order = moved(ids, teacher_id, target(ids.index(teacher_id) + 1))
    by_id = {teacher.id: teacher for teacher in teachers}
    for place, ident in enumerate(order, start=1):
        if by_id[ident].position != place:  # only the rows whose place changed are written
            by_id[ident].position = place
    session.flush()
    return order.index(teacher_id) + 1
