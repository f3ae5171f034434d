"""E-mail and alerts on screen: the SMTP settings (password in the keyring only), the login check
against a real SMTP server, the teacher's "Send to" choice and LINE reach, and the alerts strip."""

from __future__ import annotations

import datetime as dt
import socket

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidgetItem
from sqlalchemy import select

from core import alerts
from core.channels import email as email_channel
from core.emulator import LineEmulator
from core.outbox import deliveries, queue
from core.publication import hosting
from core.roster import channel_choice
from core.setup import email as email_setup
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Base, DeliveryKind, DeliveryStatus, Teacher
from core.store.paths import DataPaths
from core.store.settings import ChannelHold
from tests import factories as f
from tests.linefixtures import emulator, line_ready  # noqa: F401
from tests.smtpfixtures import (  # noqa: F401
    FROM,
    SMTP_PASSWORD,
    SMTP_USER,
    SmtpServer,
    smtp_ca,
    starttls_server,
)
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.settings.view import SettingsView
from ui.shell import alerts_banner
from ui.shell.alerts_banner import AlertsBanner
from ui.shell.main_window import MainWindow
from ui.teachers.dialog import LINE_ID_COLUMN, UNREACHABLE_ROLE, TeachersDialog

CLICK = Qt.MouseButton.LeftButton
NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def open_settings(qtbot, ctx: AppContext) -> SettingsView:
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 900)
    view.show()
    settle(qtbot, ctx)
    return view


def every_stored_text(db: Database) -> str:
    with db.read() as s:
        return "\n".join(repr(s.execute(select(table)).all()) for table in Base.metadata.sorted_tables)


def fill_server(view: SettingsView, server: SmtpServer, *, ca: bool = True) -> None:
    section = view.email
    section.host.setText(server.host)
    section.security.setCurrentIndex(section.security.findData(server.security))
    section.port.setValue(server.port)
    section.user.setText(SMTP_USER)
    section.from_address.setText(FROM)
    section.from_name.setText("本校 シフト")
    section.ca_file.setText(str(server.ca_file) if ca else "")


def click(qtbot, ctx: AppContext, button) -> None:
    qtbot.mouseClick(button, CLICK)
    settle(qtbot, ctx)


# ----- Settings → E-mail and Alerts -------------------------------------------------------------


def test_email_settings_are_saved_and_the_password_only_in_the_keyring(qtbot, ctx: AppContext, memory_keyring,
                                                                       paths: DataPaths) -> None:
    view = open_settings(qtbot, ctx)
    section = view.email
    assert section.password.echoMode() == section.password.EchoMode.Password
    assert "No password" in section.password_state.text()
    changed: list[bool] = []
    ctx.bridge.settings_changed.connect(lambda: changed.append(True))

    section.host.setText("smtp.example.com")
    section.security.setCurrentIndex(section.security.findData("tls"))
    assert section.port.value() == 465  # the port follows the security while it is the default
    section.user.setText("manager@example.com")
    section.from_address.setText("shifts@example.com")
    section.from_name.setText("さくら塾")
    section.password.setText("s3cret app password")
    click(qtbot, ctx, section.save)

    assert not section.status.problem_shown, section.status.text()
    state = email_setup.email_state(ctx.db)
    assert state.config == email_channel.SmtpConfig("smtp.example.com", 465, "tls", "manager@example.com",
                                                    "shifts@example.com", "さくら塾", None)
    assert memory_keyring.store[(secrets.SERVICE, email_channel.PASSWORD_SECRET)] == "s3cret app password"
    assert section.password.text() == "" and changed
    assert "saved in this computer's keyring" in section.password_state.text()
    assert "s3cret app password" not in every_stored_text(ctx.db)
    for file in paths.home.rglob("*"):  # the database, its WAL, the logs: nothing holds the password
        if file.is_file():
            assert b"s3cret app password" not in file.read_bytes(), file

    section.from_address.setText("not an address")  # refused as a whole: nothing changes
    click(qtbot, ctx, section.save)
    assert section.status.problem_shown
    assert email_setup.email_state(ctx.db).config.from_address == "shifts@example.com"


def test_without_a_keyring_each_secret_names_its_own_environment_variable(qtbot, ctx: AppContext) -> None:
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    view = open_settings(qtbot, ctx)
    states = {email_channel.PASSWORD_ENV: view.email.password_state, hosting.SECRET_ENV: view.hosting.secret_state,
              secrets.LINE_TOKEN_ENV: view.line.token_state}
    for env, state in states.items():
        assert state.problem_shown and "No usable keyring" in state.text(), state.text()
        assert [name for name in states if name in state.text()] == [env], state.text()

    section = view.email  # saving a password into the missing keyring says the same
    section.host.setText("smtp.example.com")
    section.user.setText("manager@example.com")
    section.from_address.setText("shifts@example.com")
    section.password.setText("s3cret app password")
    click(qtbot, ctx, section.save)
    assert section.status.problem_shown
    assert email_channel.PASSWORD_ENV in section.status.text() and secrets.LINE_TOKEN_ENV not in section.status.text()


def test_alert_targets_are_saved_and_explained(qtbot, ctx: AppContext) -> None:
    view = open_settings(qtbot, ctx)
    section = view.alerts
    explanation = " ".join(label.text() for label in section.findChildren(QLabel))
    assert "dead letters" in explanation and "15 minutes" in explanation and "one message" in explanation

    section.webhook.setText("http://hooks.example.com/x")
    click(qtbot, ctx, section.save)
    assert section.status.problem_shown and "https" in section.status.text()

    section.webhook.setText("https://hooks.slack.com/services/T/B/X")
    section.manager_email.setText("boss@example.com")
    click(qtbot, ctx, section.save)
    assert not section.status.problem_shown, section.status.text()
    state = email_setup.email_state(ctx.db)
    assert (state.webhook_url, state.manager_email) == ("https://hooks.slack.com/services/T/B/X", "boss@example.com")


def test_check_login_against_a_real_server(qtbot, ctx: AppContext, starttls_server: SmtpServer) -> None:
    view = open_settings(qtbot, ctx)
    section = view.email
    fill_server(view, starttls_server)
    section.password.setText(SMTP_PASSWORD)
    click(qtbot, ctx, section.check)  # unsaved changes are saved first, then checked
    assert not section.status.problem_shown, section.status.text()
    assert section.status.text().startswith(f"✓ Logged in to 127.0.0.1:{starttls_server.port} as {SMTP_USER}")
    assert starttls_server.recorder.logins == 1 and not starttls_server.recorder.received
    assert email_setup.email_state(ctx.db).password_saved

    section.password.setText("not the password")
    click(qtbot, ctx, section.check)
    assert section.status.problem_shown
    assert section.status.text().startswith("The server refused the user name or password.")
    assert "535" in section.status.text()


def test_check_login_explains_tls_and_connection_problems(qtbot, ctx: AppContext,
                                                          starttls_server: SmtpServer) -> None:
    view = open_settings(qtbot, ctx)
    section = view.email
    fill_server(view, starttls_server, ca=False)  # the test CA is not one the system trusts
    section.password.setText(SMTP_PASSWORD)
    click(qtbot, ctx, section.check)
    assert section.status.problem_shown
    assert section.status.text().startswith("The secure connection to 127.0.0.1:")
    assert "CERTIFICATE" in section.status.text().upper()

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    section.ca_file.setText(str(starttls_server.ca_file))
    section.port.setValue(closed)
    click(qtbot, ctx, section.check)
    assert section.status.problem_shown
    assert section.status.text().startswith(f"Could not connect to the mail server 127.0.0.1:{closed}.")


def test_a_held_email_channel_is_shown_until_the_password_changes(qtbot, ctx: AppContext,
                                                                  starttls_server: SmtpServer) -> None:
    starttls_server.configure(ctx.db)
    access = email_channel.access_from_settings(ctx.db)
    assert access is not None
    with ctx.db.write() as s:
        keys.SMTP_HOLD.write(s, ChannelHold("SMTP_AUTH_FAILED", access.fingerprint, NOW))
    view = open_settings(qtbot, ctx)
    assert view.email.hold.problem_shown and "held since" in view.email.hold.text()

    view.email.password.setText("a new password")
    click(qtbot, ctx, view.email.save)
    assert not view.email.hold.problem_shown
    assert "sending resumes with the next e-mail" in view.email.hold.text()


# ----- the teacher's "Send to" choice -----------------------------------------------------------


def open_teachers(qtbot, ctx: AppContext) -> TeachersDialog:
    ctx.clock = lambda: NOW
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    return dialog


def cell(dialog: TeachersDialog, row: int, column: int) -> QTableWidgetItem:
    item = dialog.table.item(row, column)
    assert item is not None
    return item


def teacher_named(db: Database, name: str) -> Teacher:
    with db.read() as s:
        teacher = s.scalar(select(Teacher).where(Teacher.name == name))
        assert teacher is not None
        return teacher


def test_teacher_channel_choice_round_trip(qtbot, ctx: AppContext) -> None:
    dialog = open_teachers(qtbot, ctx)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    assert editor.channel.currentData() == "line" and editor.channel.count() == 5  # and LINE WORKS, a registered channel
    editor.name.setText("高橋")
    editor.email.setText("takahashi@example.com")
    editor.email_opt_in.setChecked(True)
    editor.channel.setCurrentIndex(editor.channel.findData(channel_choice.LINE_FALLBACK.word))
    assert "no messages" not in editor.channel_hint.text()
    editor.accept()
    settle(qtbot, ctx)
    teacher = teacher_named(ctx.db, "高橋")
    assert f.reach(teacher).channel == channel_choice.LINE_FALLBACK.word
    row = next(r for r in range(dialog.table.rowCount()) if cell(dialog, r, 0).text() == "高橋")
    assert cell(dialog, row, 5).text() == "LINE, e-mail if LINE cannot reach them"

    dialog.select(teacher.id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert editor is not None and editor.channel.currentData() == "line_fallback"
    editor.channel.setCurrentIndex(editor.channel.findData("email"))
    editor.email_opt_in.setChecked(False)  # e-mail only, but no consent to e-mail: said before saving
    assert "no messages" in editor.channel_hint.text()
    editor.email_opt_in.setChecked(True)
    editor.accept()
    settle(qtbot, ctx)
    assert f.reach(teacher_named(ctx.db, "高橋")).channel == channel_choice.EMAIL.word
    assert cell(dialog, row, 5).text() == "E-mail"


def test_a_saved_line_id_line_cannot_reach_is_marked(qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    friend, stranger = "U" + "a1" * 16, "U" + "b2" * 16
    line_ready.add_user(friend, "山田 花子")
    line_ready.add_user(stranger, "ブロック中", friend=False)
    dialog = open_teachers(qtbot, ctx)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.name.setText("山田")
    editor.line_id.setText(stranger)
    editor.line_opt_in.setChecked(True)
    editor.accept()
    settle(qtbot, ctx)
    settle(qtbot, ctx)  # the save, then the question to LINE, then the table read again
    teacher = teacher_named(ctx.db, "山田")
    assert f.reach(teacher).line_unreachable_at is not None
    assert "LINE cannot reach this teacher (not a friend of the account, or blocked)" in dialog.status.text()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1 and cell(dialog, 0, LINE_ID_COLUMN).data(UNREACHABLE_ROLE))
    assert cell(dialog, 0, LINE_ID_COLUMN).text().startswith("⚠")

    dialog.select(teacher.id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert editor is not None and "cannot reach" in editor.line_result.text()
    editor.line_id.setText(friend)
    editor.accept()
    settle(qtbot, ctx)
    settle(qtbot, ctx)
    assert f.reach(teacher_named(ctx.db, "山田")).line_unreachable_at is None
    qtbot.waitUntil(lambda: not cell(dialog, 0, LINE_ID_COLUMN).data(UNREACHABLE_ROLE))
    assert cell(dialog, 0, LINE_ID_COLUMN).text() == friend


def test_without_a_line_connection_nothing_is_marked(qtbot, ctx: AppContext) -> None:
    dialog = open_teachers(qtbot, ctx)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.name.setText("佐藤")
    editor.line_id.setText("U" + "c3" * 16)
    editor.accept()
    settle(qtbot, ctx)
    settle(qtbot, ctx)
    assert f.reach(teacher_named(ctx.db, "佐藤")).line_unreachable_at is None
    assert "cannot reach" not in dialog.status.text()


# ----- the alerts strip -------------------------------------------------------------------------


def dead_letter(db: Database) -> int:
    with db.write() as s:
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="k1", due_at=NOW, now=NOW)
        queue.transition(s, delivery_id, expected=[DeliveryStatus.QUEUED], now=NOW, status=DeliveryStatus.FAILED,
                          dead_lettered_at=NOW)
        alerts.evaluate(s, now=NOW, running_since=None)
    return delivery_id


def test_the_banner_shows_an_open_incident_and_hides_when_it_clears(qtbot, ctx: AppContext,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alerts_banner, "DEBOUNCE_MS", 50)
    banner = AlertsBanner(ctx)
    qtbot.addWidget(banner)
    settle(qtbot, ctx)
    assert banner.isHidden() and banner.alerts == []

    delivery_id = dead_letter(ctx.db)
    ctx.bridge.alert.emit("DEAD_LETTER", "1 delivery failed")
    settle(qtbot, ctx)
    assert banner.isVisible()
    assert [a.kind.value for a in banner.alerts] == ["dead_letter"]
    assert "1 delivery failed after every retry" in banner.alerts[0].text
    wanted: list[bool] = []
    banner.deliveries_wanted.connect(wanted.append)
    qtbot.mouseClick(banner.buttons[0], CLICK)
    assert wanted == [True]

    with ctx.db.write() as s:  # the manager canceled the dead letter; the minute watch clears the incident
        deliveries.cancel(s, delivery_id, now=NOW)
        _, cleared = alerts.evaluate(s, now=NOW + dt.timedelta(minutes=1), running_since=None)
        assert cleared
    for _ in range(5):  # a burst of changes: one read a little later
        ctx.bridge.deliveries_changed.emit([delivery_id])
    qtbot.waitUntil(lambda: banner.isHidden(), timeout=5000)
    assert banner.alerts == []


def test_banner_buttons_lead_to_dead_letters_and_to_settings(qtbot, ctx: AppContext) -> None:
    with qtbot.waitSignal(ctx.bridge.deliveries_changed):  # the enqueue's news arrives before the window exists
        dead_letter(ctx.db)
    with ctx.db.write() as s:
        alerts.open_incident(s, alerts.channel_held("email", "SMTP_AUTH_FAILED"), now=NOW)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    banner = window.alerts_banner
    assert banner.isVisible() and len(banner.buttons) == 2
    held = next(b for b in banner.buttons if b.property("alertKind") == "channel_held")
    dead = next(b for b in banner.buttons if b.property("alertKind") == "dead_letter")

    qtbot.mouseClick(held, CLICK)
    assert window.tabs.currentWidget() is window.settings
    page = window.settings.page_scroll.widget()
    assert page is not None
    email_top = window.settings.email.mapTo(page, window.settings.email.rect().topLeft())
    qtbot.waitUntil(lambda: window.settings.page_scroll.verticalScrollBar().value() == email_top.y() > 0)
    qtbot.mouseClick(dead, CLICK)
    assert window.tabs.currentWidget() is window.deliveries
    assert window.deliveries.dead_check.isChecked()
    settle(qtbot, ctx)
