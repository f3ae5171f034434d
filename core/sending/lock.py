"""Only one process sends from a data folder at a time: an OS file lock in the data folder.

The outbox stays safe even if two processes sent (claims are atomic), but one sender per folder keeps
the rate limits and the tray's picture of the world honest. The lock dies with its process, so a
crash never leaves it stuck.

The rule holds for SQLite, a file one computer writes. A PostgreSQL server is shared by design: senders
on several computers claim side by side (FOR UPDATE SKIP LOCKED) and see each other in the `senders`
table (core/sending/presence.py), which a file lock on one computer could not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from core.store.db import Database


def one_sender_only(db: Database) -> bool:
    """Must this process hold the data folder's lock to send? Only on SQLite."""
    return db.is_sqlite


class SenderLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def acquire(self) -> bool:
        """Take the lock without waiting. False if another process holds it."""
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
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
