"""Settings → Teachers' page → "Menu under the chat": the LINE account's rich menu (core/setup/rich_menu.py),
its four tiles opening the teachers' page, set, set again or removed with a button; LINE is called on
`ctx.tasks` and its answer, a refusal's words included, shows in the row."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from core.setup import rich_menu, rich_menu_state
from core.setup.rich_menu import RichMenuResult
from core.setup.rich_menu_state import MenuState
from ui.common.widgets import StatusLabel, note, report, row
from ui.services.context import AppContext


class RichMenuRow(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("richMenuRow")
        self.ctx = ctx
        self.heading = QLabel(self.tr("Menu under the chat"), self)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.about = note(self.tr("Four buttons under your LINE chat open the teachers' page: my shifts, "
                                  "availability, cover calls, my calendar."), self)
        self.state_label = QLabel(self)
        self.state_label.setObjectName("richMenuState")
        self.state_label.setWordWrap(True)
        self.set_button = QPushButton(self.tr("Set the menu"), self)
        self.set_button.setObjectName("richMenuSet")
        self.set_button.clicked.connect(self.set_menu)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("richMenuRemove")
        self.remove_button.clicked.connect(self._remove)
        self.status = StatusLabel(self)
        self.status.setObjectName("richMenuStatus")
        self.state: MenuState | None = None
        self._busy = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.setSpacing(4)
        for part in (self.heading, self.about, self.state_label):
            layout.addWidget(part)
        layout.addLayout(row(self.set_button, self.remove_button, stretch_last=True))
        layout.addWidget(self.status)
        self._enable()
        ctx.bridge.settings_changed.connect(self.reload)  # the page turned on or off, LINE connected
        self.reload()

    def reload(self) -> None:
        db = self.ctx.db
        self.ctx.tasks.run(lambda: rich_menu_state.read(db), self._show, self._unread, owner=self, latest="state")

    def set_menu(self) -> None:
        self._start(self.tr("Setting the menu at LINE…"))
        db, language = self.ctx.db, self.state.language if self.state else "ja"
        self.ctx.tasks.run(lambda: rich_menu.set_rich_menu(db, language=language), self._set, self._failed, owner=self)

    def page_turned_on(self) -> None:
        """The manager has just turned the page on: set the menu at once unless one is set already."""
        self._start(self.tr("The teachers' page is on: setting the menu under the chat…"))
        db = self.ctx.db

        def set_if_none() -> RichMenuResult | None:
            state = rich_menu_state.read(db)
            if not state.can_set or state.menu_id is not None:
                return None
            return rich_menu.set_rich_menu(db, language=state.language)

        self.ctx.tasks.run(set_if_none, self._set_on_its_own, self._failed, owner=self)

    def page_moved(self) -> None:
        """The LIFF ID changed while a menu was set: its tiles open the old LIFF app, so set it again."""
        self._start(self.tr("The LIFF ID changed: setting the menu under the chat again…"))
        db = self.ctx.db

        def set_again_if_set() -> RichMenuResult | None:
            state = rich_menu_state.read(db)
            if not state.can_set or state.menu_id is None:
                return None
            return rich_menu.set_rich_menu(db, language=state.language)

        self.ctx.tasks.run(set_again_if_set, self._set_after_move, self._failed, owner=self)

    def _set_after_move(self, done: RichMenuResult | None) -> None:
        if done is None:
            self.status.clear_status()
        else:
            self.status.ok(self.tr("The menu under the chat is set again: its buttons open the page at the new LIFF ID."))
        self._finished()

    def _remove(self) -> None:
        self._start(self.tr("Removing the menu at LINE…"))
        db = self.ctx.db
        self.ctx.tasks.run(lambda: rich_menu.remove_rich_menu(db), self._removed, self._failed, owner=self)

    def _start(self, text: str) -> None:
        self._busy = True
        self._enable()
        self.status.busy(text)

    def _set(self, done: RichMenuResult) -> None:
        self.status.ok(self.tr("The menu is set: everyone who has added the LINE account sees it under the chat.")
                       + (" " + self.tr("The menu set before is deleted.") if done.replaced else ""))
        self._finished()

    def _set_on_its_own(self, done: RichMenuResult | None) -> None:
        if done is None:
            self.status.clear_status()
        else:
            self.status.ok(self.tr("The teachers' page is on, so the menu under the chat is set: everyone who has "
                                   "added the LINE account sees it. Remove takes it away."))
        self._finished()

    def _removed(self, menu_id: str | None) -> None:
        self.status.ok(self.tr("The menu is removed: LINE shows no menu under the chat now.") if menu_id
                       else self.tr("No menu was set: nothing to remove."))
        self._finished()

    def _failed(self, exc: BaseException) -> None:
        report(self, self.status, exc, self.ctx.paths)
        self._finished()

    def _unread(self, exc: BaseException) -> None:
        """The state could not be read (e.g. no usable keyring): said, buttons left as they were, no retry."""
        report(self, self.status, exc, self.ctx.paths)

    def _finished(self) -> None:
        self._busy = False
        self.reload()

    def _show(self, state: MenuState) -> None:
        self.state = state
        if state.menu_id:
            text = self.tr("Set: everyone who has added the LINE account sees it.")
        else:
            text = self.tr("Not set.")
        if missing := self._missing(state):
            text += " " + missing
        self.state_label.setText(text)
        self.set_button.setText(self.tr("Set again") if state.menu_id else self.tr("Set the menu"))
        self._enable()

    def _missing(self, state: MenuState) -> str:
        """What the menu waits for, in the order the manager does it; empty when it can be set."""
        page = state.page
        if not page.has_ids:
            return self.tr("To set it, enter the LINE Login channel ID and the LIFF ID above and save.")
        if not page.enabled:
            return self.tr("To set it, turn the teachers' page on above and save.")
        if not state.page_ready:
            return self.tr("To set it, attach a relay first (Settings → Always on): it serves the page.")
        if not state.line_connected:
            return self.tr("To set it, connect LINE first.")
        return ""

    def _enable(self) -> None:
        state = self.state
        self.set_button.setEnabled(not self._busy and state is not None and state.can_set)
        # Removing stays possible with the page off: the tiles would open a page that is no longer there.
        self.remove_button.setEnabled(not self._busy and state is not None and state.menu_id is not None
                                      and state.line_connected)
