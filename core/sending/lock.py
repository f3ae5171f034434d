"""Only one process sends from a data folder at a time: an OS file lock in the data folder.

The outbox stays safe even if two processes sent (claims are atomic), but one sender per folder keeps
the rate limits and the tray's picture of the world honest. The lock dies with its process, so a
crash never leaves it stuck.

The rule holds for SQLite, a file one computer writes. A PostgreSQL server is shared by design: senders
on several computers claim side by side (FOR UPDATE SKIP LOCKED) and see each other in the `senders`
table (core/sending/presence.py), which a file lock on one computer could not.
"""

from __future__ import annotations

from core.store.db import Database
from core.store.folder_lock import FolderLock


def one_sender_only(db: Database) -> bool:
    """Must this process hold the data folder's lock to send? Only on SQLite."""
    return db.is_sqlite


class SenderLock(FolderLock):
    """The data folder's `sender.lock`: held by the one process that sends from the folder."""
