"""0003 (e-mail channel and alerts) over a database that already has deliveries and attempts."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from core.store import migrate
from core.store.db import Database
from core.store.paths import DataPaths


def _deliveries_with_attempts(db: Database) -> None:
    with db.write() as s:
        s.execute(text(
            "INSERT INTO teachers (id, name, line_opt_in, email_opt_in, active, created_at, updated_at)"
            " VALUES (1, 'a', 1, 0, 1, '2026-11-01 00:00:00', '2026-11-01 00:00:00')"))
        s.execute(text(
            "INSERT INTO deliveries (id, kind, channel, dedup_key, status, attempt_count, due_at, next_attempt_at,"
            " created_at, updated_at, teacher_id) VALUES (1, 'shift_reminder', 'line', 'k1', 'sent', 1, '2026-11-01 00:00:00',"
            " '2026-11-01 00:00:00', '2026-11-01 00:00:00', '2026-11-01 00:00:00', 1)"))
        s.execute(text(
            "INSERT INTO delivery_attempts (delivery_id, number, started_at, outcome) VALUES (1, 1,"
            " '2026-11-01 00:00:00', 'sent')"))


def test_upgrade_and_downgrade_keep_deliveries_that_attempts_point_at(paths: DataPaths) -> None:
    db = Database(paths.database_url())
    try:
        migrate.upgrade(db, revision="0002_outbox")
        _deliveries_with_attempts(db)
        migrate.upgrade(db, revision="0003_email_alerts")  # teachers' channel column lives until 0013
        with db.read() as s:
            assert s.execute(text("SELECT alert_id FROM deliveries")).all() == [(None,)]
            assert s.execute(text("SELECT channel FROM teachers")).all() == [("line",)]
        migrate.upgrade(db)  # at head the delivery names no subject, and the teacher is reached on LINE
        with db.read() as s:
            assert s.execute(text("SELECT subject_type, subject_id FROM deliveries")).all() == [(None, None)]
            assert s.execute(text("SELECT channel FROM teacher_contacts")).all() == [("line",)]
        config = migrate.alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0002_outbox")
        with db.read() as s:
            assert s.execute(text("SELECT count(*) FROM delivery_attempts")).scalar_one() == 1
            assert s.execute(text("SELECT count(*) FROM deliveries")).scalar_one() == 1
            assert s.execute(text("SELECT count(*) FROM teachers")).scalar_one() == 1
            assert s.execute(text("PRAGMA foreign_key_check")).all() == []
        migrate.upgrade(db)
        assert migrate.current_revision(db) == migrate.head_revision()
    finally:
        db.dispose()


def test_existing_teachers_default_to_line(paths: DataPaths) -> None:
    db = Database(paths.database_url())
    try:
        migrate.upgrade(db, revision="0002_outbox")
        with db.write() as s:
            s.execute(text(
                "INSERT INTO teachers (id, name, line_opt_in, email_opt_in, active, created_at, updated_at)"
                " VALUES (1, 'a', 1, 0, 1, '2026-11-01 00:00:00', '2026-11-01 00:00:00')"))
        migrate.upgrade(db, revision="0003_email_alerts")
        with db.read() as s:
            assert s.execute(text("SELECT channel, line_unreachable_at FROM teachers")).all() == [("line", None)]
        migrate.upgrade(db)  # and at head, as contacts: LINE only
        with db.read() as s:
            assert s.execute(text("SELECT contact_rule FROM teachers")).all() == [("every",)]
            assert s.execute(text("SELECT channel, rank, unreachable_since FROM teacher_contacts")).all() == [
                ("line", 0, None)]
    finally:
        db.dispose()
