"""Picking a teacher's LINE user ID from the account's friends, by display name.

LINE lists friend IDs in one call but names need one profile call each, so names are fetched in small
batches, one background job per batch: the progress bar moves with real progress, Cancel stops
between batches, and a long friend list never holds the pool.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from ui.common.errors import message_for
from ui.common.widgets import sentence
from ui.services.context import AppContext
from ui.teachers.line import Friend, explain, friend_ids, friend_profiles

BATCH = 20
ID_ROLE = Qt.ItemDataRole.UserRole + 1
NAME_ROLE = Qt.ItemDataRole.UserRole + 2


class FriendsDialog(QDialog):
    picked = Signal(str, str)  # user id, display name

    def __init__(self, ctx: AppContext, taken: Mapping[str, str] | None = None, parent: QWidget | None = None) -> None:
        """`taken`: LINE user ID → name of the teacher who already has it."""
        super().__init__(parent)
        self.ctx = ctx
        self.taken = dict(taken or {})
        self._ids: list[str] = []
        self._next = 0
        self._stopped = False
        self.loading = True  # until every name has arrived or LINE refused
        self.setWindowTitle(self.tr("Pick from the account's friends"))
        self.resize(420, 480)

        self.message = QLabel(self.tr("Asking LINE for the account's friends…"), self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy until LINE says how many friends there are
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter by name"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.list = QListWidget(self)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        self.list.currentItemChanged.connect(lambda *_: self._update_ok())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Use this friend"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.progress)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.buttons)
        self._update_ok()
        self.finished.connect(self._stop)

    # ----- loading -----

    def start(self) -> None:
        db = self.ctx.db
        self.ctx.tasks.run(lambda: friend_ids(db), self._got_ids, self._failed, owner=self)

    def _alive(self) -> bool:
        return not self._stopped  # closed: the remaining batches are not fetched

    def _got_ids(self, ids: list[str]) -> None:
        if not self._alive():
            return
        self._ids = ids
        if not ids:
            self._done(self.tr("The account has no friends yet. Ask the teacher to add it as a friend in LINE."))
            return
        self.progress.setRange(0, len(ids))
        self.progress.setValue(0)
        self.message.setText(self.tr("Reading the names of %n friends…", "", len(ids)))
        self._fetch_batch()

    def _fetch_batch(self) -> None:
        batch = self._ids[self._next : self._next + BATCH]
        self._next += len(batch)
        db = self.ctx.db
        self.ctx.tasks.run(lambda: friend_profiles(db, batch), self._got_friends, self._failed, owner=self)

    def _got_friends(self, friends: list[Friend]) -> None:
        if not self._alive():
            return
        for friend in friends:
            item = QListWidgetItem(friend.display_name, self.list)
            item.setData(ID_ROLE, friend.user_id)
            item.setData(NAME_ROLE, friend.display_name)
            item.setToolTip(friend.user_id)
            owner = self.taken.get(friend.user_id)
            if owner:
                item.setText(self.tr("{0} — already {1}").format(friend.display_name, owner))
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
        self.progress.setValue(self._next)
        self._apply_filter(self.filter.text())
        if self._next < len(self._ids):
            self._fetch_batch()
        else:
            self._done(self.tr("%n friends. Pick the teacher and press Use this friend.", "", self.list.count()))

    def _done(self, text: str) -> None:
        self.loading = False
        self.progress.hide()
        self.message.setText(text)
        self._update_ok()

    def _failed(self, exc: BaseException) -> None:
        if not self._alive():
            return
        self.loading = False
        self.progress.hide()
        self.list.hide()
        self.filter.hide()
        self.message.setText(explain(exc) or sentence(message_for(exc)) or self.tr("LINE could not be asked."))

    def _stop(self) -> None:
        self._stopped = True  # batches still in flight are ignored; no new ones start

    # ----- choosing -----

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(bool(needle) and needle not in item.text().casefold())

    def _update_ok(self) -> None:
        item = self.list.currentItem()
        usable = item is not None and bool(item.flags() & Qt.ItemFlag.ItemIsEnabled)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(usable)

    def friends(self) -> list[str]:
        """The display names listed so far."""
        return [self.list.item(row).data(NAME_ROLE) for row in range(self.list.count())]

    def choose(self, user_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(ID_ROLE) == user_id:
                self.list.setCurrentRow(row)
                return

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return
        self.picked.emit(item.data(ID_ROLE), item.data(NAME_ROLE))
        super().accept()
