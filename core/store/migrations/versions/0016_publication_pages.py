"""A publication's pages for phones: `publications.pages_json`, optional.

The LINE group receives the month as portrait pages (core/publication/month_pages.py) besides the wide
grid kept for printing. Every publication keeps every column; one published before has no pages and
goes out as it did, with the grid. The column is added in place: rebuilding `publications` (batch
mode) would drop a table that deliveries point at, which foreign_keys=ON refuses. Going down drops it
again, in place on SQLite (3.35+) too.

Revision ID: 0016_publication_pages
Revises: 0015_teacher_reading
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016_publication_pages'
down_revision = '0015_teacher_reading'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('publications', sa.Column('pages_json', sa.Text(), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE publications DROP COLUMN pages_json')
    else:
        op.drop_column('publications', 'pages_json')
