"""Copying the local SQLite file's data up to a server database, once, all or nothing.

One read snapshot of the source, one transaction on the target: every table in foreign-key order,
then each table's row count compared with the source's before the commit, so a copy that does not
add up leaves the server as it was. A target that already holds data is refused (two rosters merged
by accident cannot be told apart again). The target's database identity is replaced by the source's,
so retry keys stay the same and a delivery already sent from this computer is not sent twice.
On PostgreSQL each id sequence is moved past the copied ids, or the next insert would collide.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import Integer, Table, delete, func, insert, select, text
from sqlalchemy.orm import Session

from core.errors import DatabaseError
from core.store.db import Database
from core.store.migrate import current_revision
from core.store.models import Base, ChangeCounter, DatabaseIdentity, SenderRecord
from core.texts import t

log = logging.getLogger(__name__)
CHUNK = 1000
# Made by the migration that creates every database; replaced by the source's, not counted as data.
_REPLACED = DatabaseIdentity.__tablename__
# Who is sending right now from the local file is not data: the senders on the server register themselves.
# Nor are the change counters: each database counts its own commits, and only the differences matter.
_SKIPPED = frozenset({SenderRecord.__tablename__, ChangeCounter.__tablename__})


@dataclass(frozen=True)
class CopyReport:
    rows: dict[str, int]  # table → rows copied (and verified)

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def tables() -> list[Table]:
    """The tables copied, parents before children."""
    return [table for table in Base.metadata.sorted_tables if table.name not in _SKIPPED]


def copy_up(source: Database, target: Database) -> CopyReport:
    """Copy every row of `source` into `target` (both at the same schema revision) in one transaction."""
    source_revision, target_revision = current_revision(source), current_revision(target)
    if source_revision != target_revision:
        raise DatabaseError(t("copyup.schema_differs", source=str(source_revision), target=str(target_revision)))
    copied: dict[str, int] = {}
    with source.read() as reading, target.write() as writing:
        for table in tables():
            if table.name != _REPLACED and writing.execute(select(func.count()).select_from(table)).scalar_one():
                raise DatabaseError(t("copyup.target_has_data", table=table.name))
        for table in tables():
            if table.name == _REPLACED:
                writing.execute(delete(table))
            expected = reading.execute(select(func.count()).select_from(table)).scalar_one()
            result = reading.execute(select(table).order_by(*table.primary_key.columns))
            while chunk := result.mappings().fetchmany(CHUNK):
                writing.execute(insert(table), [dict(row) for row in chunk])
            count = writing.execute(select(func.count()).select_from(table)).scalar_one()
            if count != expected:
                raise DatabaseError(t("copyup.count_mismatch", table=table.name, copied=count, expected=expected))
            copied[table.name] = int(count)
        if writing.get_bind().dialect.name == "postgresql":
            for table in tables():
                _reset_sequence(writing, table)
    log.info("copied %d rows up to the server database", sum(copied.values()))
    return CopyReport(copied)


def _reset_sequence(session: Session, table: Table) -> None:
    keys = list(table.primary_key.columns)
    if len(keys) != 1 or not isinstance(keys[0].type, Integer):
        return
    column = keys[0].name
    # setval(…, 1, false) on an empty table: the next id is 1, as on a fresh database.
    session.execute(
        text(f"SELECT setval(pg_get_serial_sequence(:table, :column), COALESCE(MAX({column}), 1), "
             f"MAX({column}) IS NOT NULL) FROM {table.name}"),
        {"table": table.name, "column": column},
    )
