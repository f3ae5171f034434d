"""Long sentences that appear once a window is open (a check's answer, a warning) are shown whole:
their labels wrap and the window grows to fit them, in English and in Japanese."""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.common.widgets import StatusLabel
from ui.services.context import AppContext
from ui.settings.view import SettingsView
from ui.teachers.edit_dialog import TeacherEditDialog
from ui.teachers.friends_dialog import FriendsDialog

LANGUAGES = ["en", "ja"]
CLICK = Qt.MouseButton.LeftButton


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    if request.param == "ja":
        request.getfixturevalue("japanese")
    return str(request.param)


def cut(label: QLabel) -> bool:
    return label.height() < label.heightForWidth(label.width())


def shows_whole(window: QWidget, *labels: QLabel) -> bool:
    layout = window.layout()
    return (all(label.isVisible() and label.wordWrap() and not cut(label) for label in labels)
            and layout is not None and window.height() >= layout.minimumSize().height())


def press_check_with_a_user_id(qtbot, ctx: AppContext) -> TeacherEditDialog:
    dialog = TeacherEditDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.line_id.setText("U" + "a1" * 16)  # a user ID, yet no agreement to LINE messages: the red warning
    qtbot.mouseClick(dialog.check_button, CLICK)
    settle(qtbot, ctx)
    assert "color" in dialog.channel_hint.styleSheet()
    return dialog


def test_add_teacher_check_without_a_keyring_shows_the_whole_message_and_warning(
        qtbot, ctx: AppContext, language: str) -> None:
    """The keyring's explanation and the red "gets no messages" warning used to be cut mid-sentence."""
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    dialog = press_check_with_a_user_id(qtbot, ctx)
    words = ("keyring", ".") if language == "en" else ("キーリング", "。")  # core's words, in the window's language
    assert words[0] in dialog.line_result.text() and dialog.line_result.text().endswith(words[1])
    qtbot.waitUntil(lambda: shows_whole(dialog, dialog.line_result, dialog.channel_hint))


def test_add_teacher_check_without_a_token_shows_the_whole_message_and_warning(
        qtbot, ctx: AppContext, language: str) -> None:
    dialog = press_check_with_a_user_id(qtbot, ctx)
    assert dialog.line_result.text() == QCoreApplication.translate(
        "TeacherLine", "Shiftcast is not connected to LINE yet: add the channel access token in Settings.")
    qtbot.waitUntil(lambda: shows_whole(dialog, dialog.line_result, dialog.channel_hint))


def test_friends_picker_without_a_keyring_says_so_in_a_whole_sentence(
        qtbot, ctx: AppContext, language: str) -> None:
    keyring.set_keyring(fail.Keyring())
    picker = FriendsDialog(ctx)
    qtbot.addWidget(picker)
    picker.show()
    qtbot.waitExposed(picker)
    picker.start()
    qtbot.waitUntil(lambda: not picker.loading)
    start, end = ("No usable keyring", ".") if language == "en" else ("このコンピューターで使えるキーリング", "。")
    assert picker.message.text().startswith(start) and picker.message.text().endswith(end)
    # The window grows to the sentence once its layout has run, which a busy machine does later.
    qtbot.waitUntil(lambda: shows_whole(picker, picker.message))


def test_no_settings_line_is_cut_even_when_every_status_is_long(qtbot, ctx: AppContext, language: str) -> None:
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(700, 700)  # narrower than the page's own width: every explanation wraps more
    view.show()
    qtbot.waitExposed(view)
    settle(qtbot, ctx)
    statuses = view.findChildren(StatusLabel)
    assert len(statuses) >= 10
    for status in statuses:
        status.problem("LINE says the account is not in this group. Invite the LINE Official Account into the "
                       "teachers' group, or check the group ID.")
    labels = [label for label in view.findChildren(QLabel) if label.isVisible() and label.text()]
    assert all(label.wordWrap() for label in labels if label.sizeHint().width() > label.width())
    qtbot.waitUntil(lambda: not [label.text() for label in labels if label.wordWrap() and cut(label)])
