"""The month roster as a table model: teachers are rows, days of the month are columns.

A cell holds every shift of that teacher on that day (a split shift is two). The model only holds a
`MonthSnapshot` read on a pool thread; it never touches the database. Painting is done by
ui/shifts/delegate.py, which reads the shifts from SHIFTS_ROLE.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QApplication, QStyle

from core.planning.month_grid import MonthSnapshot, ShiftItem, TeacherItem
from core.roster.availability_text import HOURS, NO, YES, DayAnswer
from core.store.kinds import ShiftStatus
from ui.common import dates, i18n

SHIFTS_ROLE = Qt.ItemDataRole.UserRole + 1  # tuple[ShiftItem, ...]
DAY_KIND_ROLE = Qt.ItemDataRole.UserRole + 2  # "weekday" | "sat" | "sun" | "holiday"
TODAY_ROLE = Qt.ItemDataRole.UserRole + 3  # bool
CLOSED_ROLE = Qt.ItemDataRole.UserRole + 4  # bool: the classroom is closed that day
AVAILABILITY_ROLE = Qt.ItemDataRole.UserRole + 5  # DayAnswer | None: the teacher's answer when asked

# Same hues as the published image (core/publication/month_image.py), so the screen and LINE agree.
SAT_INK, SUN_INK = QColor(25, 90, 170), QColor(190, 30, 45)
SAT_TINT, SUN_TINT = QColor(25, 90, 170, 22), QColor(190, 30, 45, 22)
# A closed day is grey and hatched: it reads as "no lessons" over any weekday colour, without colour alone.
CLOSED_TINT, CLOSED_HATCH = QColor(110, 110, 110, 45), QColor(110, 110, 110, 70)

AnyIndex = QModelIndex | QPersistentModelIndex


def day_kind(day: dt.date, holiday_names: dict[dt.date, str]) -> str:
    if day in holiday_names:
        return "holiday"
    return {5: "sat", 6: "sun"}.get(day.weekday(), "weekday")


def status_word(status: ShiftStatus) -> str:
    return {
        ShiftStatus.DRAFT: QCoreApplication.translate("RosterGrid", "draft"),
        ShiftStatus.CONFIRMED: QCoreApplication.translate("RosterGrid", "confirmed"),
        ShiftStatus.CANCELED: QCoreApplication.translate("RosterGrid", "canceled"),
    }[status]


def date_label(day: dt.date) -> str:
    """"Thu 3 Dec" / "12月3日(木)": the month's year is on screen already (ui/common/dates.py)."""
    return dates.day_short(day)


class RosterGridModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.snapshot = MonthSnapshot(year=2000, month=1)
        self._days: list[dt.date] = []
        self._cells: dict[tuple[int, dt.date], tuple[ShiftItem, ...]] = {}

    # ----- replacing the data (UI thread) -----

    def set_snapshot(self, snapshot: MonthSnapshot) -> None:
        """Show another snapshot. Same rows and days: cells are updated in place, so the selection
        and the scroll position survive a refresh; otherwise the model is reset."""
        days = snapshot.days if snapshot.classroom is not None else []
        cells: dict[tuple[int, dt.date], list[ShiftItem]] = {}
        for shift in snapshot.shifts:
            cells.setdefault((shift.teacher_id, shift.local_date), []).append(shift)
        same_shape = (
            [t.id for t in snapshot.rows] == [t.id for t in self.snapshot.rows]
            and days == self._days
        )
        if not same_shape:
            self.beginResetModel()
        self.snapshot = snapshot
        self._days = days
        self._cells = {key: tuple(value) for key, value in cells.items()}
        if not same_shape:
            self.endResetModel()
        elif self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, self.rowCount() - 1)

    # ----- lookups for the view -----

    def teacher_at(self, row: int) -> TeacherItem | None:
        return self.snapshot.rows[row] if 0 <= row < len(self.snapshot.rows) else None

    def day_at(self, column: int) -> dt.date | None:
        return self._days[column] if 0 <= column < len(self._days) else None

    def shifts_at(self, index: AnyIndex) -> tuple[ShiftItem, ...]:
        teacher, day = self.teacher_at(index.row()), self.day_at(index.column())
        if not index.isValid() or teacher is None or day is None:
            return ()
        return self._cells.get((teacher.id, day), ())

    def stacked_per_row(self) -> list[int]:
        """For each row, the most shifts one of its days holds (at least 1): the row's height."""
        most: dict[int, int] = {}
        for (teacher_id, _day), shifts in self._cells.items():
            most[teacher_id] = max(most.get(teacher_id, 1), len(shifts))
        return [most.get(t.id, 1) for t in self.snapshot.rows]

    def index_of(self, teacher_id: int, day: dt.date) -> QModelIndex:
        rows = [t.id for t in self.snapshot.rows]
        if teacher_id not in rows or day not in self._days:
            return QModelIndex()
        return self.index(rows.index(teacher_id), self._days.index(day))

    def find_shift(self, shift_id: int) -> ShiftItem | None:
        return next((s for s in self.snapshot.shifts if s.id == shift_id), None)

    # ----- Qt's model interface -----

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.snapshot.rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._days)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        day = self._days[index.column()]
        if role == SHIFTS_ROLE:
            return self.shifts_at(index)
        if role == Qt.ItemDataRole.DisplayRole:
            # Start and end on two lines; painted by the delegate, kept here for accessibility and copy.
            return "\n".join(f"{s.start_text}\n{s.end_text}" for s in self.shifts_at(index))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(index, day)
        if role == DAY_KIND_ROLE:
            return day_kind(day, self.snapshot.holidays)
        if role == TODAY_ROLE:
            return day == self.snapshot.today
        if role == CLOSED_ROLE:
            return day in self.snapshot.closed
        if role == AVAILABILITY_ROLE:
            teacher = self.teacher_at(index.row())
            return self.snapshot.availability.get((teacher.id, day)) if teacher is not None else None
        return None

    def availability_text(self, answer: DayAnswer) -> str:
        """The teacher's answer in words: the tooltip's line and the shift dialog's warning."""
        if answer.answer == YES:
            return self.tr("Said they can work")
        if answer.answer == NO:
            return self.tr("Said they cannot work")
        assert answer.answer == HOURS
        start = answer.start.strftime("%H:%M") if answer.start else ""
        end = answer.end.strftime("%H:%M") if answer.end else ""
        return self.tr("Said they can work {0}–{1}").format(start, end)

    def _zone(self) -> str | None:
        """The shown classroom's time zone: its roster is on its clock, and so are the times beside it."""
        room = self.snapshot.classroom
        return room.timezone if room is not None else None

    def _tooltip(self, index: AnyIndex, day: dt.date) -> str:
        teacher = self.teacher_at(index.row())
        lines = [f"{teacher.name if teacher else ''} — {date_label(day)}"]
        for shift in self.shifts_at(index):
            lines.append(f"{shift.start_text}–{shift.end_text}  ({status_word(shift.status)})")
            if shift.acknowledged_at is not None:
                lines.append("    " + self.tr("✓ {0} tapped 了解 on {1}").format(
                    teacher.name if teacher else "", dates.moment_text(shift.acknowledged_at, self._zone())))
            if shift.note:
                lines.append(f"    {shift.note}")
        if len(lines) == 1:
            lines.append(self.tr("No shift. Press Enter or N to add one."))
        answer = self.snapshot.availability.get((teacher.id, day)) if teacher is not None else None
        if answer is not None:
            lines.append(self.availability_text(answer))
        return "\n".join(lines)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return self._teacher_header(section, role)
        day = self.day_at(section)
        if day is None:
            return None
        kind = day_kind(day, self.snapshot.holidays)
        today = day == self.snapshot.today
        closed = self.snapshot.closed.get(day)
        if role == CLOSED_ROLE:
            return closed is not None
        if role == Qt.ItemDataRole.DisplayRole:
            label = f"{day.day}\n{dates.weekday_short(day)}"
            return label + "\n" + self.tr("closed", "a closed day's column heading") if closed else label
        if role == Qt.ItemDataRole.ForegroundRole:
            if kind == "sat":
                return QBrush(SAT_INK)
            if kind in ("sun", "holiday"):
                return QBrush(SUN_INK)
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            if closed:
                return QBrush(CLOSED_TINT)
            return QBrush({"sat": SAT_TINT, "sun": SUN_TINT, "holiday": SUN_TINT}.get(kind, QColor(0, 0, 0, 0)))
        if role == Qt.ItemDataRole.FontRole and today:
            font = QFont()
            font.setBold(True)
            font.setUnderline(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            parts = [dates.day_text(day)]
            if kind == "holiday":
                parts.append(self.snapshot.holidays[day])
            if closed:
                parts.append(self.tr("Closed: {0}").format(closed.note) if closed.note and not closed.holiday
                             else self.tr("Closed"))
            if today:
                parts.append(self.tr("Today"))
            return "\n".join(parts)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignCenter
        return None

    def _teacher_header(self, section: int, role: int) -> Any:
        teacher = self.teacher_at(section)
        if teacher is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return teacher.name
        if role == Qt.ItemDataRole.ForegroundRole and not teacher.active:
            return QBrush(QColor(128, 128, 128))
        if role == Qt.ItemDataRole.ToolTipRole and not teacher.active:
            return self.tr("{0} is not active; shifts shown are kept for the record.").format(teacher.name)
        over = self.snapshot.over_limits.get(teacher.id, ())
        if role == Qt.ItemDataRole.ToolTipRole and over:
            return "\n".join([self.tr("{0}'s month goes over their limits:").format(teacher.name),
                              *(f"• {i18n.render(text)}" for text in over)])
        if role == Qt.ItemDataRole.DecorationRole and over:
            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        return None
