"""Settings tab: the token stays in the keyring, LINE and image hosting are checked for real (local
LINE emulator, loopback S3 server), classroom settings save all or nothing, and the quiet-hours hint
says what the planner does."""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path

import httpx
import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import QLabel
from sqlalchemy import select

from core.emulator import LineEmulator
from core.planning.planner import plan
from core.planning.reminder_times import QuietHours, reminder_due
from core.publication import hosting
from core.roster import clock, rules
from core.store import secrets, settings
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Base, Classroom, Delivery, ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, emulator, line_ready  # noqa: F401
from tests.s3server import ACCESS_KEY, BUCKET, SECRET_KEY, hosted, s3_endpoint  # noqa: F401
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.settings.view import SettingsView

GROUP = "C" + "ab" * 16
TOKYO = "Asia/Tokyo"
CLICK = Qt.MouseButton.LeftButton


@pytest.fixture
def room_id(db: Database) -> int:
    with db.write() as s:
        return rules.create_classroom(s, name="本校").id


def open_view(qtbot, ctx: AppContext) -> SettingsView:
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 900)
    view.show()
    settle(qtbot, ctx)
    return view


def every_stored_text(db: Database) -> str:
    with db.read() as s:
        return "\n".join(repr(s.execute(select(table)).all()) for table in Base.metadata.sorted_tables)


def test_token_is_saved_in_the_keyring_and_nowhere_in_the_data_folder(qtbot, ctx: AppContext, memory_keyring,
                                                                       paths: DataPaths) -> None:
    view = open_view(qtbot, ctx)
    assert view.line.token.echoMode() == view.line.token.EchoMode.Password
    assert "No token" in view.line.token_state.text()
    changed: list[bool] = []
    ctx.bridge.settings_changed.connect(lambda: changed.append(True))

    view.line.token.setText(TOKEN)
    qtbot.mouseClick(view.line.save_token, CLICK)
    settle(qtbot, ctx)

    assert memory_keyring.store[(secrets.SERVICE, secrets.LINE_TOKEN)] == TOKEN
    assert "saved in this computer's keyring" in view.line.token_state.text()
    assert view.line.token.text() == "" and changed
    assert TOKEN not in every_stored_text(ctx.db)
    for file in paths.home.rglob("*"):  # the database, its WAL, the logs: nothing holds the token
        if file.is_file():
            assert TOKEN.encode() not in file.read_bytes(), file


def test_an_unusable_keyring_is_explained(qtbot, ctx: AppContext) -> None:
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    view = open_view(qtbot, ctx)
    assert view.line.token_state.problem_shown
    assert "No usable keyring" in view.line.token_state.text()

    view.line.token.setText(TOKEN)
    qtbot.mouseClick(view.line.save_token, CLICK)
    settle(qtbot, ctx)
    assert "No usable keyring" in view.line.token_state.text()
    assert TOKEN not in every_stored_text(ctx.db)


def test_an_unusable_keyring_is_explained_in_japanese(qtbot, ctx: AppContext, japanese: Path) -> None:
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    view = open_view(qtbot, ctx)
    for state in (view.line.token_state, view.email.password_state, view.hosting.secret_state):
        qtbot.waitUntil(lambda state=state: state.problem_shown, timeout=PATIENCE_MS)
        assert "キーリング" in state.text() and "keyring" not in state.text(), state.text()


def test_connection_shows_the_bot_and_this_months_quota(qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    line_ready.set_quota(500)
    view = open_view(qtbot, ctx)
    qtbot.mouseClick(view.line.test, CLICK)
    settle(qtbot, ctx)
    text = view.line.result.text()
    assert not view.line.result.problem_shown, text
    assert "Shiftcast Emulator" in text and "(@" in text
    assert "0 of 500 messages" in text
    with ctx.db.read() as s:  # the saved token was tested: the quota forecast learns the figures too
        assert keys.LINE_QUOTA.read(s).limit == 500


def _line_row(view: SettingsView) -> str:
    row = view.readiness.findChild(QLabel, "readiness_line")  # made again at each check
    return row.text() if row is not None else ""


def test_a_new_token_forgets_the_previous_accounts_name_until_a_test_names_the_new_one(
        qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    view = open_view(qtbot, ctx)
    qtbot.mouseClick(view.line.test, CLICK)  # the saved token's account: its name is remembered
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: _line_row(view).startswith("LINE is connected as Shiftcast Emulator (@"))

    view.line.token.setText("a-token-of-another-line-account")  # pasted, saved, not tested
    qtbot.mouseClick(view.line.save_token, CLICK)
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: "Shiftcast Emulator" not in _line_row(view))
    assert _line_row(view) == "LINE is connected; which account has not been checked yet (Settings, LINE, Test connection)"
    with ctx.db.read() as s:
        assert keys.LINE_ACCOUNT.read(s) is None


def test_a_refused_token_gets_a_plain_explanation(qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    view = open_view(qtbot, ctx)
    view.line.token.setText("a-token-line-does-not-know")  # typed, not yet saved: tested as typed
    qtbot.mouseClick(view.line.test, CLICK)
    settle(qtbot, ctx)
    assert view.line.result.problem_shown
    assert view.line.result.text().startswith("LINE refused this token.")


def test_a_hold_is_shown_until_a_new_token_is_saved(qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    with ctx.db.write() as s:
        settings.put(s, keys.LINE_HOLD.name, f"AUTH_FAILED|{secrets.fingerprint(TOKEN)}|2026-12-01T00:00:00+00:00")
    view = open_view(qtbot, ctx)
    assert view.line.hold.isVisible() and view.line.hold.problem_shown
    assert "held" in view.line.hold.text() and "resumes automatically" in view.line.hold.text()

    view.line.token.setText("a-corrected-token")
    qtbot.mouseClick(view.line.save_token, CLICK)
    settle(qtbot, ctx)
    assert not view.line.hold.problem_shown
    assert "A new token has been saved" in view.line.hold.text()


def test_api_address_must_be_https_or_this_computer(qtbot, ctx: AppContext, emulator: LineEmulator) -> None:
    view = open_view(qtbot, ctx)
    view.line.api_base.setText("http://example.com")
    qtbot.mouseClick(view.line.save_base, CLICK)
    settle(qtbot, ctx)
    assert view.line.base_status.problem_shown and "must use https" in view.line.base_status.text()

    view.line.api_base.setText(emulator.base_url + "/")
    qtbot.mouseClick(view.line.save_base, CLICK)
    settle(qtbot, ctx)
    assert not view.line.base_status.problem_shown
    with ctx.db.read() as s:
        assert keys.LINE_API_BASE.read(s) == emulator.base_url


def test_group_check_names_the_group_or_says_the_account_is_not_in_it(
        qtbot, ctx: AppContext, line_ready: LineEmulator, room_id: int) -> None:
    line_ready.add_user("U" + "1" * 32, "佐藤")
    line_ready.add_group(GROUP, "講師グループ", ["U" + "1" * 32, "U" + "2" * 32])
    view = open_view(qtbot, ctx)
    section = view.classrooms
    section.group_id.setText(GROUP)
    qtbot.mouseClick(section.check, CLICK)
    settle(qtbot, ctx)
    assert "講師グループ" in section.group_status.text() and "2 members" in section.group_status.text()

    section.group_id.setText("C" + "cd" * 16)
    qtbot.mouseClick(section.check, CLICK)
    settle(qtbot, ctx)
    assert section.group_status.problem_shown
    assert "not in this group" in section.group_status.text()


def test_classroom_settings_round_trip(qtbot, ctx: AppContext, room_id: int) -> None:
    view = open_view(qtbot, ctx)
    section = view.classrooms
    assert section.classroom.currentText() == "本校"
    section.group_id.setText(GROUP)
    section.lead.setValue(90)
    section.quiet.setChecked(True)
    section.quiet_start.setTime(section.quiet_start.time().fromString("21:30", "HH:mm"))
    section.quiet_end.setTime(section.quiet_end.time().fromString("06:45", "HH:mm"))
    section.language.setCurrentIndex(section.language.findData("en"))
    section.liff_id.setText("1234567890-AbcdEfgh")
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert not section.status.problem_shown, section.status.text()

    with ctx.db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None
        assert (room.line_group_id, room.reminder_lead_minutes, room.quiet_hours_enabled, room.quiet_start,
                room.quiet_end, room.language, room.liff_id) == (
            GROUP, 90, True, dt.time(21, 30), dt.time(6, 45), "en", "1234567890-AbcdEfgh")

    second = open_view(qtbot, ctx)  # what was saved is what a new Settings tab shows
    reopened = second.classrooms
    assert (reopened.group_id.text(), reopened.lead.value(), reopened.language.currentData()) == (GROUP, 90, "en")
    assert reopened.quiet_start.time().toString("HH:mm") == "21:30"


def test_a_bad_group_id_is_explained_and_nothing_is_saved(qtbot, ctx: AppContext, room_id: int) -> None:
    view = open_view(qtbot, ctx)
    section = view.classrooms
    section.lead.setValue(45)
    section.quiet.setChecked(False)
    section.group_id.setText("C123")
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert section.status.problem_shown
    assert section.status.text().startswith("Malformed LINE group ID 'C123'")
    with ctx.db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None
        assert (room.line_group_id, room.reminder_lead_minutes, room.quiet_hours_enabled) == (None, 120, True)


def set_quiet_hours(section, lead: int, start: str, end: str) -> None:
    section.lead.setValue(lead)
    section.quiet.setChecked(True)
    section.quiet_start.setTime(QTime.fromString(start, "HH:mm"))
    section.quiet_end.setTime(QTime.fromString(end, "HH:mm"))


def sent_by_the_rule(day: dt.date, shift: str, lead: int, start: str, end: str) -> dt.datetime:
    """Where reminder_due, the planner's rule, puts the reminder for that shift (Tokyo wall time)."""
    quiet = QuietHours(dt.time.fromisoformat(start), dt.time.fromisoformat(end))
    due = reminder_due(clock.to_utc(day, dt.time.fromisoformat(shift), TOKYO), lead=dt.timedelta(minutes=lead),
                       zone_name=TOKYO, quiet=quiet)
    return clock.local_now(due, TOKYO)


def test_quiet_hours_hint_shows_when_the_planner_sends(qtbot, ctx: AppContext, room_id: int, now: dt.datetime) -> None:
    ctx.clock = lambda: now
    view = open_view(qtbot, ctx)
    section = view.classrooms
    set_quiet_hours(section, 90, "21:00", "06:30")
    day = dt.date(2026, 12, 3)
    sent = sent_by_the_rule(day, "07:30", 90, "21:00", "06:30")
    assert sent.date() == day - dt.timedelta(days=1)
    hint = section.quiet_hint.text()
    assert "moves earlier, to 30 minutes before they begin" in hint
    assert f"for a shift at 07:30, the reminder due at 06:00 goes out at {sent:%H:%M} the day before." in hint
    assert "quiet hours end" not in hint

    # Saved, the same settings make the planner send the sample shift's reminder when the hint said.
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert not section.status.problem_shown, section.status.text()
    with ctx.db.write() as s:
        room = s.get(Classroom, room_id)
        assert room is not None
        f.shift(s, room, f.teacher(s), day, "07:30", "12:00", now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
    with ctx.db.read() as s:
        assert [clock.local_now(d.due_at, TOKYO) for d in s.scalars(select(Delivery))] == [sent]

    section.quiet_start.setTime(QTime(23, 15))
    later = sent_by_the_rule(day, "07:30", 90, "23:15", "06:30")
    assert f"goes out at {later:%H:%M} the day before." in section.quiet_hint.text()
    section.quiet_start.setText("23:")  # being typed: the rule, without an example to get wrong
    assert section.quiet_hint.text() == ("A reminder that would fall in quiet hours moves earlier, to 30 minutes "
                                         "before they begin.")
    section.quiet.setChecked(False)
    assert section.quiet_hint.text() == ("Off: each reminder goes out 90 minutes before its shift, at any hour of "
                                         "the day or night.")


@pytest.mark.parametrize(("lead", "start", "end", "shift", "says"), [
    (60, "12:00", "13:30", "14:00", "goes out at {0:%H:%M}."),  # quiet hours within the day: the same day
    (24 * 60, "22:00", "07:00", "06:00", "goes out at {0:%H:%M}, 2 days before."),
])
def test_quiet_hours_hint_names_the_day_the_rule_picks(qtbot, ctx: AppContext, room_id: int, now: dt.datetime,
                                                       lead: int, start: str, end: str, shift: str, says: str) -> None:
    ctx.clock = lambda: now
    view = open_view(qtbot, ctx)
    set_quiet_hours(view.classrooms, lead, start, end)
    day = dt.date(2026, 12, 3)
    sent = sent_by_the_rule(day, shift, lead, start, end)
    assert f"for a shift at {shift}," in view.classrooms.quiet_hint.text()
    assert view.classrooms.quiet_hint.text().endswith(says.format(sent))


def test_quiet_hours_hint_in_japanese(qtbot, ctx: AppContext, room_id: int, now: dt.datetime,
                                      japanese: Path) -> None:
    ctx.clock = lambda: now
    view = open_view(qtbot, ctx)
    section = view.classrooms
    set_quiet_hours(section, 120, "22:00", "07:00")
    sent = sent_by_the_rule(dt.date(2026, 12, 3), "08:00", 120, "22:00", "07:00")
    hint = section.quiet_hint.text()
    assert f"08:00開始のシフトでは、06:00に送る予定のリマインダーを前日の{sent:%H:%M}に送ります" in hint
    assert "30分前" in hint and "終わって" not in hint


def test_image_hosting_test_upload_shows_a_link_that_works(qtbot, ctx: AppContext, hosted: str) -> None:
    view = open_view(qtbot, ctx)
    section = view.hosting
    assert section.endpoint.text() == hosted and section.bucket.text() == BUCKET
    assert "saved in this computer's keyring" in section.secret_state.text()
    qtbot.mouseClick(section.test, CLICK)
    settle(qtbot, ctx, timeout=15000)
    assert not section.status.problem_shown, section.status.text()
    url = section.status.url
    assert url and f'href="{html.escape(url)}"' in section.status.text()
    assert httpx.get(url).content == b"Shiftcast image hosting works.\n"


def test_image_hosting_saves_the_secret_in_the_keyring_only(qtbot, ctx: AppContext, memory_keyring,
                                                            s3_endpoint: str) -> None:
    view = open_view(qtbot, ctx)
    section = view.hosting
    section.endpoint.setText(s3_endpoint)
    section.bucket.setText(BUCKET)
    section.region.setText("us-east-1")
    section.key_id.setText(ACCESS_KEY)
    section.secret.setText(SECRET_KEY)
    section.days.setValue(3)
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert not section.status.problem_shown, section.status.text()
    assert memory_keyring.store[(secrets.SERVICE, hosting.SECRET_NAME)] == SECRET_KEY
    assert SECRET_KEY not in every_stored_text(ctx.db)
    with ctx.db.read() as s:
        config = hosting.config_from_settings(s)
    assert config is not None and config.presign_for == dt.timedelta(days=3)

    section.endpoint.setText("ftp://files.example.com")
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert section.status.problem_shown and "https://" in section.status.text()


def test_language_choice_is_stored_and_needs_a_restart(qtbot, ctx: AppContext) -> None:
    view = open_view(qtbot, ctx)
    choice = view.language.choice
    assert choice.currentData() == "auto"
    choice.setCurrentIndex(choice.findData("en"))
    choice.activated.emit(choice.currentIndex())
    settle(qtbot, ctx)
    with ctx.db.read() as s:
        assert keys.UI_LANGUAGE.read(s) == "en"
    assert "next time Shiftcast starts" in view.language.status.text()


def test_data_folder_is_shown(qtbot, ctx: AppContext, paths: DataPaths) -> None:
    from PySide6.QtWidgets import QLabel

    view = open_view(qtbot, ctx)
    label = view.findChild(QLabel, "dataFolder")
    assert label is not None and label.text() == str(paths.home)


def test_start_at_login_writes_the_autostart_entry(qtbot, ctx, tmp_path) -> None:
    from core.app import autostart
    from ui.settings.autostart import AutostartSection

    section = AutostartSection(ctx)
    qtbot.addWidget(section)
    qtbot.waitUntil(section.enabled.isEnabled)
    assert not section.enabled.isChecked()
    section.enabled.click()
    qtbot.waitUntil(lambda: section.enabled.isEnabled() and section.enabled.isChecked())
    entry = autostart.xdg_autostart_file()
    assert entry.is_file() and str(tmp_path) in str(entry) and " tray" in entry.read_text()
    section.enabled.click()
    qtbot.waitUntil(lambda: section.enabled.isEnabled() and not section.enabled.isChecked())
    assert not entry.exists()
