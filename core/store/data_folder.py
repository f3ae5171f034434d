"""Opening the data folder and its log file, with a failure named in the manager's words.

Shared by the CLI and the window, so both say "the data folder … is not writable" (or full, or a file
where the folder should be) instead of a traceback, in the manager's language.
"""

from __future__ import annotations

import errno
from pathlib import Path

from core.errors import ShiftcastError
from core.logs import configure_logging
from core.store.paths import DataPaths, data_paths, resolve_home
from core.texts import Text, t


class StorageError(ShiftcastError):
    """The data folder, the log file or the database cannot be written; nothing was changed."""


def open_data_folder(home: Path | None, *, stderr: bool = False,
                     paths: DataPaths | None = None) -> tuple[DataPaths, Path]:
    """The data folder (made if missing) and its log file, set up for this process's logging."""
    if paths is None:
        try:
            paths = data_paths(home)
        except OSError as exc:
            raise StorageError(folder_problem(t("word.data_folder"), resolve_home(home), exc)) from exc
    try:
        log_file = configure_logging(paths.logs, stderr=stderr)
    except OSError as exc:
        raise StorageError(folder_problem(t("word.log_file"), paths.logs / "shiftcast.log", exc)) from exc
    return paths, log_file


def folder_problem(what: Text, path: Path, exc: OSError) -> Text:
    where = str(Path(exc.filename) if exc.filename else path)
    if exc.errno == errno.ENOSPC:
        return t("cli.disk_full", what=what, where=where)
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return t("cli.not_a_folder", what=what, path=str(path), where=where)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return t("cli.not_writable", what=what, where=where)
    return t("cli.cannot_write", what=what, where=where, detail=str(exc.strerror or exc))
