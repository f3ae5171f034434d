"""Writing a file the manager asked for (a CSV export, the month as PNG or PDF) whole or not at all.

The place is tried before the content is made, so a folder that does not exist, a place where files
cannot be made (/proc), no permission or a read-only disk is said at once, in one line naming the
file and the cause, and nothing is drawn in vain. The content goes to a temporary file beside the
target and replaces it only when complete: a full disk or a crash never leaves half a file where
a good one was.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from core.errors import ShiftcastError
from core.texts import Text, t


class ExportError(ShiftcastError):
    """The file could not be written; nothing was left at its place."""


def write_export(path: Path, content: Callable[[], bytes]) -> None:
    """Write `content()` to `path`, made only once the place is known to take a file."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise ExportError(export_problem(path, exc)) from exc
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content())
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        raise ExportError(export_problem(path, exc)) from exc
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def export_problem(path: Path, exc: OSError) -> Text:
    """Why `path` cannot be written, in the manager's words."""
    folder = str(path.parent)
    if exc.errno == errno.ENOSPC:
        return t("export.disk_full", path=str(path))
    if exc.errno == errno.EROFS:
        return t("export.read_only", path=str(path), folder=folder)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return t("export.no_permission", path=str(path), folder=folder)
    if isinstance(exc, IsADirectoryError) or path.is_dir():
        return t("export.is_a_folder", path=str(path))
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        if not path.parent.is_dir():
            return t("export.no_folder", path=str(path), folder=folder)
        return t("export.no_files_there", path=str(path), folder=folder)
    return t("export.cannot_write", path=str(path), detail=str(exc.strerror or exc))
