"""A lock file in the data folder that one process at a time holds: an OS file lock, taken without waiting.

The sender takes one (only one process sends from a folder) and the window another (only one window
per folder). The lock dies with its process, so a crash never leaves it stuck; the file stays and
holds the last holder's process id, for a person looking at the folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO


class FolderLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def acquire(self) -> bool:
        """Take the lock without waiting. False if another process holds it."""
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release or the process ends
        try:
            if sys.platform == "win32":  # pragma: no cover - Windows
                import msvcrt

                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle
        return True

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the file releases the OS lock
            self._handle = None

    @property
    def held(self) -> bool:
        return self._handle is not None
