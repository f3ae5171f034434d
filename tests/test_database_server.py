"""The desktop app on a database server: the chosen URL, its check, the copy up, backups, reconnecting."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from core.errors import DatabaseError
from core.outbox import queue
from core.setup.database import SchemaState, ServerAddress, check_server, compare_schema
from core.store import copy_up as copying
from core.store import migrate
from core.store.bootstrap import open_database
from core.store.db import Database, ServerUnreachable
from core.store.models import Classroom, DatabaseIdentity, Delivery, DeliveryKind, Shift, Teacher
from core.store.paths import DataPaths, read_database_choice, write_database_choice
from core.store.secrets import DATABASE_PASSWORD, set_secret
from tests import factories
from tests.pgserver import PgServer


def address_of(url: str) -> ServerAddress:
    found = ServerAddress.from_url(url)
    assert found is not None
    return found


# ----- where the chosen URL is kept -----


def test_the_chosen_server_is_read_from_database_json_and_the_environment_still_wins(
        paths: DataPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    assert paths.database_url() == paths.local_database_url()
    server = ServerAddress("db.example", 5433, "chain", "manager").url()
    write_database_choice(paths, server)
    assert paths.database_url() == server == "postgresql+psycopg://manager@db.example:5433/chain"
    assert paths.database_url_is_chosen()
    assert not list(paths.home.glob(".database-*"))  # the atomic write left no temporary file behind
    monkeypatch.setenv("SHIFTCAST_DB_URL", "sqlite:///elsewhere.db")
    assert paths.database_url() == "sqlite:///elsewhere.db"
    assert not paths.database_url_is_chosen()
    monkeypatch.delenv("SHIFTCAST_DB_URL")
    write_database_choice(paths, None)
    assert paths.database_url() == paths.local_database_url()


def test_a_damaged_database_json_means_the_local_file(paths: DataPaths) -> None:
    paths.database_config.write_text("{not json", encoding="utf-8")
    assert read_database_choice(paths) is None
    assert paths.database_url() == paths.local_database_url()


def test_the_password_comes_from_the_keyring_and_never_into_the_url(paths: DataPaths) -> None:
    url = ServerAddress("db.example", 5432, "chain", "manager").url()
    write_database_choice(paths, url)
    set_secret(DATABASE_PASSWORD, "s3cret")
    assert "s3cret" not in paths.database_config.read_text(encoding="utf-8")
    db = Database(paths.database_url(), password="s3cret")
    try:
        assert db.connect_url.password == "s3cret"
        assert "s3cret" not in db.url
    finally:
        db.dispose()


def test_open_database_connects_to_the_chosen_server_with_the_keyrings_password(
        paths: DataPaths, pg_server: PgServer) -> None:
    url = pg_server.create_database()
    try:
        pg_server.admin("CREATE ROLE keyring_user LOGIN PASSWORD 'from-keyring' SUPERUSER")
        write_database_choice(paths, ServerAddress(pg_server.host, pg_server.port, address_of(url).database,
                                                   "keyring_user").url())
        set_secret(DATABASE_PASSWORD, "from-keyring")
        db = open_database(paths)
        try:
            assert db.connect_url.password == "from-keyring"
            assert migrate.current_revision(db) == migrate.HEAD_REVISION
        finally:
            db.dispose()
    finally:
        pg_server.drop_database(url)
        pg_server.admin("DROP ROLE IF EXISTS keyring_user")


# ----- the connection check -----


def test_schema_versions_compare_older_current_newer_and_unknown() -> None:
    assert compare_schema(None, head="0008_senders") is SchemaState.EMPTY
    assert compare_schema("0008_senders", head="0008_senders") is SchemaState.CURRENT
    assert compare_schema("0005_database_identity", head="0008_senders") is SchemaState.OLDER
    assert compare_schema("0009_later", head="0008_senders") is SchemaState.NEWER
    assert compare_schema("f3e1c0ffee", head="0008_senders") is SchemaState.NEWER


def test_the_check_says_current_empty_older_and_newer(pg_server: PgServer, pg_url: str, pg_empty_url: str) -> None:
    current = check_server(address_of(pg_url), None)
    assert current.state is SchemaState.CURRENT and current.usable
    assert "ready" in str(current.message)
    empty = check_server(address_of(pg_empty_url), None)
    assert empty.state is SchemaState.EMPTY and empty.usable
    db = Database(pg_url)
    try:
        with db.write() as session:
            session.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
        newer = check_server(address_of(pg_url), None)
        assert newer.state is SchemaState.NEWER and not newer.usable
        assert "9999_future" in str(newer.message)
        with db.write() as session:
            session.execute(text("UPDATE alembic_version SET version_num = '0007_pairing_and_acks'"))
        older = check_server(address_of(pg_url), None)
        assert older.state is SchemaState.OLDER and older.usable and older.revision == "0007_pairing_and_acks"
    finally:
        db.dispose()


def test_the_check_says_unreachable_unknown_user_and_missing_database(pg_server: PgServer) -> None:
    from tests.pgserver import free_port

    down = check_server(ServerAddress("127.0.0.1", free_port(), "x", "shiftcast"), None)
    assert down.state is SchemaState.UNREACHABLE and not down.reachable
    assert "cannot be reached" in str(down.message)
    stranger = check_server(ServerAddress(pg_server.host, pg_server.port, "postgres", "nobody_here"), None)
    assert stranger.state is SchemaState.AUTH_REFUSED
    missing = check_server(ServerAddress(pg_server.host, pg_server.port, "no_such_db", "shiftcast"), None)
    assert missing.state is SchemaState.NO_DATABASE


# ----- copying the local file up -----


def populated_local(paths: DataPaths, now: dt.datetime) -> Database:
    local = open_database(paths)
    with local.write() as s:
        room = factories.classroom(s)
        people = [factories.teacher(s, name=f"講師{n}", n=n) for n in range(1, 6)]
        for n, who in enumerate(people):
            factories.shift(s, room, who, dt.date(2026, 12, 2 + n), now=now)
            queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"r{n}", due_at=now, now=now)
    return local


def test_copy_up_moves_every_row_keeps_the_identity_and_resets_sequences(
        paths: DataPaths, pg_url: str, now: dt.datetime) -> None:
    local = populated_local(paths, now)
    server = Database(pg_url)
    try:
        report = copying.copy_up(local, server)
        assert report.rows["teachers"] == 5 and report.rows["shifts"] == 5 and report.rows["deliveries"] == 5
        for model in (Classroom, Teacher, Shift, Delivery):
            with local.read() as a, server.read() as b:
                assert a.execute(select(func.count()).select_from(model)).scalar_one() == \
                    b.execute(select(func.count()).select_from(model)).scalar_one()
        with local.read() as a, server.read() as b:
            assert a.execute(select(DatabaseIdentity.identity)).scalar_one() == \
                b.execute(select(DatabaseIdentity.identity)).scalar_one()
            names = sorted(b.execute(select(Teacher.name)).scalars(), key=str)
        assert names == sorted(f"講師{n}" for n in range(1, 6))
        with server.write() as s:  # the sequence moved past the copied ids: a new row does not collide
            new = factories.teacher(s, name="新人", n=99)
        assert new.id == 6
    finally:
        local.dispose()
        server.dispose()


def test_copy_up_refuses_a_target_with_data_and_changes_nothing(paths: DataPaths, pg_url: str, now: dt.datetime) -> None:
    local = populated_local(paths, now)
    server = Database(pg_url)
    try:
        with server.write() as s:
            factories.classroom(s, name="本部")
        with pytest.raises(DatabaseError, match="already has data"):
            copying.copy_up(local, server)
        with server.read() as s:
            assert s.execute(select(func.count()).select_from(Teacher)).scalar_one() == 0
    finally:
        local.dispose()
        server.dispose()


def test_copy_up_is_all_or_nothing_when_a_table_fails_midway(
        paths: DataPaths, pg_url: str, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    local = populated_local(paths, now)
    server = Database(pg_url)
    real = copying.tables

    def then_a_broken_table():
        found = real()
        # Delivery rows copied twice: the primary key refuses the second, after other tables went in.
        return [*found, next(t for t in found if t.name == "deliveries")]

    monkeypatch.setattr(copying, "tables", then_a_broken_table)
    try:
        with pytest.raises(Exception):  # noqa: B017 - the database's own refusal, whichever type
            copying.copy_up(local, server)
        with server.read() as s:
            assert s.execute(select(func.count()).select_from(Classroom)).scalar_one() == 0
            assert s.execute(select(func.count()).select_from(Delivery)).scalar_one() == 0
    finally:
        local.dispose()
        server.dispose()


# ----- backups before migrations -----


def stamped_older(url: str) -> Database:
    """A server database one migration behind head, as an older Shiftcast left it."""
    db = Database(url)
    migrate.upgrade(db, revision="0007_pairing_and_acks")
    return db


def test_an_upgrade_on_postgresql_dumps_first_with_pg_dump(pg_empty_url: str, tmp_path: Path) -> None:
    db = stamped_older(pg_empty_url)
    try:
        backup = migrate.upgrade(db, backup_dir=tmp_path / "backups")
        assert backup is not None and backup.suffix == ".pgdump" and backup.stat().st_size > 0
        assert backup.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
        assert migrate.current_revision(db) == migrate.HEAD_REVISION
    finally:
        db.dispose()


def test_without_pg_dump_the_upgrade_says_the_servers_backups_apply(
        pg_empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    db = stamped_older(pg_empty_url)
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    try:
        with caplog.at_level("WARNING", logger="core.store.migrate"):
            backup = migrate.upgrade(db, backup_dir=tmp_path / "backups")
        assert backup is None
        assert "the database server's own backups apply" in caplog.text
        assert migrate.current_revision(db) == migrate.HEAD_REVISION
        assert not list((tmp_path / "backups").glob("*")) if (tmp_path / "backups").exists() else True
    finally:
        db.dispose()


def test_a_failing_pg_dump_stops_the_upgrade(pg_empty_url: str, tmp_path: Path) -> None:
    fake = tmp_path / "pg_dump"
    fake.write_text("#!/bin/sh\necho 'pg_dump: error: server version mismatch' >&2\nexit 1\n")
    fake.chmod(0o755)
    db = stamped_older(pg_empty_url)
    try:
        with pytest.raises(DatabaseError, match="server version mismatch"):
            migrate.dump_postgresql(db, tmp_path / "backups", "0007_pairing_and_acks", pg_dump=str(fake))
        assert not list((tmp_path / "backups").glob("*.pgdump"))
    finally:
        db.dispose()


# ----- a server that goes away and comes back -----


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A cluster of this test's own, to stop and start again without disturbing the session's."""
    from tests import pgserver

    reason = pgserver.available()
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason)
        pytest.skip(reason)
    server = PgServer().start()
    yield server
    server.stop()


def test_edits_are_refused_while_the_server_is_down_and_work_again_after(own_server: PgServer) -> None:
    url = own_server.create_database(template=PgServer.MIGRATED)
    db = Database(url)
    try:
        with db.write() as s:
            factories.classroom(s, name="本校")
        assert db.ping()
        own_server.pause()
        assert not db.ping()
        with pytest.raises(ServerUnreachable, match="cannot be reached") as refused, db.write() as s:
            factories.classroom(s, name="分校")
        assert refused.value.code == "db.unreachable"
        with pytest.raises(ServerUnreachable), db.read() as s:
            s.execute(select(Classroom.name)).all()
        own_server.resume()
        assert db.ping()  # pool_pre_ping replaced the dropped connections
        with db.write() as s:
            factories.classroom(s, name="分校")
        with db.read() as s:
            assert sorted(s.execute(select(Classroom.name)).scalars()) == ["分校", "本校"]
    finally:
        db.dispose()
