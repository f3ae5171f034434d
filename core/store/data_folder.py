"""Opening the data folder and its log file, with a failure named in the manager's words.

Shared by the CLI and the window, so both say "the data folder … is not writable" (or full, or a file
where the folder should be) instead of a traceback, in the manager's language.

A data folder that can be read but not written (its permissions, a read-only disk, a backup mounted to
look at) still answers the commands that only read: `open_for_reading` keeps no log then, with one
warning, and `read_only_url` opens the database without the files SQLite's journal would make beside
it. A command that writes is told "the data folder … is read-only" by its caller (cli/commands.py).
"""

from __future__ import annotations

import errno
import logging
import os
from dataclasses import dataclass
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
    paths = _made(home, paths)
    try:
        log_file = configure_logging(paths.logs, stderr=stderr)
    except OSError as exc:
        raise StorageError(folder_problem(t("word.log_file"), paths.logs / "shiftcast.log", exc)) from exc
    return paths, log_file


def _made(home: Path | None, paths: DataPaths | None) -> DataPaths:
    if paths is not None:
        return paths
    try:
        return data_paths(home)
    except OSError as exc:
        raise StorageError(folder_problem(t("word.data_folder"), resolve_home(home), exc)) from exc


_REFUSED = (errno.EACCES, errno.EPERM, errno.EROFS)


@dataclass(frozen=True, slots=True)
class OpenedFolder:
    paths: DataPaths
    log_file: Path | None  # None: this run keeps no log (`warning` says why)
    warning: Text | None
    read_only: bool  # the folder itself refuses new files


def is_read_only(folder: Path) -> bool:
    """Whether the folder refuses new files (its permissions, or a disk mounted read-only)."""
    return folder.is_dir() and not os.access(folder, os.W_OK)


def open_for_reading(home: Path | None, *, stderr: bool = False, paths: DataPaths | None = None) -> OpenedFolder:
    """`open_data_folder`, except that a data folder or log file that may not be written is no failure:
    the run keeps no log, and the warning says so once, naming the folder (or the file)."""
    paths = _made(home, paths)
    read_only = is_read_only(paths.home)
    try:
        return OpenedFolder(paths, configure_logging(paths.logs, stderr=stderr), None, read_only)
    except OSError as exc:
        if exc.errno not in _REFUSED:
            raise StorageError(folder_problem(t("word.log_file"), paths.logs / "shiftcast.log", exc)) from exc
    logging.getLogger().addHandler(logging.NullHandler())  # nothing, not Python's last-resort lines on stderr
    warning = (t("cli.no_log.read_only_folder", path=str(paths.home)) if read_only or is_read_only(paths.logs)
               else t("cli.no_log.log_file", path=str(paths.logs / "shiftcast.log")))
    return OpenedFolder(paths, None, warning, read_only)


def read_only_url(paths: DataPaths) -> str | None:
    """The URL that reads the data folder's SQLite file without writing beside it, when the folder is
    read-only and the file is the folder's own; None otherwise (a server, SHIFTCAST_DB_URL). Read as
    immutable, SQLite makes no journal files, which a read-only folder cannot hold; a journal a crash left
    behind would be overlooked that way, so then the ordinary URL is kept and its failure told."""
    if paths.database_url() != paths.local_database_url() or not paths.database.exists():
        return None
    wal = paths.database.with_name(paths.database.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return None
    return f"sqlite:///file:{paths.database.as_posix()}?mode=ro&immutable=1&uri=true"


def folder_problem(what: Text, path: Path, exc: OSError) -> Text:
    where = str(Path(exc.filename) if exc.filename else path)
    if exc.errno == errno.ENOSPC:
        return t("cli.disk_full", what=what, where=where)
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return t("cli.not_a_folder", what=what, path=str(path), where=where)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return t("cli.not_writable", what=what, where=where)
    return t("cli.cannot_write", what=what, where=where, detail=str(exc.strerror or exc))
