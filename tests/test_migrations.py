"""The database survives upgrades: every row written at the first schema is still there at head."""

from __future__ import annotations

import datetime as dt
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
from tests.factories import table

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


# From migration 0012 on, a teacher's LINE and e-mail columns are their contacts: the same values, read there.
TEACHERS_AS_CONTACTS = (
    "SELECT t.id, t.name, l.address, m.address, l.agreed_at IS NOT NULL, m.agreed_at IS NOT NULL, t.active,"
    " t.erased_at, t.created_at, t.updated_at FROM teachers t"
    " LEFT JOIN teacher_contacts l ON l.teacher_id = t.id AND l.channel = 'line'"
    " LEFT JOIN teacher_contacts m ON m.teacher_id = t.id AND m.channel = 'email' ORDER BY 1")


def _dump(db: Database) -> dict[str, int]:
    tables = ["classrooms", "teachers", "shifts", "shift_revisions", "settings"]
    with db.read() as s:
        contacts = inspect(s.connection()).has_table("teacher_contacts")

        def query(t: str) -> str:
            if t == "teachers" and contacts:
                return TEACHERS_AS_CONTACTS
            return f"SELECT {FIRST_COLUMNS.get(t, '*')} FROM {t} ORDER BY 1"

        return {
            t: hash(tuple(tuple(r) for r in s.execute(text(query(t))).all()))
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

    index = next(ix for ix in table(Delivery).indexes if ix.name == "ix_deliveries_claimable")
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
            found: dict[int, int] = dict(s.execute(text("SELECT id, last_error_at_recipient FROM deliveries")).all())
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
            # Teachers as the schema at 0008 has them (the ORM's are today's).
            teacher_sql = text("INSERT INTO teachers (name, line_user_id, line_opt_in, email_opt_in, active, channel,"
                               " created_at, updated_at) VALUES (:n, :u, :ok, :no, :yes, 'line', '2026-11-01 00:00:00',"
                               " '2026-11-01 00:00:00') RETURNING id")
            waiting_id = s.execute(teacher_sql, {"n": "青木", "u": None, "ok": False, "no": False, "yes": True}).scalar_one()
            paired_id, paired_user = s.execute(teacher_sql, {"n": "井上", "u": f"U{2:032x}", "ok": True, "no": False,
                                                             "yes": True}).scalar_one(), f"U{2:032x}"
            s.add_all([
                PairingCode(code="AB3DE5", teacher_id=waiting_id, classroom_id=room.id, issued_at=issued,
                            expires_at=issued + pairing.CODE_LIFE),
                PairingCode(code="CD4EF6", teacher_id=paired_id, classroom_id=room.id, issued_at=issued,
                            expires_at=issued + pairing.CODE_LIFE, used_at=issued, used_by=paired_user),
            ])
            room_id = room.id
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


@pytest.mark.backends("sqlite", "postgresql")
def test_0012_adds_a_counter_per_topic_and_keeps_every_row(db: Database) -> None:
    """A database at 0011 with rows in it: the rows stay, every topic of core/store/events.py gets its
    counter, and the first commit that emits an event bumps it."""
    import datetime as dt

    from alembic import command

    from core.store import events
    from tests import factories as f

    with db.write() as s:  # made with today's models, then taken down to 0011 with the rest of the schema
        room, teacher = f.classroom(s), f.teacher(s)
        for day in range(1, 4):
            f.shift(s, room, teacher, dt.date(2026, 12, day), now=dt.datetime(2026, 11, 1, tzinfo=dt.UTC))
    config = migrate.alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0011_subject_uids")
    # The teachers' table changes shape in a later migration (its own test follows them across).
    kept = ("shifts", "shift_revisions", "classrooms")
    before = {t: s_ for t, s_ in _table_rows(db, kept)}
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert {t: s_ for t, s_ in _table_rows(db, kept)} == before
    with db.read() as s:
        counters = {topic: seq for topic, seq in s.execute(text("SELECT topic, seq FROM changes"))}
    assert counters == {topic: 0 for topic in events.TOPICS}
    with db.write() as s:
        f.shift(s, room, teacher, dt.date(2026, 12, 9), now=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
    with db.read() as s:
        assert s.execute(text("SELECT seq FROM changes WHERE topic = 'shifts'")).scalar_one() == 1


def _table_rows(db: Database, tables: tuple[str, ...]) -> list[tuple[str, list[tuple[object, ...]]]]:
    with db.read() as s:
        return [(t, [tuple(r) for r in s.execute(text(f"SELECT * FROM {t} ORDER BY 1"))]) for t in tables]


# (name, line_user_id, email, line_opt_in, line_opt_in_at, email_opt_in, channel, line_unreachable_at, erased)
PAIRED, TICKED, GONE = "2026-10-01 09:00:00", "2026-11-01 00:00:00", "2026-10-20 12:00:00"
TEACHERS_AT_0011 = [
    ("線", f"U{1:032x}", None, True, PAIRED, False, "line", None, False),
    ("印", f"U{2:032x}", "b@example.com", True, None, False, "line", None, False),  # the manager's tick
    ("便", f"U{3:032x}", "c@example.com", False, None, True, "email", None, False),  # a LINE ID kept, not used
    ("両", f"U{4:032x}", "d@example.com", True, PAIRED, True, "both", None, False),
    ("落", f"U{5:032x}", "e@example.com", True, PAIRED, True, "line_fallback", GONE, False),
    ("待", None, None, False, None, False, "line_fallback", None, False),  # nothing yet
    ("未", None, "g@example.com", False, None, False, "email", None, False),  # an address, no consent
    ("保", f"U{8:032x}", "h@example.com", True, PAIRED, False, "line_fallback", None, False),  # no e-mail consent
    (None, None, None, False, None, False, "both", None, True),  # erased
]


def _at(text_: str | None) -> dt.datetime | None:
    return None if text_ is None else dt.datetime.fromisoformat(text_).replace(tzinfo=dt.UTC)


@pytest.mark.backends("sqlite", "postgresql")
def test_0013_reaches_every_teacher_by_their_contacts_exactly_as_their_choice_did(db: Database) -> None:
    """LINE → line only; EMAIL → e-mail only; BOTH → both; LINE_FALLBACK → LINE, then e-mail; the
    addresses, consents and LINE's reachability carried across, the history pointing at them kept."""
    from alembic import command

    from core.roster import channel_choice, contacts, rules
    from core.store.models import Shift, Teacher, TeacherContact
    from tests import factories as f

    config = migrate.alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0011_subject_uids")
    ids = {}
    with db.write() as s:
        room_id = s.execute(text("INSERT INTO classrooms (name, timezone, reminder_lead_minutes, quiet_hours_enabled,"
                                 " quiet_start, quiet_end, language, created_at) VALUES ('本校', 'Asia/Tokyo', 120,"
                                 " :yes, '22:00:00', '07:00:00', 'ja', '2026-11-01 00:00:00') RETURNING id"),
                            {"yes": True}).scalar_one()
        for name, line_id, email, line_ok, paired, email_ok, choice, gone, erased in TEACHERS_AT_0011:
            teacher_id = s.execute(text(
                "INSERT INTO teachers (name, line_user_id, email, line_opt_in, line_opt_in_at, email_opt_in, active,"
                " channel, line_unreachable_at, erased_at, created_at, updated_at) VALUES (:n, :u, :e, :lo, :la, :eo,"
                " :active, :c, :gone, :erased, '2026-11-01 00:00:00', :updated) RETURNING id"),
                {"n": name, "u": line_id, "e": email, "lo": line_ok, "la": _at(paired), "eo": email_ok, "c": choice,
                 "gone": _at(gone), "active": not erased, "erased": _at(TICKED) if erased else None,
                 "updated": _at(TICKED)}).scalar_one()
            ids[name] = teacher_id
            s.execute(text("INSERT INTO shifts (uid, classroom_id, teacher_id, local_date, start_time, end_time,"
                           " ends_next_day, note, status, version, created_at, updated_at) VALUES (:uid, :r, :t, :d,"
                           " '16:00:00', '21:00:00', :no, '', 'confirmed', 1, '2026-11-01 00:00:00',"
                           " '2026-11-01 00:00:00')"),
                      {"uid": str(uuid.uuid4()), "r": room_id, "t": teacher_id, "d": dt.date(2026, 12, 1), "no": False})
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION

    with db.write() as s:
        by_name = {t.id: t for t in s.scalars(select(Teacher))}
        planned = {name: contacts.planned_for(by_name[i]) for name, i in ids.items()}
        assert planned == {"線": ("line",), "印": ("line",), "便": ("email",), "両": ("line", "email"),
                           "落": ("email",),  # LINE said it cannot reach them: e-mail, as before
                           "待": (), "未": (), "保": ("line",), None: ()}
        assert {name: channel_choice.of(by_name[i]).word for name, i in ids.items() if name} == {
            "線": "line", "印": "line", "便": "email", "両": "both", "落": "line_fallback", "待": "line_fallback",
            "未": "email", "保": "line_fallback"}
        rows = {(c.teacher_id, c.channel): (c.address, c.agreed_at, c.agreed_by_teacher, c.unreachable_since, c.rank)
                for c in s.scalars(select(TeacherContact))}
        assert rows[(ids["線"], "line")] == (f"U{1:032x}", _at(PAIRED), True, None, 0)
        assert rows[(ids["印"], "line")] == (f"U{2:032x}", _at(TICKED), False, None, 0)  # consent since the tick
        assert rows[(ids["印"], "email")] == ("b@example.com", None, False, None, None)
        assert rows[(ids["便"], "line")] == (f"U{3:032x}", None, False, None, None)  # kept, not used
        assert rows[(ids["便"], "email")] == ("c@example.com", _at(TICKED), False, None, 0)
        assert rows[(ids["落"], "line")] == (f"U{5:032x}", _at(PAIRED), True, _at(GONE), 0)
        assert rows[(ids["落"], "email")] == ("e@example.com", _at(TICKED), False, None, 1)
        assert rows[(ids["待"], "line")] == (None, None, False, None, 0)
        assert rows[(ids["待"], "email")] == (None, None, False, None, 1)
        assert not [key for key in rows if key[0] == ids[None]]  # an erased teacher has nothing to reach them by
        assert {by_name[i].contact_rule.value for name, i in ids.items()} == {"every", "first"}
        assert len(list(s.scalars(select(Shift)))) == len(TEACHERS_AT_0011)  # the history still points at them
        with pytest.raises(Exception, match="already belongs"):  # one teacher per LINE user ID, still
            f.teacher(s, "新", 1)
        assert rules.get_teacher(s, ids["保"]).contacts  # loaded with the teacher

    with db.engine.begin() as connection:  # and back: the old columns say what they said
        config.attributes["connection"] = connection
        command.downgrade(config, "0011_subject_uids")
    with db.read() as s:
        back = {row[0]: tuple(row[1:]) for row in s.execute(text(
            "SELECT name, line_user_id, email, line_opt_in, email_opt_in, channel FROM teachers WHERE name IS NOT NULL"))}
    assert back == {name: (line_id, email, bool(line_ok), bool(email_ok), choice)
                    for name, line_id, email, line_ok, _, email_ok, choice, _, _ in TEACHERS_AT_0011 if name}


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
def test_0014_names_every_delivery_s_subject_as_0011_did(db: Database) -> None:
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
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
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


def _a_new_column_keeps_every_row(db: Database, table: str, column: str, below: str,
                                  kept: tuple[str, ...]) -> tuple[list[tuple[str, list[tuple[object, ...]]]], list[str]]:
    """Take the database down to `below` and up to head again: every row of `kept` and of `table` stays
    as it was, and `column` is new in `table` and empty in every row. The rows at `below`, and the
    columns `table` had there."""
    _downgrade(db, below)
    before = _table_rows(db, (*kept, table))
    then = [c["name"] for c in inspect(db.engine).get_columns(table)]  # later migrations may add more
    assert column not in then
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    with db.read() as s:
        rows = [tuple(r) for r in s.execute(text(f"SELECT {', '.join(then)} FROM {table} ORDER BY 1"))]
        added = list(s.execute(text(f"SELECT {column} FROM {table}")).scalars())
    assert _table_rows(db, kept) + [(table, rows)] == before
    assert added == [None] * len(rows)
    return before, then


@pytest.mark.backends("sqlite", "postgresql")
def test_0015_gives_teachers_a_reading_and_keeps_every_row(db: Database) -> None:
    """A database at 0014 with teachers, their contacts and shifts: every row stays as it was, each teacher
    starts without a reading and can be given one; going back drops the column and nothing else."""
    from core.roster import rules
    from tests import factories as f

    with db.write() as s:  # made with today's models, then taken down to 0014 with its rows
        room = f.classroom(s)
        for n, name in enumerate(("中村", "伊藤", "佐藤"), start=1):
            teacher = f.teacher(s, name, n, email=f"t{n}@example.com", email_opt_in=True)
            f.shift(s, room, teacher, dt.date(2026, 12, n), now=dt.datetime(2026, 11, 1, tzinfo=dt.UTC))
    kept = ("teacher_contacts", "shifts", "classrooms")
    before, _then = _a_new_column_keeps_every_row(db, "teachers", "reading", "0014_delivery_subjects", kept)
    with db.write() as s:
        assert [t.name for t in rules.list_teachers(s)] == ["中村", "伊藤", "佐藤"]  # by name until given readings
        for name, said in (("中村", "なかむら"), ("伊藤", "いとう"), ("佐藤", "さとう")):
            rules.update_teacher(s, rules.teacher_by_name(s, name).id, reading=said)
    with db.read() as s:
        assert [t.name for t in rules.list_teachers(s)] == ["伊藤", "佐藤", "中村"]

    _downgrade(db, "0014_delivery_subjects")  # and back: the rows as they were at 0014, but for the readings' edit time
    assert _table_rows(db, kept) == before[:len(kept)]
    assert "reading" not in [c["name"] for c in inspect(db.engine).get_columns("teachers")]
    with db.read() as s:
        back = [tuple(r) for r in s.execute(text("SELECT id, name, active, erased_at, created_at, contact_rule"
                                                 " FROM teachers ORDER BY 1"))]
    assert back == [(r[0], r[1], r[2], r[3], r[4], r[6]) for r in before[-1][1]]
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0016_gives_publications_pages_and_keeps_every_row(db: Database, tmp_path: Path) -> None:
    """A database at 0015 with a published month and its delivery: every row stays as it was and the
    publication has no pages (it goes out with its grid, as before); going back drops only the column."""
    from core.publication import publish
    from core.publication.image_store import ImageStore
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0015 with its rows
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        f.shift(s, room, f.teacher(s, "佐藤", 1), dt.date(2026, 12, 3), now=now)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
    kept = ("deliveries", "shifts", "classrooms")
    before, _then = _a_new_column_keeps_every_row(db, "publications", "pages_json", "0015_teacher_reading", kept)
    assert len(before[-1][1]) == 1  # the one publication, without pages

    _downgrade(db, "0015_teacher_reading")
    assert _table_rows(db, (*kept, "publications")) == before
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0017_gives_teachers_a_place_in_the_order_and_keeps_every_row(db: Database) -> None:
    """A database at 0016 with teachers (readings given), their contacts and shifts: every row stays as it
    was, each teacher starts without a place, so the list is by reading as before, and can be moved;
    going back drops the column and nothing else."""
    from core.roster import order, rules
    from tests import factories as f

    with db.write() as s:  # made with today's models, then taken down to 0016 with its rows
        room = f.classroom(s)
        for n, (name, said) in enumerate((("中村", "なかむら"), ("伊藤", "いとう"), ("佐藤", "さとう")), start=1):
            teacher = f.teacher(s, name, n, reading=said, email=f"t{n}@example.com", email_opt_in=True)
            f.shift(s, room, teacher, dt.date(2026, 12, n), now=dt.datetime(2026, 11, 1, tzinfo=dt.UTC))
    kept = ("teacher_contacts", "shifts", "classrooms")
    before, then = _a_new_column_keeps_every_row(db, "teachers", "position", "0016_publication_pages", kept)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    with db.write() as s:
        assert [t.name for t in rules.list_teachers(s)] == ["伊藤", "佐藤", "中村"]  # by reading until moved
        order.move_to(s, rules.teacher_by_name(s, "中村").id, 1)
    with db.read() as s:
        assert [t.name for t in rules.list_teachers(s)] == ["中村", "伊藤", "佐藤"]

    _downgrade(db, "0016_publication_pages")  # and back: the rows as they were at 0016, but for the moves' edit time
    assert _table_rows(db, kept) == before[:len(kept)]
    assert "position" not in [c["name"] for c in inspect(db.engine).get_columns("teachers")]
    with db.read() as s:
        back = [tuple(r) for r in s.execute(text("SELECT id, name, reading, active, erased_at, created_at"
                                                 " FROM teachers ORDER BY 1"))]
    assert back == [tuple(r[then.index(c)] for c in ("id", "name", "reading", "active", "erased_at", "created_at"))
                    for r in before[-1][1]]


@pytest.mark.backends("sqlite", "postgresql")
def test_0018_gives_classrooms_closed_days_and_keeps_every_row(db: Database, tmp_path: Path) -> None:
    """A database at 0017 with classrooms, teachers, shifts and a publication: every row stays as it was,
    each classroom starts with no marks (its closed days are the holidays) and can be given some; going
    back drops only the new table."""
    from core.publication import publish
    from core.publication.image_store import ImageStore
    from core.roster import closed_days
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0017 with its rows
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        f.classroom(s, "駅前")
        for n, name in enumerate(("佐藤", "鈴木"), start=1):
            f.shift(s, room, f.teacher(s, name, n), dt.date(2026, 12, n + 2), now=now)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        room_id = room.id
    _downgrade(db, "0017_teacher_position")
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "shift_revisions", "publications", "deliveries")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("classroom_closed_days")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    with db.read() as s:
        assert list(s.execute(text("SELECT * FROM classroom_closed_days")).all()) == []
        assert [d.day for d in closed_days.read_month(s, room_id, 2026, 11).values()] == [
            dt.date(2026, 11, 3), dt.date(2026, 11, 23)]
    with db.write() as s:
        closed_days.mark_closed(s, room_id, dt.date(2026, 12, 29), "年末")
        closed_days.mark_open(s, room_id, dt.date(2026, 11, 23))
    with db.read() as s:
        assert [d.day for d in closed_days.read_month(s, room_id, 2026, 11).values()] == [dt.date(2026, 11, 3)]

    _downgrade(db, "0017_teacher_position")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("classroom_closed_days")
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0019_gives_teachers_weekly_patterns_and_keeps_every_row(db: Database) -> None:
    """A database at 0018 with classrooms, teachers, shifts and a closed day: every row stays, no teacher has a
    pattern until given one, and going back drops only the new table."""
    from core.roster import closed_days, patterns
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0018 with its rows
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1)
        f.shift(s, room, teacher, dt.date(2026, 12, 3), now=now)
        closed_days.mark_closed(s, room.id, dt.date(2026, 12, 29), "年末")
        room_id, teacher_id = room.id, teacher.id
    _downgrade(db, "0018_closed_days")
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "shift_revisions", "classroom_closed_days")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("weekly_patterns")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    with db.write() as s:
        assert patterns.teacher_patterns(s, teacher_id) == []
        patterns.set_teacher_patterns(s, teacher_id, [patterns.Pattern(teacher_id, room_id, 1, dt.time(17),
                                                                       dt.time(21), dt.date(2026, 12, 1))])
    _downgrade(db, "0018_closed_days")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("weekly_patterns")
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0020_gives_classrooms_lesson_slots_and_keeps_every_row(db: Database) -> None:
    """A database at 0019 with classrooms, shifts, a closed day and a weekly pattern: every row stays, no
    classroom has slots until given some, and going back drops only the new table."""
    from core.roster import closed_days, lesson_slots, patterns
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0019 with its rows
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1)
        f.shift(s, room, teacher, dt.date(2026, 12, 3), now=now)
        closed_days.mark_closed(s, room.id, dt.date(2026, 12, 29), "年末")
        patterns.set_teacher_patterns(s, teacher.id, [patterns.Pattern(teacher.id, room.id, 1, dt.time(17),
                                                                       dt.time(21), dt.date(2026, 12, 1))])
        room_id = room.id
    _downgrade(db, "0019_weekly_patterns")
    kept = ("classrooms", "teachers", "shifts", "shift_revisions", "classroom_closed_days", "weekly_patterns")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("lesson_slots")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    with db.write() as s:
        assert lesson_slots.classroom_slots(s, room_id) == []
        lesson_slots.add_slot(s, room_id, lesson_slots.LessonSlot("1限", dt.time(16, 50), dt.time(18, 10)))
    _downgrade(db, "0019_weekly_patterns")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("lesson_slots")
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")  # the columns and the table are added in place on both
def test_0021_adds_the_relay_s_uploads_and_who_made_an_attempt_and_keeps_every_row(db: Database) -> None:
    """A database at 0020 with a sent reminder and its attempt: every row stays as it was, the attempt
    was this app's (via NULL), nothing was handed to a relay; going back drops only what 0021 added."""
    from alembic import command

    from tests.linefixtures import make_reminders

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    [delivery_id] = make_reminders(db, 1, now=now)
    with db.write() as s:
        s.execute(text("INSERT INTO delivery_attempts (delivery_id, number, started_at, outcome, http_status) "
                       "VALUES (:d, 1, :at, 'sent', 200)"), {"d": delivery_id, "at": now.replace(tzinfo=None)})
    config = migrate.alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0020_lesson_slots")
    kept = ("deliveries", "delivery_attempts", "shifts", "teachers")
    before = _table_rows(db, kept)
    assert "relay_uploads" not in inspect(db.engine).get_table_names()

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    with db.read() as s:
        columns = ", ".join(c["name"] for c in inspect(db.engine).get_columns("delivery_attempts") if c["name"] != "via")
        attempts = [tuple(r) for r in s.execute(text(f"SELECT {columns} FROM delivery_attempts ORDER BY 1"))]
        via = list(s.execute(text("SELECT via FROM delivery_attempts")).scalars())
        uploads = s.execute(text("SELECT count(*) FROM relay_uploads")).scalar()
    assert [r for r in _table_rows(db, kept) if r[0] != "delivery_attempts"] == [r for r in before
                                                                               if r[0] != "delivery_attempts"]
    assert attempts == dict(before)["delivery_attempts"] and via == [None] and uploads == 0

    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0020_lesson_slots")
    assert _table_rows(db, kept) == before
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0022_adds_cover_requests_and_keeps_every_row(db: Database) -> None:
    """A database at 0021 with teachers, shifts and a reminder: every row stays as it was, the three cover
    tables are new and empty and take a request; going back drops them and nothing else."""
    from core.outbox import queue
    from core.roster import cover
    from core.store.models import DeliveryKind, ShiftStatus
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0021 with its rows
        room = f.classroom(s)
        teachers = [f.teacher(s, name, n) for n, name in enumerate(("中村", "伊藤"), start=1)]
        shift = f.shift(s, room, teachers[0], dt.date(2026, 12, 3), now=now, status=ShiftStatus.CONFIRMED)
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="shift_reminder:shift:1:v1", due_at=now, now=now,
                      teacher_id=teachers[0].id, subject_type="shift", subject_id=shift.id, subject_version=1)
    kept = ("teachers", "teacher_contacts", "shifts", "shift_revisions", "classrooms", "deliveries")
    tables = ("cover_requests", "cover_request_steps", "cover_volunteers")
    _downgrade(db, "0021_relay_uploads")
    before = _table_rows(db, kept)
    assert not set(tables) & set(inspect(db.engine).get_table_names())
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    assert _table_rows(db, tables) == [(t, []) for t in tables]
    with db.read() as s:
        assert s.execute(text("SELECT seq FROM changes WHERE topic = 'cover_requests'")).scalar_one() == 0
    with db.write() as s:
        request = cover.ask(s, shift.id, teachers[0].id, now=now, reason="熱")
        cover.volunteer(s, request.id, teachers[1].id, now=now)
    with db.read() as s:
        assert [(v.teacher_name, v.free) for v in cover.requests(s)[0].volunteers] == [("伊藤", True)]

    _downgrade(db, "0021_relay_uploads")
    assert _table_rows(db, kept) == before
    assert not set(tables) & set(inspect(db.engine).get_table_names())
    with db.read() as s:
        assert "cover_requests" not in set(s.execute(text("SELECT topic FROM changes")).scalars())
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0023_adds_availability_requests_and_keeps_every_row(db: Database) -> None:
    """A database at 0022 with teachers, contacts, shifts and a delivery: every row stays as it was, the
    availability tables come empty and take a request, answers and a correction; going back drops
    them and nothing else."""
    from core.outbox import queue
    from core.roster import availability
    from core.roster.availability_text import NO, YES, DayAnswer
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0022 with its rows
        room = f.classroom(s)
        for n, name in enumerate(("中村", "伊藤"), start=1):
            teacher = f.teacher(s, name, n, email=f"t{n}@example.com", email_opt_in=True)
            shift = f.shift(s, room, teacher, dt.date(2026, 12, n), now=now)
            queue.enqueue(s, kind="shift_reminder", dedup=f"test:{n}", due_at=now, now=now, recipient=f"U{n:032x}",
                          teacher_id=teacher.id, classroom_id=room.id, subject_type="shift", subject_id=shift.id,
                          subject_version=1)
        room_id = room.id
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "deliveries")
    new = ("availability_requests", "availability_asked", "availability_answers")
    _downgrade(db, "0022_cover_requests")
    before = _table_rows(db, kept)
    assert not any(inspect(db.engine).has_table(t) for t in new)
    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    assert _table_rows(db, new) == [(t, []) for t in new]
    with db.read() as s:  # other processes hear answers arrive through their counter
        assert s.execute(text("SELECT seq FROM changes WHERE topic = 'availability'")).scalar_one() == 0
    with db.write() as s:
        request = availability.ask(s, room_id, 2026, 12, dt.date(2026, 11, 20), [1, 2], now=now)
        availability.record(s, request, 1, [DayAnswer(dt.date(2026, 12, 1), YES)], source="text", at=now)
        availability.record(s, request, 1, [DayAnswer(dt.date(2026, 12, 1), NO)], source="buttons",
                            at=now + dt.timedelta(minutes=5))
    with db.read() as s:
        [first, second] = availability.answers(s, request.id)
        assert first.days == {dt.date(2026, 12, 1): DayAnswer(dt.date(2026, 12, 1), NO)} and first.corrections == 1
        assert not second.answered

    _downgrade(db, "0022_cover_requests")
    assert _table_rows(db, kept) == before
    assert not any(inspect(db.engine).has_table(t) for t in new)
    with db.read() as s:
        assert s.execute(text("SELECT count(*) FROM changes WHERE topic = 'availability'")).scalar_one() == 0
    migrate.upgrade(db)


def _memberships(db: Database) -> set[tuple[str, str]]:
    with db.read() as s:
        return {(room, teacher) for room, teacher in s.execute(text(
            "SELECT c.name, t.name FROM classroom_teachers m JOIN classrooms c ON c.id = m.classroom_id"
            " JOIN teachers t ON t.id = m.teacher_id"))}


@pytest.mark.backends("sqlite", "postgresql")
def test_0024_makes_teachers_members_where_they_work_and_everywhere_without_shifts(db: Database) -> None:
    """A database at 0023 with two classrooms: each teacher belongs where they have a shift (canceled too),
    a teacher without any shift everywhere, an erased one nowhere; every other row stays, and going back
    drops only the new table."""
    from core.roster import membership, rules
    from core.store.models import ShiftStatus
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0023 with its rows
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato, ito, ueda, gone = (f.teacher(s, name, n) for n, name in enumerate(("佐藤", "伊藤", "上田", "消"), 1))
        f.shift(s, main, sato, dt.date(2026, 12, 3), now=now)
        f.shift(s, main, ito, dt.date(2026, 12, 3), now=now)
        f.shift(s, north, ito, dt.date(2026, 12, 4), now=now, status=ShiftStatus.CANCELED)
        f.shift(s, north, gone, dt.date(2026, 10, 4), now=now)
        rules.erase_teacher(s, gone.id, now=now)
        sato_id, north_id = sato.id, north.id
        assert ueda.id
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "shift_revisions", "cover_requests")
    _downgrade(db, "0023_availability")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("classroom_teachers")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    assert _memberships(db) == {("本校", "佐藤"), ("本校", "伊藤"), ("北校", "伊藤"), ("本校", "上田"), ("北校", "上田")}
    with db.write() as s:
        assert membership.join(s, north_id, sato_id, now=now)

    _downgrade(db, "0023_availability")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("classroom_teachers")
    migrate.upgrade(db)


@pytest.mark.backends("sqlite", "postgresql")
def test_0024_keeps_every_teacher_of_a_single_classroom_in_it(db: Database) -> None:
    """With one classroom nobody disappears from its grid: every teacher belongs to it, shifts or not."""
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:
        main = f.classroom(s, "本校")
        sato, _ito = f.teacher(s, "佐藤", 1), f.teacher(s, "伊藤", 2)
        f.shift(s, main, sato, dt.date(2026, 12, 3), now=now)
    _downgrade(db, "0023_availability")
    migrate.upgrade(db)
    assert _memberships(db) == {("本校", "佐藤"), ("本校", "伊藤")}


@pytest.mark.backends("sqlite", "postgresql")
def test_0025_gives_cover_requests_a_decline_reason_and_keeps_every_row(db: Database) -> None:
    """A database at 0024 with cover requests, open and declined, and their steps: every row stays as it
    was, each request starts without the manager's reason and a decline can give one; going back drops
    the column and nothing else."""
    from core.roster import cover
    from core.store.models import ShiftStatus
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0024 with its rows
        room = f.classroom(s)
        sato, ito = f.teacher(s, "佐藤", 1), f.teacher(s, "伊藤", 2)
        first = f.shift(s, room, sato, dt.date(2026, 12, 3), now=now, status=ShiftStatus.CONFIRMED)
        second = f.shift(s, room, ito, dt.date(2026, 12, 4), now=now, status=ShiftStatus.CONFIRMED)
        asked = cover.ask(s, first.id, sato.id, now=now, reason="通院")
        cover.decline(s, cover.ask(s, second.id, ito.id, now=now).id, now=now)
        asked_id = asked.id
    kept = ("shifts", "cover_request_steps", "teachers")
    before, _then = _a_new_column_keeps_every_row(db, "cover_requests", "decline_reason", "0024_classroom_teachers",
                                                  kept)
    with db.write() as s:
        cover.decline(s, asked_id, now=now, reason="  代わりの先生が\nいません ")
    with db.read() as s:
        assert cover.request(s, asked_id).decline_reason == "代わりの先生が いません"

    _downgrade(db, "0024_classroom_teachers")  # and back: the rows as they were, but for the decline since
    assert _table_rows(db, kept[:1]) == before[:1]
    assert "decline_reason" not in [c["name"] for c in inspect(db.engine).get_columns("cover_requests")]
    migrate.upgrade(db)
