"""The manager pairs their own LINE with a code, over real HTTP: the emulator's user sends it to the
account, the receiver's pairing handler keeps them as the manager and replies; a real SQLite file."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from sqlalchemy import select

from core.emulator import LineEmulator
from core.receiving import pairing
from core.receiving.pairing import issue_codes
from core.store import events as store_events
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import PairingCode
from tests import factories as f
from tests.linefixtures import FakeClock, user_id
from tests.test_line_pairing import Handled, _replies, client, clock, handled, line, receiver  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.settings.email_alerts import AlertsSection

MANAGER = user_id(900)


def test_the_manager_code_binds_the_sender_as_the_manager_and_replies_paired_as_manager(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        code = pairing.issue_manager_code(s, clock.now)
    line.follow(MANAGER, "教室長")  # a stranger until the code: ignored
    sent = line.send_text(MANAGER, code.shown.lower())  # a phone's lower case is forgiven, as a teacher's
    assert sent.result is not None and sent.result.status_code == 200
    handled(2)
    assert _replies(line, MANAGER) == [pairing.REPLIES["ja"]["manager"]]
    with db.read() as s:
        assert keys.ALERTS_LINE_USER_ID.read(s) == MANAGER
        assert pairing.live_manager_code(s, clock.now) is None  # spent
        assert s.scalars(select(PairingCode)).all() == []  # no teacher was touched


def test_a_spent_or_expired_manager_code_changes_nothing_and_gets_the_wrong_code_reply(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        code = pairing.issue_manager_code(s, clock.now)
    clock.advance(seconds=int(pairing.CODE_LIFE.total_seconds()) + 1)
    line.add_user(MANAGER, "教室長")
    line.send_text(MANAGER, code.shown)
    handled()
    assert _replies(line, MANAGER) == [pairing.REPLIES["ja"]["wrong"]]
    with db.read() as s:
        assert keys.ALERTS_LINE_USER_ID.read(s) is None


def test_the_code_is_kept_while_live_never_a_teacher_s_and_held_by_the_relay_with_its_reply(
        db: Database, clock: FakeClock) -> None:
    with db.write() as s:
        room = f.classroom(s, language="en")
        f.teacher(s, "Smith")
        first = pairing.issue_manager_code(s, clock.now)
        again = pairing.issue_manager_code(s, clock.now + dt.timedelta(days=6))
        teachers = issue_codes(s, clock.now, room.id)
    assert again == first and first.expires_at == clock.now + pairing.CODE_LIFE
    assert pairing.as_code(first.shown) == first.code
    assert first.code not in {c.code.replace("-", "") for c in teachers}
    with db.read() as s:
        held = {h.code: h.reply_text for h in pairing.held_codes(s, clock.now)}
        later = pairing.live_manager_code(s, first.expires_at)
    assert held[first.code] == pairing.REPLIES["en"]["manager"]  # the first classroom's language
    assert later is None
    with db.write() as s:
        renewed = pairing.issue_manager_code(s, first.expires_at)
    assert renewed.code != first.code


def test_settings_shows_the_code_and_fills_in_the_manager_s_line_once_paired(
        qtbot, ctx: AppContext, now: dt.datetime) -> None:
    ctx.clock = lambda: now
    section = AlertsSection(ctx)
    qtbot.addWidget(section)
    section.show()
    settle(qtbot, ctx)
    qtbot.mouseClick(section.pair, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "send this code" in section.pair_status.text(), timeout=PATIENCE_MS)
    with ctx.db.read() as s:
        code = pairing.live_manager_code(s, now)
    assert code is not None and code.shown in section.pair_status.text()
    with ctx.db.write() as s:  # what the pairing handler does when the code arrives
        assert pairing.bind_manager(s, code.code, MANAGER, now)
        store_events.emit(s, store_events.WebhookEventsHandled(1))
    qtbot.waitUntil(lambda: section.manager_line.text() == MANAGER, timeout=PATIENCE_MS)
    assert section.pair_status.text() == "Paired: your LINE is the manager's."
