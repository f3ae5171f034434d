"""The throwaway PostgreSQL cluster the backend tests run on (tests/pgserver.py) and its fixtures."""

from __future__ import annotations

from sqlalchemy import text

from core.store import migrate
from core.store.db import Database
from tests.pgserver import PgServer


def test_a_migrated_database_is_at_head(pg_url: str) -> None:
    db = Database(pg_url)
    try:
        assert migrate.current_revision(db) == migrate.HEAD_REVISION
        assert db.engine.dialect.name == "postgresql"
    finally:
        db.dispose()


def test_an_empty_database_has_no_tables(pg_empty_url: str) -> None:
    db = Database(pg_empty_url)
    try:
        with db.read() as session:
            assert session.execute(text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).scalar() == 0
    finally:
        db.dispose()


def test_each_test_gets_its_own_database(pg_server: PgServer) -> None:
    first = pg_server.create_database(template=PgServer.MIGRATED)
    second = pg_server.create_database(template=PgServer.MIGRATED)
    try:
        assert first != second
        assert first.startswith("postgresql+psycopg://")
    finally:
        pg_server.drop_database(first)
        pg_server.drop_database(second)
