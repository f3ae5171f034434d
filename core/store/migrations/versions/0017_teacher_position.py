"""A teacher's place in the manager's own order: `teachers.position`, optional.

Every teacher keeps every column and starts without a place, so they are listed by reading as before
until the manager moves one (core/roster/reading.py has the order). The column is added in place:
rebuilding `teachers` (batch mode) would drop a table that shifts, deliveries and contacts point at,
which foreign_keys=ON refuses. Going down drops it again, in place on SQLite (3.35+) too.

Revision ID: 0017_teacher_position
Revises: 0016_publication_pages
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017_teacher_position'
down_revision = '0016_publication_pages'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('teachers', sa.Column('position', sa.Integer(), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE teachers DROP COLUMN position')
    else:
        op.drop_column('teachers', 'position')
