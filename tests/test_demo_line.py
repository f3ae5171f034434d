"""The demo's LINE in the other direction, over real HTTP: the demo starts a webhook receiver the
simulator knows, the demo inbox taps 了解 and sends a pairing code as a teacher, and the roster grid
marks a tapped shift without reading the month again; the inbox answers an availability request's △
with from–to through LINE's time pickers."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QWidget
from sqlalchemy import select

from core.app import demo as demo_data
from core.app import demo_inbox
from core.emulator.simulate import postback_actions
from core.messages import ack
from core.outbox.policy import BackoffPolicy
from core.planning.planner import plan
from core.receiving import acknowledge
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.store import ack_key, secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Delivery, Publication, Shift, Teacher, WebhookEvent
from core.texts.formats import day_short
from tests import factories as f
from tests.linefixtures import FakeClock
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.common.widgets import TimeField
from ui.demo.inbox import InboxWindow
from ui.demo.mailboxes import load_mailboxes, load_unpaired
from ui.services.context import AppContext
from ui.shifts.view import ShiftsView

FAST = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))


@pytest.fixture
def demo(db: Database, now: dt.datetime, tmp_path: Any) -> Iterator[demo_data.DemoEnvironment]:
    assert demo_data.seed(db, now=now)
    environment = demo_data.DemoEnvironment(tmp_path / "demo").start(db)
    yield environment
    environment.stop()


def _send_due_reminders(db: Database, now: dt.datetime) -> None:
    """The planner and the sender, as the demo's engine runs them: the shifts starting soon get their reminders."""
    with db.write() as s:
        plan(s, now=now)
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=FakeClock(now))
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def _with_button(demo: demo_data.DemoEnvironment) -> list[Any]:
    return [m for m in demo.emulator.all_inbox() if postback_actions(m.message)]


def _acknowledged(db: Database) -> dict[int, dt.datetime]:
    with db.read() as s:
        return {d.id: d.acknowledged_at for d in s.scalars(select(Delivery).where(Delivery.acknowledged_at.is_not(None)))
                if d.acknowledged_at is not None}


def test_the_demo_keeps_its_button_key_out_of_the_managers_keyring(db: Database, now: dt.datetime, tmp_path: Any,
                                                                    memory_keyring: Any) -> None:
    assert demo_data.seed(db, now=now)
    assert memory_keyring.store == {}  # the seed runs before the demo's own keyring is in place
    environment = demo_data.DemoEnvironment(tmp_path / "demo").start(db)
    try:
        with db.read() as s:
            assert ack.signer(s) is not None  # its key, made in the demo's keyring
    finally:
        environment.stop()
    assert memory_keyring.store == {}


def test_the_demo_starts_a_receiver_whose_address_the_simulator_knows(db: Database, demo: demo_data.DemoEnvironment
                                                                      ) -> None:
    receiver = demo.receiver
    assert receiver is not None
    assert demo.emulator.webhook_endpoint == receiver.url
    assert demo.emulator.channel_secret == demo_data.DEMO_CHANNEL_SECRET
    with db.read() as s:  # the seed turns the 了解 button on, so the demo's reminders carry it
        assert keys.LINE_ACK_BUTTON.read(s) and ack.signer(s) is not None
        # the readiness check names the simulator's account, as after Test connection
        assert (keys.LINE_ACCOUNT.read(s) or "").startswith("Shiftcast Emulator (@")
    # A simulated teacher's event reaches it, signed with the demo channel's secret.
    delivered = demo.emulator.follow(demo_data.user_id_for(1))
    assert delivered.result is not None and delivered.result.success, delivered.result
    demo.stop()
    assert demo.receiver is None and demo.emulator.webhook_endpoint is None


def test_reply_ok_in_the_inbox_acknowledges_the_reminder(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                        demo: demo_data.DemoEnvironment) -> None:
    _send_due_reminders(db, now)
    [first, *_] = _with_button(demo)
    ctx.demo = demo
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    row = next(i for i in range(window.recipients.count())
               if window.recipients.item(i).data(Qt.ItemDataRole.UserRole) == first.recipient)
    window.recipients.setCurrentRow(row)
    [reply] = window.messages.findChildren(QPushButton, "replyOk")
    assert reply.text() == "Reply “了解” as the teacher"
    assert _acknowledged(db) == {}

    qtbot.mouseClick(reply, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(_acknowledged(db)) == 1, timeout=10_000)
    [delivery_id] = _acknowledged(db)
    with db.read() as s:
        key = ack_key.held_key(s)
        assert key and ack.read_postback(key, postback_actions(first.message)[0]["data"]) == delivery_id
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Tapped “了解” as "))
    settle(qtbot, ctx)


def test_send_the_code_in_the_inbox_pairs_the_teacher(qtbot, ctx: AppContext, db: Database,
                                                     demo: demo_data.DemoEnvironment) -> None:
    ctx.demo = demo
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    assert window.unpaired_box.isVisible()
    buttons = window.unpaired_box.findChildren(QPushButton, "sendCode")
    assert len(buttons) == len(demo_data.NEW_TEACHERS)
    with db.read() as s:
        kobayashi = s.scalars(select(Teacher).where(Teacher.name == demo_data.NEW_TEACHERS[0])).one()
        assert f.reach(kobayashi).line_user_id is None and not f.reach(kobayashi).line_opt_in
        teacher_id = kobayashi.id

    [button] = [b for b in buttons if demo_data.NEW_TEACHERS[0] in b.toolTip()]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def paired() -> bool:
        with db.read() as s:
            teacher = s.get(Teacher, teacher_id)
            return teacher is not None and f.reach(teacher).line_opt_in_at is not None

    qtbot.waitUntil(paired, timeout=10_000)
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None and f.reach(teacher).line_user_id == demo_data.new_user_id_for(teacher_id)
        assert f.reach(teacher).line_opt_in
    # The account's reply reaches the inbox, and the teacher leaves the list of those not on LINE yet.
    qtbot.waitUntil(lambda: len(window.unpaired_box.findChildren(QPushButton, "sendCode")) == 1, timeout=10_000)
    # The reply goes out after the pairing committed, on the receiver's thread: wait for it to arrive.
    qtbot.waitUntil(lambda: any(m.recipient == demo_data.new_user_id_for(teacher_id)
                                for m in demo.emulator.all_inbox()), timeout=10_000)
    settle(qtbot, ctx)


def test_the_grid_marks_a_tapped_shift_without_reading_the_month_again(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, demo: demo_data.DemoEnvironment) -> None:
    _send_due_reminders(db, now)
    [first, *_] = _with_button(demo)
    with db.read() as s:
        key = ack_key.held_key(s)
        assert key
        delivery_id = ack.read_postback(key, postback_actions(first.message)[0]["data"])
        assert delivery_id is not None
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and delivery.subject_id is not None
        shift = s.get(Shift, delivery.subject_id)
        assert shift is not None
        shift_id, day = shift.id, shift.local_date
    view = ShiftsView(ctx)
    qtbot.addWidget(view)
    view.set_month(day.year, day.month)
    qtbot.waitUntil(lambda: not view.busy and view.model.find_shift(shift_id) is not None)
    settle(qtbot, ctx)
    item = view.model.find_shift(shift_id)
    assert item is not None and item.acknowledged_at is None
    loads: list[None] = []
    view.loaded.connect(lambda: loads.append(None))

    with qtbot.waitSignal(view.acknowledgements_shown, timeout=10_000):
        result = demo.tap_as_teacher(first.recipient, first.message_id).result
        assert result is not None and result.success
    item = view.model.find_shift(shift_id)
    assert item is not None and item.acknowledged_at is not None
    with db.read() as s:
        assert delivery_id in acknowledge.acknowledged(s, [delivery_id])
    assert loads == []  # marked in place: the month was not read again
    settle(qtbot, ctx)


def test_connect_line_in_the_demo_cannot_replace_the_real_channel_secret(db: Database, now: dt.datetime,
                                                                        tmp_path: Any, memory_keyring: Any) -> None:
    secrets.set_line_channel_secret("the real classroom's secret")
    assert demo_data.seed(db, now=now)
    environment = demo_data.DemoEnvironment(tmp_path / "demo").start(db)
    try:
        assert secrets.line_channel_secret() is None  # the demo sees none of the real secrets…
        secrets.set_line_channel_secret(demo_data.DEMO_CHANNEL_SECRET)  # …as the wizard saves the demo's
        assert secrets.line_channel_secret() == demo_data.DEMO_CHANNEL_SECRET
    finally:
        environment.stop()
    assert secrets.line_channel_secret() == "the real classroom's secret"


def test_connect_line_can_be_walked_through_in_the_demo_and_gives_the_demo_its_receiver_back(
        db: Database, demo: demo_data.DemoEnvironment) -> None:
    from core.receiving.address import LoopbackAddress
    from core.setup.line_connect import ConnectLine

    assert demo.receiver is not None
    demos_own = demo.receiver.url
    flow = ConnectLine(db)
    try:
        bot = flow.check_credentials(demo_data.DEMO_CHANNEL_ID, demo_data.DEMO_CHANNEL_SECRET)
        assert bot.user_id == demo.emulator.bot_user_id
        url = flow.start_receiving(LoopbackAddress())
        assert flow.point_line_here().endpoint == demos_own  # what the wizard saves to put back
        assert demo.emulator.webhook_endpoint == url
        assert flow.test().works
    finally:
        flow.finish()
    assert demo.emulator.webhook_endpoint == demos_own
    delivered = demo.emulator.follow(demo_data.user_id_for(1))  # and the demo's receiver still takes events
    assert delivered.result is not None and delivered.result.success


def test_sending_once_publishes_the_month_once_and_sends_what_is_due(db: Database, now: dt.datetime,
                                                                     demo: demo_data.DemoEnvironment) -> None:
    """What `main.py screenshots` runs first, so its Deliveries and Publish pictures show a history."""
    said = demo_data.send_once(db, f.home_paths(), now=FakeClock(now))
    assert said.startswith("demo messages sent ") and "; " not in said, said  # no classroom failed to publish
    to_group = [m for m in demo.emulator.all_inbox() if m.recipient == demo_data.DEMO_GROUP]
    to_teachers = [m for m in demo.emulator.all_inbox() if m.recipient.startswith("U")]
    assert to_group and to_teachers  # the month's image, and the reminders of the shifts starting soon
    with db.read() as s:
        published = s.scalars(select(Publication.id)).all()
    demo_data.send_once(db, f.home_paths(), now=FakeClock(now))
    with db.read() as s:
        assert s.scalars(select(Publication.id)).all() == published  # once per demo folder


def _run_once(db: Database, home: Any, act: Callable[[demo_data.DemoEnvironment], object]) -> list[Any]:
    """A demo started, `act` in it, and stopped: what its inbox held."""
    run = demo_data.DemoEnvironment(home).start(db)
    try:
        act(run)
        return run.emulator.all_inbox()
    finally:
        run.stop()


def test_a_restarted_demo_shows_what_its_inbox_had_received(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, tmp_path: Any) -> None:
    assert demo_data.seed(db, now=now)
    home = tmp_path / "demo"

    def remind(run: demo_data.DemoEnvironment) -> None:
        _send_due_reminders(db, now)
        assert _with_button(run)

    before = [(m.recipient, m.message_id, m.message) for m in _run_once(db, home, remind)]

    again = demo_data.DemoEnvironment(home).start(db)  # a new simulator: its memory starts empty
    try:
        assert [(m.recipient, m.message_id, m.message) for m in again.emulator.all_inbox()] == before
        ctx.demo = again
        window = InboxWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        settle(qtbot, ctx)
        shown = sum(int(window.recipients.item(i).text().rsplit("·", 1)[1]) for i in range(window.recipients.count()))
        assert shown == len(before)
        # A message sent now gets an ID of its own, not one an earlier message holds.
        [newcomer, *_] = load_unpaired(db, now)
        again.send_code_as_teacher(newcomer.teacher_id, newcomer.name, newcomer.code)  # answered with a reply
        qtbot.waitUntil(lambda: len(again.emulator.all_inbox()) > len(before), timeout=10_000)
        ids = [m.message_id for m in again.emulator.all_inbox()]
        assert len(ids) == len(set(ids))
    finally:
        again.stop()
        ctx.demo = None


def _pictures(window: InboxWindow) -> list[QLabel]:
    return window.messages.findChildren(QLabel, "messageImage")


def test_a_restarted_demo_shows_the_pictures_its_inbox_had_received(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, tmp_path: Any) -> None:
    assert demo_data.seed(db, now=now)
    home = tmp_path / "demo"
    received = _run_once(db, home, lambda _run: demo_data.send_once(db, f.home_paths(), now=FakeClock(now)))
    assert [url for m in received for url in demo_inbox.image_urls(m.message)]  # the month's pages, as pictures
    # Where they were served from is gone: the next start serves on another port, from a folder that
    # may have been cleaned.
    shutil.rmtree(home / "hosted")

    again = demo_data.DemoEnvironment(home).start(db)
    try:
        ctx.demo = again
        window = InboxWindow(ctx)
        qtbot.addWidget(window)
        window.resize(1366, 768)
        window.show()
        settle(qtbot, ctx)
        assert window.current_recipient() == demo_data.DEMO_GROUP
        qtbot.waitUntil(lambda: bool(_pictures(window)) and all(
            label.pixmap() is not None and not label.pixmap().isNull() for label in _pictures(window)), timeout=20_000)
        assert not any(label.text() for label in _pictures(window))
        # A picture that truly was not kept says so in words, not in the operating system's error.
        shutil.rmtree(home / demo_inbox.IMAGES_FOLDER)
        later = InboxWindow(ctx)
        qtbot.addWidget(later)
        later.show()
        settle(qtbot, ctx)
        qtbot.waitUntil(lambda: bool(_pictures(later)) and all(label.text() != "Loading the image…"
                                                               for label in _pictures(later)), timeout=20_000)
        assert {label.text() for label in _pictures(later)} == {
            "This picture can no longer be shown: it was not kept on this computer."}
        settle(qtbot, ctx)
    finally:
        again.stop()
        ctx.demo = None


def test_a_group_no_classroom_has_is_named_by_its_name_in_line_not_its_id(
        db: Database, now: dt.datetime, demo: demo_data.DemoEnvironment) -> None:
    demo_data.send_once(db, f.home_paths(), now=FakeClock(now))  # the month reaches the classroom's group
    demo.invite_into_group(db)
    with db.write() as s:  # the classroom moves to the new group, as Connect LINE's group step does
        room = s.scalars(select(Classroom)).one()
        room.line_group_id = demo_data.DEMO_NEW_GROUP
    titles = {box.recipient: box.title for box in load_mailboxes(db, demo.emulator)}
    assert titles[demo_data.DEMO_GROUP] == demo_data.DEMO_CLASSROOM  # no classroom's any more
    assert all(title != recipient for recipient, title in titles.items())


def test_the_inbox_invites_the_account_into_a_group_that_connect_line_then_offers(
        qtbot, ctx: AppContext, db: Database, demo: demo_data.DemoEnvironment) -> None:
    from core.receiving import groups

    ctx.demo = demo
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    with db.read() as s:
        assert groups.proposed_groups(s) == []  # the demo classroom's group is taken: nothing to choose
    qtbot.mouseClick(window.join_button, Qt.MouseButton.LeftButton)

    def offered() -> list[groups.GroupProposal]:
        with db.read() as s:
            return groups.proposed_groups(s)

    qtbot.waitUntil(lambda: bool(offered()), timeout=10_000)  # the demo's receiver handled the join
    [proposal] = offered()
    assert (proposal.group_id, proposal.name) == (demo_data.DEMO_NEW_GROUP, demo_data.DEMO_NEW_GROUP_NAME)
    assert proposal.member_count == len(demo_data.TEACHERS)  # LINE's count, as the wizard lists it
    qtbot.waitUntil(lambda: demo_data.DEMO_NEW_GROUP_NAME in window.status_label.text(), timeout=10_000)
    settle(qtbot, ctx)


def test_the_inbox_answers_an_availability_request_s_time_pickers_from_and_until(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, demo: demo_data.DemoEnvironment) -> None:
    from core.roster import availability
    from core.roster.availability_text import HOURS, DayAnswer
    from core.sending.kinds import availability_request

    year, month = (now.year + 1, 1) if now.month == 12 else (now.year, now.month + 1)
    with db.write() as s:
        room = rules.classroom_by_name(s, demo_data.DEMO_CLASSROOM)
        asking = availability_request.ask(s, room.id, year, month, dt.date(year, month, 1),
                                          [demo_data.TEACHERS[0]], now=now)
        teacher_id = rules.teacher_by_name(s, demo_data.TEACHERS[0]).id
    request_id = asking.request_id
    assert request_id is not None
    _send_due_reminders(db, now)
    teacher = demo_data.user_id_for(1)
    [request] = [m for m in demo.emulator.inbox(teacher) if postback_actions(m.message, "datetimepicker")]
    ctx.demo = demo
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    window.recipients.setCurrentRow(next(i for i in range(window.recipients.count())
                                         if window.recipients.item(i).data(Qt.ItemDataRole.UserRole) == teacher))
    [choice] = window.messages.findChildren(QWidget, "timeChoice")
    [which] = choice.findChildren(QComboBox, "pickerChoice")
    [start] = choice.findChildren(TimeField, "pickStart")
    [end] = choice.findChildren(TimeField, "pickEnd")
    third = dt.date(year, month, 3)
    assert which.count() == len(postback_actions(request.message, "datetimepicker"))  # one △ a day
    which.setCurrentIndex(2)
    assert which.currentText() == day_short(third, "ja")  # the day's row as the phone shows it, in the classroom's language
    [send] = choice.findChildren(QPushButton, "pickTime")
    start.setText("18:00")
    end.setText("17:00")
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)  # LINE's picker for until when starts at 18:00: said, not sent
    assert window.status_label.text().startswith("until when (17:00) must be after from when (18:00)")
    end.setText("20:30")
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)

    def recorded() -> dict[dt.date, DayAnswer]:
        with db.read() as s:
            return next((a.days for a in availability.answers(s, request_id) if a.teacher_id == teacher_id), {})

    qtbot.waitUntil(lambda: recorded().get(third) == DayAnswer(third, HOURS, dt.time(18), dt.time(20, 30)),
                    timeout=20_000)
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Chose 18:00–20:30 for "), timeout=10_000)
    # Both postbacks went as LINE's time picker sends them: the picker's own data and params.time.
    with db.read() as s:
        received = [json.loads(e.raw_json) for e in s.scalars(select(WebhookEvent).where(WebhookEvent.type == "postback")
                                                              .order_by(WebhookEvent.id))]
    assert [e["postback"]["params"] for e in received] == [{"time": "18:00"}, {"time": "20:30"}]
    pickers = postback_actions(request.message, "datetimepicker")
    assert received[0]["postback"]["data"] == pickers[2]["data"]
    settle(qtbot, ctx)


def test_connect_line_s_group_step_shows_the_group_the_inbox_invites_the_account_into(
        qtbot, ctx: AppContext, db: Database, demo: demo_data.DemoEnvironment) -> None:
    """The demo's own receiver and the wizard's share the database: whichever handles the join, the
    wizard's group step shows the group within seconds."""
    from ui.connect_line.pages import AddressPage, CredentialsPage, WebhookPage
    from ui.connect_line.people import GroupPage
    from ui.connect_line.wizard import ConnectLineDialog

    earlier = "C" + "7c" * 16  # a group the account joined before, which no classroom has taken
    demo.emulator.add_group(earlier, "以前のグループ", [demo_data.user_id_for(1)])
    assert demo.emulator.join(earlier).result is not None
    ctx.demo = demo
    inbox = InboxWindow(ctx)
    qtbot.addWidget(inbox)
    inbox.show()
    dialog = ConnectLineDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    credentials = dialog.page
    assert isinstance(credentials, CredentialsPage)
    credentials.channel_id.setText(demo_data.DEMO_CHANNEL_ID)
    credentials.secret.setText(demo_data.DEMO_CHANNEL_SECRET)
    qtbot.mouseClick(dialog.next, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx)
    assert isinstance(dialog.page, AddressPage), credentials.status.text()
    qtbot.mouseClick(dialog.next, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx)
    webhook = dialog.page
    assert isinstance(webhook, WebhookPage)
    settle(qtbot, ctx)
    assert webhook.result is not None and webhook.result.works, webhook.answer.text()
    qtbot.mouseClick(dialog.next, Qt.MouseButton.LeftButton)
    group = dialog.page
    assert isinstance(group, GroupPage)
    qtbot.waitUntil(lambda: group.list.count() == 1, timeout=15_000)  # offered again: the page has looked

    qtbot.mouseClick(inbox.join_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: group.list.count() == 2, timeout=15_000)
    assert group.list.item(0).text() == f"{demo_data.DEMO_NEW_GROUP_NAME} — {len(demo_data.TEACHERS)} members"
    assert not group.waiting.isVisibleTo(group)
    dialog.reject()
    settle(qtbot, ctx)
    ctx.demo = None
