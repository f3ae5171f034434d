"""CSV import and export as the screens run them: each in its own transaction, on the caller's thread.

An import is all or nothing (core/roster/csv_files.py): it commits only once every row was taken, and
answers with the counts and the events it emitted. An export reads in one scope and answers with the
file's text; writing it to disk is the caller's part.
"""

from __future__ import annotations

import datetime as dt

from core.roster import csv_files
from core.roster.csv_files import ImportResult
from core.roster.progress import Progress
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


def import_teachers(db: Database, data: bytes, *, progress: Progress | None = None) -> ChangesMade[ImportResult]:
    return committed(db, lambda session: csv_files.import_teachers(session, data, progress=progress))


def import_shifts(db: Database, data: bytes, *, now: dt.datetime,
                  progress: Progress | None = None) -> ChangesMade[ImportResult]:
    return committed(db, lambda session: csv_files.import_shifts(session, data, now=now, progress=progress))


def export_teachers(db: Database) -> str:
    with db.read() as session:
        return csv_files.export_teachers(session)


def export_shifts(db: Database, *, classroom_id: int, month: tuple[int, int]) -> str:
    with db.read() as session:
        return csv_files.export_shifts(session, classroom_id=classroom_id, month=month)
