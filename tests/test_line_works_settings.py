"""Settings → LINE WORKS and a classroom's LINE WORKS channel, as a manager sets them up: the values
checked and saved (the private key's PEM from the chosen file, never its path), Test's answer in words,
the classroom's channel ID saved with its settings, and the teacher dialog's LINE WORKS ID row. The
channel is its own driver and credentials (in the in-memory keyring), and Test asks the LINE WORKS
stand-in on loopback (tests/worksfixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.channels import line_works_credentials
from core.channels.line_works_client import KEY
from core.emulator.line_works import WorksStandIn
from core.errors import ValidationError
from core.roster import contacts, rooms, rules
from core.setup import line_works
from core.store.db import Database
from tests.test_ui_settings import open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401 - fixtures
from tests.worksfixtures import (  # noqa: F401 - fixtures
    BOT_ID,
    BOT_SECRET,
    CLIENT_ID,
    CLIENT_SECRET,
    SERVICE_ACCOUNT,
    credentials,
    key_pair,
    private_key_file,
    without_works,
    works,
    works_pointed,
)
from ui.services.context import AppContext
from ui.settings.classrooms import ClassroomSection
from ui.settings.line_works import LineWorksSection
from ui.teachers.dialog import TeachersDialog

CLICK = Qt.MouseButton.LeftButton
WAIT = 20_000  # ms; a wait ends as soon as its condition holds


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    return private_key_file(tmp_path)


# ----- the values, checked and saved -----


def test_a_secret_left_blank_keeps_the_saved_one(db: Database) -> None:
    with pytest.raises(ValidationError, match="the client secret is missing"):  # nothing saved to keep
        line_works.save(db, client_id="c", client_secret="", service_account="a", private_key=key_pair()[0],
                        bot_id="1", bot_secret="b")
    assert line_works_credentials.load(db) is None
    line_works_credentials.save(db, credentials())
    line_works.save(db, client_id="client-2", client_secret="", service_account=SERVICE_ACCOUNT,
                    private_key=None, bot_id=BOT_ID, bot_secret=None)
    assert line_works_credentials.load(db) == credentials(client_id="client-2")


def test_the_key_file_s_pem_is_read_and_another_file_is_refused(tmp_path: Path, key_file: Path) -> None:
    assert line_works.read_private_key(key_file) == key_pair()[0]
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    with pytest.raises(ValidationError, match="is not a private key file"):
        line_works.read_private_key(other)
    with pytest.raises(ValidationError, match="cannot be read"):
        line_works.read_private_key(tmp_path / "missing.key")


# ----- Settings → LINE WORKS -----


def test_the_section_is_there_only_with_the_channel(qtbot, ctx: AppContext, without_works: None) -> None:
    view = open_view(qtbot, ctx)
    assert not view.line_works.isVisible()


def test_saving_keeps_the_key_itself_and_test_says_line_works_s_answer(
        qtbot, ctx: AppContext, db: Database, works_pointed: WorksStandIn, key_file: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.save.isEnabled(), timeout=WAIT)
    assert section.key_state.text() == "No private key is saved yet."
    assert section.state_line.text() == "LINE WORKS is not set up."
    section.client_id.setText(CLIENT_ID)
    section.client_secret.setText("a-secret-the-console-never-gave")
    section.service_account.setText(SERVICE_ACCOUNT)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(key_file), ""))
    qtbot.mouseClick(section.choose_key, CLICK)
    assert section.key_state.text() == "private_20261201.key (saved with Save)"
    section.bot_id.setText(BOT_ID)
    section.bot_secret.setText(BOT_SECRET)
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.text() == "Saved.", timeout=WAIT)
    # The key's text; the file's path is kept nowhere.
    assert line_works_credentials.load(db) == credentials(client_secret="a-secret-the-console-never-gave")
    qtbot.waitUntil(lambda: section.key_state.text().startswith("✓ A private key is saved"), timeout=WAIT)
    assert section.client_secret.text() == "" and "replace" in section.client_secret.placeholderText()

    qtbot.mouseClick(section.test, CLICK)  # LINE WORKS refuses the client secret
    qtbot.waitUntil(lambda: section.test.isEnabled() and section.status.problem_shown, timeout=WAIT)
    assert section.status.text().startswith(
        "The test failed: LINE WORKS refused the app's credentials (HTTP 401"), section.status.text()
    assert "check the client ID and secret" in section.status.text()
    qtbot.waitUntil(lambda: "failed" in section.state_line.text(), timeout=WAIT)

    section.client_secret.setText(CLIENT_SECRET)  # the other values are kept as saved
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.text() == "Saved.", timeout=WAIT)
    qtbot.mouseClick(section.test, CLICK)
    qtbot.waitUntil(lambda: section.status.text().startswith("✓ LINE WORKS gave Shiftcast an access token"),
                    timeout=WAIT)
    qtbot.waitUntil(lambda: "worked" in section.state_line.text(), timeout=WAIT)
    assert (works_pointed.token_requests, works_pointed.tokens_issued) == (2, 1)


def test_a_file_that_is_no_key_is_said_and_nothing_is_saved(
        qtbot, ctx: AppContext, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = open_view(qtbot, ctx)
    section = view.line_works
    qtbot.waitUntil(lambda: section.save.isEnabled(), timeout=WAIT)
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    for edit, value in ((section.client_id, CLIENT_ID), (section.client_secret, CLIENT_SECRET),
                        (section.service_account, SERVICE_ACCOUNT), (section.bot_id, BOT_ID),
                        (section.bot_secret, BOT_SECRET)):
        edit.setText(value)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(other), ""))
    qtbot.mouseClick(section.choose_key, CLICK)
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.problem_shown, timeout=WAIT)
    assert "notes.txt is not a private key file" in section.status.text(), section.status.text()
    assert line_works_credentials.load(db) is None


# ----- the classroom's LINE WORKS channel -----


def _classrooms(qtbot, ctx: AppContext) -> ClassroomSection:
    section = ClassroomSection(ctx)
    qtbot.addWidget(section)
    section.show()
    qtbot.waitUntil(lambda: section.save.isEnabled(), timeout=WAIT)
    return section


def test_a_classroom_s_line_works_channel_is_saved_with_its_settings(
        qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        room = rules.create_classroom(s, name="本校").id
    section = _classrooms(qtbot, ctx)
    assert section.works_room.isVisible()
    section.works_room.setText("two words")
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.problem_shown, timeout=WAIT)
    assert "room ID 'two words'" in section.status.text()
    with db.read() as s:
        assert rooms.rooms_of(s, room) == {}
    section.works_room.setText(" room-main ")
    qtbot.mouseClick(section.save, CLICK)

    def saved() -> bool:
        with db.read() as s:
            return rooms.rooms_of(s, room) == {KEY: "room-main"}

    qtbot.waitUntil(saved, timeout=WAIT)
    settle(qtbot, ctx)
    again = _classrooms(qtbot, ctx)
    assert again.works_room.text() == "room-main"  # what was saved is what is shown again


def test_without_the_channel_a_classroom_has_no_line_works_field(qtbot, ctx: AppContext, db: Database,
                                                                 without_works: None) -> None:
    with db.write() as s:
        rules.create_classroom(s, name="本校")
    section = _classrooms(qtbot, ctx)
    assert not section.works_room.isVisible()


# ----- the teachers -----


def test_the_teacher_dialog_has_a_line_works_id_row_from_the_driver(qtbot, ctx: AppContext) -> None:
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx, timeout=WAIT)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None and KEY in editor.others
    address, agreed = editor.others[KEY]
    assert agreed is None  # a member of the company's directory: no consent to ask for, no tick
    assert editor.channel.findData(KEY) >= 0
    editor.name.setText("中村")
    address.setText("nakamura@works.example")
    editor.channel.setCurrentIndex(editor.channel.findData(KEY))
    editor.accept()
    settle(qtbot, ctx, timeout=WAIT)
    with ctx.db.read() as s:
        teacher = rules.teacher_by_name(s, "中村")
        contact = contacts.on(teacher.contacts, KEY)
        assert contact is not None and contact.address == "nakamura@works.example"
        assert contacts.usable(contact)
