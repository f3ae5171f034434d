"""The outbox as a live table model that stays smooth at 100,000 rows.

Every delivery the model has seen is kept as a slotted `Item` whose display strings were made once,
on a pool thread, when the row was loaded; data() is a list index and a tuple index. Filtering and
sorting happen in memory over those items (a filter change is a user action, not an update).
Updates arrive as changed ids: `DeliveriesFeed` fetches only those rows and the ones newer than the
newest held, and the model applies them with dataChanged / row insertions and removals — never a reset.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDate,
    QDateTime,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTime,
    QTimeZone,
    Signal,
)

from core.kinds import registry as message_kinds
from core.outbox import board, policy
from core.outbox.deliveries import DeliveryFilter
from core.outbox.rows import DeliveryRow
from core.roster import clock
from core.texts import render as texts_render
from ui.common import dates, i18n
from ui.services.context import AppContext

ID, CREATED, KIND, RECIPIENT, STATUS, ATTEMPTS, WHEN, ERROR = range(8)
COLUMN_COUNT = 8
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1  # badge key: a status value, or "dead_letter"
STATUS_ORDER = ("pending", "queued", "processing", "sent", "failed", "canceled")
NO_TIME = float("inf")  # sorts rows without a time after every row with one
MAX_MOVES = 20  # more rows changing place in one update are removed and inserted instead
_CACHE_LIMIT = 200_000  # formatted strings kept for reuse, per cache
_ERROR_CHARS = 200  # the table shows the start of the server's message; the tooltip and detail pane the rest

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Vocabulary:
    """The words the table shows, translated on the UI thread and handed to the loading thread."""

    headers: tuple[str, ...]
    kinds: dict[str, str]
    statuses: dict[str, str]
    dead_letter: str
    channels: dict[str, str]  # channel value → its name, from its driver (core/channels/registry.py)
    group_of: str  # "{0}" → the classroom's name, "{1}" → the channel's, for a delivery to a classroom's group
    deleted_teacher: str  # "{0}" → the anonymised teacher's id
    unknown: str
    acknowledged: str = "{0} · ✓ {1}"  # "{0}" → the status, "{1}" → when the teacher tapped 了解
    # "{0}" → the teacher, "{1}" → the channel's name: a teacher's delivery on a channel other than LINE,
    # the one most messages take, says which.
    on_channel: str = "{0} · {1}"


@dataclass(frozen=True)
class Zones:
    """The time zones the outbox's times are shown in, as the roster and `plan` show them: each row in
    its classroom's zone; a row without a classroom (an alert) in the classrooms' zone if they share
    one, else in the computer's."""

    classrooms: tuple[str, ...] = ()  # every classroom's zone, once each, sorted

    @property
    def default(self) -> str | None:
        """The zone of rows without a classroom; None: the computer's."""
        return self.classrooms[0] if len(self.classrooms) == 1 else None

    def foreign(self, now: dt.datetime) -> tuple[str, ...]:
        """The classrooms' zones whose clocks differ from this computer's."""
        return tuple(z for z in self.classrooms if not same_clock_as_computer(z, now))


def same_clock_as_computer(zone_name: str, now: dt.datetime) -> bool:
    """Does the zone read the same wall time as this computer, now and half a year on (either side of
    a daylight-saving change)? Names differ for the same clock (Asia/Tokyo and Japan), so offsets decide."""
    for moment in (now, now + dt.timedelta(days=182)):
        if moment.astimezone(clock.zone(zone_name)).utcoffset() != moment.astimezone().utcoffset():
            return False
    return True


def zone_abbreviation(zone_name: str | None, now: dt.datetime) -> str:
    """JST, CET, UTC…: how the zone is written after a time; None is the computer's zone."""
    moment = now.astimezone(clock.zone(zone_name)) if zone_name else now.astimezone()
    return moment.tzname() or zone_name or ""


def wall_time(moment: dt.datetime, zone_name: str | None) -> QDateTime:
    """The instant as the clock on the wall reads it in the zone (None: the computer's)."""
    if zone_name is None:
        return QDateTime.fromSecsSinceEpoch(int(moment.timestamp()))
    wall = moment.astimezone(clock.zone(zone_name))
    # Wall fields in a fixed zone, so Qt applies none of the computer's own rules (its DST gaps) to them.
    return QDateTime(QDate(wall.year, wall.month, wall.day), QTime(wall.hour, wall.minute, wall.second),
                     QTimeZone.utc())


class Item:
    """One delivery as the table shows it. Slots: 100,000 of these must stay light."""

    __slots__ = ("id", "status", "kind", "classroom_id", "created", "when", "attempts", "dead", "texts",
                 "haystack", "error", "cancel_reason")

    def __init__(self, row: DeliveryRow, texts: tuple[str, ...], when: float, haystack: str) -> None:
        self.id = row.id
        self.status = row.status
        self.kind = row.kind
        self.classroom_id = row.classroom_id
        self.created = row.created_at.timestamp()
        self.when = when
        self.attempts = row.attempt_count
        self.dead = row.is_dead_letter
        self.texts = texts
        self.haystack = haystack
        self.error = row.last_error_message or row.last_error_code or ""
        self.cancel_reason = row.cancel_reason

    @property
    def badge(self) -> str:
        return "dead_letter" if self.dead else self.status

    def sort_value(self, column: int) -> Any:
        if column == ID:
            return self.id
        if column == CREATED:
            return self.created
        if column == STATUS:
            return STATUS_ORDER.index(self.status) if self.status in STATUS_ORDER else len(STATUS_ORDER)
        if column == ATTEMPTS:
            return self.attempts
        if column == WHEN:
            return self.when
        return self.texts[column].casefold()


class RowFormatter:
    """DeliveryRow → Item. Made on the UI thread, used on one pool thread at a time."""

    def __init__(self, words: Vocabulary) -> None:
        self.words = words
        self.locale = QLocale()
        self.zones = Zones()  # set by the feed before each read's rows are formatted
        self._times: dict[tuple[str | None, int], str] = {}  # (zone, minute) → text; a burst shares a few minutes
        self._small: dict[Any, str] = {}  # interned short strings (attempt counts, names, errors)

    def items(self, rows: Iterable[DeliveryRow]) -> list[Item]:
        return [self.item(r) for r in rows]

    def item(self, row: DeliveryRow) -> Item:
        words = self.words
        if row.status == "sent":
            moment = row.sent_at
        elif row.status in ("pending", "queued"):
            moment = row.next_attempt_at
        else:  # processing, failed, canceled: no next attempt to show
            moment = None
        recipient = self._recipient(row)
        zone = row.classroom_zone or self.zones.default
        stored = policy.shown_error(row.last_error_message)
        shown = i18n.render(stored)
        error = self._intern(_first_line(shown or row.last_error_code or ""))
        status = words.dead_letter if row.is_dead_letter else words.statuses.get(row.status, row.status)
        if row.acknowledged_at is not None:  # the teacher tapped 了解: the one thing the manager waits to see
            status = words.acknowledged.format(status, self._time(row.acknowledged_at, zone))
        texts = (
            str(row.id),
            self._time(row.created_at, zone),
            words.kinds.get(row.kind, row.kind),
            recipient,
            status,
            self._intern(row.attempt_count),
            self._time(moment, zone) if moment is not None else "",
            error,
        )
        # The error in the window's language and in English, as the database search finds it either way.
        haystack = "\x1f".join((recipient, row.recipient or "", row.dedup_key, row.last_error_code or "",
                                shown, texts_render(stored, "en") if shown else "")).casefold()
        return Item(row, texts, moment.timestamp() if moment is not None else NO_TIME, haystack)

    def _recipient(self, row: DeliveryRow) -> str:
        if row.teacher_id is not None:
            # The channel is named for every teacher, as for a group: none is the usual one (LINE WORKS alone).
            name = self.words.on_channel.format(
                row.teacher_name if row.teacher_name is not None else self.words.deleted_teacher.format(row.teacher_id),
                self.words.channels.get(row.channel, row.channel))
        elif row.classroom_name is not None:
            name = self.words.group_of.format(row.classroom_name, self.words.channels.get(row.channel, row.channel))
        else:
            name = row.recipient or self.words.unknown
        return self._intern(name)

    def _time(self, moment: dt.datetime, zone: str | None) -> str:
        minute = int(moment.timestamp()) // 60
        text = self._times.get((zone, minute))
        if text is None:
            if len(self._times) > _CACHE_LIMIT:  # an app left open for months keeps adding minutes
                self._times.clear()
            local = wall_time(dt.datetime.fromtimestamp(minute * 60, dt.UTC), zone)
            text = self._times[(zone, minute)] = dates.wall_text(local)
        return text

    def _intern(self, value: Any) -> str:
        text = self._small.get(value)
        if text is None:
            if len(self._small) > _CACHE_LIMIT:  # a cache, not a leak: unique error texts must not pile up
                self._small.clear()
            text = self._small[value] = value if isinstance(value, str) else str(value)
        return text


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= _ERROR_CHARS else line[:_ERROR_CHARS - 1] + "…"


def matcher(flt: DeliveryFilter) -> Callable[[Item], bool]:
    """The filter as one predicate over items, with the same meaning as core.outbox.deliveries.list_deliveries."""
    statuses = {str(s) for s in flt.statuses}
    kinds = {str(k) for k in flt.kinds}
    room = flt.classroom_id
    start = flt.created_from.timestamp() if flt.created_from else None
    end = flt.created_to.timestamp() if flt.created_to else None
    text = flt.text.strip().casefold()
    dead_only = flt.dead_letters_only

    def accepts(item: Item) -> bool:
        return ((not statuses or item.status in statuses)
                and (not kinds or item.kind in kinds)
                and (room is None or item.classroom_id == room)
                and (start is None or item.created >= start)
                and (end is None or item.created < end)
                and (not dead_only or item.dead)
                and (not text or text in item.haystack))

    return accepts


class _Descending:
    """Reverses comparison, so bisect (which wants ascending order) works on a descending list."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key

    def __lt__(self, other: _Descending) -> bool:
        return bool(other.key < self.key)


class DeliveriesModel(QAbstractTableModel):
    counts_changed = Signal()

    def __init__(self, words: Vocabulary, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.words = words
        self._all: dict[int, Item] = {}
        self._visible: list[Item] = []  # in display order
        self._positions: dict[int, int] | None = None  # id → row, rebuilt lazily after rows move
        self._accepts: Callable[[Item], bool] = matcher(DeliveryFilter())
        self._sort_column = ID
        self._descending = True
        self._newest = 0  # the highest id held; the next update also asks for everything above it
        self.counts: Counter[str] = Counter()

    # ----- Qt's interface -----

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._visible)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else COLUMN_COUNT

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._visible[index.row()].texts[index.column()]
        if role == STATUS_ROLE:
            return self._visible[index.row()].badge
        if role == Qt.ItemDataRole.ToolTipRole:
            item = self._visible[index.row()]
            if index.column() == ERROR and item.error:
                return i18n.render(policy.shown_error(item.error))
            if index.column() == STATUS and item.cancel_reason:
                return i18n.render(message_kinds.cancel_text(item.cancel_reason))
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (ID, ATTEMPTS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.words.headers[section]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        kept = [(p, self._visible[p.row()].id) for p in self.persistentIndexList() if p.isValid()]
        self._sort_column = column
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._visible.sort(key=self._key, reverse=self._descending)
        self._positions = None
        positions = self._rows_by_id()
        self.changePersistentIndexList([p for p, _ in kept],
                                       [self.index(positions[i], p.column()) for p, i in kept])
        self.layoutChanged.emit()

    # ----- what the view asks -----

    @property
    def newest_id(self) -> int:
        return self._newest

    @property
    def total(self) -> int:
        return len(self._all)

    def item_at(self, row: int) -> Item:
        return self._visible[row]

    def get(self, delivery_id: int) -> Item | None:
        return self._all.get(delivery_id)

    def row_of(self, delivery_id: int) -> int | None:
        return self._rows_by_id().get(delivery_id)

    # ----- changes -----

    def set_items(self, items: Sequence[Item]) -> None:
        """The first load, or an explicit reload."""
        self.beginResetModel()
        self._all = {i.id: i for i in items}
        self._newest = max(self._all, default=0)
        self._visible = self._sorted(i for i in items if self._accepts(i))
        self._positions = None
        self.endResetModel()
        self._recount()

    def set_filter(self, flt: DeliveryFilter) -> None:
        self.beginResetModel()
        self._accepts = matcher(flt)
        self._visible = self._sorted(i for i in self._all.values() if self._accepts(i))
        self._positions = None
        self.endResetModel()

    def apply(self, items: Sequence[Item], missing: Iterable[int] = ()) -> None:
        """Changed and new rows (and purged ids) → dataChanged, row moves, inserts and removals."""
        positions = self._rows_by_id()
        changed_rows: list[int] = []
        removed_rows: list[int] = []
        inserted: list[Item] = []
        moved: list[tuple[Item, Item]] = []  # (old, new): still shown, but its place in the order changed
        for item in items:
            old = self._all.get(item.id)
            self._all[item.id] = item
            self._newest = max(self._newest, item.id)
            self._count(old, -1)
            self._count(item, +1)
            row = positions.get(item.id)
            keep = self._accepts(item)
            if row is not None and keep and old is not None:
                if self._key(old) == self._key(item):
                    self._visible[row] = item
                    changed_rows.append(row)
                else:
                    moved.append((old, item))
                continue
            if row is not None:
                removed_rows.append(row)
            if keep:
                inserted.append(item)
        if len(moved) > MAX_MOVES:  # a burst: plain removal and insertion is cheaper than moving each row
            removed_rows.extend(positions[new.id] for _, new in moved)
            inserted.extend(new for _, new in moved)
            moved = []
        purged = False
        for delivery_id in missing:
            old = self._all.pop(delivery_id, None)
            purged = purged or old is not None
            self._count(old, -1)
            row = positions.get(delivery_id)
            if row is not None:
                removed_rows.append(row)
        for first, last in _runs(sorted(changed_rows)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, COLUMN_COUNT - 1))
        for first, last in reversed(_runs(sorted(removed_rows))):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._visible[first:last + 1]
            self.endRemoveRows()
        self._insert(self._sorted(inserted))
        for old, new in moved:
            self._move(old, new)
        if removed_rows or inserted or moved:
            self._positions = None
        if items or purged:
            self.counts_changed.emit()

    # ----- inside -----

    def _key(self, item: Item) -> tuple[Any, int]:
        return item.sort_value(self._sort_column), item.id

    def _sorted(self, items: Iterable[Item]) -> list[Item]:
        return sorted(items, key=self._key, reverse=self._descending)

    def _position(self, item: Item) -> int:
        if self._descending:
            return bisect_left(self._visible, _Descending(self._key(item)), key=lambda i: _Descending(self._key(i)))
        return bisect_left(self._visible, self._key(item), key=self._key)

    def _insert(self, ordered: list[Item]) -> None:
        """Insert items (already in display order) with as few beginInsertRows as possible: a burst
        of new rows at the top of the default order is one insertion."""
        block: list[Item] = []
        at = 0
        for item in ordered:
            where = self._position(item)
            if block and where != at:
                self._insert_block(at, block)
                block = []
                where = self._position(item)
            if not block:
                at = where
            block.append(item)
        if block:
            self._insert_block(at, block)

    def _move(self, old: Item, new: Item) -> None:
        """Move one row to its new place with beginMoveRows, so a selected row stays selected."""
        current = self._visible.index(old)  # identity search: rows before it may have moved meanwhile
        del self._visible[current]
        target = self._position(new)  # in the list without the row
        self._visible.insert(current, new)
        destination = target if target < current else target + 1  # Qt counts in pre-move rows
        if destination in (current, current + 1):
            self.dataChanged.emit(self.index(current, 0), self.index(current, COLUMN_COUNT - 1))
            return
        self.beginMoveRows(QModelIndex(), current, current, QModelIndex(), destination)
        del self._visible[current]
        self._visible.insert(target, new)
        self.endMoveRows()
        self.dataChanged.emit(self.index(target, 0), self.index(target, COLUMN_COUNT - 1))

    def _insert_block(self, at: int, block: list[Item]) -> None:
        self.beginInsertRows(QModelIndex(), at, at + len(block) - 1)
        self._visible[at:at] = block
        self.endInsertRows()

    def _rows_by_id(self) -> dict[int, int]:
        if self._positions is None:
            self._positions = {item.id: row for row, item in enumerate(self._visible)}
        return self._positions

    def _count(self, item: Item | None, step: int) -> None:
        if item is not None:
            self.counts[item.status] += step
            if item.dead:
                self.counts["dead_letters"] += step

    def _recount(self) -> None:
        self.counts = Counter()
        for item in self._all.values():
            self._count(item, +1)
        self.counts_changed.emit()


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers → (first, last) of each contiguous run."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], row)
        elif not runs or row != runs[-1][1]:
            runs.append((row, row))
    return runs


class DeliveriesFeed(QObject):
    """Keeps a DeliveriesModel in step with the outbox: one full load, then only what changed.

    Fetches run one at a time on the task pool, so results are applied in the order they were read;
    ids that arrive meanwhile wait for the next fetch.
    """

    loaded = Signal()  # the first full load reached the model
    applied = Signal(list)  # ids of the rows an update brought (changed or new)
    zones_changed = Signal()  # the classrooms' time zones, which the times are shown in, changed
    failed = Signal(object)

    def __init__(self, ctx: AppContext, model: DeliveriesModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.model = model
        self.formatter = RowFormatter(model.words)
        self.zones = Zones()  # as of the last read that reached the UI thread
        self._waiting: set[int] = set()
        self._wanted = False  # something changed since the last fetch started
        self._reload_wanted = False
        self._busy = False
        self._loaded = False
        self._acknowledged: frozenset[int] | None = None  # as of the last look; None: not looked yet
        ctx.bridge.deliveries_changed.connect(self.changed)
        # The receiver changes no delivery the sender would announce: a tap is heard as its own event.
        ctx.bridge.acknowledged.connect(self._check_acknowledged)

    @property
    def busy(self) -> bool:
        return self._busy or self._wanted or self._reload_wanted

    def reload(self) -> None:
        """Read the whole outbox again (first show, and the manager's Reload)."""
        self._reload_wanted = True
        self._next()

    def changed(self, ids: list[int]) -> None:
        """Ids the sender or an action changed; an empty list means something new was enqueued."""
        self._waiting.update(ids)
        self._wanted = True
        self._next()

    def _next(self) -> None:
        if self._busy:
            return
        if self._reload_wanted:
            # Everything read from here on includes the changes announced so far.
            self._reload_wanted = self._wanted = False
            self._waiting.clear()
            self._start(self._read_all, self._all_read)
            return
        if not self._loaded or not self._wanted:
            return
        ids, newest = sorted(self._waiting), self.model.newest_id
        self._waiting.clear()
        self._wanted = False
        self._start(lambda: self._read_changed(ids, newest), self._changed_read)

    def _start(self, fn: Callable[[], Any], on_done: Callable[[Any], None]) -> None:
        self._busy = True
        self.ctx.tasks.run(fn, on_done, self._fail, owner=self)

    def _check_acknowledged(self) -> None:
        self.ctx.tasks.run(lambda: board.acknowledged_ids(self.ctx.db), self._acknowledged_read, self.failed.emit, owner=self, latest="acknowledged")

    def _acknowledged_read(self, ids: frozenset[int]) -> None:
        known, self._acknowledged = self._acknowledged, ids
        fresh = ids - known if known is not None else ids
        if fresh:
            self.changed(sorted(fresh))

    def check_zones(self) -> None:
        """Read the classrooms' zones again (a classroom was added or edited); a change reloads."""
        self.ctx.tasks.run(lambda: Zones(board.zones(self.ctx.db)), self._zones_read, self.failed.emit, owner=self,
                           latest="zones")

    # On a pool thread: read and format, never touch the model.
    def _read_all(self) -> tuple[Zones, list[Item]]:
        read = board.all_rows(self.ctx.db)
        zones = Zones(read.zones)
        self.formatter.zones = zones
        return zones, self.formatter.items(read.rows)

    def _read_changed(self, ids: list[int], newest: int) -> tuple[Zones, list[Item], list[int]]:
        read = board.changed_rows(self.ctx.db, ids, newer_than=newest)
        zones = Zones(read.zones)
        # Rows made with other zones are read again in full (_zones_read); these already use the new ones.
        self.formatter.zones = zones
        return zones, self.formatter.items(read.rows), list(read.missing)

    # Back on the UI thread.
    def _all_read(self, result: tuple[Zones, list[Item]]) -> None:
        zones, items = result
        self._busy = False
        self._loaded = True
        self.model.set_items(items)
        if zones != self.zones:
            self.zones = zones
            self.zones_changed.emit()
        self.loaded.emit()
        self._next()

    def _changed_read(self, result: tuple[Zones, list[Item], list[int]]) -> None:
        zones, items, missing = result
        self._busy = False
        self.model.apply(items, missing)
        self.applied.emit([i.id for i in items])
        self._zones_read(zones)
        self._next()

    def _zones_read(self, zones: Zones) -> None:
        if zones != self.zones and self._loaded:
            self.reload()  # the rows held were shown in the old zones

    def _fail(self, exc: BaseException) -> None:
        self._busy = False
        self.failed.emit(exc)
        self._next()
