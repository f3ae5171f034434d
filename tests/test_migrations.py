"""The database survives upgrades: every row written at the first schema is still there at head."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, select, text
from sqlalchemy.orm import Session

from core.store import identity, migrate
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import Base
from core.store.paths import DataPaths

FIRST = "0001_roster"
ROOT = Path(__file__).resolve().parent.parent


def _fill_first_schema(db: Database) -> dict[str, int]:
    with db.write() as s:
        s.execute(text(
            "INSERT INTO classrooms (id, name, timezone, line_group_id, reminder_lead_minutes,"
            " quiet_hours_enabled, quiet_start, quiet_end, language, liff_id, created_at)"
            " VALUES (1, '本校', 'Asia/Tokyo', :g, 120, 1, '22:00:00', '07:00:00', 'ja', NULL, '2026-11-01 00:00:00')"
        ), {"g": "C" + "a" * 32})
        for i in range(1, 31):
            s.execute(text(
                "INSERT INTO teachers (id, name, line_user_id, email, line_opt_in, email_opt_in, active,"
                " erased_at, created_at, updated_at) VALUES (:i, :n, :u, :e, 1, 0, 1, NULL,"
                " '2026-11-01 00:00:00', '2026-11-01 00:00:00')"
            ), {"i": i, "n": f"先生{i}", "u": f"U{i:032x}", "e": f"t{i}@example.com"})
        for i in range(1, 301):
            s.execute(text(
                "INSERT INTO shifts (id, classroom_id, teacher_id, local_date, start_time, end_time,"
                " ends_next_day, note, status, version, created_at, updated_at) VALUES (:i, 1, :t,"
                " :d, '16:00:00.000000', '21:00:00.000000', 0, 'メモ', 'confirmed', 2,"
                " '2026-11-01 00:00:00', '2026-11-01 00:00:00')"
            ), {"i": i, "t": (i % 30) + 1, "d": f"2026-12-{(i % 28) + 1:02d}"})
            s.execute(text(
                "INSERT INTO shift_revisions (shift_id, version, classroom_id, teacher_id, local_date,"
                " start_time, end_time, ends_next_day, status, recorded_at) VALUES (:i, 2, 1, :t, :d,"
                " '16:00:00.000000', '21:00:00.000000', 0, 'confirmed', '2026-11-01 00:00:00')"
            ), {"i": i, "t": (i % 30) + 1, "d": f"2026-12-{(i % 28) + 1:02d}"})
        s.execute(text("INSERT INTO settings (key, value) VALUES ('language', 'ja')"))
    return _dump(db)


# The columns each table had at the first schema; later migrations may add columns, never change these.
FIRST_COLUMNS = {
    "teachers": "id, name, line_user_id, email, line_opt_in, email_opt_in, active, erased_at, created_at, updated_at",
    "shifts": "id, classroom_id, teacher_id, local_date, start_time, end_time, ends_next_day, note, status, version,"
              " created_at, updated_at",
}


def _dump(db: Database) -> dict[str, int]:
    tables = ["classrooms", "teachers", "shifts", "shift_revisions", "settings"]
    with db.read() as s:
        return {
            t: hash(tuple(tuple(r) for r in s.execute(text(f"SELECT {FIRST_COLUMNS.get(t, '*')} FROM {t} ORDER BY 1")).all()))
            for t in tables
        } | {f"{t}_count": s.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables}


def test_upgrade_from_first_migration_keeps_every_row(paths: DataPaths) -> None:
    db = Database(paths.database_url())
    migrate.upgrade(db, revision=FIRST)
    assert migrate.current_revision(db) == FIRST
    before = _fill_first_schema(db)
    assert before["shifts_count"] == 300
    db.dispose()

    upgraded = open_database(paths)  # what every start-up does
    try:
        assert migrate.current_revision(upgraded) == migrate.head_revision()
        assert _dump(upgraded) == before
        backups = list(paths.backups.glob("shiftcast-*-before-0001_roster.db"))
        assert len(backups) == 1
        copy = sqlite3.connect(backups[0])
        assert copy.execute("SELECT count(*) FROM shifts").fetchone()[0] == 300
        copy.close()
    finally:
        upgraded.dispose()


@pytest.mark.backends("sqlite", "postgresql")
def test_no_backup_or_change_when_already_at_head(paths: DataPaths, db: Database) -> None:
    assert migrate.upgrade(db, backup_dir=paths.backups) is None
    assert list(paths.backups.iterdir()) == []


@pytest.mark.backends("sqlite", "postgresql")
def test_models_match_the_migrations(db: Database) -> None:
    """Head of the migrations creates exactly the schema the ORM declares."""
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


@pytest.mark.backends("sqlite", "postgresql")
def test_the_claimable_index_is_partial_on_both_backends(db: Database) -> None:
    """compare_metadata ignores index conditions, and the model names only SQLite's: the migration's hold."""
    from core.store.kinds import DeliveryStatus
    from core.store.models import Delivery

    index = next(ix for ix in Delivery.__table__.indexes if ix.name == "ix_deliveries_claimable")
    claimable = {str(status) for status in DeliveryStatus if f"'{status}'" in str(index.dialect_kwargs["sqlite_where"])}
    assert claimable == {"pending", "queued", "processing"}
    query = ("SELECT sql FROM sqlite_master WHERE name = 'ix_deliveries_claimable'" if db.is_sqlite
             else "SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_deliveries_claimable'")
    with db.read() as s:
        definition = s.execute(text(query)).scalar_one()
    where = definition.split("WHERE", 1)[1]
    assert {status for status in map(str, DeliveryStatus) if f"'{status}'" in where} == claimable, definition


@pytest.mark.backends("sqlite", "postgresql")
def test_downgrade_to_first_and_back(paths: DataPaths, db: Database) -> None:
    from alembic import command

    config = migrate.alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, FIRST)
    assert migrate.current_revision(db) == FIRST
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.head_revision()


def test_0004_records_from_old_rows_whether_the_error_was_at_the_recipient(paths: DataPaths) -> None:
    """Rows failed before the column existed keep what the fallback made of their message text."""
    db = Database(paths.database_url())
    try:
        migrate.upgrade(db, revision="0003_email_alerts")
        rows = {  # id: (channel, code, message, at the recipient after the upgrade)
            1: ("line", "LINE_404", "HTTP 404: Not found", True),
            2: ("line", "LINE_400", "HTTP 400: The request body has 1 error(s); to: The property, 'to', is invalid", True),
            3: ("line", "LINE_400", "to: The property, 'to', is invalid", True),
            4: ("line", "LINE_400", "HTTP 400: The request body has 1 error(s); messages[0].text: May not be empty", False),
            5: ("line", "LINE_5XX", "HTTP 500: to: nowhere", False),
            6: ("email", "SMTP_5XX", "SMTP 550: to: unknown", False),
            7: ("line", None, None, False),
        }
        with db.write() as s:
            for i, (channel, code, message, _) in rows.items():
                s.execute(text(
                    "INSERT INTO deliveries (id, kind, channel, dedup_key, status, attempt_count, due_at,"
                    " next_attempt_at, created_at, updated_at, last_error_code, last_error_message) VALUES (:i,"
                    " 'shift_reminder', :c, :k, 'failed', 1, '2026-11-01 00:00:00', '2026-11-01 00:00:00',"
                    " '2026-11-01 00:00:00', '2026-11-01 00:00:00', :code, :m)"),
                    {"i": i, "c": channel, "k": f"k{i}", "code": code, "m": message})
        migrate.upgrade(db, revision="0004_error_at_recipient")
        assert migrate.current_revision(db) == "0004_error_at_recipient"
        with db.read() as s:
            found = dict(s.execute(text("SELECT id, last_error_at_recipient FROM deliveries")).all())
        assert found == {i: int(flag) for i, (_, _, _, flag) in rows.items()}

        from alembic import command

        config = migrate.alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0003_email_alerts")
        with db.read() as s:
            assert s.execute(text("SELECT count(*) FROM deliveries")).scalar_one() == len(rows)
    finally:
        db.dispose()
def test_the_head_constant_is_alembics_head() -> None:
    # Start-up compares alembic_version with HEAD_REVISION instead of loading Alembic: a new migration
    # must move the constant too, or databases would never be upgraded to it.
    assert migrate.head_revision() == migrate.HEAD_REVISION


def test_an_at_head_database_is_checked_without_alembic(paths: DataPaths, db: Database) -> None:
    code = (
        "import sys\n"
        "from core.store.bootstrap import open_database\n"
        "from core.store.paths import data_paths\n"
        "open_database(data_paths()).dispose()\n"
        "assert 'alembic' not in sys.modules, 'alembic was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_database_behind_head_is_still_upgraded_with_a_backup(paths: DataPaths) -> None:
    db = Database(paths.database_url())
    migrate.upgrade(db, revision="0002_outbox")
    db.dispose()
    upgraded = open_database(paths)
    try:
        assert migrate.current_revision(upgraded) == migrate.HEAD_REVISION
        assert len(list(paths.backups.glob("shiftcast-*-before-0002_outbox.db"))) == 1
    finally:
        upgraded.dispose()


def test_0010_expires_the_unused_short_codes_so_teachers_get_new_ones(paths: DataPaths) -> None:
    """Codes issued before are too short to stay unguessed for their 7 days: the upgrade retires the live ones."""
    import datetime as dt

    from core.receiving import pairing
    from core.store.models import PairingCode
    from tests import factories as f

    db = Database(paths.database_url())
    try:
        migrate.upgrade(db, revision="0008_senders")
        issued = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(days=1)
        with db.write() as s:
            room = f.classroom(s, "本校")
            waiting = f.teacher(s, "青木", 1, line_user_id=None, line_opt_in=False)
            paired = f.teacher(s, "井上", 2)
            s.add_all([
                PairingCode(code="AB3DE5", teacher_id=waiting.id, classroom_id=room.id, issued_at=issued,
                            expires_at=issued + pairing.CODE_LIFE),
                PairingCode(code="CD4EF6", teacher_id=paired.id, classroom_id=room.id, issued_at=issued,
                            expires_at=issued + pairing.CODE_LIFE, used_at=issued, used_by=paired.line_user_id),
            ])
            room_id, waiting_id = room.id, waiting.id
        before = dt.datetime.now(dt.UTC)
        migrate.upgrade(db)
        after = dt.datetime.now(dt.UTC)
        with db.write() as s:
            rows = {row.code: row for row in s.scalars(select(PairingCode))}
            assert before - dt.timedelta(seconds=1) <= rows["AB3DE5"].expires_at <= after
            assert not pairing.is_live(rows["AB3DE5"].expires_at, None, after)
            assert rows["CD4EF6"].expires_at == issued + pairing.CODE_LIFE  # the record of a pairing stays
            new = {c.teacher_id: c.code for c in pairing.issue_codes(s, after, room_id)}
        assert list(new) == [waiting_id] and len(pairing.as_code(new[waiting_id]) or "") == pairing.CODE_LENGTH
    finally:
        db.dispose()


def _downgrade(db: Database, revision: str) -> None:
    from alembic import command

    config = migrate.alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _room_and_teacher(s: Session) -> tuple[int, int]:
    """A classroom and a teacher written as the schemas since 0010 take them, without the ORM."""
    room_id = s.execute(text("INSERT INTO classrooms (name, timezone, reminder_lead_minutes, quiet_hours_enabled,"
                             " quiet_start, quiet_end, language, created_at) VALUES ('本校', 'Asia/Tokyo', 120,"
                             " :yes, '22:00:00', '07:00:00', 'ja', '2026-11-01 00:00:00') RETURNING id"),
                        {"yes": True}).scalar_one()
    teacher_id = s.execute(text("INSERT INTO teachers (name, line_opt_in, email_opt_in, active, channel,"
                                " created_at, updated_at) VALUES ('先生', :yes, :no, :yes, 'line',"
                                " '2026-11-01 00:00:00', '2026-11-01 00:00:00') RETURNING id"),
                           {"yes": True, "no": False}).scalar_one()
    return room_id, teacher_id


@pytest.mark.backends("sqlite", "postgresql")
def test_0011_gives_every_shift_and_publication_a_uid_every_copy_derives_alike(db: Database) -> None:
    """The retry keys of their messages name these uids: each row needs one, and no two rows share it."""
    import datetime as dt

    from core.store.models import Publication, Shift
    from tests import factories as f

    _downgrade(db, "0010_pairing_limits")
    with db.write() as s:
        room_id, teacher_id = _room_and_teacher(s)
        for day in range(1, 4):
            s.execute(text("INSERT INTO shifts (classroom_id, teacher_id, local_date, start_time, end_time,"
                           " ends_next_day, note, status, version, created_at, updated_at) VALUES (:r, :t, :d,"
                           " '16:00:00', '21:00:00', :no, '', 'confirmed', 1, '2026-11-01 00:00:00',"
                           " '2026-11-01 00:00:00')"), {"r": room_id, "t": teacher_id, "d": dt.date(2026, 12, day),
                                                        "no": False})
        s.execute(text("INSERT INTO publications (classroom_id, year, month, revision, document_id, is_update,"
                       " image_sha256, image_bytes, image_width, image_height, preview_sha256, preview_bytes,"
                       " snapshot_json, changes_json, created_at) VALUES (:r, 2026, 12, 1, 'doc', :no, 'a', 1, 1, 1,"
                       " 'b', 1, '{}', '[]', '2026-11-01 00:00:00')"), {"r": room_id, "no": False})
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    with db.write() as s:
        room, teacher = f.classroom(s, "分校"), f.teacher(s, "後藤", 2)
        f.shift(s, room, teacher, dt.date(2026, 12, 5), now=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))  # made at head
        uids = list(s.scalars(select(Shift.uid))) + list(s.scalars(select(Publication.uid)))
        older = {i: uid for i, uid in s.execute(select(Shift.id, Shift.uid).where(Shift.classroom_id == room_id))}
        older_publication = s.execute(select(Publication.id, Publication.uid)).one()
        namespace = uuid.UUID(identity.database_identity(s))
    assert len(uids) == 5 and len(set(uids)) == 5
    assert all(uid == str(uuid.UUID(uid)) for uid in uids)  # UUID text, never the column's empty default
    # Rows that existed before the upgrade get the uid any copy of this database gets for them when
    # upgraded on its own: derived from the database's identity and the row, not drawn.
    assert older == {i: str(uuid.uuid5(namespace, f"shifts:{i}")) for i in older}
    assert older_publication[1] == str(uuid.uuid5(namespace, f"publications:{older_publication[0]}"))


# Deliveries of every kind as 0011 stored them: (id, kind, channel, shift, shift version, publication,
# alert, linked delivery, retry key).
AT_0011 = (
    (1, "shift_reminder", "line", 1, 2, None, None, None, "11111111-1111-4111-8111-111111111111"),
    (2, "shift_correction", "line", 1, 3, None, None, None, "22222222-2222-4222-8222-222222222222"),
    (3, "shift_correction", "email", 1, 3, None, None, 2, None),  # the fallback copy of 2
    (4, "shift_publication", "line", None, None, 1, None, None, "44444444-4444-4444-8444-444444444444"),
    (5, "shift_publication", "email", None, None, 1, None, None, None),
    (6, "alert", "webhook", None, None, None, 1, None, None),
    (7, "alert", "email", None, None, None, 1, None, None),
    (8, "shift_reminder", "line", None, None, None, None, None, None),  # its shift was never recorded
)


@pytest.mark.backends("sqlite", "postgresql")
def test_0012_names_every_delivery_s_subject_as_0011_did(db: Database) -> None:
    """Every row keeps what it is about, its version, dedup key, retry key and attempts; downgrading
    gives the old columns back with the same values."""

    _downgrade(db, "0011_subject_uids")
    with db.write() as s:
        room, teacher = _room_and_teacher(s)
        s.execute(text("INSERT INTO shifts (id, uid, classroom_id, teacher_id, local_date, start_time, end_time,"
                       " ends_next_day, note, status, version, created_at, updated_at) VALUES (1, 'shift-uid', :r,"
                       " :t, '2026-12-01', '16:00:00', '21:00:00', :no, '', 'confirmed', 3, '2026-11-01 00:00:00',"
                       " '2026-11-01 00:00:00')"), {"r": room, "t": teacher, "no": False})
        s.execute(text("INSERT INTO publications (id, uid, classroom_id, year, month, revision, document_id,"
                       " is_update, image_sha256, image_bytes, image_width, image_height, preview_sha256,"
                       " preview_bytes, snapshot_json, changes_json, created_at) VALUES (1, 'publication-uid', :r,"
                       " 2026, 12, 1, 'doc', :no, 'a', 1, 1, 1, 'b', 1, '{}', '[]', '2026-11-01 00:00:00')"),
                  {"r": room, "no": False})
        s.execute(text("INSERT INTO alerts (id, kind, scope, open_key, title, detail, opened_at, last_seen_at)"
                       " VALUES (1, 'dead_letter', '', 'dead_letter:', 't', '', '2026-11-01 00:00:00',"
                       " '2026-11-01 00:00:00')"))
        for row in AT_0011:
            d_id, kind, channel, shift, version, publication, alert, linked, key = row
            s.execute(text(
                "INSERT INTO deliveries (id, kind, channel, dedup_key, teacher_id, classroom_id, shift_id,"
                " shift_version, publication_id, alert_id, linked_delivery_id, status, attempt_count, due_at,"
                " next_attempt_at, retry_key, created_at, updated_at) VALUES (:id, :kind, :channel, :dedup, :t, :r,"
                " :shift, :version, :publication, :alert, :linked, 'sent', 1, '2026-11-01 00:00:00',"
                " '2026-11-01 00:00:00', :key, '2026-11-01 00:00:00', '2026-11-01 00:00:00')"),
                {"id": d_id, "kind": kind, "channel": channel, "dedup": f"{kind}:{d_id}:{channel}", "t": teacher,
                 "r": room, "shift": shift, "version": version, "publication": publication, "alert": alert,
                 "linked": linked, "key": key})
            s.execute(text("INSERT INTO delivery_attempts (delivery_id, number, started_at, outcome, retry_key)"
                           " VALUES (:id, 1, '2026-11-01 00:00:00', 'sent', :key)"), {"id": d_id, "key": key})
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION == "0012_delivery_subjects"
    expected = {}
    for d_id, kind, channel, shift, version, publication, alert, linked, key in AT_0011:
        subject = (("shift", shift, version) if shift is not None else ("publication", publication, None)
                   if publication is not None else ("alert", alert, None) if alert is not None else (None, None, None))
        expected[d_id] = (kind, channel, *subject, f"{kind}:{d_id}:{channel}", key, linked)
    with db.read() as s:
        rows = s.execute(text("SELECT id, kind, channel, subject_type, subject_id, subject_version, dedup_key,"
                              " retry_key, linked_delivery_id FROM deliveries ORDER BY id")).all()
        attempts = s.execute(text("SELECT delivery_id, retry_key FROM delivery_attempts ORDER BY delivery_id")).all()
        columns = {c["name"] for c in inspect(s.connection()).get_columns("deliveries")}
        indexes = {ix["name"]: ix["column_names"] for ix in inspect(s.connection()).get_indexes("deliveries")}
        if db.is_sqlite:
            assert s.execute(text("PRAGMA foreign_key_check")).all() == []
    assert {r[0]: tuple(r[1:]) for r in rows} == expected
    assert attempts == [(d_id, key) for d_id, *_, key in AT_0011]
    assert not columns & {"shift_id", "shift_version", "publication_id", "alert_id"}
    assert indexes["ix_deliveries_subject"] == ["subject_type", "subject_id", "subject_version"]
    assert "ix_deliveries_claimable" in indexes and "ix_deliveries_shift" not in indexes
    # What the sender's retry keys name is found as before: the uid of the shift or publication.
    from core.sending import prepare

    with db.read() as s:
        uids = {d.id: uid for d, _, uid, _ in s.execute(prepare._CLAIMED, {"ids": [r[0] for r in AT_0011]})}
    assert uids == {1: "shift-uid", 2: "shift-uid", 3: "shift-uid", 4: "publication-uid", 5: "publication-uid",
                    6: None, 7: None, 8: None}

    _downgrade(db, "0011_subject_uids")
    with db.read() as s:
        back = s.execute(text("SELECT id, shift_id, shift_version, publication_id, alert_id FROM deliveries"
                              " ORDER BY id")).all()
    assert back == [(d_id, shift, version, publication, alert)
                    for d_id, _, _, shift, version, publication, alert, _, _ in AT_0011]
    migrate.upgrade(db)
