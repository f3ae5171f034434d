from __future__ import annotations

import sqlite3
import threading

import pytest
from sqlalchemy import text

from core.db import Database
from core.models import Classroom


def test_sqlite_pragmas(db: Database) -> None:
    with db.read() as session:
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert session.execute(text("PRAGMA busy_timeout")).scalar() >= 1000


def test_write_transaction_takes_the_write_lock_at_begin(paths, db: Database) -> None:
    """BEGIN IMMEDIATE: while one writer holds its transaction, a second writer cannot even begin."""
    impatient = Database(paths.database_url(), busy_timeout_s=0.05)
    try:
        with db.write() as session:
            session.add(Classroom(name="A"))
            session.flush()
            with pytest.raises(Exception) as caught, impatient.write() as other:
                other.execute(text("SELECT 1"))
            assert "locked" in str(caught.value)
            # A reader is not blocked by the writer (WAL + deferred read transactions).
            with impatient.read() as reader:
                assert reader.execute(text("SELECT count(*) FROM classrooms")).scalar() == 0
    finally:
        impatient.dispose()


def test_writers_queue_on_the_busy_timeout(db: Database) -> None:
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(20):
                with db.write() as session:
                    session.add(Classroom(name=f"room-{n}-{i}"))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with db.read() as session:
        assert session.execute(text("SELECT count(*) FROM classrooms")).scalar() == 80


def test_foreign_keys_enforced(db: Database) -> None:
    with pytest.raises(Exception) as caught, db.write() as session:
        session.execute(
            text(
                "INSERT INTO shifts (classroom_id, teacher_id, local_date, start_time, end_time, ends_next_day,"
                " note, status, version, created_at, updated_at) VALUES (99, 99, '2026-12-01', '09:00:00',"
                " '10:00:00', 0, '', 'draft', 1, '2026-12-01 00:00:00', '2026-12-01 00:00:00')"
            )
        )
    assert "FOREIGN KEY" in str(caught.value)


def test_sqlite_has_returning() -> None:
    assert sqlite3.sqlite_version_info >= (3, 35, 0)
