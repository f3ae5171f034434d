"""Demo mode: what each teacher and each classroom's group received from the built-in LINE simulator.

Left the recipients (teachers by name, groups by classroom), right their messages in order. A Flex
message shows as a phone shows it: its bubbles drawn as cards (core/publication/flex_picture.py), a
carousel's side by side, with the lines they say as the cards' tooltip and accessible text; one with a
roster preview as its hero shows its alt text, which is what LINE shows in notifications, and the
preview. A click on a picture opens it full size in a zoomable viewer. Images are fetched off the UI
thread, and only from this computer: the demo promises that nothing leaves it; those an earlier run
received come from what it kept in the demo folder (core/app/demo_inbox.py).

The window follows the simulator by itself: while it is open it looks once a second whether the
simulator holds more messages than it shows (a length under a lock, in this process) and reloads if so.
The sender's own change signal is not enough: the simulator can receive what another process sent.

The window also acts as the teachers, through the simulator: a message with a 了解 button can be
tapped as the teacher it went to, a teacher not on LINE yet can add the account and send their
pairing code, and the account can be invited into a new group of the teachers (Connect LINE's group step). Both arrive at the demo's webhook receiver as signed webhooks, as a real tap would.
A message with LINE time pickers (an availability request's △ on each day, or the reply's picker for
until when) offers a small time choice beside it: the day's △ with from–to is the teacher choosing
from when in the picker and then until when in the picker the account's reply brings, each a postback
with `params.time`, as LINE sends it.

What the LINE WORKS stand-in took follows the LINE mailboxes, each recipient and message marked
"LINE WORKS": a reminder's 了解 there is tapped as the teacher by the stand-in's signed callback to the
demo's receiver, as LINE WORKS would send it.

Where the demo runs the relay on this computer (core/app/demo_relay.py), the window shows its state in
one line and can let the PC sleep: the app's sender stops, a reminder comes due, and the relay sends it;
such messages are marked as the relay's. Waking starts the sender again, whose sync records the relay's
attempts for Deliveries.
"""

from __future__ import annotations

import datetime as dt
import logging

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QImage, QMouseEvent, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.app import demo_relay
from core.app.demo import DEMO_CHANNEL_ID, DEMO_CHANNEL_SECRET, DEMO_NEW_GROUP_NAME, DemoEnvironment, check_hours
from core.emulator.simulate import Delivered
from core.errors import ValidationError
from core.publication import flex_picture
from core.roster import clock
from ui.common import dates, i18n
from ui.common.image_viewer import ImageViewer
from ui.common.phrases import PhraseLabel
from ui.common.widgets import TimeField
from ui.demo.mailboxes import (
    Inbox,
    Mailbox,
    Received,
    TimePicker,
    Unpaired,
    fetch_image,
    load_inbox,
)
from ui.services.context import AppContext
from ui.services.sending import start_engine

log = logging.getLogger(__name__)
IMAGE_WIDTH = 320  # about the width of a LINE bubble on a phone
POLL_MS = 1000


def _received_count(demo: DemoEnvironment) -> int:
    """Messages the simulator and the LINE WORKS stand-in hold now."""
    works = getattr(demo, "works", None)  # a stand-in demo may have no LINE WORKS
    return len(demo.emulator.all_inbox()) + (len(works.accepted) if works is not None else 0)


class _ClickableImage(QLabel):
    clicked = Signal()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and not self.pixmap().isNull():
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class ImageWindow(QWidget):
    """One received image at full size: zoom, fit, actual size, as in the Publish area."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(self.tr("Image (demo)"))
        self.resize(1000, 700)
        self.viewer = ImageViewer(self, fit="width")
        QVBoxLayout(self).addWidget(self.viewer)


class InboxWindow(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Teachers' LINE inbox (demo)"))
        self.resize(960, 680)
        self._boxes: list[Mailbox] = []
        self._zone: str | None = None  # the classrooms' time zone (None: the PC's), as the last read found it
        self._pixmaps: dict[str, QPixmap] = {}
        self._images: dict[str, QImage] = {}  # full size, for the viewer
        self.image_window: ImageWindow | None = None
        self._shown_count = -1  # messages in the simulator when the window last loaded them
        self._waiting: dict[str, list[QLabel]] = {}  # image URL → labels to fill when it arrives

        self._unpaired: list[Unpaired] = []
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.clicked.connect(self.refresh)
        intro = PhraseLabel(self.tr("What the teachers and their groups received from the built-in LINE and LINE WORKS "
                                    "simulators. Nothing here went to real LINE or LINE WORKS accounts."), self)
        intro.setWordWrap(True)
        self.channel_label = PhraseLabel(self)  # what to type into Connect LINE to try it against the simulator
        self.channel_label.setWordWrap(True)
        self.channel_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = PhraseLabel(self)  # what the last action as a teacher did
        self.status_label.setObjectName("actionStatus")
        self.status_label.setWordWrap(True)
        words = QVBoxLayout()
        words.addWidget(intro)
        words.addWidget(self.channel_label)
        words.addWidget(self.status_label)
        self.join_button = QPushButton(self.tr("Invite the account into a group"), self)
        self.join_button.setObjectName("joinGroup")
        self.join_button.setToolTip(self.tr("The simulator invites the LINE account into a new group of the teachers, "
                                            "as you would in the LINE app: Connect LINE's group step then offers it."))
        self.join_button.clicked.connect(self.invite_into_group)
        self.relay_label = PhraseLabel(self)  # the demo's relay: starting, running, asleep, or off and why
        self.relay_label.setObjectName("relayStatus")
        self.relay_label.setWordWrap(True)
        self.relay_label.hide()
        words.addWidget(self.relay_label)
        self.sleep_button = QPushButton(self.tr("Simulate the computer sleeping"), self)
        self.sleep_button.setObjectName("sleepPc")
        self.sleep_button.setToolTip(self.tr("Shiftcast's sender stops as if the computer slept, a reminder comes due, and "
                                             "the relay sends it. Wake the computer afterwards to see its attempts."))
        self.sleep_button.clicked.connect(self.toggle_sleep)
        self.sleep_button.hide()
        self._relay_state: tuple[object, ...] = ()
        self._relay_sent: int | None = None  # what the relay sent in the last sleep; None: no sleep yet
        self._going_to_sleep = False  # the sender stops and the relay sends, on a pool thread
        top = QHBoxLayout()
        top.addLayout(words, 1)
        top.addWidget(self.sleep_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.join_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)

        self.recipients = QListWidget(self)
        self.recipients.setObjectName("recipients")
        self.recipients.currentRowChanged.connect(self._show_mailbox)
        self.unpaired_box = QGroupBox(self.tr("Teachers not on LINE yet"), self)
        self.unpaired_box.setObjectName("unpaired")
        self._unpaired_column = QVBoxLayout(self.unpaired_box)
        self.unpaired_box.hide()
        left = QWidget(self)
        left_column = QVBoxLayout(left)
        left_column.setContentsMargins(0, 0, 0, 0)
        left_column.addWidget(self.recipients, 1)
        left_column.addWidget(self.unpaired_box)
        self.messages = QWidget()
        self.messages.setObjectName("messages")
        self._column = QVBoxLayout(self.messages)
        self._column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.messages)
        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 700])

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        ctx.bridge.deliveries_changed.connect(self._deliveries_changed)
        self._poll = QTimer(self, interval=POLL_MS)
        self._poll.timeout.connect(self._check_for_new)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._poll.start()
        self._check_for_new()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._poll.stop()

    def _check_for_new(self) -> None:
        demo = self.ctx.demo
        self._show_relay()
        if demo is not None and self.refresh_button.isEnabled() and _received_count(demo) != self._shown_count:
            self.refresh()

    # ----- loading -----

    def _deliveries_changed(self, _ids: list[int]) -> None:
        self.refresh()

    def refresh(self) -> None:
        demo = self.ctx.demo
        if demo is None:
            self._set_boxes([])
            self._say(self.tr("The inbox exists only in demo mode."))
            return
        emulator = demo.emulator
        self.channel_label.setText(self.tr("To try Connect LINE with the simulator, enter channel ID {0} and "
                                           "channel secret {1}.").format(DEMO_CHANNEL_ID, DEMO_CHANNEL_SECRET))
        self.refresh_button.setEnabled(False)
        db, now, relay, works = self.ctx.db, self.ctx.clock(), self._relay(), getattr(demo, "works", None)
        self._show_relay()
        self.ctx.tasks.run(lambda: load_inbox(db, emulator, now, relay, works), self._set_inbox, self._failed,
                           owner=self, latest="mailboxes")

    def _set_inbox(self, inbox: Inbox) -> None:
        self._zone = inbox.zone
        self._set_unpaired(inbox.unpaired)
        self._set_boxes(inbox.boxes)

    def _failed(self, exc: BaseException) -> None:
        from ui.common.errors import show_error

        self.refresh_button.setEnabled(True)
        show_error(self, exc)

    def _set_boxes(self, boxes: list[Mailbox]) -> None:
        self.refresh_button.setEnabled(True)
        self._shown_count = sum(len(box.messages) for box in boxes)
        current = self.current_recipient()
        self._boxes = boxes
        self.recipients.blockSignals(True)
        self.recipients.clear()
        for box in boxes:
            label = self._recipient_label(box)
            item = QListWidgetItem(f"{label}  ·  {len(box.messages)}")
            item.setData(Qt.ItemDataRole.UserRole, box.recipient)
            self.recipients.addItem(item)
        row = next((i for i, b in enumerate(boxes) if b.recipient == current), 0)
        self.recipients.setCurrentRow(row if boxes else -1)
        self.recipients.blockSignals(False)
        if boxes:
            self._show_mailbox(row)
        elif self.ctx.demo is not None:
            self._say(self.tr("Nothing has been sent yet. Messages appear here as the demo sends them."))

    def _recipient_label(self, box: Mailbox) -> str:
        if box.on_works:
            return (self.tr("{0} (LINE WORKS room)") if box.is_group else self.tr("{0} (LINE WORKS)")).format(box.title)
        return self.tr("{0} (LINE group)").format(box.title) if box.is_group else box.title

    def current_recipient(self) -> str | None:
        item = self.recipients.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def _set_unpaired(self, unpaired: list[Unpaired]) -> None:
        if unpaired == self._unpaired:
            return  # untouched, so a button being pressed is not pulled away by the poll
        self._unpaired = unpaired
        while self._unpaired_column.count():
            item = self._unpaired_column.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        for teacher in unpaired:
            row = QWidget(self.unpaired_box)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(QLabel(self.tr("{0} (code {1})").format(teacher.name, teacher.code), row), 1)
            button = QPushButton(self.tr("Send the code as this teacher"), row)
            button.setObjectName("sendCode")
            button.setToolTip(self.tr("The simulator acts as {0}: adds the LINE account as a friend and sends it "
                                      "the pairing code, as the teacher would on their phone.").format(teacher.name))
            button.clicked.connect(lambda _checked=False, t=teacher, b=button: self.send_code(t, b))
            line.addWidget(button)
            self._unpaired_column.addWidget(row)
        self.unpaired_box.setVisible(bool(unpaired))

    # ----- the demo's relay -----

    def _relay(self) -> demo_relay.DemoRelay | None:
        relay = getattr(self.ctx.demo, "relay", None)
        return relay if isinstance(relay, demo_relay.DemoRelay) else None

    def _show_relay(self) -> None:
        """The relay's line and the sleep button, as the relay is now (it starts on its own thread)."""
        relay = self._relay()
        state = (None,) if relay is None else (relay.running, relay.off, relay.asleep, self._relay_sent,
                                               self._going_to_sleep)
        if state == self._relay_state:
            return
        self._relay_state = state
        self.relay_label.setVisible(relay is not None)
        self.sleep_button.setVisible(relay is not None and relay.off is None)
        if relay is None:
            return
        if relay.off is not None:
            self.relay_label.setText(self.tr("The relay part of the demo is off: {0}").format(i18n.render(relay.off)))
        elif not relay.running:
            self.relay_label.setText(self.tr("The relay is starting on this computer…"))
        elif relay.asleep:
            self.relay_label.setText(self.tr("The computer sleeps: Shiftcast's sender is stopped, and the relay sent %n "
                                             "messages in its place. Wake the computer to see them in Deliveries.",
                                             "", self._relay_sent or 0))
        elif self._relay_sent is not None:
            self.relay_label.setText(self.tr("The computer is awake again: its sender took over and recorded what the relay "
                                             "sent. Deliveries shows those attempts as by the relay."))
        else:
            self.relay_label.setText(self.tr("The relay runs on this computer, as it would at Cloudflare: it sends "
                                             "the reminders Shiftcast handed over while no computer is awake."))
        self.sleep_button.setText(self.tr("Wake the computer") if relay.asleep else self.tr("Simulate the computer sleeping"))
        self.sleep_button.setEnabled(relay.running and not self._going_to_sleep)

    def toggle_sleep(self) -> None:
        relay = self._relay()
        if relay is None or not relay.running:
            return
        if relay.asleep:
            self.wake_pc(relay)
            return
        self._going_to_sleep = True
        self._show_relay()
        ctx, engine = self.ctx, self.ctx.engine
        ctx.set_engine(None)  # the PC sleeps: no sender, no heartbeat, no sync

        def sleep() -> int:
            if engine is not None:
                engine.stop()
            return relay.pc_sleeps(ctx.db, ctx.paths, ctx.clock())

        self.ctx.tasks.run(sleep, self._slept, self._sleep_failed, owner=self)

    def _slept(self, sent: int) -> None:
        self._relay_sent, self._going_to_sleep = sent, False
        self.refresh()

    def _sleep_failed(self, exc: BaseException) -> None:
        relay = self._relay()
        if relay is not None:
            self.wake_pc(relay)
        self._failed(exc)

    def wake_pc(self, relay: demo_relay.DemoRelay) -> None:
        """The sender starts again; its first sync pulls the relay's outcomes (ui/services/sending.py start_engine)."""
        relay.pc_wakes(self.ctx.clock())
        self._going_to_sleep = False
        if self.ctx.engine is None:
            start_engine(self.ctx, mode="demo")
        self.refresh()

    # ----- acting as a teacher (the simulator) -----

    def send_code(self, teacher: Unpaired, button: QPushButton | None = None) -> None:
        demo = self.ctx.demo
        if demo is None:
            return
        if button is not None:
            button.setEnabled(False)
        self.ctx.tasks.run(lambda: demo.send_code_as_teacher(teacher.teacher_id, teacher.name, teacher.code),
                           lambda done: self._acted(done, self.tr("Sent the code {0} as {1}.")
                                                    .format(teacher.code, teacher.name)),
                           self._failed, owner=self)

    def invite_into_group(self) -> None:
        demo = self.ctx.demo
        if demo is None:
            return
        db = self.ctx.db
        self.ctx.tasks.run(lambda: demo.invite_into_group(db),
                           lambda done: self._acted(done, self.tr("The account joined the group “{0}”.")
                                                    .format(DEMO_NEW_GROUP_NAME)),
                           self._failed, owner=self)

    def tap_ok(self, recipient: str, title: str, message: Received, button: QPushButton | None = None) -> None:
        demo = self.ctx.demo
        if demo is None:
            return
        if button is not None:
            button.setEnabled(False)
        self.ctx.tasks.run(lambda: demo.tap_as_teacher(recipient, message.message_id),
                           lambda done: self._acted(done, self.tr("Tapped “{0}” as {1}.")
                                                    .format(message.button, title)),
                           self._failed, owner=self)

    def pick_hours(self, recipient: str, title: str, picker: TimePicker, start: dt.time, end: dt.time | None,
                   button: QPushButton | None = None) -> None:
        """Choose `start` in the picker as the teacher, and with `end` until when in the picker the reply brings."""
        demo = self.ctx.demo
        if demo is None:
            return
        if button is not None:
            button.setEnabled(False)
        shown = clock.format_wall_time(start) if end is None else self.tr("{0}–{1}").format(
            clock.format_wall_time(start), clock.format_wall_time(end))
        self.ctx.tasks.run(lambda: demo.pick_hours_as_teacher(recipient, picker.action, start, end),
                           lambda done: self._acted(done, self.tr("Chose {0} for “{1}” as {2}.")
                                                    .format(shown, picker.label, title)),
                           self._failed, owner=self)

    def tap_ok_on_works(self, teacher: Mailbox, message: Received, button: QPushButton | None = None) -> None:
        """The teacher taps 了解 in LINE WORKS: the stand-in posts its signed callback to the demo's receiver."""
        demo = self.ctx.demo
        if demo is None or message.postback is None:
            return
        if button is not None:
            button.setEnabled(False)
        data = message.postback
        self.ctx.tasks.run(lambda: demo.tap_on_works(teacher.recipient, data),
                           lambda status: self._acted_on_works(status, self.tr("Tapped “{0}” as {1} on LINE WORKS.")
                                                               .format(message.button, teacher.title)),
                           self._failed, owner=self)

    def _acted_on_works(self, status: int, said: str) -> None:
        self.status_label.setText(said if status == 200 else self.tr("Shiftcast did not take it: {0} {1}")
                                  .format(status, ""))
        self.refresh()

    def _acted(self, delivered: Delivered, said: str) -> None:
        result = delivered.result
        if result is None:
            self.status_label.setText(self.tr("The simulator has no webhook address to send it to."))
        elif not result.success:
            self.status_label.setText(self.tr("Shiftcast did not take it: {0} {1}").format(result.status_code,
                                                                                          result.reason))
        else:
            self.status_label.setText(said)
        self.refresh()

    # ----- showing -----

    def _clear(self) -> None:
        while self._column.count() > 1:  # the last item is the stretch that keeps bubbles at the top
            item = self._column.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)  # gone from the window now, not only when the loop comes round
                widget.deleteLater()

    def _say(self, text: str) -> None:
        self._clear()
        label = PhraseLabel(text, self.messages)
        label.setWordWrap(True)
        self._column.insertWidget(0, label)

    def _show_mailbox(self, row: int) -> None:
        self._clear()
        if not 0 <= row < len(self._boxes):
            return
        box = self._boxes[row]
        for index, message in enumerate(box.messages):
            if box.on_works:
                self._column.insertWidget(index, self._works_bubble(message, box, f"works:{box.recipient}:{index}"))
            else:
                self._column.insertWidget(index, self._bubble(message, None if box.is_group else box))

    def _works_bubble(self, message: Received, box: Mailbox, key: str) -> QFrame:
        """A message the LINE WORKS stand-in took, marked so; its picture shown from the file it took."""
        bubble = self._bubble(message)
        column = bubble.layout()
        assert isinstance(column, QVBoxLayout)
        mark = QLabel(self.tr("LINE WORKS"), bubble)
        mark.setObjectName("worksMark")
        column.insertWidget(1, mark)
        if message.picture is not None:
            image = _ClickableImage(self.tr("Loading the image…"), bubble)
            image.setObjectName("messageImage")
            image.setToolTip(self.tr("Click to see it full size"))
            image.setCursor(Qt.CursorShape.PointingHandCursor)
            image.clicked.connect(lambda: self.open_image(key))
            column.addWidget(image)
            self._waiting.setdefault(key, []).append(image)
            self._image_arrived(key, message.picture)
        if not box.is_group and message.button and message.postback:
            reply = QPushButton(self.tr("Reply “{0}” as the teacher").format(message.button), bubble)
            reply.setObjectName("replyOk")
            reply.setToolTip(self.tr("LINE WORKS sends Shiftcast this message's button tap as {0} would make it on "
                                     "their phone.").format(box.title))
            reply.clicked.connect(lambda _checked=False, b=reply: self.tap_ok_on_works(box, message, b))
            column.addWidget(reply, 0, Qt.AlignmentFlag.AlignLeft)
        return bubble

    def _bubble(self, message: Received, teacher: Mailbox | None = None) -> QFrame:
        bubble = QFrame(self.messages)
        bubble.setObjectName("bubble")
        bubble.setFrameShape(QFrame.Shape.StyledPanel)
        column = QVBoxLayout(bubble)
        # On the classroom's clock, as the window's other times: a PC set to another zone reads the same.
        when = QLabel(dates.moment_text(message.at, self._zone, seconds=True), bubble)
        when.setObjectName("messageTime")
        when.setEnabled(False)  # the platform's quieter text colour
        column.addWidget(when)
        if message.by_relay:
            mark = QLabel(self.tr("Sent by the relay while the computer slept"), bubble)
            mark.setObjectName("relayMark")
            column.addWidget(mark)
        if message.cards is not None:
            column.addWidget(self._cards(message, bubble))
        elif message.text:
            text = PhraseLabel(message.text, bubble)
            text.setObjectName("messageText")
            text.setWordWrap(True)
            text.setTextFormat(Qt.TextFormat.PlainText)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            column.addWidget(text)
        if message.image_url:
            image = _ClickableImage(self.tr("Loading the image…"), bubble)
            image.setObjectName("messageImage")
            image.setToolTip(self.tr("Click to see it full size"))
            image.setCursor(Qt.CursorShape.PointingHandCursor)
            url = message.image_url
            image.clicked.connect(lambda: self.open_image(url))
            column.addWidget(image)
            self._load_image(message.image_url, image)
        if teacher is not None and message.button and message.message_id:
            reply = QPushButton(self.tr("Reply “{0}” as the teacher").format(message.button), bubble)
            reply.setObjectName("replyOk")
            reply.setToolTip(self.tr("The simulator taps this message's button as {0} would on their phone.")
                             .format(teacher.title))
            reply.clicked.connect(lambda _checked=False, b=reply: self.tap_ok(teacher.recipient, teacher.title,
                                                                              message, b))
            column.addWidget(reply, 0, Qt.AlignmentFlag.AlignLeft)
        if teacher is not None and message.pickers:
            column.addWidget(self._time_choice(message, teacher, bubble), 0, Qt.AlignmentFlag.AlignLeft)
        return bubble

    def _time_choice(self, message: Received, teacher: Mailbox, bubble: QWidget) -> QWidget:
        """A day's △ (or the reply's picker) and the times to choose in LINE's picker, as the teacher would."""
        row = QWidget(bubble)
        row.setObjectName("timeChoice")
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        which = QComboBox(row)
        which.setObjectName("pickerChoice")
        for picker in message.pickers:
            which.addItem(picker.label, picker)
        which.setAccessibleName(self.tr("Time picker"))
        start = TimeField(row)
        start.setObjectName("pickStart")
        end = TimeField(row)
        end.setObjectName("pickEnd")
        dash = QLabel("–", row)
        send = QPushButton(row)
        send.setObjectName("pickTime")

        def follow(index: int) -> None:
            picker: TimePicker = which.itemData(index)
            start.setText(str(picker.action.get("initial") or picker.action.get("min") or "17:00"))
            end.setText("21:00")
            end.setVisible(not picker.quick_reply)  # a bubble's △ asks from when; the reply then, until when
            dash.setVisible(not picker.quick_reply)
            send.setText(self.tr("Choose “{0}” as the teacher").format(picker.action.get("label", "")))

        def chosen() -> None:
            picker: TimePicker = which.currentData()
            try:
                begin = start.wall_time()
                until = None if picker.quick_reply else end.wall_time()
                check_hours(begin, until)
            except ValidationError as exc:
                self.status_label.setText(i18n.describe(exc))
                return
            self.pick_hours(teacher.recipient, teacher.title, picker, begin, until, send)

        which.currentIndexChanged.connect(follow)
        follow(0)
        send.setToolTip(self.tr("The simulator chooses these times in LINE's time picker as {0} would on their "
                                "phone.").format(teacher.title))
        send.clicked.connect(chosen)
        for part in (which, start, dash, end, send):
            line.addWidget(part)
        return row

    def _cards(self, message: Received, bubble: QWidget) -> QWidget:
        """The drawn cards at a phone's size, a carousel scrolled sideways as on a phone; a click opens
        them full size. Their lines are the tooltip and what a screen reader says."""
        key = f"cards:{message.message_id}"
        if key not in self._images:
            self._images[key] = QImage.fromData(message.cards or b"")
        pixmap = QPixmap.fromImage(self._images[key])
        pixmap.setDevicePixelRatio(flex_picture.SCALE)  # drawn at twice the size: shown at a phone's
        cards = _ClickableImage(bubble)
        cards.setObjectName("messageCards")
        cards.setPixmap(pixmap)
        cards.setToolTip(message.text)
        cards.setAccessibleName(message.text)
        cards.setCursor(Qt.CursorShape.PointingHandCursor)
        cards.clicked.connect(lambda: self.open_image(key))
        row = QScrollArea(bubble)
        row.setWidget(cards)
        row.setFrameShape(QFrame.Shape.NoFrame)
        row.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        row.setFixedHeight(round(pixmap.deviceIndependentSize().height()) + row.horizontalScrollBar().sizeHint().height())
        return row

    def _load_image(self, url: str, label: QLabel) -> None:
        if url in self._pixmaps:
            label.setPixmap(self._pixmaps[url])
            return
        first = url not in self._waiting
        self._waiting.setdefault(url, []).append(label)
        if first:
            home = getattr(self.ctx.demo, "home", None)  # where an earlier run kept its pictures
            self.ctx.tasks.run(lambda: fetch_image(home, url), lambda data: self._image_arrived(url, data),
                               lambda exc: self._image_failed(url, exc), owner=self)

    def _image_arrived(self, url: str, data: bytes) -> None:
        full = QImage()
        if not full.loadFromData(data):
            self._image_failed(url, ValueError("not an image"))
            return
        self._images[url] = full
        pixmap = QPixmap.fromImage(full)
        if pixmap.width() > IMAGE_WIDTH:
            pixmap = pixmap.scaledToWidth(IMAGE_WIDTH, Qt.TransformationMode.SmoothTransformation)
        self._pixmaps[url] = pixmap
        for label in self._waiting.pop(url, []):
            if shiboken6.isValid(label):
                label.setPixmap(pixmap)

    def _image_failed(self, url: str, exc: BaseException) -> None:
        # The reason is for the log: a connection error's words are the operating system's, in English.
        log.warning("demo inbox picture %s not shown: %s", url, exc)
        for label in self._waiting.pop(url, []):
            if shiboken6.isValid(label):
                label.setText(self.tr("This picture can no longer be shown: it was not kept on this computer."))

    def open_image(self, url: str) -> None:
        image = self._images.get(url)
        if image is None:
            return
        if self.image_window is None:
            self.image_window = ImageWindow(self)
        self.image_window.viewer.set_image(image)
        self.image_window.show()
        self.image_window.raise_()
