"""Alembic environment. Shiftcast runs migrations from code (core/store/migrate.py), passing a connection."""

from __future__ import annotations

from alembic import context

from core.store.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through core.store.migrate, which passes a connection")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot ALTER most things in place; batch mode rebuilds tables with their rows.
    render_as_batch=True,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
