"""Japanese wrapped between phrases (文節), never inside a word or a name.

Qt breaks a wrapped line of Japanese between any two characters (Unicode's line-breaking rules allow
it there), so a window showed 「くださ／い。」 and 「小／林 陽菜」. BudouX (a small, well-kept phrase
segmenter made for exactly this on the web) finds the phrases; a WORD JOINER (U+2060, invisible, a
"no break here" to every line breaker) between the characters inside each phrase leaves Qt only the
phrase boundaries and spaces to break at. Text without Japanese, and rich text, is left as it is.

`PhraseLabel` shows its text joined this way and hands back what it was given (`text()`), so what the
program and its tests read is the text itself.
"""

from __future__ import annotations

import functools
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText lives in QtGui's Qt namespace
from PySide6.QtWidgets import QLabel, QWidget

WORD_JOINER = "\u2060"
NO_BREAK_SPACE = "\u00a0"
# Hiragana, katakana (with the long vowel mark and half-width forms), CJK ideographs and their marks.
_JAPANESE = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")


@functools.cache
def _parser():  # type: ignore[no-untyped-def]  # budoux's parser class is untyped at its module level
    import budoux  # loaded on first Japanese text: the English window never pays for its model

    return budoux.load_default_japanese_parser()


def _joined(phrase: str) -> str:
    out: list[str] = []
    for i, char in enumerate(phrase):
        # A joiner beside a space would take away the break a space gives, so only between two visible
        # characters, and only where Japanese is involved (Latin words break at spaces as they always did).
        if i and not char.isspace() and not phrase[i - 1].isspace() and (
                _JAPANESE.match(char) or _JAPANESE.match(phrase[i - 1])):
            out.append(WORD_JOINER)
        out.append(char)
    return "".join(out)


# A single space between two Japanese characters is a name's (小林 陽菜): a no-break space there, as Qt
# breaks at every ordinary space whatever joins it.
_NAME_SPACE = re.compile(rf"(?<={_JAPANESE.pattern}) (?={_JAPANESE.pattern})")


@functools.lru_cache(maxsize=2048)
def keep_phrases(text: str) -> str:
    """`text` with the characters of each Japanese phrase joined; unchanged when it has no Japanese."""
    if not _JAPANESE.search(text):
        return text
    lines = ("".join(_joined(phrase) for phrase in _parser().parse(line)) if line else line
             for line in text.split("\n"))
    return _NAME_SPACE.sub(NO_BREAK_SPACE, "\n".join(lines))


def plain(text: str) -> str:
    """The text without the joiners (what a person copying it would want)."""
    return text.replace(WORD_JOINER, "").replace(NO_BREAK_SPACE, " ")


class PhraseLabel(QLabel):
    """A word-wrapped label that wraps Japanese between phrases. Rich text is shown as given."""

    def __init__(self, text: str | QWidget = "", parent: QWidget | None = None) -> None:
        if isinstance(text, QWidget):  # PhraseLabel(parent), as QLabel(parent)
            parent, text = text, ""
        super().__init__(parent)
        self._given = ""
        self.setWordWrap(True)
        self.setText(str(text))

    def setText(self, text: str) -> None:
        self._given = text
        rich = self.textFormat() == Qt.TextFormat.RichText or (
            self.textFormat() == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text))
        super().setText(text if rich else keep_phrases(text))

    def text(self) -> str:
        return self._given

    def clear(self) -> None:
        self._given = ""
        super().clear()

    def setTextFormat(self, format: Qt.TextFormat) -> None:  # noqa: A002  # Qt names it so
        super().setTextFormat(format)
        self.setText(self._given)  # plain or rich decides whether the phrases are joined

