"""A teacher's reading (ふりがな): `teachers.reading`, optional, which teachers are listed by.

Every teacher keeps every column and starts without a reading, so they are listed by name as before
until the manager gives one (core/roster/reading.py has the order). The column is added in place:
rebuilding `teachers` (batch mode) would drop a table that shifts, deliveries and contacts point at,
which foreign_keys=ON refuses. Going down drops it again, in place on SQLite (3.35+) too.

Revision ID: 0015_teacher_reading
Revises: 0014_delivery_subjects
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015_teacher_reading'
down_revision = '0014_delivery_subjects'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('teachers', sa.Column('reading', sa.String(length=200), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE teachers DROP COLUMN reading')
    else:
        op.drop_column('teachers', 'reading')
