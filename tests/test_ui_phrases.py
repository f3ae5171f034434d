"""Japanese in the window wraps between phrases, never inside a word or a name (「くださ／い。」, 「小／林 陽菜」)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel

from ui.common.phrases import PhraseLabel, keep_phrases, plain
from ui.common.widgets import note

TEXT = "確定したシフトは講師に通知されます。まだ届かない講師: 小林 陽菜、佐藤 花子、高橋 美咲。LINEとの接続を確認してください。"
WHOLE = ("ください。", "小林 陽菜", "佐藤 花子", "高橋 美咲", "確認して", "通知されます。", "LINEとの")


def _lines(text: str, width: float, font: QFont) -> list[str]:
    """The lines Qt's own layout makes of `text` at `width`, as a word-wrapped label lays them out."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append(plain(text[line.textStart():line.textStart() + line.textLength()]))
    layout.endLayout()
    return lines


def _broken_words(text: str, font: QFont) -> set[str]:
    broken = set()
    for width in range(60, 420, 3):
        lines = _lines(text, width, font)
        assert "".join(lines) == plain(text)
        joined = "\n".join(lines)
        broken |= {word for word in WHOLE if word not in joined.replace("\u00a0", " ")}
    return broken


def test_qt_alone_breaks_inside_words_and_names(qapp) -> None:
    """What the fix is for: Qt's own wrapping cuts these at some width."""
    assert _broken_words(TEXT, QFont()) >= {"ください。", "小林 陽菜"}


def test_joined_phrases_wrap_only_between_phrases_at_every_width(qapp) -> None:
    assert _broken_words(keep_phrases(TEXT), QFont()) == set()


def test_the_label_shows_the_phrases_joined_and_hands_back_its_text(qtbot) -> None:
    label = note(TEXT)
    qtbot.addWidget(label)
    assert isinstance(label, PhraseLabel) and label.wordWrap()
    assert label.text() == TEXT  # what the program reads is the text itself
    assert _shown(label) == keep_phrases(TEXT) != TEXT


def test_english_and_rich_text_are_shown_as_given(qtbot) -> None:
    english = "Teachers are told about confirmed shifts."
    rich = "<b>小林 陽菜</b>さんにはまだ届きません"
    label = PhraseLabel(english)
    qtbot.addWidget(label)
    assert keep_phrases(english) == english and _shown(label) == english
    label.setText(rich)
    assert _shown(label) == rich and label.text() == rich
    assert plain(keep_phrases(TEXT)) == TEXT


def _shown(label: PhraseLabel) -> str:
    """What Qt itself holds and paints."""
    return QLabel.text(label)


def test_the_inline_outcomes_and_errors_wrap_by_phrase_too(qtbot) -> None:
    """A check's result and a form's error are where long Japanese sentences show (「くださ／い。」 was one)."""
    from ui.common.form_dialog import InlineError
    from ui.common.widgets import StatusLabel

    for label in (StatusLabel(), InlineError()):
        qtbot.addWidget(label)
        label.setText(TEXT)
        assert isinstance(label, PhraseLabel) and _shown(label) == keep_phrases(TEXT) and label.text() == TEXT
        label.clear()
        assert label.text() == "" == _shown(label)
