"""Japanese and English. Sources are Qt Linguist files (resources/i18n/*.ts); the build compiles
them to .qm, and when a .qm is missing or older than its .ts (a source checkout), it is compiled at
start-up into the data folder's cache with Qt's lrelease."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QTranslator

from core import texts
from core.child_environment import child_environment
from core.resources import resource
from core.texts import Text, language
from core.texts.formats import Language

log = logging.getLogger(__name__)
LANGUAGES = {"ja": "日本語", "en": "English"}


def choose(setting: str | None) -> Language:
    """The language to show: the saved choice (core.store.setting_keys.UI_LANGUAGE), or the system's
    for "auto"."""
    # The same rule as the CLI's and the alert e-mails' (core/texts/language.py), so a window, its
    # tray and a terminal on one computer speak one language.
    return language.choose(setting, os.environ, sys.platform, language.user_locale())


_current: list[Language] = ["en"]


def current() -> Language:
    """The language installed last (what core's messages are rendered in on screen)."""
    return _current[0]


def render(text: Text | str) -> str:
    """A core message (an error's, a problem's, an alert's Text) in the interface's language."""
    return texts.render(text, current())


def describe(error: BaseException) -> str:
    """An exception as the manager reads it: its Text in the interface's language, else its words."""
    return texts.describe(error, current())


def _lrelease() -> str | None:
    try:
        import PySide6

        bundled = Path(PySide6.__file__).parent / "lrelease"
        if bundled.exists():
            return str(bundled)
    except ImportError:  # pragma: no cover
        pass
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def compiled(language: str, cache_dir: Path) -> Path | None:
    """The .qm file for `language`: shipped if current, else freshly compiled into the cache."""
    source = resource("i18n", f"shiftcast_{language}.ts")
    shipped = resource("i18n", f"shiftcast_{language}.qm")
    if shipped.is_file() and (not source.is_file() or shipped.stat().st_mtime >= source.stat().st_mtime):
        return shipped
    if not source.is_file():
        return None
    target = cache_dir / f"shiftcast_{language}.qm"
    if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    tool = _lrelease()
    if tool is None:
        log.warning("no lrelease found; the interface stays in English")
        return None
    cache_dir.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([tool, "-silent", str(source), "-qm", str(target)], capture_output=True, text=True, timeout=60,
                          env=child_environment())
    if done.returncode != 0 or not target.is_file():
        log.warning("could not compile translations: %s", done.stderr.strip())
        return None
    return target


_installed: list[QTranslator] = []

# Qt's own Japanese (qtbase_ja.qm, loaded below) lacks these words of its file dialog, which then showed
# "Look in", "Files of type" and "Folder" in English inside the Japanese window. They are marked here so
# lupdate puts them, under Qt's own contexts, into shiftcast_ja.ts: Qt asks every installed translator,
# so ours answers where Qt's has nothing. tests/test_ui_qt_words.py finds any the dialog still shows.
QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Show hidden files"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Folder"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "File"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Drive"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "%1 File"),
    QT_TRANSLATE_NOOP("QFileSystemModel", "<b>The name \"%1\" cannot be used.</b><p>Try using another name, "
                                          "with fewer characters or no punctuation marks."),
)


def install(app: QCoreApplication, language: str, cache_dir: Path) -> str:
    """Load the interface language (plus Qt's own strings for standard dialogs). Returns it."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    _current[0] = "ja" if language == "ja" else "en"
    # English too: the code's "%n messages" gets its singular from shiftcast_en.ts (plurals only).
    qm = compiled(language, cache_dir)
    if qm is not None:
        translator = QTranslator(app)
        if translator.load(str(qm)):
            app.installTranslator(translator)
            _installed.append(translator)
    if language == "en":
        return language
    from PySide6.QtCore import QLibraryInfo

    qt_translator = QTranslator(app)
    if qt_translator.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_translator)
        _installed.append(qt_translator)
    return language
