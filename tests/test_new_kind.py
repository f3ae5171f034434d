"""A new message kind needs no file of core: tests/shift_note_kind.py, registered here alone, is
planned by the planner's own run into the outbox, sent by the real sender to the LINE emulator,
named in the Deliveries view and canceled at send time with its own reason, like the built-in kinds."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from core.channels.base import Outgoing
from core.emulator import LineEmulator
from core.kinds import registry
from core.outbox.policy import BackoffPolicy
from core.planning import forecast, planner
from core.roster import rules
from core.sending.outgoing import CancelDelivery
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, ShiftStatus
from core.texts import Text, render
from core.texts.catalog import CATALOG
from tests import factories as f
from tests import shift_note_kind
from tests.linefixtures import FakeClock, emulator, line_ready  # noqa: F401
from tests.smtpfixtures import SmtpServer, smtp_ca, starttls_server  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.deliveries.model import KIND, STATUS
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext

WAIT = 20_000  # ms; a wait ends as soon as its condition holds


@pytest.fixture
def shift_note() -> Iterator[registry.MessageKind]:
    undo = registry.register_kind(shift_note_kind.KIND)
    yield shift_note_kind.KIND
    undo()


def test_registering_and_undoing_a_kind_leaves_the_registry_and_catalog_as_they_were() -> None:
    before, catalog = registry.kinds(), dict(CATALOG)
    assert registry.kind_of(shift_note_kind.KEY) is None
    undo = registry.register_kind(shift_note_kind.KIND)
    try:
        assert registry.kind_of(shift_note_kind.KEY) is shift_note_kind.KIND
        assert registry.kinds()[:len(before)] == before  # the built-in ones first, as they were
        with pytest.raises(ValueError, match="registered already"):
            registry.register_kind(shift_note_kind.KIND)
        assert render(registry.label(shift_note_kind.KEY), "ja") == "シフトのメモ"
        assert CancelDelivery(shift_note_kind.SHIFT_CANCELED).reason == "NOTE_SHIFT_CANCELED"
    finally:
        undo()
    assert registry.kinds() == before and catalog == CATALOG
    with pytest.raises(ValueError, match="no cancel reason"):
        CancelDelivery(shift_note_kind.SHIFT_CANCELED)  # unknown again once the kind is gone
    assert render(registry.label(shift_note_kind.KEY), "en") == "shift_note"  # an old row's kind, as stored


def test_a_kind_naming_a_text_the_catalog_lacks_is_refused() -> None:
    import dataclasses

    broken = dataclasses.replace(shift_note_kind.KIND, texts={})
    with pytest.raises(ValueError, match="kind.shift_note"):
        registry.register_kind(broken)
    assert registry.kind_of(shift_note_kind.KEY) is None and "kind.shift_note" not in CATALOG


def test_a_kind_from_the_tests_is_planned_sent_shown_and_canceled(
        qtbot, ctx: AppContext, db: Database, line_ready: LineEmulator, now: dt.datetime,
        shift_note: registry.MessageKind) -> None:
    day = (now + dt.timedelta(days=3)).date()
    with db.write() as s:
        room = f.classroom(s, "本校")
        sato, suzuki, tanaka = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2), f.teacher(s, "田中", 3)
        noted = f.shift(s, room, sato, day, now=now, status=ShiftStatus.CONFIRMED, note="教室の鍵は受付にあります")
        canceled = f.shift(s, room, suzuki, day, "17:00", "21:00", now=now, status=ShiftStatus.CONFIRMED,
                           note="プリントを30部")
        f.shift(s, room, tanaka, day, now=now, status=ShiftStatus.CONFIRMED)  # no note: no shift note
        shift_ids, users = (noted.id, canceled.id), (f.reach(sato).line_user_id, f.reach(suzuki).line_user_id)
    for n, user in enumerate(users, start=1):
        line_ready.add_user(str(user), f"講師{n}")

    # Planned by the planner's own run, through the outbox's enqueue, once however often it runs.
    with db.write() as s:
        report = planner.plan(s, now=now)
    with db.write() as s:
        assert [p for p in planner.plan(s, now=now).created if p.kind == shift_note_kind.KEY] == []
    with db.read() as s:
        notes = s.scalars(select(Delivery).where(Delivery.kind == shift_note_kind.KEY).order_by(Delivery.id)).all()
        assert [d.id for d in notes] == sorted(p.delivery_id for p in report.created if p.kind == shift_note_kind.KEY)
        assert [(d.subject_type, d.subject_id, d.subject_version, d.status) for d in notes] == [
            ("shift", shift_id, 1, DeliveryStatus.QUEUED) for shift_id in shift_ids]
        note_ids = [d.id for d in notes]
    # The dry run names it in its own words.
    planned = {p.delivery_id: p for p in forecast.dry_run(db, now=now, days=1)}
    assert render(planned[note_ids[0]].why, "en") == "a note on a confirmed shift"

    # The second shift is canceled before the sender gets to its note.
    with db.write() as s:
        rules.cancel_shift(s, shift_ids[1], now=now)
    sender = Sender(db, paths=f.home_paths(), clock=FakeClock(now),
                    config=SenderConfig(concurrency=2, backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0)))
    try:
        sender.run_until_idle()
    finally:
        sender.stop()
    [received] = line_ready.inbox(str(users[0]))
    assert "教室の鍵は受付にあります" in received.message["altText"] and "本校" in received.message["altText"]
    assert line_ready.inbox(str(users[1])) == []
    with db.read() as s:
        sent, dropped = (s.get(Delivery, i) for i in note_ids)
        assert sent is not None and dropped is not None
        assert sent.status == DeliveryStatus.SENT and sent.retry_key is not None
        assert (dropped.status, dropped.cancel_reason) == (DeliveryStatus.CANCELED, "NOTE_SHIFT_CANCELED")

    # The Deliveries view names it, offers it as a filter and says why the second one was canceled.
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    model = view.model
    qtbot.waitUntil(lambda: all(model.get(i) is not None for i in note_ids), timeout=WAIT)
    rows = [model.row_of(i) for i in note_ids]
    assert None not in rows
    assert [model.index(row, KIND).data() for row in rows if row is not None] == ["Shift note", "Shift note"]
    assert model.index(rows[1] or 0, STATUS).data(Qt.ItemDataRole.ToolTipRole) == (
        "the shift the note was on was canceled — NOTE_SHIFT_CANCELED")
    assert "Shift note" in [view.kind_box.itemText(i) for i in range(view.kind_box.count())]
    view.kind_box.setCurrentIndex(view.kind_box.findData(shift_note_kind.KEY))
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=WAIT)
    assert sorted(model.item_at(r).id for r in range(model.rowCount())) == note_ids


def test_the_builder_is_the_kind_s_override_else_its_message_rendered_by_the_channel_else_unsupported(
        monkeypatch: pytest.MonkeyPatch, now: dt.datetime, shift_note: registry.MessageKind) -> None:
    from core.sending import builders
    from core.sending.outgoing import CannotBuild

    def on_line_alone(*args: object) -> Outgoing:
        raise AssertionError("not called")

    # Only a message: every registered channel renders it, LINE's and e-mail's drivers as a new one's.
    for channel in ("line", "email", "webhook"):
        assert registry.builder(shift_note_kind.KEY, channel) == registry.Rendered(shift_note_kind.compose, channel)
    assert registry.builder(shift_note_kind.KEY, "pager") is None  # no such channel
    with pytest.raises(CannotBuild) as refused:
        builders.prepare(None, Delivery(kind=shift_note_kind.KEY, channel="pager"), now,  # type: ignore[arg-type]
                         f.home_paths())
    assert refused.value.code == "UNSUPPORTED_KIND"
    # An override is for what one channel alone has: it comes first there, and only there.
    monkeypatch.setitem(shift_note_kind.KIND.overrides, "line", on_line_alone)
    assert registry.builder(shift_note_kind.KEY, "line") is on_line_alone
    assert registry.builder(shift_note_kind.KEY, "email") == registry.Rendered(shift_note_kind.compose, "email")


def test_a_kind_with_nothing_to_say_by_e_mail_gets_no_e_mail_copy(db: Database, now: dt.datetime) -> None:
    """LINE fallback sends the e-mail copy only of a kind that has something to say by e-mail: a kind
    with a LINE override and no message of its own gets none; one with a message gets it."""
    import dataclasses

    from core.planning import fallback
    from core.roster import channel_choice

    def on_line_alone(*args: object) -> Outgoing:
        raise AssertionError("not called")

    line_only = dataclasses.replace(shift_note_kind.KIND, compose=None, overrides={"line": on_line_alone})
    with db.write() as s:
        teacher = f.teacher(s, "佐藤", 1, email="sato@example.com", email_opt_in=True,
                            channel=channel_choice.LINE_FALLBACK)
        line = Delivery(kind=shift_note_kind.KEY, dedup_key="shift_note:shift:1:v1", teacher_id=teacher.id,
                        recipient=f.reach(teacher).line_user_id, due_at=now, next_attempt_at=now)
        s.add(line)
        s.flush()
        undo = registry.register_kind(line_only)
        try:
            assert fallback.send_instead(s, line, teacher, now=now) is None
        finally:
            undo()
        undo = registry.register_kind(shift_note_kind.KIND)
        try:
            assert fallback.send_instead(s, line, teacher, now=now) is not None  # its message goes by e-mail
        finally:
            undo()


def test_a_kind_with_only_its_message_is_sent_on_line_by_e_mail_and_on_a_channel_of_the_tests(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime,
        shift_note: registry.MessageKind) -> None:
    """No builder for any channel: the note's one message is rendered by LINE's driver (a Flex bubble),
    e-mail's (subject, text and HTML with the teacher's name) and the chat channel's (its text)."""
    from email import message_from_bytes, policy

    from core.channels import registry as channels
    from core.outbox import queue
    from core.roster import channel_choice
    from core.store.models import ContactRule
    from tests.chat_channel import KEY as CHAT
    from tests.chat_channel import ChatDriver, ChatRoom

    starttls_server.configure(db)
    undo = channels.register_channel(ChatDriver())
    try:
        with ChatRoom().running() as chat:
            with db.write() as s:
                room = f.classroom(s, "本校")
                sato = f.teacher(s, "佐藤", 1, email="sato@example.com", email_opt_in=True,
                                 contacts_in={CHAT: rules.ContactChange(chat.url, True)},
                                 channel=channel_choice.Choice(ContactRule.EVERY, ("line", "email", CHAT)))
                shift = f.shift(s, room, sato, (now + dt.timedelta(days=2)).date(), now=now,
                                status=ShiftStatus.CONFIRMED, note="教室の鍵は受付にあります")
                line_user = str(f.reach(sato).line_user_id)
                ids = [queue.enqueue(s, kind=shift_note_kind.KEY, dedup=f"note:{channel}", due_at=now, now=now,
                                     channel=channel, recipient="-", teacher_id=sato.id, classroom_id=room.id,
                                     subject_type="shift", subject_id=shift.id, subject_version=shift.version)[0]
                       for channel in ("line", "email", CHAT)]
            line_ready.add_user(line_user, "佐藤")
            sender = Sender(db, paths=f.home_paths(), clock=FakeClock(now), config=SenderConfig(concurrency=2))
            try:
                sender.run_until_idle()
            finally:
                sender.stop()
            with db.read() as s:
                assert [s.get(Delivery, i).status for i in ids] == [DeliveryStatus.SENT] * 3  # type: ignore[union-attr]
            [pushed] = line_ready.inbox(line_user)
            assert pushed.message["type"] == "flex" and "教室の鍵は受付にあります" in pushed.message["altText"]
            [mailed] = starttls_server.recorder.to("sato@example.com")
            mail = message_from_bytes(mailed.data, policy=policy.default)
            assert mail["Subject"] == "本校"  # no subject template of its own: the classroom
            text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
            assert "佐藤" in text and "教室の鍵は受付にあります" in text
            [said] = chat.texts
            assert said.startswith(render(Text("shift_note.text", {"day": shift.local_date, "classroom": "本校",
                                                                   "note": ""}), "ja").split("\n")[0])
            assert said.endswith("教室の鍵は受付にあります")
    finally:
        undo()
