"""The teacher editor sets a teacher's reading (ふりがな), and the teachers' list is in its order."""

from __future__ import annotations

from sqlalchemy import select

from core.store.models import Teacher
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.teachers.dialog import TeachersDialog


def listed(dialog: TeachersDialog) -> list[str]:
    items = [dialog.table.item(row, 0) for row in range(dialog.table.rowCount())]
    return [item.text() if item is not None else "" for item in items]


def test_the_editor_sets_the_reading_and_the_list_follows_it(qtbot, ctx: AppContext) -> None:
    with ctx.db.write() as s:
        f.teacher(s, "中村", 1, reading="なかむら")
        f.teacher(s, "伊藤", 2)
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert listed(dialog) == ["中村", "伊藤"]  # 伊藤 has no reading yet: after those who have one

    with ctx.db.read() as s:
        ito = s.scalar(select(Teacher).where(Teacher.name == "伊藤"))
        assert ito is not None
    dialog.select(ito.id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert editor is not None and editor.reading.text() == ""
    editor.reading.setText(" いとう ")
    editor.accept()
    settle(qtbot, ctx)
    assert listed(dialog) == ["伊藤", "中村"]
    with ctx.db.read() as s:
        assert s.get(Teacher, ito.id).reading == "いとう"  # type: ignore[union-attr]

    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.name.setText("青木")
    editor.reading.setText("アオキ")
    editor.accept()
    settle(qtbot, ctx)
    assert listed(dialog) == ["青木", "伊藤", "中村"]
