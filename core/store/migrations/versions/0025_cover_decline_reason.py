"""The manager's reason for declining a cover request: `cover_requests.decline_reason`, optional.

The teacher who asked is told of a decline with the reason the manager typed, if any
(core/sending/kinds/cover_declined.py). Every request keeps every column and starts without one: the
requests declined before said no reason. The column is added in place, as 0015 added the teachers'
reading: rebuilding `cover_requests` (batch mode) would drop a table its steps and volunteers point at.
Going down drops it again, in place on SQLite (3.35+) too.

Revision ID: 0025_cover_decline_reason
Revises: 0024_classroom_teachers
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0025_cover_decline_reason'
down_revision = '0024_classroom_teachers'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('cover_requests', sa.Column('decline_reason', sa.Text(), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE cover_requests DROP COLUMN decline_reason')
    else:
        op.drop_column('cover_requests', 'decline_reason')
