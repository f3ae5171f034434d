"""Where the file dialogs open: in the folder of the file the manager last opened or saved, else in
their Documents — never in the folder Shiftcast was started from, which is the program's own.

The folder is remembered in a setting (core.store.setting_keys.UI_LAST_FOLDER). A folder that is
not there on this computer (removed since, or named by another computer sharing the database) is
passed over.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths

from core.store import setting_keys as keys
from core.store import setting_values
from ui.services.context import AppContext


def documents() -> Path:
    """The user's Documents folder, else their home folder."""
    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = Path(found) if found else Path.home()
    return folder if folder.is_dir() else Path.home()


def start_in(ctx: AppContext, name: str = "") -> str:
    """What a file dialog is given to open at: the last folder used (or Documents), with `name` in it
    for a file to be saved."""
    saved = setting_values.read(ctx.db, keys.UI_LAST_FOLDER)
    folder = Path(saved) if saved and Path(saved).is_dir() else documents()
    return str(folder / name) if name else str(folder)


def remember(ctx: AppContext, chosen: str, *, owner: QObject) -> None:
    """Keep the folder of the file chosen for the next dialog (written on the pool, for `owner`)."""
    folder = str(Path(chosen).parent)
    db = ctx.db

    def work() -> None:
        setting_values.write(db, keys.UI_LAST_FOLDER, folder)

    ctx.tasks.run(work, owner=owner)
