"""The "Connect LINE" wizard's group and teachers' pages (after the webhook test, before the last page).

Both show what LINE tells Shiftcast while the page is open: a `join` proposes a group, a teacher's
code binds them. A page reads the database through `ctx.tasks` when it is shown and whenever the
database says LINE events were handled (the bridge's webhook_events_handled), so an idle page costs
nothing. That is said by whichever receiver handled them, not only the wizard's own: the demo's, the
app's own receiving, or another process on the same data may be the one that does. Both pages may be
skipped: a proposed group is kept and offered again at the next run, and a teacher may send their code
days later.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from PySide6.QtGui import QGuiApplication, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from core.receiving import pairing
from core.receiving.groups import GroupProposal
from core.receiving.pairing import TeacherPairing
from core.setup import classrooms, line_people
from core.texts import Text
from ui.common import dates
from ui.common.i18n import render
from ui.common.phrases import PhraseLabel
from ui.common.widgets import StatusLabel, note
from ui.connect_line.pages import Host, WizardPage


@dataclass(frozen=True)
class Room:
    id: int
    name: str
    language: str
    group_id: str | None


def _rooms(host: Host) -> list[Room]:
    return [Room(r.id, r.name, r.language, r.line_group_id or None) for r in classrooms.listing(host.ctx.db)]


class _Watching(WizardPage):
    """A page that reads again when it is shown and whenever LINE events were handled while it is."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        host.ctx.bridge.webhook_events_handled.connect(self._handled)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()

    def _handled(self, _event: object) -> None:
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError


class GroupPage(_Watching):
    """Invite the account into the teachers' group; its join proposes the group for a classroom."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.rooms: list[Room] = []
        self.proposals: list[GroupProposal] = []
        self.accepted: str | None = None  # the classroom whose group was set here
        self.invite = note("", self)
        self.column.addWidget(self.invite)
        fields = QFormLayout()
        self.classroom = QComboBox(self)
        self.classroom.setObjectName("groupClassroom")
        fields.addRow(self.tr("Classroom:"), self.classroom)
        self.column.addLayout(fields)
        self.column.addWidget(QLabel(self.tr("Groups the account is in:"), self))
        self.list = QListWidget(self)
        self.list.setObjectName("proposedGroups")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.column.addWidget(self.list, 1)
        self.waiting = note(self.tr("Waiting for LINE… The group appears here a moment after the account joins it."),
                            self)
        self.column.addWidget(self.waiting)
        self.use = QPushButton(self.tr("Use this group"), self)
        self.use.setObjectName("useGroup")
        self.use.setEnabled(False)
        self.use.clicked.connect(self._use)
        buttons = QHBoxLayout()
        buttons.addWidget(self.use)
        buttons.addStretch(1)
        self.column.addLayout(buttons)
        self.column.addWidget(note(self.tr(
            "You can skip this step and come back to it: a group the account has joined stays offered here the next "
            "time you open Connect LINE."), self))
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.classroom.currentIndexChanged.connect(lambda _i: self._classroom_changed())
        self.finish_layout()

    def title(self) -> str:
        return self.tr("Your teachers' group")

    def next_text(self) -> str:
        return self.tr("Next") if self.accepted else self.tr("Skip")

    def entered(self) -> None:
        bot = self.host.flow.bot
        name = bot.display_name if bot is not None and bot.display_name else self.tr("your LINE Official Account")
        self.invite.setText(self.tr(
            "Invite the account into your teachers' group now: in the LINE app, open the group, tap the menu, then "
            "“Invite”, and choose “{0}”. LINE tells Shiftcast, and the group appears below.").format(name))
        self.host.ctx.tasks.run(lambda: _rooms(self.host), self._rooms_read, self._failed, owner=self,
                                latest="rooms")

    def _rooms_read(self, rooms: list[Room]) -> None:
        chosen = self.classroom.currentData()
        self.rooms = rooms
        self.classroom.blockSignals(True)
        self.classroom.clear()
        for room in rooms:
            self.classroom.addItem(room.name, room.id)
        index = self.classroom.findData(chosen if chosen is not None else self.host.classroom_id)
        self.classroom.setCurrentIndex(max(index, 0))
        self.classroom.blockSignals(False)
        if not rooms:
            self.status.problem(self.tr("There is no classroom yet: add one in Settings → Classrooms, then open "
                                        "Connect LINE again to choose its group. You can skip this step."))
        self._classroom_changed()

    def _classroom_changed(self) -> None:
        self.host.classroom_id = self.classroom.currentData()
        self._selection_changed()

    def refresh(self) -> None:
        def read() -> list[GroupProposal]:
            return list(line_people.proposed_groups(self.host.ctx.db))

        self.host.ctx.tasks.run(read, self._show, self._failed, owner=self, latest="groups")

    def _show(self, proposals: list[GroupProposal]) -> None:
        chosen = self._selected()
        self.proposals = proposals
        self.list.clear()
        for proposal in proposals:
            item = QListWidgetItem(self.describe(proposal), self.list)
            item.setToolTip(proposal.group_id)
            if chosen is not None and proposal.group_id == chosen.group_id:
                item.setSelected(True)
        if len(proposals) == 1 and chosen is None:
            self.list.item(0).setSelected(True)  # the usual case: the one group just invited into
        # Once a group is chosen it leaves the proposals; "waiting for LINE" would then read as if it had failed.
        self.waiting.setVisible(not proposals and self.accepted is None)
        self._selection_changed()

    def describe(self, proposal: GroupProposal) -> str:
        name = proposal.name or self.tr("A group (LINE did not give its name)")
        if proposal.member_count is None:
            return name
        return self.tr("{0} — {1} members").format(name, proposal.member_count)

    def _selected(self) -> GroupProposal | None:
        rows = [self.list.row(item) for item in self.list.selectedItems()]
        return self.proposals[rows[0]] if rows and rows[0] < len(self.proposals) else None

    def _selection_changed(self) -> None:
        self.use.setEnabled(not self.busy and self._selected() is not None and self.classroom.currentData() is not None)

    def _use(self) -> None:
        proposal, room_id = self._selected(), self.classroom.currentData()
        if proposal is None or room_id is None:
            return
        ctx = self.host.ctx
        self._working(self.tr("Saving the group…"))
        self.use.setEnabled(False)

        def accept() -> str:
            return line_people.accept_group(ctx.db, room_id, proposal.group_id, now=ctx.clock())

        self.host.ctx.tasks.run(accept, lambda room: self._accepted(room, proposal), self._failed, owner=self)

    def _accepted(self, room: str, proposal: GroupProposal) -> None:
        self.accepted = room
        self._done()
        group = proposal.name or self.tr("The group")
        self.status.ok(self.tr("✓ “{0}” is now the LINE group of {1}.").format(group, room))
        self.host.results["group"] = self.tr("Reminders for {0} go to the LINE group “{1}”.").format(room, group)
        self.host.ctx.bridge.settings_changed.emit()
        self.refresh()


@dataclass(frozen=True)
class Codes:
    """What the teachers' page shows: everyone's pairing, the add-friend link and its QR code."""

    progress: list[TeacherPairing]
    url: str | None
    qr_png: bytes | None
    language: str
    limits: list[Text]  # while codes are ignored after too many wrong ones, the incidents' words
    timezone: str | None = None  # the classroom's: when a teacher paired is told on its clock, as LINE's inbox does


class TeachersPage(_Watching):
    """A one-time code for every teacher without a LINE ID; live progress as they send them."""

    NAME, CODE, STATE, COPY = range(4)

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.codes: Codes | None = None
        self.column.addWidget(note(self.tr(
            "Each teacher adds the account as a friend (with the link or the QR code) and sends it their code. "
            "Shiftcast then stores their LINE ID with their consent. A code works once and for 7 days."), self))
        top = QHBoxLayout()
        self.qr = QLabel(self)
        self.qr.setObjectName("friendQr")
        self.qr.setFixedSize(132, 132)
        self.qr.setScaledContents(True)
        top.addWidget(self.qr)
        self.link = PhraseLabel(self)
        self.link.setObjectName("friendLink")
        self.link.setWordWrap(True)
        self.link.setOpenExternalLinks(True)
        top.addWidget(self.link, 1)
        self.column.addLayout(top)
        self.table = QTableWidget(0, 4, self)
        self.table.setObjectName("pairingTable")
        self.table.setHorizontalHeaderLabels([self.tr("Teacher"), self.tr("Code"), self.tr("LINE"), ""])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(self.NAME, QHeaderView.ResizeMode.Stretch)
        for column in (self.CODE, self.STATE, self.COPY):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.column.addWidget(self.table, 1)
        self.progress = QLabel(self)
        self.progress.setObjectName("pairingProgress")
        self.column.addWidget(self.progress)
        self.limits = StatusLabel(self)
        self.limits.setObjectName("pairingLimits")
        self.column.addWidget(self.limits)
        self.finish_layout()

    def title(self) -> str:
        return self.tr("Your teachers on LINE")

    def next_text(self) -> str:
        return self.tr("Next") if self.codes is not None and self.all_paired() else self.tr("Skip")

    def entered(self) -> None:
        self._working(self.tr("Making the teachers' codes…"))
        ctx, room_id, bot = self.host.ctx, self.host.classroom_id, self.host.flow.bot
        basic_id = bot.basic_id if bot is not None else ""

        def issue() -> Codes:
            issued = line_people.issue_codes(ctx.db, room_id, now=ctx.clock())
            room = issued.room
            language = room.language if room is not None else "ja"
            try:
                url, png = pairing.friend_link({"basicId": basic_id})
            except ValueError:
                url, png = None, None
            return Codes(list(issued.progress.teachers), url, png, language, list(issued.progress.limits),
                         room.timezone if room is not None else None)

        ctx.tasks.run(issue, self._issued, self._failed, owner=self, latest="codes")

    def _issued(self, codes: Codes) -> None:
        self._done()
        self.status.clear_status()
        self.codes = codes
        if codes.url is not None and codes.qr_png is not None:
            pixmap = QPixmap()
            pixmap.loadFromData(codes.qr_png, "PNG")
            self.qr.setPixmap(pixmap)
            self.link.setText(self.tr("Add-friend link: <a href=\"{0}\">{0}</a>").format(codes.url))
        else:
            self.qr.clear()
            self.link.setText(self.tr("LINE did not give the account's ID, so there is no add-friend link: teachers "
                                      "can search for the account by name in LINE."))
        self._show((codes.progress, codes.limits))

    def refresh(self) -> None:
        if self.codes is None:
            return  # the codes are still being made; they come with the progress

        def read() -> tuple[list[TeacherPairing], list[Text]]:
            found = line_people.progress(self.host.ctx.db, now=self.host.ctx.clock())
            return list(found.teachers), list(found.limits)

        self.host.ctx.tasks.run(read, self._show, self._failed, owner=self, latest="progress")

    def all_paired(self) -> bool:
        codes = self.codes
        return codes is not None and all(p.code is None for p in codes.progress)

    def _show(self, read: tuple[list[TeacherPairing], list[Text]]) -> None:
        if self.codes is None:
            return
        progress, limits = read
        self.codes = dataclasses.replace(self.codes, progress=progress, limits=limits)
        if limits:
            self.limits.problem("\n".join(render(text) for text in limits))
        else:
            self.limits.clear_status()
        self.table.setRowCount(len(progress))
        for row, person in enumerate(progress):
            self.table.setItem(row, self.NAME, QTableWidgetItem(person.name))
            self.table.setItem(row, self.CODE, QTableWidgetItem(person.code or "—"))
            self.table.setItem(row, self.STATE, QTableWidgetItem(self.state_text(person)))
            if person.code is not None:
                button = QPushButton(self.tr("Copy"), self.table)
                button.setObjectName(f"copy{person.teacher_id}")
                button.setToolTip(self.tr("Copy a message with the code and the link, to paste to {0}").format(
                    person.name))
                button.clicked.connect(lambda _c=False, p=person: self.copy(p))
                self.table.setCellWidget(row, self.COPY, button)
            else:
                self.table.removeCellWidget(row, self.COPY)
        paired = sum(1 for p in progress if p.code is None)
        waiting = [p.name for p in progress if p.code is not None]
        if progress:
            self.progress.setText(self.tr("{0} of {1} teachers are connected on LINE.").format(paired, len(progress)))
            self.host.results["teachers"] = self.progress.text()
        else:
            self.progress.setText(self.tr("There are no teachers yet. Add them under Teachers; their codes are made "
                                          "when you come back here."))
        if waiting:
            names = self.tr(", ", "between the names of a list").join(waiting)
            self.host.left["teachers"] = "\n".join((
                self.tr("Still to send their code: {0}.").format(names),
                self.tr("A code works for 7 days; open Connect LINE again to copy their messages.")))
        else:
            self.host.left.pop("teachers", None)
        self.changed.emit()

    def state_text(self, person: TeacherPairing) -> str:
        if person.code is not None:
            return self.tr("Waiting for the code")
        if person.paired_at is not None:
            zone = self.codes.timezone if self.codes is not None else None
            return self.tr("✓ Connected {0}").format(dates.moment_text(person.paired_at, zone))
        return self.tr("✓ Connected")

    def message(self, person: TeacherPairing) -> str:
        codes = self.codes
        assert codes is not None and person.code is not None and person.expires_at is not None
        day = person.expires_at.astimezone().date()  # the manager's computer and the teacher share a day
        expires = day.isoformat() if codes.language == "en" else f"{day.year}年{day.month}月{day.day}日"
        return pairing.invitation(codes.language, person.name, person.code, codes.url or "", expires)

    def copy(self, person: TeacherPairing) -> None:
        QGuiApplication.clipboard().setText(self.message(person))
        self.status.ok(self.tr("The message for {0} is copied: paste it into an e-mail or a chat.").format(person.name))
