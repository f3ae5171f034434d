from __future__ import annotations

import sqlite3
import threading

import pytest
from sqlalchemy import text

from core.store.db import Database
from core.store.models import Classroom


def test_sqlite_pragmas(db: Database) -> None:
    with db.read() as session:
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert session.execute(text("PRAGMA busy_timeout")).scalar_one() >= 1000


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


# ----- BulkStatement: one compiled statement, run as executemany straight through the driver -----

def _bulk_table():
    from sqlalchemy import JSON, Boolean, Column, Integer, MetaData, String, Table

    from core.store.models import UTCDateTime

    return Table("bulk_probe", MetaData(), Column("id", Integer, primary_key=True), Column("status", String(20)),
                 Column("at", UTCDateTime()), Column("flag", Boolean), Column("extra", JSON), Column("note", String))


def _bulk_db(tmp_path):
    table = _bulk_table()
    database = Database(f"sqlite:///{tmp_path / 'bulk.db'}")
    table.metadata.create_all(database.engine)
    return database, table


def _rows(when):
    import datetime as dt

    return [{"id": n, "status": "queued" if n % 3 else "processing", "at": None if n == 4 else when + dt.timedelta(seconds=n % 2),
             "flag": n % 2 == 0, "extra": {"n": n, "list": [n]} if n % 5 else None, "note": f"ノート {n}"}
            for n in range(1, 21)]


def test_bulk_insert_stores_exactly_what_the_orm_executemany_stores(tmp_path) -> None:
    import datetime as dt

    from sqlalchemy import bindparam, insert

    from core.store.db import BulkStatement

    database, table = _bulk_db(tmp_path)
    when = dt.datetime(2026, 11, 30, 12, 0, 0, 123456, tzinfo=dt.UTC)
    rows = _rows(when)
    bulk = BulkStatement(insert(table).values({c.name: bindparam(c.name, type_=c.type) for c in table.columns}))
    with database.write() as s:
        assert bulk.execute(s, rows) == len(rows)
        raw_bulk = s.connection().exec_driver_sql("SELECT * FROM bulk_probe ORDER BY id").fetchall()
        s.execute(table.delete())
        s.execute(insert(table), rows)
        raw_plain = s.connection().exec_driver_sql("SELECT * FROM bulk_probe ORDER BY id").fetchall()
        typed = s.execute(table.select().order_by(table.c.id)).mappings().all()
    assert raw_bulk == raw_plain and len(raw_bulk) == 20
    assert [dict(r) for r in typed] == rows  # and it reads back as it went in (aware UTC datetimes)
    assert bulk.execute(s, []) == 0  # nothing to do touches nothing (not even the closed session)
    database.dispose()


def test_bulk_guarded_update_counts_only_the_rows_it_changed(tmp_path) -> None:
    import datetime as dt

    from sqlalchemy import bindparam, insert, select, update

    from core.store.db import BulkStatement

    database, table = _bulk_db(tmp_path)
    when = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    with database.write() as s:
        s.execute(insert(table), _rows(when))
    done = BulkStatement(update(table).where(table.c.id == bindparam("b_id"), table.c.status == "processing").values(
        status="sent", note=None, at=bindparam("b_at", type_=table.c.at.type)))
    later = when + dt.timedelta(hours=1)
    with database.write() as s:
        # ids 3, 6, 9 are processing; 1 and 2 are not and must stay as they are
        assert done.execute(s, [{"b_id": i, "b_at": later} for i in (1, 2, 3, 6, 9)]) == 3
    with database.read() as s:
        got = {r.id: (r.status, r.note, r.at) for r in s.execute(select(table))}
    assert [i for i, (status, _, _) in got.items() if status == "sent"] == [3, 6, 9]
    assert got[3] == ("sent", None, later) and got[1] == ("queued", "ノート 1", when + dt.timedelta(seconds=1))
    database.dispose()


def test_bulk_statement_refuses_an_in_list() -> None:
    from sqlalchemy import bindparam, update
    from sqlalchemy.dialects import sqlite

    from core.store.db import _CompiledBulk

    table = _bulk_table()
    statement = update(table).where(table.c.id.in_(bindparam("ids", expanding=True))).values(status="sent")
    with pytest.raises(ValueError, match="expanding"):
        _CompiledBulk(statement, sqlite.dialect())
