"""Qt's own dialogs in the Japanese window: Qt's translation is loaded, and the words it lacks come
from Shiftcast's (ui/common/i18n.py, QT_GAPS), so a file dialog shows no English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QTreeView

from ui.common import i18n

ENGLISH = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture
def japanese(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    assert i18n.install(qapp, "ja", tmp_path / "cache") == "ja"
    try:
        yield
    finally:
        i18n.install(qapp, "en", tmp_path / "cache")


def test_qts_own_japanese_is_loaded_beside_shiftcasts(japanese: None) -> None:
    assert any(Path(translator.filePath()).name == "qtbase_ja.qm" for translator in i18n._installed)


def test_a_file_dialog_in_the_japanese_window_has_no_english_words(qtbot, japanese: None, tmp_path: Path) -> None:
    (tmp_path / "files" / "a folder").mkdir(parents=True)
    dialog = QFileDialog(None, "CSV", str(tmp_path / "files"), "CSV (*.csv)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own, as on a desktop without a portal
    qtbot.addWidget(dialog)
    dialog.show()
    labels = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
    assert "ファイル名(&N):" in labels
    assert [text for text in labels if ENGLISH.search(text.replace("CSV", ""))] == []
    view = dialog.findChild(QTreeView)
    assert view is not None
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount(view.rootIndex()) == 1, timeout=10_000)
    folder_type = model.index(0, 2, view.rootIndex()).data(Qt.ItemDataRole.DisplayRole)
    assert folder_type == "フォルダ"
    headings = [model.headerData(column, Qt.Orientation.Horizontal) for column in range(model.columnCount(QModelIndex()))]
    assert [text for text in headings if ENGLISH.search(str(text))] == []
