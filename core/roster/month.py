"""A classroom's month as the teachers see it: who works when. Built from the database, compared
between revisions, and drawn by core/publication/month_image.py."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sqlalchemy.orm import Session

from core.roster import clock, reading, rules
from core.store.models import Classroom, ShiftStatus


@dataclass(frozen=True)
class MonthRoster:
    classroom: str
    timezone: str
    language: str
    year: int
    month: int
    # teacher name → day of month → "16:00-21:00" lines (a teacher may have two shifts a day)
    cells: dict[str, dict[int, list[str]]]
    revision: int = 1
    changed: frozenset[tuple[str, int]] = field(default_factory=frozenset)
    generated_at: dt.datetime | None = None
    # teacher name → reading (ふりがな), for the rows' order; a name without one is listed by name
    readings: Mapping[str, str] = field(default_factory=dict)
    # teacher name → their place in the manager's own order; a name without one follows by reading
    positions: Mapping[str, int] = field(default_factory=dict)

    @property
    def teachers(self) -> list[str]:
        """The rows, in the order every list of teachers has (core/roster/reading.py)."""
        return sorted(self.cells, key=lambda name: reading.order_key(name, self.readings.get(name),
                                                                     position=self.positions.get(name)))

    @property
    def days(self) -> int:
        return rules.month_bounds(self.year, self.month)[1].day

    @property
    def is_update(self) -> bool:
        return self.revision > 1


def from_database(session: Session, classroom: Classroom, year: int, month: int, *, include_drafts: bool = True) -> MonthRoster:
    cells: dict[str, dict[int, list[str]]] = {}
    readings: dict[str, str] = {}
    positions: dict[str, int] = {}
    for shift in rules.month_shifts(session, classroom.id, year, month):
        if shift.status == ShiftStatus.CANCELED or (shift.status == ShiftStatus.DRAFT and not include_drafts):
            continue
        text = f"{clock.format_wall_time(shift.start_time)}-{clock.format_wall_time(shift.end_time, next_day=shift.ends_next_day)}"
        cells.setdefault(shift.teacher.display_name, {}).setdefault(shift.local_date.day, []).append(text)
        if shift.teacher.reading:
            readings[shift.teacher.display_name] = shift.teacher.reading
        if shift.teacher.position is not None:
            positions[shift.teacher.display_name] = shift.teacher.position
    drawn = MonthRoster(classroom.name, classroom.timezone, classroom.language, year, month, cells, readings=readings,
                        positions=positions)
    # The cells in the rows' order too, so whatever lists them as they come (a snapshot, a Flex month) agrees.
    return replace(drawn, cells={name: cells[name] for name in drawn.teachers})


def snapshot(month: MonthRoster) -> str:
    """Stable JSON of the cells, stored with each publication so the next one can show what changed.
    The teachers are in the order the month was published with, which the Flex month lists them in
    (publications before it have theirs by name)."""
    return json.dumps({t: {str(d): v for d, v in sorted(month.cells[t].items())} for t in month.teachers},
                      ensure_ascii=False)


def cells_of(snapshot_json: str) -> dict[str, dict[int, list[str]]]:
    """A snapshot's cells, its teachers in the order it has them."""
    raw = json.loads(snapshot_json)
    return {t: {int(d): list(v) for d, v in days.items()} for t, days in raw.items()}


def changed_cells(before: dict[str, dict[int, list[str]]], after: dict[str, dict[int, list[str]]]) -> frozenset[tuple[str, int]]:
    """Every (teacher, day) whose content differs, including cells that became empty."""
    changed = set()
    for teacher in set(before) | set(after):
        old, new = before.get(teacher, {}), after.get(teacher, {})
        for day in set(old) | set(new):
            if old.get(day) != new.get(day):
                changed.add((teacher, day))
    return frozenset(changed)
